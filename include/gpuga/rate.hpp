#pragma once
// How hard each puzzle of a file is for the engine (gpuga rate, gpuga.rate in Python): R runs a
// puzzle with seeds derived from the options' seed, run many at once as a batch runs them (the
// same runs, the same speed), then per puzzle the success rate and the median and 90th
// percentile of generations, evaluations and seconds; beside them what propagation alone fills,
// the strongest deduction of a ladder of techniques the puzzle needs (gpuga/deduction.hpp)
// and the exact solver's effort; and a rating from fixed thresholds on the GA's effort.
//
// Percentiles are nearest-rank over every run, a run that did not solve counted above every run
// that did: where a percentile falls on one, the puzzle has none (more than half the runs
// unsolved: no median).
//
// The rating, from the median run's evaluations (its fitness changes, local-search moves
// included), under the options' configuration (ratings compare within one configuration):
//   propagation  singles complete the puzzle before any search
//   easy         under 1e6
//   medium       1e6 to 1e7
//   hard         1e7 to 1e8
//   very hard    1e8 or more
//   unsolved     no median: more than half the runs did not solve
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpuga/batch_runner.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

struct PuzzleRating {
  std::string file, puzzle, size;
  int line = 0, index = 0;
  int givens = 0;
  int propagation_fills = 0;      // cells naked and hidden singles fill
  int deduction_rung = 0;         // the strongest deduction it needs, 1 to 7 (deduction.hpp)
  int solutions = 0;              // 1, or 2 for several
  std::uint64_t exact_conflicts = 0;  // the exact solver's (exact_solver.hpp)
  std::uint32_t runs = 0, solved = 0;
  double success_rate = 0;
  std::optional<double> median_generations, p90_generations, median_evaluations,
      p90_evaluations, median_seconds, p90_seconds;
  std::string rating;
};

// The rating's word for a puzzle's figures.
std::string rating_of(const PuzzleRating& r, bool propagation_completes);

struct RateSetup {
  std::vector<std::string> files;
  std::uint32_t runs = 10;
  std::uint32_t concurrent = 0;  // batch's: 0 as many as fit well
  std::string runs_csv;          // keep every run's row here (batch's CSV); "" none kept
};

// Rates every puzzle of the files with `options` (their seed drawn: draw_seed), its runs' news
// and progress to `reporter`. InputError as batch's for bad files or options.
std::vector<PuzzleRating> rate(const RateSetup& setup, const RunOptions& options,
                               BatchReporter* reporter = nullptr);

// A rating's fields by name, in the CSV's order, each a number, a word, or none (a percentile
// that falls on an unsolved run): what the CSV, the JSON and Python write of it.
using RatingValue = std::variant<std::monostate, std::int64_t, double, std::string>;
std::vector<std::pair<std::string, RatingValue>> rating_fields(const PuzzleRating& r);
// The CSV's columns (the fields' names), and a field as the CSV writes it ("" for none).
const std::vector<std::string>& rating_columns();
std::string csv_text(const RatingValue& v);

}  // namespace gpuga
