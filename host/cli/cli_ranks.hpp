#pragma once
// solve under MPI (`mpirun -np N gpuga solve ...`, host/mpi/mpi_world.hpp): what the command
// line does differently when several ranks share a run. In a build without MPI, or a process no
// MPI launcher started, this is one rank of one and every function here leaves things as they are.
#include <cstdint>
#include <memory>
#include <string>

#include "gpuga/batch_runner.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"
#include "gpuga/run_plan.hpp"

namespace gpuga {

struct RankPlace {
  int rank = 0, size = 1;
  bool root() const { return rank == 0; }  // rank 0 alone writes results and progress
};
RankPlace rank_place();

// This process's place on its node (probe_target shares the node's cores and devices out by it).
NodePlace node_place();

// Where the ranks of a node share its devices round-robin (Target::shared_devices), says so once,
// on rank 0's stderr.
void say_shared_devices(const Target& t);

// The islands this rank holds of a run of `run.islands` (refused with a message when the ranks
// do not divide them), and the engine that joins them to the run's ring; with one rank, `run`
// and `local` themselves.
EngineParams rank_islands(const EngineParams& run);
std::unique_ptr<Engine> join_ranks(std::unique_ptr<Engine> local, const IslandParams& run, int box);

// Waits for every rank (a no-op with one).
void rank_barrier();

// Whether `mine` holds on any rank (this rank's own with one).
bool any_rank(bool mine);

// Rank 0's `mine`, on every rank (this rank's own with one).
std::uint64_t root_rank_value(std::uint64_t mine);

// The driver's consensus across the ranks; null with one rank.
std::unique_ptr<Consensus> rank_consensus();

// batch and sweep: the ranks' share of the runs and rows; null with one rank.
std::unique_ptr<BatchShare> rank_batch_share();

}  // namespace gpuga
