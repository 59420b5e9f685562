#include "gpuga/backend.hpp"

#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {

Backend resolve_backend(Backend requested, int device, std::string* why_cpu) {
  if (requested == Backend::Cpu) return Backend::Cpu;
  const DeviceList list = list_devices();
  const int count = static_cast<int>(list.devices.size());
  if (requested == Backend::Cuda) {
    GPUGA_INPUT_CHECK(count > 0, "--backend cuda: " + list.reason +
                                     "; use --backend cpu (or auto) to run on the CPU");
    GPUGA_INPUT_CHECK(device < count, "--device " + std::to_string(device) + ": only " +
                                          std::to_string(count) + " CUDA device(s) present");
    GPUGA_INPUT_CHECK(!list.devices[device].busy,
                      "--device " + std::to_string(device) + " is busy (another process holds it "
                      "in exclusive mode); pick another --device or wait");
    return Backend::Cuda;
  }
  if (count > device && !list.devices[device].busy) return Backend::Cuda;
  if (why_cpu)
    *why_cpu = (count > device ? "CUDA device " + std::to_string(device) + " is busy"
                : count        ? "no CUDA device " + std::to_string(device)
                               : list.reason) + "; using the CPU backend";
  return Backend::Cpu;
}

std::unique_ptr<Engine> make_engine(Backend resolved, const Grid& puzzle,
                                    const EngineParams& params, const RunConfig& o,
                                    std::uint32_t slots) {
  const auto one = [=](const EngineParams& p) -> std::unique_ptr<Engine> {
#if defined(GPUGA_HAVE_CUDA)
    if (resolved == Backend::Cuda) return make_cuda_engine(puzzle, p, o.device, slots);
#else
    (void)resolved;  // resolve_backend gives Cpu in a build without CUDA
#endif
    return make_cpu_engine(puzzle, p, o.threads, slots);
  };
  const std::uint32_t length = o.stage_length();
  if (length == 0) return one(params);
  return make_growing_engine(one, o.stage_islands(params), puzzle, length);
}

}  // namespace gpuga
