#pragma once
// Choosing a backend: auto takes CUDA when this build has it and a device is present, else the
// CPU (the front end says why); cuda without a device is refused with a hint.
#include <memory>
#include <string>

#include "gpuga/engine.hpp"
#include "gpuga/run_plan.hpp"

namespace gpuga {

// Resolves --backend auto to cpu or cuda (throws InputError for cuda when none is usable). When
// auto falls back to the CPU, `why_cpu` (if given) says why, for the front end to show.
Backend resolve_backend(Backend requested, int device, std::string* why_cpu = nullptr);

// An engine for `slots` runs of the plan at once on its backend (a growing engine when its
// islands grow), of `here`'s islands when this process holds only some of each run's (MPI).
std::unique_ptr<Engine> make_engine(const RunPlan& plan, const Grid& puzzle, std::uint32_t slots = 1,
                                    const EngineParams* here = nullptr);

}  // namespace gpuga
