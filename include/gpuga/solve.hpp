#pragma once
// One puzzle solved in one call, as `gpuga solve` does on one process: from options, a seed drawn
// if none was given, the backend chosen (auto: CUDA when a device is present) and the plan made
// for this puzzle's size (gpuga/run_plan.hpp); or from a plan made already. Propagation first
// when asked, then the run. A result that says solved has been verified against the givens and every unit (run_many
// checks it). gpuga solve (a puzzle at a time, with its MPI ranks and checkpoints through the
// hooks), Python and the example call it; puzzles side by side share an engine as batches do.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gpuga/driver.hpp"
#include "gpuga/sudoku/grid.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/run_plan.hpp"

namespace gpuga {

// The grid a run of `puzzle` starts from under `propagation`, and, when propagation completes it,
// the run's result instead (stop reason "propagation", 0 generations and evaluations, verified;
// its seconds the propagation's).
// A contradiction is the puzzle's having no solution: InputError naming `name`.
struct RunStart {
  Grid grid;
  std::optional<RunResult> result;
};
RunStart start_run(const Grid& puzzle, Propagation propagation, std::uint64_t seed,
                   const std::string& name);

struct Solution {
  RunResult result;
  RunConfig config;     // as it ran, every setting in effect: what outputs record
  std::string why_cpu;  // when auto fell back to the CPU, why (for the front end to say)
  double start_up = 0;  // seconds from the call to the run's start (propagation, the engine)
};

// What a front end may add around the run: all optional.
struct SolveHooks {
  RunObserver* observer = nullptr;  // sees every epoch and the result, as run_many's does
  Consensus* consensus = nullptr;   // processes that run one run together (host/mpi)
  // This process's islands of the run, when it holds only some, and how its engine joins the
  // others' (MPI ranks: Engine::link_ring).
  const EngineParams* islands_here = nullptr;
  std::function<std::unique_ptr<Engine>(std::unique_ptr<Engine>)> join;
  // The keeper of the run's checkpoints, given the grid the search starts from; or null.
  std::function<std::unique_ptr<RunKeeper>(const Grid& start)> keeper;
};

// `name` names the puzzle in messages (a propagation contradiction).
Solution solve(const Grid& puzzle, const RunPlan& plan, const SolveHooks& hooks,
               const std::string& name = "<puzzle>");
Solution solve(const Grid& puzzle, RunOptions options, RunObserver* observer = nullptr,
               const std::string& name = "<puzzle>");

}  // namespace gpuga
