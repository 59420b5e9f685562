#pragma once
// gpuga report's reading of batch CSVs: per configuration and puzzle set, the success rate and
// the median and 95th-percentile time and generations of the solved runs. The command line
// formats what this returns; the fuzz target (tests/fuzz) reads through it.
#include <cstddef>
#include <string>
#include <vector>

namespace gpuga {

struct ReportGroup {
  std::string config;  // "name=value ..." over the configuration columns the CSV has
  std::string set;     // the puzzle file's name, from puzzle_id
  std::size_t runs = 0, solved = 0;
  double success_rate = 0;
  double median_seconds = 0, p95_seconds = 0;        // of the solved runs (0 when none)
  double median_generations = 0, p95_generations = 0;
};

// The groups of every file's rows, ordered by (config, set). Throws InputError naming the file,
// the line and the column for what is not a gpuga batch CSV: a missing column, a row of another
// width, a `solved` other than 0 or 1, a time or generation count that is not a number >= 0.
std::vector<ReportGroup> summarize_batch_csvs(const std::vector<std::string>& files);

}  // namespace gpuga
