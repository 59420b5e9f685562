#pragma once
// The CUDA backend's engine compiled for Thrust's OpenMP device system: the same engine and
// island code, each island run by a team of OpenMP threads with real barriers, so that machines
// without a GPU test it against the CPU backend.
#include <cstdint>
#include <limits>

#include "gpuga/engine.hpp"

namespace gpuga {

// `stage_limit`: the most bytes an island is staged in (larger ones run from their home, as on a
// GPU whose shared memory they outgrow); unlimited by default. `lane_width`: the threads of a tile
// that repairs or searches a child (1: a thread alone, as on a CPU; up to 32, a warp's).
std::unique_ptr<Engine> make_device_engine_omp(
    const Grid& puzzle, const EngineParams& params, std::uint32_t slots = 1,
    std::uint64_t stage_limit = std::numeric_limits<std::uint64_t>::max(), std::uint32_t lane_width = 1);

}  // namespace gpuga
