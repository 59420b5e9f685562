#pragma once
// gpuga under MPI (`mpirun -np N gpuga solve ...`): one run's islands split over the ranks in
// contiguous blocks, on one ring, with the same result as in one process. Built with GPUGA_MPI;
// a process that no MPI launcher started never initialises MPI (a plain run needs no mpirun).
#include <memory>

#include "gpuga/batch_runner.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"

namespace gpuga {

// This process's place among the ranks: one rank of one when MPI is not in use.
class MpiWorld {
 public:
  // Initialises MPI when an MPI launcher started the process (its environment says so).
  MpiWorld(int& argc, char**& argv);
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  // The one MpiWorld of this process, or null where main made none (a build without MPI).
  static const MpiWorld* current();

  bool several() const { return size_ > 1; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the ranks on this node
  int local_size() const { return local_size_; }
  // Ends every rank at once, with `status`: what a failing rank does, so that no other waits.
  [[noreturn]] void abort(int status) const;

 private:
  bool initialised_ = false;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// The run's engine on this rank: `local` holds islands rank * k to rank * k + k - 1 of the run's
// `run.islands` (k = run.islands / size), and the ring crosses the ranks at every migration. Every
// rank sees every island's summary and the best grid of any island. One run slot.
std::unique_ptr<Engine> make_rank_engine(std::unique_ptr<Engine> local, const IslandParams& run,
                                         int box, const MpiWorld& world);

// The driver's decisions agreed by every rank: rank 0's clocks, Ctrl-C on any rank, and stop
// when any rank's observer says so.
std::unique_ptr<Consensus> make_rank_consensus(const MpiWorld& world);

// batch and sweep over the ranks: each runs every size-th planned run, rank 0 writes every row.
std::unique_ptr<BatchShare> make_rank_batch_share(const MpiWorld& world);

}  // namespace gpuga
