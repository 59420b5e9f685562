// Compiled with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (tests/CMakeLists.txt).
#include "device_engine_omp.hpp"

#include "device_engine.inl"

namespace gpuga {

std::unique_ptr<Engine> make_device_engine_omp(const Grid& puzzle, const GaParams& params,
                                               double rank_pressure, std::uint32_t lanes) {
  return std::make_unique<DeviceEngine>(puzzle, params, rank_pressure, 0, lanes);
}

}  // namespace gpuga
