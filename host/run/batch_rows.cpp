#include "batch_rows.hpp"

#include <cstdio>
#include <filesystem>

#include "gpuga/batch_csv.hpp"
#include "gpuga/result_fields.hpp"
#include "gpuga/version.hpp"

namespace gpuga {

std::vector<std::string> run_row(const BatchRun& pr, const RunResult& r, const RunConfig& config,
                                 Backend backend, std::uint32_t processes,
                                 const std::string& config_id) {
  RunFields fields = {{"puzzle_id", pr.puzzle_id},
                      {"run", std::to_string(pr.run)},
                      {"device", backend == Backend::Cuda ? std::to_string(config.device) : ""},
                      {"ranks", std::to_string(processes)},
                      {"gpuga_version", GPUGA_VERSION},
                      {"config_id", config_id}};
  const FinishedRun run{pr.puzzle->grid, pr.puzzle->alphabet, r, backend};
  for (const ResultField& f : result_fields())
    if (f.written_in(kCsv)) fields[f.name] = csv_text(f.value(run));
  return batch_row(fields, config);
}

Rows::Rows(const BatchSetup& s, BatchShare* share, BatchReporter* reporter, std::size_t total)
    : share_(share), reporter_(reporter), start_(std::chrono::steady_clock::now()) {
  progress_.total = total;
  if (!writer()) return;
  csv_ = std::make_unique<CsvWriter>(s.csv, batch_columns());
  if (s.trace_dir.empty()) return;  // the folder made and checked by run_batches
  trace_ = std::make_unique<CsvWriter>(s.trace_dir + "/traces.csv", trace_columns());
}

void Rows::add(const BatchShare::Row& row) {
  if (!writer()) return share_->send(row);
  if (row.file == 1) return trace_->row(row.fields);
  csv_->row(row.fields);
  ++progress_.done;
  progress_.solved += row.fields[1] == "1";
  progress_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (reporter_) reporter_->progress(progress_);
}

std::string progress_text(const BatchProgress& p, int width) {
  const double rate = p.seconds > 0 ? p.done / p.seconds : 0;
  const double left = rate > 0 ? (p.total - p.done) / rate : 0;
  const int filled = p.total ? static_cast<int>(width * p.done / p.total) : width;
  char line[160];
  std::snprintf(line, sizeof line, "[%s%s] %zu/%zu runs, %zu solved, %.2f runs/s, %.0f s left",
                std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), p.done,
                p.total, p.solved, rate, left);
  return line;
}

void Rows::collect(bool wait) {
  if (!share_ || !writer()) return;
  for (const auto& row : share_->take(wait)) add(row);
}

}  // namespace gpuga
