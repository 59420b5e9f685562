// A batch shared over the MPI ranks (batch_runner.hpp's BatchShare): rank 0 writes; every other
// rank sends each finished row as one message (a CSV line, the tag says which file) and a last,
// empty message when its runs are done.
#include <mpi.h>

#include "gpuga/csv.hpp"
#include "mpi_world.hpp"

namespace gpuga {
namespace {

constexpr int kDoneTag = 2;  // tags 0 and 1 are the rows' files

class RankBatchShare final : public BatchShare {
 public:
  explicit RankBatchShare(const MpiWorld& w) : world_(w) {}

  std::uint32_t index() const override { return static_cast<std::uint32_t>(world_.rank()); }
  std::uint32_t count() const override { return static_cast<std::uint32_t>(world_.size()); }
  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

  void send(const Row& row) override {
    const std::string line = csv_line(row.fields);
    MPI_Send(line.data(), static_cast<int>(line.size()), MPI_CHAR, 0, row.file, MPI_COMM_WORLD);
  }

  std::vector<Row> take(bool wait) override {
    std::vector<Row> rows;
    for (;;) {
      int ready = 0;
      MPI_Status st;
      if (wait && finished_ + 1 < count())
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st), ready = 1;
      else
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &st);
      if (!ready) return rows;
      int bytes = 0;
      MPI_Get_count(&st, MPI_CHAR, &bytes);
      std::string line(static_cast<std::size_t>(bytes), '\0');
      MPI_Recv(line.data(), bytes, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      if (st.MPI_TAG == kDoneTag)
        ++finished_;
      else
        rows.push_back({st.MPI_TAG, csv_split(line)});
    }
  }

  BatchTally done(const BatchTally& mine) override {
    if (index() != 0) MPI_Send(nullptr, 0, MPI_CHAR, 0, kDoneTag, MPI_COMM_WORLD);
    unsigned long long counts[2] = {mine.ran, mine.evaluations}, totals[2] = {0, 0};
    int unsolved = !mine.all_solved, any = 0;
    MPI_Allreduce(counts, totals, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&unsolved, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return {static_cast<std::size_t>(totals[0]), !any, static_cast<std::uint64_t>(totals[1])};
  }

 private:
  const MpiWorld& world_;
  std::uint32_t finished_ = 0;  // the other ranks that said done
};

}  // namespace

std::unique_ptr<BatchShare> make_rank_batch_share(const MpiWorld& world) {
  return std::make_unique<RankBatchShare>(world);
}

}  // namespace gpuga
