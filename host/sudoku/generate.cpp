#include "gpuga/sudoku/generate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <numeric>
#include <string>

#include "gpuga/device/rng.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {
namespace {

using Draws = RngOf<false>;

// 0..n-1 in an order drawn from `rng` (Fisher-Yates).
std::vector<int> shuffled(int n, Draws& rng) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(v[i], v[rng.below(static_cast<std::uint32_t>(i + 1))]);
  return v;
}

// A permutation of the side's rows (or columns) that keeps each band whole: bands shuffled,
// rows shuffled within each band.
std::vector<int> band_preserving(int box, Draws& rng) {
  const std::vector<int> bands = shuffled(box, rng);
  std::vector<int> out;
  for (const int b : bands)
    for (const int r : shuffled(box, rng)) out.push_back(b * box + r);
  return out;
}

// The guesses the search may make to complete the diagonal boxes before they are drawn again: it
// completes nearly every draw with a few (a fixed number, so that which draws are kept is a
// function of the seed alone).
constexpr std::uint64_t kCompletionGuesses = 10000;

Grid solved_grid(int box, Draws& rng) {
  Grid g(box);
  const int n = g.side();
  std::optional<Grid> completion;
  do {  // the diagonal boxes, independent of each other; drawn again where none completes them
    for (int d = 0; d < box; ++d) {
      const std::vector<int> values = shuffled(n, rng);
      for (int k = 0; k < n; ++k)
        g.cell[(d * box + k / box) * n + d * box + k % box] = static_cast<std::uint8_t>(values[k] + 1);
    }
    completion = complete_by_search(g, kCompletionGuesses);
  } while (!completion);  // 4x4's can clash in the boxes between them
  const Grid& completed = *completion;
  const std::vector<int> value = shuffled(n, rng), row = band_preserving(box, rng),
                         col = band_preserving(box, rng);
  Grid out(box);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      out.cell[r * n + c] = static_cast<std::uint8_t>(value[completed.cell[row[r] * n + col[c]] - 1] + 1);
  return out;
}

// A fraction reached, to four digits.
std::string four_digits(double f) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", f);
  return text;
}

// The fill as the shortest text that reads back as it (1.0000001 stays 1.0000001, not 1).
std::string fill_text(double f) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, f).ptr;
  return std::string(text, end);
}

// The givens --fill asks for (0 without it).
int target_givens(const GenerateSpec& s) {
  const int side = s.box * s.box;
  return s.fill ? static_cast<int>(std::lround(*s.fill * side * side)) : 0;
}

// Try `attempt` at puzzle k: a grid and an order of its givens drawn from (seed, k, attempt),
// givens removed down to the fill (with `unique`, while one solution remains); none where `stop`
// says so between two givens (a large unique puzzle takes minutes of them).
std::optional<Generated> attempt_puzzle(const GenerateSpec& s, std::uint32_t k, std::uint32_t attempt,
                                        const std::function<bool()>& stop) {
  Draws rng(s.seed, k, attempt, kPurposeGenerate);
  Generated out;
  out.solution = solved_grid(s.box, rng);
  const int cells = out.solution.cells();
  const int target = target_givens(s);
  int givens = cells;
  GivenRemover remover(out.solution);
  out.puzzle = out.solution;
  for (const int c : shuffled(cells, rng)) {
    if (givens == target) break;
    if (stop && stop()) return std::nullopt;
    if (s.unique && !remover.remove_if_unique(c)) continue;  // without it, another solution
    out.puzzle.cell[c] = 0;
    --givens;
  }
  out.givens = givens;
  out.unique = s.unique || givens == cells;
  return out;
}

std::string score_text(double score) {
  char text[16];
  std::snprintf(text, sizeof text, "%g", score);
  return text;
}

// Puzzle k of a rating band: the first minimal puzzle of attempts 0, 1, ... whose ladder score
// lies in the band; none where `stop` says so between two grids.
std::optional<Generated> rated_puzzle(GenerateSpec s, std::uint32_t k, const std::function<bool()>& stop) {
  s.unique = true;
  double lowest = 1e9, highest = 0;
  for (std::uint32_t attempt = 0; attempt < kRatingAttempts; ++attempt) {
    std::optional<Generated> tried = attempt_puzzle(s, k, attempt, stop);
    if (!tried) return std::nullopt;
    Generated& g = *tried;
    const Deduction ladder = deduce(g.puzzle);
    const double score = ladder_score(ladder);
    lowest = std::min(lowest, score);
    highest = std::max(highest, score);
    if (!s.rating->holds(score)) continue;
    g.score = score;
    g.technique = ladder.technique;
    g.tries = attempt + 1;
    return g;
  }
  throw NotFoundError("--rating " + score_text(s.rating->low) + "-" + score_text(s.rating->high) +
                      ": puzzle " + std::to_string(k + 1) + " not found in " + std::to_string(kRatingAttempts) +
                      " minimal puzzles, whose scores ran " + score_text(lowest) + " to " + score_text(highest) +
                      ". The puzzles written before it are whole; expected a band those scores reach");
}

// Puzzle k of the spec, or none where `stop` said so between two grids.
std::optional<Generated> make_puzzle(const GenerateSpec& s, std::uint32_t k, const std::function<bool()>& stop) {
  if (stop && stop()) return std::nullopt;
  if (s.rating) return rated_puzzle(s, k, stop);
  std::optional<Generated> first = attempt_puzzle(s, k, 0, stop);
  if (!first || !s.unique || !s.fill) return first;
  Generated best = std::move(*first);
  const int cells = best.solution.cells();
  const int target = target_givens(s);
  for (std::uint32_t attempt = 1; best.givens != target && attempt < kUniqueFillAttempts; ++attempt) {
    std::optional<Generated> next = attempt_puzzle(s, k, attempt, stop);
    if (!next) return std::nullopt;
    if (next->givens < best.givens) best = std::move(*next);
  }
  if (best.givens != target)
    throw NotFoundError("--unique --fill " + fill_text(*s.fill) + ": puzzle " + std::to_string(k + 1) +
                        " keeps one solution down to " + std::to_string(best.givens) +
                        " givens at best (fill " + four_digits(double(best.givens) / cells) + ", " +
                        std::to_string(kUniqueFillAttempts) + " grids tried) and no further; "
                        "expected " + std::to_string(target) + " givens. The puzzles written before it "
                        "are whole; expected a higher --fill, or --unique alone for minimal puzzles");
  return best;
}

}  // namespace

int box_of_size(int size) {
  for (int b = kMinBox; b <= kMaxBox; ++b)
    if (b * b == size) return b;
  return 0;
}

void check_spec(const GenerateSpec& s) {
  GPUGA_INPUT_CHECK(s.box >= kMinBox && s.box <= kMaxBox,
                    "--size " + std::to_string(s.box * s.box) + ": expected 4, 9, 16, 25, 36, 49 or 64");
  GPUGA_INPUT_CHECK(s.count >= 1, "--count 0: expected at least 1");
  GPUGA_INPUT_CHECK(s.fill || s.unique || s.rating, "neither --fill nor --unique; expected --fill F (the "
                                        "fraction of cells given), --unique, or both");
  if (s.fill)
    GPUGA_INPUT_CHECK(*s.fill >= 0 && *s.fill <= 1,
                      "--fill " + fill_text(*s.fill) + ": expected 0 to 1 (the fraction of cells given)");
  if (!s.rating) return;
  const std::string band = "--rating " + score_text(s.rating->low) + "-" + score_text(s.rating->high);
  GPUGA_INPUT_CHECK(!s.fill, band + " with --fill: expected one of them (a rated puzzle is minimal)");
  GPUGA_INPUT_CHECK(s.rating->holds(kLadderTop) || (s.rating->high > 1.0 && s.rating->low <= kLargestStep),
                    band + ": no puzzle scores there; expected a band within 1.0 (a unit's last cell) "
                    "to " + score_text(kLargestStep) + ", or holding " + score_text(kLadderTop) +
                    " (past the ladder)");
  const int side = s.box * s.box;
  GPUGA_INPUT_CHECK(side <= 16 || s.rating->holds(kLadderTop) || s.rating->low <= kLargestPattern,
                    band + " at " + std::to_string(side) + "x" + std::to_string(side) +
                        ": the ladder has no chains past 16x16, so its scores stop at " +
                        score_text(kLargestPattern) + " or are " + score_text(kLadderTop) +
                        " (past the ladder); expected a band reaching below " + score_text(kLargestPattern));
}

Generated generate_puzzle(const GenerateSpec& s, std::uint32_t k) { return *make_puzzle(s, k, {}); }

std::uint32_t generate(const GenerateSpec& s, std::uint32_t first, std::uint32_t last,
                       const std::function<void(const Generated&)>& take, const std::function<bool()>& stop) {
  check_spec(s);
  std::map<std::uint32_t, Generated> waiting;  // made, not yet handed: one before it is not
  std::uint32_t next = first;   // the next to hand
  std::uint32_t ended = last;   // the first that failed or was stopped: none from it is handed
  std::exception_ptr error;     // that puzzle's error, where it failed
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t at = first; at < static_cast<std::int64_t>(last); ++at) {
    const auto k = static_cast<std::uint32_t>(at);
    bool skip;
#pragma omp critical(gpuga_generate)
    skip = k > ended;
    if (skip) continue;
    std::optional<Generated> made;
    std::exception_ptr failed;
    try {
      made = make_puzzle(s, k, stop);
    } catch (...) {
      failed = std::current_exception();
    }
#pragma omp critical(gpuga_generate)
    {
      if (!made && k < ended) {
        ended = k;
        error = failed;
      } else if (made && k < ended) {
        waiting.emplace(k, std::move(*made));
        for (auto it = waiting.find(next); it != waiting.end() && next < ended; it = waiting.find(next)) {
          take(it->second);
          waiting.erase(it);
          ++next;
        }
      }
    }
  }
  if (error && next == ended) std::rethrow_exception(error);  // every puzzle before it handed
  return next - first;
}

std::string generated_line(const Grid& g) {
  if (g.box <= 3) return to_line(g, Alphabet::Digits);
  if (g.box == 5) return to_line(g, Alphabet::Lower);
  if (g.box >= 6) return to_line(g, Alphabet::Alnum64);
  const std::string hex = to_line(g, Alphabet::HexZero);
  const bool decides = hex.find_first_of("0abcdef") != std::string::npos;
  return decides ? hex : to_line(g, Alphabet::Numbers);
}

std::vector<Generated> generate(const GenerateSpec& s) {
  std::vector<Generated> out;
  generate(s, 0, s.count, [&out](const Generated& g) { out.push_back(g); });
  return out;
}

}  // namespace gpuga
