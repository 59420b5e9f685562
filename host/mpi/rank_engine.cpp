// One run's islands over the MPI ranks (mpi_world.hpp). Collectives, in the same order on every
// rank because every rank's driver takes the same decisions (make_rank_consensus): per segment
// an allreduce and a ring shift of one island's emigrants; per epoch an allgather of the
// summaries and a broadcast of the agreed facts; a broadcast per best grid the driver asks for.
#include <mpi.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "gpuga/errors.hpp"
#include "mpi_world.hpp"

namespace gpuga {
namespace {

template <class T>
void allgather(const std::vector<T>& mine, std::vector<T>& all) {
  const int bytes = static_cast<int>(mine.size() * sizeof(T));
  MPI_Allgather(mine.data(), bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, MPI_COMM_WORLD);
}

class RankEngine final : public Engine, RingLink {
 public:
  RankEngine(std::unique_ptr<Engine> local, const IslandParams& run, int box, const MpiWorld& w)
      : local_(std::move(local)), run_(local_->params()), box_(box), world_(w) {
    const std::uint32_t k = local_->params().islands;
    GPUGA_INPUT_CHECK(std::uint64_t(k) * w.size() == run.islands,
                      std::to_string(w.size()) + " ranks of " + std::to_string(k) +
                          " island(s) for a run of " + std::to_string(run.islands));
    run_.islands = run.islands;
    local_->link_ring(this, static_cast<std::uint32_t>(w.rank()) * k, run.islands);
  }

  std::uint32_t slots() const override { return 1; }
  const IslandParams& params() const override { return run_; }
  IslandParams run_params(std::uint32_t r) const override {
    IslandParams p = run_;
    p.ga = local_->run_params(r).ga;
    return p;
  }
  std::uint32_t run_stage(std::uint32_t r) const override { return local_->run_stage(r); }
  void set_run(std::uint32_t r, const Grid& puzzle, std::uint64_t seed) override {
    local_->set_run(r, puzzle, seed);
  }
  void advance(const std::vector<RunTask>& tasks) override { local_->advance(tasks); }

  std::vector<IslandSummary> summaries() override {
    std::vector<IslandSummary> all(run_.islands);
    allgather(local_->summaries(), all);
    return all;
  }

  Grid best(std::uint32_t run, std::uint32_t island) override {
    const std::uint32_t k = local_->params().islands;
    const int owner = static_cast<int>(island / k);
    Grid g(box_);
    if (owner == world_.rank()) g = local_->best(run, island % k);
    MPI_Bcast(g.cell.data(), static_cast<int>(g.cell.size()), MPI_BYTE, owner, MPI_COMM_WORLD);
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t run) override {
    const auto mine = local_->population(run);
    std::vector<std::uint8_t> all(mine.size() * world_.size());
    allgather(mine, all);
    return all;
  }
  std::vector<Fitness> fitness(std::uint32_t run) override {
    const auto mine = local_->fitness(run);
    std::vector<Fitness> all(mine.size() * world_.size());
    allgather(mine, all);
    return all;
  }
  PhaseTimes phase_times() override {
    PhaseTimes t = local_->phase_times();
    t.ring = ring_seconds_;
    return t;
  }
  void count_phases_on(std::shared_ptr<PhaseLedger> ledger) override {
    local_->count_phases_on(std::move(ledger));
  }
  std::string placement() const override { return local_->placement(); }  // on every rank
  // The whole run's state on every rank (Engine::snapshot: the ranks' island blocks in rank
  // order, as one process lays them out), so that it resumes on any rank count that divides
  // the islands, one process included.
  std::vector<std::uint8_t> snapshot(std::uint32_t r) override {
    const std::vector<std::uint8_t> mine = local_->snapshot(r);
    const std::uint64_t body = mine.size() - kRunSnapshotHeader;
    GPUGA_INPUT_CHECK(body <= 0x7FFFFFFFu, "a rank's islands of " + std::to_string(body) +
                                               " bytes; expected under 2 GiB to checkpoint");
    std::vector<std::uint8_t> all(kRunSnapshotHeader + body * world_.size());
    MPI_Allgather(mine.data() + kRunSnapshotHeader, static_cast<int>(body), MPI_BYTE,
                  all.data() + kRunSnapshotHeader, static_cast<int>(body), MPI_BYTE, MPI_COMM_WORLD);
    std::uint64_t solved = 0, anywhere = 0;
    std::memcpy(&solved, mine.data() + sizeof(std::uint32_t), sizeof solved);
    MPI_Allreduce(&solved, &anywhere, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    std::memcpy(all.data(), mine.data(), sizeof(std::uint32_t));  // the clock, every rank's
    std::memcpy(all.data() + sizeof(std::uint32_t), &anywhere, sizeof anywhere);
    return all;
  }
  void restore(std::uint32_t r, const std::vector<std::uint8_t>& bytes) override {
    const std::uint64_t size = bytes.size() < kRunSnapshotHeader ? 0 : bytes.size();
    const std::uint64_t body = size ? (size - kRunSnapshotHeader) / world_.size() : 0;
    GPUGA_INPUT_CHECK(size && kRunSnapshotHeader + body * world_.size() == size,
                      "a run's state of " + std::to_string(bytes.size()) + " bytes does not "
                      "split over " + std::to_string(world_.size()) + " ranks");
    std::vector<std::uint8_t> mine(kRunSnapshotHeader + body);
    std::memcpy(mine.data(), bytes.data(), kRunSnapshotHeader);
    std::memcpy(mine.data() + kRunSnapshotHeader,
                bytes.data() + kRunSnapshotHeader + body * world_.rank(), body);
    local_->restore(r, mine);
  }
  void link_ring(RingLink*, std::uint32_t, std::uint32_t) override {
    throw std::logic_error("a rank's engine is already one link of its run's ring");
  }

  // RingLink: after every segment, whether an island has solved on any rank, and each rank's
  // last island's emigrants to the next rank (the ring's successor of that island).
  std::uint64_t exchange(std::uint64_t solved, std::vector<std::uint8_t>& emigrants) override {
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t anywhere = 0;
    MPI_Allreduce(&solved, &anywhere, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    const int n = world_.size(), r = world_.rank();
    MPI_Sendrecv_replace(emigrants.data(), static_cast<int>(emigrants.size()), MPI_BYTE,
                         (r + 1) % n, 0, (r + n - 1) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ring_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return anywhere;
  }

 private:
  std::unique_ptr<Engine> local_;
  IslandParams run_;  // the local engine's, with the run's island count
  int box_;
  const MpiWorld& world_;
  double ring_seconds_ = 0;  // in exchange(): waiting for the other ranks included
};

class RankConsensus final : public Consensus {
 public:
  void agree(RoundFacts& f) override {
    std::vector<double> clocks{f.epoch_seconds};
    clocks.insert(clocks.end(), f.elapsed.begin(), f.elapsed.end());
    MPI_Bcast(clocks.data(), static_cast<int>(clocks.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    f.epoch_seconds = clocks[0];
    std::copy(clocks.begin() + 1, clocks.end(), f.elapsed.begin());
    int flags[2] = {f.interrupted, !f.go_on}, any[2] = {0, 0};
    MPI_Allreduce(flags, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    f.interrupted = any[0];
    f.go_on = !any[1];
  }
};

}  // namespace

std::unique_ptr<Engine> make_rank_engine(std::unique_ptr<Engine> local, const IslandParams& run,
                                         int box, const MpiWorld& world) {
  return std::make_unique<RankEngine>(std::move(local), run, box, world);
}

std::unique_ptr<Consensus> make_rank_consensus(const MpiWorld&) {
  return std::make_unique<RankConsensus>();
}

}  // namespace gpuga
