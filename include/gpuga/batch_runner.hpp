#pragma once
// Batches of runs: every chosen puzzle --runs times for each GA configuration, runs of one plan
// (a configuration for one puzzle size) sharing the engine's run slots, one CSV row per run
// flushed as it ends, optional per-generation traces.
// gpuga batch runs one configuration, gpuga sweep many.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/run_plan.hpp"

namespace gpuga {

struct BatchSetup {
  std::vector<std::string> files;
  std::vector<Puzzle> puzzles;   // read and checked already (rate's): run instead of the files'
  std::uint32_t runs = 1;
  std::uint32_t sample = 0;      // 0: every puzzle
  std::uint32_t concurrent = 0;  // 0: as many as fit well
  std::string csv;
  bool resume = false;
  std::string trace_dir;         // empty: no traces
  std::uint32_t trace_every = 1;
  // Seconds between checkpoints of the runs in flight, one file each in CSV.checkpoints/
  // (0: none); SIGTERM or SIGUSR1 then save them and end the batch (BatchEnd::Checkpointed),
  // and --resume continues them.
  double checkpoint_every = 0;
  NodePlace node;  // this process's place on its node (MPI ranks share its cores and devices)
};

// Interrupted: a signal (Ctrl-C, SIGTERM, SIGUSR1 without --checkpoint-every) stopped it, its
// finished runs recorded, the rest not run (--resume runs them).
enum class BatchEnd { AllSolved, SomeUnsolved, Checkpointed, Interrupted };

// How far a batch is: runs recorded of those to do, how many solved, seconds since it began.
struct BatchProgress {
  std::size_t done = 0, total = 0, solved = 0;
  double seconds = 0;
};

// What a batch tells its front end, on the process that writes the CSV: news ("24 runs to do in
// 1 configuration(s) ...", what was continued, the time it took, where checkpoints went) and its
// progress after every recorded run. The library prints nothing itself.
class BatchReporter {
 public:
  virtual ~BatchReporter() = default;
  virtual void news(const std::string& line) = 0;
  virtual void progress(const BatchProgress& p) = 0;
};

// "[#####.........] 4/24 runs, 3 solved, 1.50 runs/s, 13 s left": progress as the command line
// shows it, `width` characters of bar.
std::string progress_text(const BatchProgress& p, int width = 30);

// What a batch's runs came to: those finished (not interrupted), whether all solved, and their
// evaluations.
struct BatchTally {
  std::size_t ran = 0;
  bool all_solved = true;
  std::uint64_t evaluations = 0;
};

// Processes that share a batch (host/mpi): each runs its part of the planned runs (every
// count-th from its index), and the writer (index 0) writes every row, its own and those the
// others send, as they come. Every process plans alike, so a row is the one a lone process writes.
class BatchShare {
 public:
  struct Row {
    int file = 0;  // 0: the CSV, 1: the traces
    std::vector<std::string> fields;
  };
  virtual ~BatchShare() = default;
  virtual std::uint32_t index() const = 0;
  virtual std::uint32_t count() const = 0;
  virtual void barrier() = 0;
  // Not the writer: a finished row, to the writer.
  virtual void send(const Row& row) = 0;
  // The writer: the rows sent since the last call; with `wait`, all of them, until every other
  // process has called done().
  virtual std::vector<Row> take(bool wait) = 0;
  // Once this process's runs are done: its tally, and back the tally over every process (the
  // writer calls it after take(true)).
  virtual BatchTally done(const BatchTally& mine) = 0;
};

// Runs the batch for each configuration (their seeds already drawn: draw_seed), each planned for
// every puzzle size of the files, shared with other processes when `share` is given. AllSolved:
// every run solved its puzzle and none was interrupted; Interrupted: the reporter heard how many
// ran and how many did not.
BatchEnd run_batches(const BatchSetup& setup, const std::vector<RunOptions>& configs,
                     BatchShare* share = nullptr, BatchReporter* reporter = nullptr);

}  // namespace gpuga
