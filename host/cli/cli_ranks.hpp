#pragma once
// solve under MPI (`mpirun -np N gpuga solve ...`, host/mpi/mpi_world.hpp): what the command
// line does differently when several ranks share a run. In a build without MPI, or a process no
// MPI launcher started, this is one rank of one and every function here leaves things as they are.
#include <memory>
#include <string>

#include "gpuga/batch_runner.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

struct RankPlace {
  int rank = 0, size = 1;
  bool root() const { return rank == 0; }  // rank 0 alone writes results and progress
};
RankPlace rank_place();

// Before the backend is chosen: each rank takes its share of its node's cores (--threads not
// given) and, unless --device was given or the backend is cpu, a GPU round-robin: its local rank
// modulo the node's devices (rank_device), said once on rank 0's stderr. (With --pop left out,
// the plan's population is every rank's default: Target::ranks.)
void share_node(RunOptions& o);

// For the outputs, with several ranks: how they took their devices ("local rank % 2",
// "--device 1"); empty with one rank or on the CPU.
const std::string& rank_devices();


// The islands this rank holds of a run of `run.islands` (refused with a message when the ranks
// do not divide them), and the engine that joins them to the run's ring; with one rank, `run`
// and `local` themselves.
EngineParams rank_islands(const EngineParams& run);
std::unique_ptr<Engine> join_ranks(std::unique_ptr<Engine> local, const IslandParams& run, int box);

// Waits for every rank (a no-op with one).
void rank_barrier();

// Whether `mine` holds on any rank (this rank's own with one).
bool any_rank(bool mine);

// The driver's consensus across the ranks; null with one rank.
std::unique_ptr<Consensus> rank_consensus();

// batch and sweep: the ranks' share of the runs and rows; null with one rank.
std::unique_ptr<BatchShare> rank_batch_share();

}  // namespace gpuga
