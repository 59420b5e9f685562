// The tabu search on repaired grids (include/gpuga/device/tabu.hpp), at every box size the
// engine runs. A reference written out here cell by cell (each move's score counted over the
// cells of its units, the tabu kept in a map) makes the same moves as the search; both share only
// the key that orders the moves (TabuKey, tabu_hash). What comes out keeps the givens, holds a
// candidate in every free cell and has no more conflicts than the repaired grid with its blanks
// filled; a 9x9 grid stalled by its repair, and 25x25 and 36x36 ones of the hard band, are
// completed to solutions. A tile of lanes (a GPU's warp) makes the reference's moves at any width,
// with returns to the best grid (--tabu-return) or without.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "gpuga/device/breed.hpp"
#include "gpuga/device/tabu.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "grids.hpp"
#include "omp_lanes.hpp"
#include "paths.hpp"
#include "repair_reference.hpp"

using namespace gpuga;

namespace {

// Pairs of cells of a unit that hold one value, counted cell by cell.
template <int B>
int conflicts_of(const std::vector<std::uint8_t>& g) {
  using S = Shape<B>;
  int pairs = 0;
  for (int a = 0; a < S::kCells; ++a)
    for (int b = a + 1; b < S::kCells; ++b)
      pairs += g[a] && g[a] == g[b] &&
               (S::row_of(a) == S::row_of(b) || S::col_of(a) == S::col_of(b) || S::box_of(a) == S::box_of(b));
  return pairs;
}

// The cells of c's units but c that hold v.
template <int B>
int held_at(const std::vector<std::uint8_t>& g, int c, int v) {
  using S = Shape<B>;
  int held = 0;
  for (int p = 0; p < S::kCells; ++p)
    held += p != c && g[p] == v &&
            (S::row_of(p) == S::row_of(c) || S::col_of(p) == S::col_of(c) || S::box_of(p) == S::box_of(c));
  return held;
}

// The search as its header says it, with nothing kept between steps but the grid, the tabu and
// the step of its last better best or return; `returns` counts its returns to the best grid.
template <int B>
std::vector<std::uint8_t> reference_search(std::vector<std::uint8_t> g, const PuzzleInfo<B>& info,
                                           std::uint64_t seed, std::uint32_t child, std::uint32_t steps,
                                           std::uint32_t return_after = 0, int* returns = nullptr) {
  using S = Shape<B>;
  auto allows = [&](int c, int v) { return S::holds(static_cast<typename S::Bits>(info.allowed[c]), v) != 0; };
  for (int i = 0; i < info.n_free; ++i) {  // the blanks filled, in order, each least held
    const int c = info.all_free[i];
    if (g[c]) continue;
    for (int v = 1; v <= S::kSide; ++v)
      if (allows(c, v) && (!g[c] || held_at<B>(g, c, v) < held_at<B>(g, c, g[c]))) g[c] = static_cast<std::uint8_t>(v);
  }
  Rng rng(seed, 0, child, kPurposeTabu);
  const std::uint32_t stream = rng.next();
  std::map<std::pair<int, int>, std::uint32_t> tabu;  // (cell, value): the step it is free again
  std::vector<std::uint8_t> best = g;
  int conflicts = conflicts_of<B>(g), least_conflicts = conflicts;
  std::uint32_t last_turn = 0;
  for (std::uint32_t step = 0; step < steps && least_conflicts > 0; ++step) {
    std::uint64_t least = TabuKey::kNone;
    int in_conflict = 0;
    for (int i = 0; i < info.n_free; ++i) {
      const int c = info.all_free[i];
      if (!g[c] || held_at<B>(g, c, g[c]) == 0) continue;
      ++in_conflict;
      for (int v = 1; v <= S::kSide; ++v) {
        if (!allows(c, v) || v == g[c]) continue;
        const int score = held_at<B>(g, c, v) - held_at<B>(g, c, g[c]);
        const auto entry = tabu.find({c, v});
        if (entry != tabu.end() && entry->second > step && conflicts + score >= least_conflicts) continue;
        least = std::min(least, TabuKey::make(score, tabu_hash(stream, step, std::uint32_t(c) << 6 | (v - 1)), c, v));
      }
    }
    if (least == TabuKey::kNone) break;
    const int c = TabuKey::cell(least);
    tabu[{c, g[c]}] = step + 1 + tabu_hash(stream, step, 0xFFFFFFFFu) % 10 + in_conflict * 3 / 5;
    g[c] = static_cast<std::uint8_t>(TabuKey::value(least));
    conflicts = conflicts_of<B>(g);
    if (conflicts < least_conflicts) {
      least_conflicts = conflicts, best = g, last_turn = step;
    } else if (return_after && step - last_turn >= return_after) {
      g = best, conflicts = least_conflicts, last_turn = step;
      tabu.clear();
      if (returns) ++*returns;
    }
  }
  return best;
}

template <int B>
std::vector<std::uint8_t> search(std::vector<std::uint8_t> g, const PuzzleInfo<B>& info,
                                 std::uint64_t seed, std::uint32_t child, std::uint32_t steps,
                                 std::uint32_t return_after = 0) {
  static TabuScratch<B> scratch;
  tabu_search<B>(OneLane{}, scratch, g.data(), info, seed, 0, child, steps, return_after);
  return g;
}

// The same search by a tile of `width` OpenMP threads with real barriers (omp_lanes.hpp), each
// lane scoring its share of the cells in conflict, on tables that start as garbage.
template <int B>
std::vector<std::uint8_t> search_on_lanes(std::uint32_t width, std::vector<std::uint8_t> g,
                                          const PuzzleInfo<B>& info, std::uint32_t child,
                                          std::uint32_t steps, std::uint32_t return_after) {
  static TabuScratch<B> scratch;
  std::memset(static_cast<void*>(&scratch), 0xA5, sizeof(scratch));
  std::vector<std::uint32_t> exchange(2 * width);
#pragma omp parallel num_threads(static_cast<int>(width))
  tabu_search<B>(OmpLanes{exchange.data(), nullptr}, scratch, g.data(), info, 5, 0, child, steps, return_after);
  return g;
}

// A random child of the puzzle, repaired: where the GA's searches start.
template <int B>
std::vector<std::uint8_t> repaired_child(const PuzzleInfo<B>& info, std::uint32_t i) {
  std::vector<std::uint8_t> g(Shape<B>::kGenomeBytes, 0);
  Rng rng(B * 100 + 3, 1, i, kPurposeInit);
  init_individual<B>(g.data(), info, Encoding::Cell, false, rng);
  repair_by_propagation<B>(g.data(), info, rng);
  return g;
}

// Givens kept, and every free cell one of its candidates.
template <int B>
void expect_candidates(const std::vector<std::uint8_t>& g, const PuzzleInfo<B>& info) {
  using S = Shape<B>;
  for (int c = 0; c < S::kCells; ++c) {
    if (info.givens[c]) ASSERT_EQ(g[c], info.givens[c]) << "given moved at " << c;
    else ASSERT_TRUE(S::holds(static_cast<typename S::Bits>(info.allowed[c]), g[c])) << "cell " << c;
  }
}

// The search's moves are the reference's for `children` children of `puzzle`, on one lane and on
// tiles; with `return_after`, the reference goes back to its best at least once in some child.
template <int B>
void expect_reference_moves(const Grid& puzzle, std::uint32_t children, std::uint32_t steps,
                            std::uint32_t return_after = 0) {
  ASSERT_EQ(puzzle.box, B);
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  int returns = 0;
  for (std::uint32_t i = 0; i < children; ++i) {
    const std::vector<std::uint8_t> child = repaired_child<B>(info, i);
    const std::vector<std::uint8_t> reference = reference_search<B>(child, info, 5, i, steps, return_after, &returns);
    expect_candidates<B>(reference, info);
    ASSERT_NE(reference, child) << "child " << i << ": the search changed nothing";
    ASSERT_EQ(search<B>(child, info, 5, i, steps, return_after), reference) << "child " << i;
    // Tiles of 2 to 32 lanes, and widths that divide nothing, as a GPU's warps run it.
    for (const std::uint32_t width : {2u, 3u, 13u, 32u})
      ASSERT_EQ(search_on_lanes<B>(width, child, info, i, steps, return_after), reference)
          << "child " << i << " on " << width << " lanes";
    EXPECT_LE(conflicts_of<B>(reference), conflicts_of<B>(reference_search<B>(child, info, 5, i, 0)));
  }
  if (return_after) EXPECT_GT(returns, 0) << "no search went back to its best";
}

// A child of `puzzle` searched for up to `steps` steps: a solution of the puzzle (its givens,
// a candidate in every free cell and no conflict); `solution` where one is given (the puzzle's
// one solution).
template <int B>
void expect_solved(const Grid& puzzle, std::uint32_t child, std::uint32_t steps,
                   const std::vector<std::uint8_t>* solution = nullptr) {
  ASSERT_EQ(puzzle.box, B);
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  const std::vector<std::uint8_t> start = repaired_child<B>(info, child);
  ASSERT_GT(conflicts_of<B>(search<B>(start, info, 11, child, 0)), 0) << "the repair alone solved it";
  const std::vector<std::uint8_t> out = search<B>(start, info, 11, child, steps);
  expect_candidates<B>(out, info);
  EXPECT_EQ(conflicts_of<B>(out), 0);
  if (solution) EXPECT_EQ(out, *solution) << "child " << child;
}

Grid large_instance(int size, const char* fill) {
  return read_puzzle_file(source_path("bench/instances/" + std::to_string(size) + "x" +
                                      std::to_string(size) + "/fill-" + fill + ".txt"))[0].grid;
}

}  // namespace

TEST(Tabu, NineAndSixteenMakeTheReferencesMoves) {
  expect_reference_moves<3>(grid_of(kHardPuzzle), 6, 300);
  expect_reference_moves<4>(corpus_puzzle("acs_16x16_fixed040_inst00-09.txt"), 2, 100);
}

TEST(Tabu, TwentyFiveAndThirtySixInTheHardBandMakeTheReferencesMoves) {
  expect_reference_moves<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt"), 1, 20);
  expect_reference_moves<6>(large_instance(36, "0.50"), 1, 8);
}

TEST(Tabu, ReturnsToTheBestMakeTheReferencesMoves) {
  // Returns after a few steps, so that the short searches here make several, at 9x9 and in the
  // hard band of 36x36; the searches differ from those without returns.
  expect_reference_moves<3>(grid_of(kHardPuzzle), 6, 300, 7);
  expect_reference_moves<6>(large_instance(36, "0.50"), 1, 40, 3);
  const Grid puzzle = grid_of(kHardPuzzle);
  const PuzzleInfo<3> info = make_puzzle_info<3>(puzzle.cell.data(), Encoding::Cell);
  bool differ = false;
  for (std::uint32_t i = 0; i < 6 && !differ; ++i) {
    const std::vector<std::uint8_t> child = repaired_child<3>(info, i);
    differ = search<3>(child, info, 5, i, 300, 7) != search<3>(child, info, 5, i, 300);
  }
  EXPECT_TRUE(differ) << "returns changed no search";
}

TEST(Tabu, StalledGridsOfTheHardBandAreCompletedToTheirSolutions) {
  const Grid nine = grid_of(kHardPuzzle);
  const ExactResult exact = solve_exact(nine);
  ASSERT_EQ(exact.solutions, 1);
  std::vector<std::uint8_t> solution(exact.solution.cell.begin(), exact.solution.cell.end());
  solution.resize(Shape<3>::kGenomeBytes, 0);
  for (std::uint32_t child = 0; child < 4; ++child) expect_solved<3>(nine, child, 20000, &solution);
  // These two have several solutions (gpuga check says so; counting the 36x36's takes seconds):
  // any is theirs.
  expect_solved<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt"), 0, 400000);
  expect_solved<6>(large_instance(36, "0.45"), 0, 2000000);
}

TEST(Tabu, NoStepsFillTheBlanksAndMoveNothingElse) {
  const Grid puzzle = grid_of(kHardPuzzle);
  const PuzzleInfo<3> info = make_puzzle_info<3>(puzzle.cell.data(), Encoding::Cell);
  const std::vector<std::uint8_t> child = repaired_child<3>(info, 0);
  const std::vector<std::uint8_t> filled = search<3>(child, info, 1, 0, 0);
  expect_candidates<3>(filled, info);
  for (int c = 0; c < Shape<3>::kCells; ++c)
    if (child[c]) EXPECT_EQ(filled[c], child[c]) << "cell " << c;
  EXPECT_EQ(filled, reference_search<3>(child, info, 1, 0, 0));
}
