#pragma once
// How hard each puzzle of a file is for the engine (gpuga rate, gpuga.rate in Python): R runs a
// puzzle with seeds derived from the options' seed, run many at once as a batch runs them (the
// same runs, the same speed), then per puzzle the success rate and the median and 90th
// percentile of generations, evaluations and seconds; beside them what propagation alone fills,
// the strongest deduction of a ladder of techniques the puzzle needs (gpuga/sudoku/deduction.hpp)
// and the exact solver's effort; and a rating from fixed thresholds on the GA's effort.
//
// Percentiles are nearest-rank over every run, a run that did not solve counted above every run
// that did: where a percentile falls on one, the puzzle has none (more than half the runs
// unsolved: no median).
//
// The score, higher = harder, on Sudoku Explainer's scale: the difficulty of the hardest step
// the ladder of techniques needs (gpuga/sudoku/deduction.hpp), 1.0 to 9.9. Where the ladder
// stalls, kLadderTop plus a tenth of log10 of 1 + the p90 evaluations of the GA (at most 0.9;
// 0.9 where the p90 falls on an unsolved run, and with no runs), with a 90 % interval from
// resampling the runs (a ladder's score is exact: its interval is itself). The rating, the
// score's word (deduction.hpp: easy, medium, hard, very hard, extreme), or "unsolved" where the
// ladder stalled and more than half the GA's runs did not solve. A puzzle of several solutions
// is not rated (no deduction, no score: the ladder's uniqueness patterns assume one): its rating
// is "not unique", its runs' figures kept.
// Spearman's rho of the score against Sudoku Explainer's rating: bench/rating-agreement.sh.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpuga/batch_runner.hpp"
#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

struct PuzzleRating {
  std::string file, puzzle, size;
  int line = 0, index = 0;
  int givens = 0;
  int propagation_fills = 0;      // cells naked and hidden singles fill
  double deduction = 0;           // the ladder's difficulty (deduction.hpp); not written where it stalls
  std::string technique;          // its hardest step's technique, or "beyond the ladder"
  bool stalled = false;           // the ladder stalled
  int solutions = 0;              // 1, or 2 for several (then not rated)
  std::uint64_t exact_conflicts = 0;  // the exact solver's (exact_solver.hpp)
  std::uint32_t runs = 0, solved = 0;
  double success_rate = 0;
  std::optional<double> median_generations, p90_generations, median_evaluations,
      p90_evaluations, median_seconds, p90_seconds;
  double score = 0, score_low = 0, score_high = 0;  // the score and its 90 % interval
  std::string rating;
};

// The score of a ladder's result and, where it stalled, the p90 of the GA's evaluations (none:
// it fell on an unsolved run, or no runs).
double score_of(const Deduction& ladder, std::optional<double> p90_evaluations);

// The rating's word for a puzzle's figures.
std::string rating_of(const PuzzleRating& r);

struct RateSetup {
  std::vector<std::string> files;
  std::uint32_t runs = 10;       // 0: the ladder and the exact solver alone
  std::uint32_t concurrent = 0;  // batch's: 0 as many as fit well
  std::string runs_csv;          // keep every run's row here (batch's CSV); "" none kept
};

// Rates every puzzle of the files with `options` (their seed drawn: draw_seed), its runs' news
// and progress to `reporter`; none when a signal stopped the runs (g_interrupted). InputError as
// batch's for bad files or options.
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
