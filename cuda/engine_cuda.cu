// The CUDA backend: the device engine of device_engine.inl, compiled for Thrust's CUDA system.
#include "device_engine.inl"

namespace gpuga {

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const GaParams& params,
                                         double rank_pressure, int device, std::uint32_t lanes) {
  return std::make_unique<DeviceEngine>(puzzle, params, rank_pressure, device, lanes);
}

}  // namespace gpuga
