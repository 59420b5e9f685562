// The backends' registry: each backend's probe (plain data for plan()) and its engine. The only
// file of the host that knows which backends this build has.
#include "gpuga/backend.hpp"

#include <omp.h>

#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#if defined(GPUGA_HAVE_CUDA)
#include "gpuga/engine_cuda.hpp"
#endif

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

Target probe_target(const RunOptions& o, int box, bool many, std::uint32_t ranks) {
  Target t;
  t.device = o.device.value_or(0);
  t.backend = resolve_backend(o.backend.value_or(Backend::Auto), t.device, &t.why_cpu);
  t.box = box;
  t.many = many;
  t.ranks = std::max(ranks, 1u);
  const int threads = o.threads.value_or(0);
  t.units = static_cast<std::uint32_t>(threads > 0 ? threads : omp_get_max_threads());
#if defined(GPUGA_HAVE_CUDA)
  if (t.backend == Backend::Cuda) {
    const CudaProbe p = probe_cuda(box, t.device);
    t.units = p.multiprocessors;
    t.unit = p.multiprocessor;
    t.launch = p.launch;
    t.segments = p.segments;
  }
#endif
  return t;
}

std::unique_ptr<Engine> make_engine(const RunPlan& plan, const Grid& puzzle, std::uint32_t slots,
                                    const EngineParams* here) {
  // Kept by a growing engine, which makes its later stages' engines when runs reach them.
  const auto one = [backend = plan.config.backend, device = plan.config.device,
                    threads = static_cast<int>(plan.shape.units), puzzle,
                    slots](const EngineParams& p) -> std::unique_ptr<Engine> {
#if defined(GPUGA_HAVE_CUDA)
    if (backend == Backend::Cuda) return make_cuda_engine(puzzle, p, device, slots);
#else
    (void)backend;
    (void)device;
#endif
    return make_cpu_engine(puzzle, p, threads, slots);  // a build without CUDA plans cpu
  };
  const EngineParams& mine = here ? *here : plan.engine_params();
  if (!plan.grows()) return one(mine);
  return make_growing_engine(one, stages_of(plan, mine), puzzle, plan.config.grow_after);
}

}  // namespace gpuga
