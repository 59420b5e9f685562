// The batch CSVs `gpuga report` reads: either refused naming the file and a line, or summed up
// into groups whose figures hold together.
#include "fuzz_support.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/report.hpp"

using namespace gpuga;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string csv = fuzz::write_file(fuzz::scratch_file("report.csv"), text);
  Report report;
  if (!fuzz::read_or_refusal([&] { report = summarize_batch_csvs({csv}); }, csv, text, {"empty;"}))
    return 0;
  for (const auto& g : report.groups) {
    if (g.runs == 0 || g.solved > g.runs) fuzz::fault("a group of " + std::to_string(g.solved) + " solved of " + std::to_string(g.runs));
    if (!(g.success_rate >= 0 && g.success_rate <= 1)) fuzz::fault("a success rate of " + std::to_string(g.success_rate));
    if (!(g.success_interval.low <= g.success_rate && g.success_rate <= g.success_interval.high))
      fuzz::fault("a success rate outside its interval");
    if (!g.median_seconds.at_least && !g.p95_seconds.at_least && g.median_seconds.value > g.p95_seconds.value)
      fuzz::fault("a median past its 95th percentile");
  }
  for (const auto& c : report.comparisons)
    if (!(c.fisher_p >= 0 && c.fisher_p <= 1 && c.mann_whitney_p >= 0 && c.mann_whitney_p <= 1))
      fuzz::fault("a p outside [0, 1]");
  return 0;
}
