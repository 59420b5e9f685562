#pragma once
// A batch's records (batch_runner.cpp): the rows of its CSV and traces, written by the process
// that writes them, sent to it by the others, and counted for the front end's progress.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuga/batch_runner.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {

// One run of a batch: a puzzle, its repetition and its seed.
struct BatchRun {
  std::string puzzle_id;  // file#index
  const Puzzle* puzzle;
  std::uint32_t run;
  std::uint64_t seed;
};

// The batch CSV's row of a finished run (its traces' rows: trace_row, batch_csv.hpp).
std::vector<std::string> run_row(const BatchRun& pr, const RunResult& r, const RunConfig& config,
                                 Backend backend, std::uint32_t processes,
                                 const std::string& config_id);

// Where finished rows go: into the CSV and the traces on the process that writes them (the
// reporter hears the progress after every CSV row), to that process from the others (BatchShare).
class Rows {
 public:
  Rows(const BatchSetup& s, BatchShare* share, BatchReporter* reporter, std::size_t total);

  bool writer() const { return !share_ || share_->index() == 0; }
  std::uint32_t processes() const { return share_ ? share_->count() : 1; }

  void add(const BatchShare::Row& row);
  // The writer: the rows the others have sent (with `wait`, until they are all done).
  void collect(bool wait);

 private:
  BatchShare* share_;
  BatchReporter* reporter_;
  std::unique_ptr<CsvWriter> csv_, trace_;
  BatchProgress progress_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gpuga
