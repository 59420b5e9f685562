// The backends' registry: each backend's probe (plain data for plan()) and its engine. The only
// file of the host that knows which backends this build has.
#include "gpuga/backend.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

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

namespace {

// One of several ranks on a node: the device it takes where --device was not given.
void share_devices(const RunOptions& o, const NodePlace& node, Target& t) {
  if (o.device || o.backend == Backend::Cpu) {
    t.rank_devices = o.device ? "--device " + std::to_string(*o.device) : "";
    return;
  }
  const int gpus = static_cast<int>(list_devices().devices.size());
  if (gpus == 0) return;  // the backend's choice says why (auto: the CPU; cuda: refused)
  t.device = rank_device(node.local_rank, gpus);
  t.rank_devices = "local rank % " + std::to_string(gpus);
  t.shared_devices = gpus;
}

}  // namespace

Target probe_target(const RunOptions& o, int box, bool many, std::uint32_t ranks, NodePlace node) {
  Target t;
  t.device = o.device.value_or(0);
  if (node.several) share_devices(o, node, t);
  t.backend = resolve_backend(o.backend.value_or(Backend::Auto), t.device, &t.why_cpu);
  t.box = box;
  t.many = many;
  t.ranks = std::max(ranks, 1u);
  const int threads = o.threads.value_or(0);
  const int all = node.several ? std::max(1, omp_get_num_procs() / std::max(node.local_ranks, 1))
                               : omp_get_max_threads();
  t.units = static_cast<std::uint32_t>(threads > 0 ? threads : all);
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

std::string shared_devices_news(const Target& t, const NodePlace& node) {
  if (t.shared_devices == 0) return "";
  const std::string gpus = std::to_string(t.shared_devices);
  return std::to_string(node.local_ranks) + " rank(s) on this node share " + gpus +
         " CUDA device(s): local rank k takes device k % " + gpus + " (--device to choose one)";
}

std::unique_ptr<Engine> make_engine(const RunPlan& plan, const Grid& puzzle, std::uint32_t slots,
                                    const EngineParams* here) {
  // Kept by a growing engine, which makes its later stages' engines when runs reach them.
  const auto one = [backend = plan.config.backend, device = plan.config.device,
                    threads = plan.config.threads, puzzle, slots](const EngineParams& p) -> std::unique_ptr<Engine> {
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
