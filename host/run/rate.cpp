#include "gpuga/rate.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <tuple>

#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/statistics.hpp"

namespace gpuga {
namespace {

// One run of a puzzle as its batch row records it.
struct RunFigures {
  bool solved;
  double generations, evaluations, seconds;
};

// The nearest-rank p-th percentile of one figure over the runs, an unsolved run above every
// solved one: none where it falls on an unsolved run.
std::optional<double> over_runs(const std::vector<RunFigures>& runs, double p,
                                double RunFigures::*figure) {
  if (runs.empty()) return std::nullopt;
  std::vector<std::pair<bool, double>> figures;
  for (const RunFigures& r : runs) figures.emplace_back(r.solved, r.*figure);
  const RunPercentile at = percentile_over_runs(figures, p);
  return at.at_least ? std::nullopt : std::optional(at.value);
}

// The score's 90 % interval: the 5th and 95th percentiles of the score over resamples of the
// runs (drawn with replacement, from a fixed seed: the same runs give the same interval).
std::pair<double, double> score_interval(const std::vector<RunFigures>& runs, const Deduction& ladder) {
  constexpr int kResamples = 200;
  if (runs.empty() || !ladder.stalled) return {score_of(ladder, std::nullopt), score_of(ladder, std::nullopt)};
  std::mt19937_64 draw(20261126);
  std::uniform_int_distribution<std::size_t> pick(0, runs.size() - 1);
  std::vector<double> scores;
  std::vector<RunFigures> sample(runs.size());
  for (int k = 0; k < kResamples; ++k) {
    for (auto& s : sample) s = runs[pick(draw)];
    scores.push_back(score_of(ladder, over_runs(sample, 0.9, &RunFigures::evaluations)));
  }
  std::sort(scores.begin(), scores.end());
  return {scores[kResamples * 5 / 100], scores[kResamples * 95 / 100 - 1]};
}

// A temporary CSV for the runs when the caller keeps none, one a call (a process may rate from
// several threads: Python); removed when done.
struct ScratchCsv {
  std::string path;
  bool remove = false;
  explicit ScratchCsv(const std::string& kept) : path(kept) {
    if (!path.empty()) return;
    static std::atomic<unsigned> calls{0};
    path = (std::filesystem::temp_directory_path() /
            ("gpuga-rate-" + std::to_string(::getpid()) + "-" + std::to_string(calls++) + ".csv"))
               .string();
    std::filesystem::remove(path);
    remove = true;
  }
  ~ScratchCsv() {
    std::error_code ec;
    if (remove) std::filesystem::remove(path, ec);
  }
};

}  // namespace

double score_of(const Deduction& ladder, std::optional<double> p90_evaluations) {
  if (!ladder.stalled) return ladder.difficulty;
  const double within = p90_evaluations ? std::log10(1 + *p90_evaluations) / 10 : 0.9;
  return kLadderTop + std::min(0.9, within);
}

std::string rating_of(const PuzzleRating& r) {
  if (r.solutions != 1) return "not unique";
  if (r.stalled && r.runs > 0 && !r.median_evaluations) return "unsolved";
  return rating_word(r.score);
}

std::vector<PuzzleRating> rate(const RateSetup& setup, const RunOptions& options,
                               BatchReporter* reporter) {
  // Read once (standard input cannot be read again) and given to the batch.
  const std::vector<Puzzle> puzzles =
      read_solvable_puzzles(setup.files, [] { return g_interrupted.load(); });
  if (g_interrupted.load()) return {};
  if (!setup.runs_csv.empty()) check_output_file(setup.runs_csv, "--runs-csv");
  std::error_code ec;
  GPUGA_INPUT_CHECK(setup.runs_csv.empty() || !std::filesystem::exists(setup.runs_csv, ec) ||
                        std::filesystem::file_size(setup.runs_csv, ec) == 0,
                    setup.runs_csv + ": exists; expected a new file for --runs-csv (rate runs "
                    "every run afresh: remove it or name another)");
  const ScratchCsv csv(setup.runs_csv);
  BatchSetup batch;
  batch.puzzles = puzzles;
  batch.runs = setup.runs;
  batch.concurrent = setup.concurrent;
  batch.csv = csv.path;
  // A rating of part of a puzzle's runs would read as a whole one.
  if (setup.runs > 0 && run_batches(batch, {options}, nullptr, reporter) == BatchEnd::Interrupted) return {};
  // Every run's row, by puzzle (file#index, as batch names it).
  const auto rows = setup.runs > 0 ? read_csv_rows(csv.path) : std::vector<std::vector<std::string>>{{}};
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows.front().size(); ++c) col[rows.front()[c]] = c;
  std::map<std::string, std::vector<RunFigures>> runs;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    runs[row[col.at("puzzle_id")]].push_back(
        {row[col.at("solved")] == "1", std::stod(row[col.at("generations")]),
         std::stod(row[col.at("evaluations")]), std::stod(row[col.at("seconds")])});
  }
  std::vector<PuzzleRating> out;
  for (const Puzzle& p : puzzles) {
    PuzzleRating r;
    r.file = p.file;
    r.line = p.line;
    r.index = p.index;
    r.size = size_name(p.grid);
    r.puzzle = to_line(p.grid, p.alphabet);
    r.givens = clue_count(p.grid);
    const Propagated singles = propagate_singles(p.grid);
    r.propagation_fills = singles.placed;
    const ExactResult exact = solve_exact(p.grid, 2, ExactSolver::Sat);  // its conflicts: the effort column
    r.solutions = exact.solutions;
    r.exact_conflicts = exact.conflicts;
    // The ladder's patterns assume one solution: on another puzzle its difficulty means nothing.
    Deduction ladder;
    if (r.solutions == 1) ladder = deduce(p.grid);
    r.deduction = ladder.difficulty;
    r.technique = r.solutions == 1 ? ladder.technique : "not rated: several solutions";
    r.stalled = ladder.stalled;
    const std::vector<RunFigures>& mine = runs[p.file + "#" + std::to_string(p.index)];
    r.runs = static_cast<std::uint32_t>(mine.size());
    r.solved = static_cast<std::uint32_t>(std::count_if(mine.begin(), mine.end(),
                                                        [](const RunFigures& f) { return f.solved; }));
    r.success_rate = r.runs ? double(r.solved) / r.runs : 0;
    r.median_generations = over_runs(mine, 0.5, &RunFigures::generations);
    r.p90_generations = over_runs(mine, 0.9, &RunFigures::generations);
    r.median_evaluations = over_runs(mine, 0.5, &RunFigures::evaluations);
    r.p90_evaluations = over_runs(mine, 0.9, &RunFigures::evaluations);
    r.median_seconds = over_runs(mine, 0.5, &RunFigures::seconds);
    r.p90_seconds = over_runs(mine, 0.9, &RunFigures::seconds);
    r.score = score_of(ladder, r.p90_evaluations);
    std::tie(r.score_low, r.score_high) = score_interval(mine, ladder);
    r.rating = rating_of(r);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<std::pair<std::string, RatingValue>> rating_fields(const PuzzleRating& r) {
  const auto number = [](std::optional<double> v) { return v ? RatingValue(*v) : RatingValue(); };
  const bool rated = r.solutions == 1;  // the ladder's patterns assume one solution
  return {{"file", r.file},
          {"line", std::int64_t(r.line)},
          {"index", std::int64_t(r.index)},
          {"size", r.size},
          {"puzzle", r.puzzle},
          {"givens", std::int64_t(r.givens)},
          {"propagation_fills", std::int64_t(r.propagation_fills)},
          {"deduction", r.stalled || !rated ? RatingValue() : RatingValue(r.deduction)},
          {"technique", r.technique},
          {"solutions", std::string(r.solutions == 1 ? "one" : "several")},
          {"exact_conflicts", std::int64_t(r.exact_conflicts)},
          {"runs", std::int64_t(r.runs)},
          {"solved", std::int64_t(r.solved)},
          {"success_rate", r.success_rate},
          {"median_generations", number(r.median_generations)},
          {"p90_generations", number(r.p90_generations)},
          {"median_evaluations", number(r.median_evaluations)},
          {"p90_evaluations", number(r.p90_evaluations)},
          {"median_seconds", number(r.median_seconds)},
          {"p90_seconds", number(r.p90_seconds)},
          {"score", rated ? RatingValue(r.score) : RatingValue()},
          {"score_low", rated ? RatingValue(r.score_low) : RatingValue()},
          {"score_high", rated ? RatingValue(r.score_high) : RatingValue()},
          {"rating", r.rating}};
}

const std::vector<std::string>& rating_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> out;
    for (const auto& field : rating_fields(PuzzleRating{})) out.push_back(field.first);
    return out;
  }();
  return columns;
}

std::string csv_text(const RatingValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", *d);
    return text;
  }
  if (const auto* w = std::get_if<std::string>(&v)) return *w;
  return "";
}

}  // namespace gpuga
