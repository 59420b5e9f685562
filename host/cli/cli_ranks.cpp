#include "cli_ranks.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#if defined(GPUGA_HAVE_MPI)
#include <mpi.h>

#include "mpi_world.hpp"
#endif

namespace gpuga {
namespace {

std::string g_rank_devices;  // how this run's ranks took their devices (share_node)

#if defined(GPUGA_HAVE_MPI)
const MpiWorld* world() {
  const MpiWorld* w = MpiWorld::current();
  return w && w->several() ? w : nullptr;
}
#endif

}  // namespace

RankPlace rank_place() {
#if defined(GPUGA_HAVE_MPI)
  if (const MpiWorld* w = world()) return {w->rank(), w->size()};
#endif
  return {};
}

void share_node(RunOptions& o) {
#if defined(GPUGA_HAVE_MPI)
  const MpiWorld* w = world();
  if (!w) return;
  if (o.threads.value_or(0) == 0) o.threads = std::max(1, omp_get_num_procs() / w->local_size());
  if (o.device || o.backend == Backend::Cpu) {
    g_rank_devices = o.device ? "--device " + std::to_string(*o.device) : "";
    return;
  }
  const int gpus = static_cast<int>(list_devices().devices.size());
  if (gpus == 0) return;  // the backend's choice says why (auto: the CPU; cuda: refused)
  o.device = rank_device(w->local_rank(), gpus);
  g_rank_devices = "local rank % " + std::to_string(gpus);
  static bool said = false;
  if (w->rank() == 0 && !said) {
    std::fprintf(stderr, "gpuga: %d rank(s) on this node share %d CUDA device(s): local rank k "
                 "takes device k %% %d (--device to choose one)\n", w->local_size(), gpus, gpus);
    said = true;
  }
#else
  (void)o;
#endif
}

const std::string& rank_devices() { return g_rank_devices; }

EngineParams rank_islands(const EngineParams& run) {
  const RankPlace at = rank_place();
  GPUGA_INPUT_CHECK(run.islands % at.size == 0,
                    "a run of " + std::to_string(run.islands) + " island(s) over " +
                        std::to_string(at.size) + " ranks; expected a number of ranks that "
                        "divides the islands (--pop / --island-size)");
  EngineParams mine = run;
  mine.islands = run.islands / at.size;
  return mine;
}

std::unique_ptr<Engine> join_ranks(std::unique_ptr<Engine> local, const IslandParams& run, int box) {
#if defined(GPUGA_HAVE_MPI)
  if (const MpiWorld* w = world()) return make_rank_engine(std::move(local), run, box, *w);
#else
  (void)run;
  (void)box;
#endif
  return local;
}

void rank_barrier() {
#if defined(GPUGA_HAVE_MPI)
  if (world()) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

bool any_rank(bool mine) {
#if defined(GPUGA_HAVE_MPI)
  if (world()) {
    int in = mine, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return out != 0;
  }
#endif
  return mine;
}

std::unique_ptr<Consensus> rank_consensus() {
#if defined(GPUGA_HAVE_MPI)
  if (const MpiWorld* w = world()) return make_rank_consensus(*w);
#endif
  return nullptr;
}

std::unique_ptr<BatchShare> rank_batch_share() {
#if defined(GPUGA_HAVE_MPI)
  if (const MpiWorld* w = world()) return make_rank_batch_share(*w);
#endif
  return nullptr;
}

}  // namespace gpuga
