#include "cli_ranks.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "gpuga/backend.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#if defined(GPUGA_HAVE_MPI)
#include <mpi.h>

#include "mpi_world.hpp"
#endif

namespace gpuga {
namespace {

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

NodePlace node_place() {
#if defined(GPUGA_HAVE_MPI)
  if (const MpiWorld* w = world()) return {true, w->local_rank(), w->local_size()};
#endif
  return {};
}

void say_shared_devices(const Target& t) {
  static bool said = false;
  const std::string news = shared_devices_news(t, node_place());
  if (news.empty() || said || !rank_place().root()) return;
  std::fprintf(stderr, "gpuga: %s\n", news.c_str());
  said = true;
}

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

std::uint64_t root_rank_value(std::uint64_t mine) {
#if defined(GPUGA_HAVE_MPI)
  if (world()) MPI_Bcast(&mine, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
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
