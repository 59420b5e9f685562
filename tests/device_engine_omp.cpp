// Compiled with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (tests/CMakeLists.txt): the CUDA
// backend's engine and device system, with OpenMP teams in place of thread blocks.
#include "device_engine_omp.hpp"

#include "device_system.hpp"
#include "island_engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_device_engine_omp(const Grid& puzzle, const EngineParams& params,
                                               std::uint32_t slots, std::uint64_t stage_limit,
                                               std::uint32_t lane_width) {
  return make_island_engine(puzzle, params, device_system::System(0, stage_limit, lane_width), slots);
}

}  // namespace gpuga
