#pragma once
// One puzzle solved in one call, as `gpuga solve` does on one process: a seed drawn if none was
// given, the options checked, the backend chosen (auto: CUDA when a device is present), the
// defaults resolved from the table for this puzzle's size, propagation first when asked, then the
// run. A result that says solved has been verified against the givens and every unit (run_many
// checks it). For programs, Python and the example; the command line adds MPI ranks,
// checkpoints and many puzzles at once around the same steps.
#include <string>

#include "gpuga/driver.hpp"
#include "gpuga/grid.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

struct Solution {
  RunResult result;
  RunConfig config;     // as it ran, every default resolved: what outputs record
  Backend backend = Backend::Cpu;
  std::string why_cpu;  // when auto fell back to the CPU, why (for the front end to say)
};

// `name` names the puzzle in messages (a propagation contradiction); `observer` sees every
// epoch and the result, as run_many's does (none: quiet).
Solution solve(const Grid& puzzle, RunConfig config, RunObserver* observer = nullptr,
               const std::string& name = "<puzzle>");

}  // namespace gpuga
