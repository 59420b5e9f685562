// The batch CSVs `gpuga report` reads: either refused naming the file and a line, or summed up
// into groups whose figures hold together.
#include "fuzz_support.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/report.hpp"

using namespace gpuga;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string csv = fuzz::write_file(fuzz::scratch_file("report.csv"), text);
  std::vector<ReportGroup> groups;
  if (!fuzz::read_or_refusal([&] { groups = summarize_batch_csvs({csv}); }, csv, text, {"empty;"}))
    return 0;
  for (const auto& g : groups) {
    if (g.runs == 0 || g.solved > g.runs) fuzz::fault("a group of " + std::to_string(g.solved) + " solved of " + std::to_string(g.runs));
    if (!(g.success_rate >= 0 && g.success_rate <= 1)) fuzz::fault("a success rate of " + std::to_string(g.success_rate));
    if (!(g.median_seconds <= g.p95_seconds && g.median_generations <= g.p95_generations))
      fuzz::fault("a median past its 95th percentile");
  }
  return 0;
}
