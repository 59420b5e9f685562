#pragma once
// gpuga batch and sweep's news and progress bar on stderr: the bar redrawn in place on a
// terminal, a plain line every few seconds otherwise (a log, a scheduler's output file).
#include <chrono>

#include "gpuga/batch_runner.hpp"

namespace gpuga {

class StderrBatchReporter final : public BatchReporter {
 public:
  // Each line of news after `command`'s name (batch, sweep, rate: the command the user ran).
  explicit StderrBatchReporter(std::string command);
  void news(const std::string& line) override;
  void progress(const BatchProgress& p) override;

 private:
  std::string command_;
  bool tty_;
  std::chrono::steady_clock::time_point last_;
};

// batch's and sweep's exit status for `end`; an interruption also said on the writer's stderr
// with how to run the rest (the CSV `csv` holds every finished run).
int batch_end_status(BatchEnd end, const std::string& csv, const BatchShare* share,
                     StderrBatchReporter& reporter);

}  // namespace gpuga
