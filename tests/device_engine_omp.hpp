#pragma once
// The CUDA backend's engine compiled for Thrust's OpenMP device system: the same engine and
// island code, each island run by a team of OpenMP threads with real barriers, so that machines
// without a GPU test it against the CPU backend.
#include "gpuga/engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_device_engine_omp(const Grid& puzzle, const EngineParams& params,
                                               std::uint32_t slots = 1);

}  // namespace gpuga
