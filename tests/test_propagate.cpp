// Propagation on the givens (--presolve singles): every value it places is the puzzle's
// solution's, on every box size; it completes puzzles that singles solve, including one that
// needs hidden singles; it stops where singles stop; a contradiction is an error that says where;
// and solve and batch report a completed puzzle as solved by propagation, labelled.
#include <gtest/gtest.h>

#include <bit>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/solve.hpp"
#include "grids.hpp"
#include "paths.hpp"
#include "run_gpuga.hpp"
#include "temp_files.hpp"

using namespace gpuga;

namespace {

const std::string kEscargot =  // AI Escargot: singles place little
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

// The givens are kept, and every value propagation placed is forced: it is the unique
// solution's; for a puzzle of several solutions, the grid left has as many (counted up to two).
void expect_agrees_with_the_solution(const Grid& puzzle, const Propagated& p) {
  ASSERT_FALSE(p.contradiction) << p.where;
  const ExactResult exact = solve_exact(puzzle);
  ASSERT_GE(exact.solutions, 1);
  EXPECT_EQ(solve_exact(p.grid).solutions, exact.solutions);
  int placed = 0;
  for (int c = 0; c < puzzle.cells(); ++c) {
    if (puzzle.cell[c] != 0) EXPECT_EQ(p.grid.cell[c], puzzle.cell[c]) << "given " << c;
    if (puzzle.cell[c] == 0 && p.grid.cell[c] != 0) {
      ++placed;
      if (exact.solutions == 1) EXPECT_EQ(p.grid.cell[c], exact.solution.cell[c]) << "cell " << c;
    }
  }
  EXPECT_EQ(placed, p.placed);
}

// Naked singles alone to a fixed point: the reference that shows a puzzle needs hidden ones.
int naked_singles_only(Grid g) {
  int placed = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int c = 0; c < g.cells(); ++c) {
      if (g.cell[c] != 0) continue;
      std::uint32_t taken = 0;
      for (int u : {g.row_of(c), g.side() + g.col_of(c), 2 * g.side() + g.box_of(c)})
        for (int k = 0; k < g.side(); ++k) taken |= 1u << g.cell[g.unit_cell(u, k)];
      const std::uint32_t cand = (((1u << g.side()) - 1) << 1) & ~taken;
      if (std::popcount(cand) == 1) {
        g.cell[c] = static_cast<std::uint8_t>(std::countr_zero(cand));
        ++placed;
        changed = true;
      }
    }
  }
  return placed;
}

}  // namespace

TEST(Propagate, SinglesCompleteAPuzzleTheySolve) {
  const Grid puzzle = grid_of(kEasyPuzzle);
  const Propagated p = propagate_singles(puzzle);
  EXPECT_TRUE(p.complete());
  EXPECT_EQ(p.grid, grid_of(kEasySolution));
  expect_agrees_with_the_solution(puzzle, p);
}

TEST(Propagate, HiddenSinglesCompleteWhatNakedSinglesLeave) {
  // royle_17clue_50 #2: naked singles alone stall; with hidden singles the puzzle completes.
  const Grid puzzle = corpus_puzzle("royle_17clue_50.txt", 1);
  const Propagated p = propagate_singles(puzzle);
  EXPECT_TRUE(p.complete());
  expect_agrees_with_the_solution(puzzle, p);
  EXPECT_LT(naked_singles_only(puzzle), p.placed);
}

TEST(Propagate, StopsWhereSinglesStop) {
  const Grid puzzle = grid_of(kEscargot);
  const Propagated p = propagate_singles(puzzle);
  EXPECT_FALSE(p.complete());
  expect_agrees_with_the_solution(puzzle, p);
  EXPECT_EQ(propagate_singles(p.grid).placed, 0) << "not a fixed point";
}

TEST(Propagate, EveryBoxSizeAgreesWithTheSolution) {
  std::istringstream four("1.3.3...2..3...1\n");
  const Grid puzzles[] = {parse_puzzles(four, "4x4")[0].grid,
                          corpus_puzzle("acs_16x16_fixed040_inst00-09.txt"),
                          corpus_puzzle("acs_25x25_fixed040_inst00-09.txt"),
                          corpus_puzzle("acs_25x25_unique_fixed065-070.txt")};
  for (const Grid& puzzle : puzzles) {
    SCOPED_TRACE(puzzle.box);
    const Propagated p = propagate_singles(puzzle);
    expect_agrees_with_the_solution(puzzle, p);
    EXPECT_GT(p.placed, 0);
  }
}

TEST(Propagate, AContradictionSaysWhereAndStopsTheRun) {
  // r1c9: its row holds 1-8 and its column a 9.
  const Grid puzzle = grid_of("12345678." "........9" + std::string(63, '.'));
  const Propagated p = propagate_singles(puzzle);
  EXPECT_TRUE(p.contradiction);
  EXPECT_EQ(p.where, "r1c9 has no candidate");
  // A contradiction that a placement leaves: r1c8 and r1c9 both have 9 alone; the first placed
  // empties the other, which is named.
  const std::string empty_row(9, '.');
  const Propagated cascade = propagate_singles(grid_of("1234567.." + empty_row + empty_row + ".......8." +
                                                       empty_row + empty_row + "........8" + empty_row + empty_row));
  EXPECT_TRUE(cascade.contradiction);
  EXPECT_EQ(cascade.where, "r1c9 has no candidate");
  // Givens that clash: a 5 twice in box 1, nothing placed.
  const Propagated twice = propagate_singles(grid_of("5........" ".5......." + std::string(63, '.')));
  EXPECT_TRUE(twice.contradiction);
  EXPECT_EQ(twice.where, "box 1 holds 5 twice");
  EXPECT_EQ(twice.placed, 0);
  try {
    start_run(puzzle, Propagation::Singles, 1, "x.txt:3: puzzle 3");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x.txt:3: puzzle 3 has no solution: propagation found "
                                         "that r1c9 has no candidate"),
              std::string::npos) << e.what();
  }
  // Without propagation the puzzle goes to the search as it is (solve refuses it before, with
  // the exact checker).
  EXPECT_FALSE(start_run(puzzle, Propagation::None, 1, "x").result.has_value());
}

TEST(Propagate, SolveAndBatchReportACompletedPuzzleAsSolvedByPropagation) {
  const std::string lines = kEasyPuzzle + "\n" + kEscargot + "\n";
  const auto r = run_gpuga("solve --backend cpu --presolve singles --seed 3 --pop 200 "
                           "--max-generations 3 --time-limit 0 --report-every 0 --json -", lines);
  ASSERT_LE(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["presolve"], "singles");
  EXPECT_EQ(j["results"][0]["stop"], "propagation");
  EXPECT_EQ(j["results"][0]["solved"], true);
  EXPECT_EQ(j["results"][0]["generations"], 0);
  EXPECT_EQ(j["results"][0]["evaluations"], 0);
  EXPECT_EQ(j["results"][0]["grid"], kEasySolution);
  // Its time is the propagation's: more than none, less than a run's.
  EXPECT_GT(j["results"][0]["seconds"].get<double>(), 0.0);
  EXPECT_LT(j["results"][0]["seconds"].get<double>(), 0.5);
  EXPECT_NE(j["results"][1]["stop"], "propagation");  // the search went on from what was left
  EXPECT_NE(r.err.find("solved by propagation after 0 generations"), std::string::npos) << r.err;

  const auto puzzles = test_file("propagate.txt"), csv = test_file("propagate.csv");
  std::ofstream(puzzles) << lines;
  const auto b = run_gpuga("batch --backend cpu --presolve singles --runs 2 --seed 3 --pop 200 "
                           "--max-generations 3 --time-limit 0 --csv " + csv.string() + " " +
                           puzzles.string());
  ASSERT_LE(b.status, 1) << b.err;
  const auto rows = read_csv_rows(csv.string());
  ASSERT_EQ(rows.size(), 5u);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  int by_propagation = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][col.at("presolve")], "singles");
    if (rows[i][col.at("stop")] == "propagation") {
      ++by_propagation;
      EXPECT_EQ(rows[i][col.at("solved")], "1");
      EXPECT_EQ(rows[i][col.at("grid")], kEasySolution);
    }
  }
  EXPECT_EQ(by_propagation, 2);  // both runs of the easy puzzle
}
