#include "batch_progress.hpp"
#include "commands.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace gpuga {

StderrBatchReporter::StderrBatchReporter(std::string command)
    : command_(std::move(command)), tty_(::isatty(STDERR_FILENO)), last_(std::chrono::steady_clock::now()) {}

void StderrBatchReporter::news(const std::string& line) {
  std::fprintf(stderr, "%s: %s\n", command_.c_str(), line.c_str());
}

void StderrBatchReporter::progress(const BatchProgress& p) {
  const bool finished = p.done == p.total;
  const auto now = std::chrono::steady_clock::now();
  if (!tty_ && now - last_ < std::chrono::seconds(3) && !finished) return;
  last_ = now;
  std::fprintf(stderr, "%s%s%s", tty_ ? "\r" : "", progress_text(p).c_str(),
               tty_ && !finished ? "" : "\n");
}

int batch_end_status(BatchEnd end, const std::string& csv, const BatchShare* share,
                     StderrBatchReporter& reporter) {
  std::error_code ec;  // no CSV: stopped before it was begun, and the same command starts afresh
  if (end == BatchEnd::Interrupted && (!share || share->index() == 0) && std::filesystem::exists(csv, ec))
    reporter.news(csv + " holds every finished run; the same command with --resume runs the rest");
  return batch_exit_status(end);
}

}  // namespace gpuga
