#pragma once
// gpuga report's reading of batch CSVs: per puzzle set, the configurations side by side on the
// settings that vary between them, each with its success rate and interval, its expected running
// time and evaluations, and percentiles over every run (one not solved counted past every solved
// one, not left out); and every two configurations on a set compared by named tests. The command
// line formats what this returns; the fuzz target (tests/fuzz) reads through it.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gpuga/statistics.hpp"

namespace gpuga {

struct ReportGroup {
  std::vector<std::pair<std::string, std::string>> config;  // the CSV's configuration columns
  std::string set;  // the puzzle file's name, from puzzle_id
  std::size_t runs = 0, solved = 0;
  double success_rate = 0;
  Interval success_interval;  // Wilson's, 95 %
  // Expected running time (the seconds, or evaluations, of every run over the solved runs): what
  // a solution costs when runs are restarted until one solves; infinity where none solved, NaN
  // evaluations where the CSV has none.
  double ert_seconds = 0, ert_evaluations = 0;
  RunPercentile median_seconds, p95_seconds, median_generations, median_evaluations;
  std::vector<double> seconds_to_solve;  // every run's, unsolved as infinity
};

// Two configurations on one set (indices into Report::groups), by Fisher's exact test on their
// solved runs and the Mann-Whitney U test on their times to solve (unsolved after every solved).
struct ReportComparison {
  std::size_t a = 0, b = 0;
  double fisher_p = 1, mann_whitney_p = 1;
  bool differ = false;  // either p below 0.05 over the set's tests (Bonferroni)
};

struct Report {
  std::vector<std::string> varied;  // the configuration columns whose values differ
  std::vector<ReportGroup> groups;  // by set, then configuration
  std::vector<ReportComparison> comparisons;
};

// Every file's rows, grouped. Throws InputError naming the file, the line and the column for
// what is not a gpuga batch CSV: a missing column, a row of another width, a `solved` other
// than 0 or 1, a time, generation or evaluation count that is not a number >= 0. Columns an
// older gpuga named otherwise read under their names now (batch_csv.hpp's current_column).
Report summarize_batch_csvs(const std::vector<std::string>& files);

}  // namespace gpuga
