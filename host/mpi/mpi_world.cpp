#include "mpi_world.hpp"

#include <mpi.h>

#include <cstdlib>

namespace gpuga {
namespace {

// Open MPI's, MPICH's and Slurm's launchers set these; a process without them runs alone.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_STEP_NUM_TASKS"})
    if (std::getenv(v)) return true;
  return false;
}

const MpiWorld* g_world = nullptr;

}  // namespace

const MpiWorld* MpiWorld::current() { return g_world; }

MpiWorld::MpiWorld(int& argc, char**& argv) {
  g_world = this;
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
}

MpiWorld::~MpiWorld() {
  g_world = nullptr;
  if (initialised_) MPI_Finalize();
}

void MpiWorld::abort(int status) const {
  if (initialised_) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

}  // namespace gpuga
