// The exact solver against the whole shipped corpus (the contract), and its counting.
#include <gtest/gtest.h>

#include "exact_solver.hpp"
#include "puzzle_io.hpp"
#include "verify.hpp"

using namespace gpuga;

TEST(ExactSolver, EveryCorpusPuzzleHasExactlyOneSolutionThatVerifies) {
  const auto puzzles = read_puzzle_file(GPUGA_SOURCE_DIR "/puzzles/ALL_9x9.txt");
  ASSERT_EQ(puzzles.size(), 613u);
  for (const auto& p : puzzles) {
    const auto r = solve_exact(p.grid, 2);
    ASSERT_EQ(r.solutions, 1) << "line " << p.line;
    const auto v = verify_solution(p.grid, r.solution);
    ASSERT_TRUE(v.ok) << "line " << p.line << ": " << v.reason;
  }
}

TEST(ExactSolver, CountsSeveralSolutions) {
  Grid empty{};
  EXPECT_EQ(solve_exact(empty, 2).solutions, 2);
  EXPECT_EQ(solve_exact(empty, 1).solutions, 1);
  EXPECT_TRUE(verify_solution(empty, solve_exact(empty, 1).solution).ok);
}

TEST(ExactSolver, FindsNoSolutionForAnUnsolvablePuzzle) {
  // Givens consistent pairwise, but r1c9 has no candidate left: row 1 holds 1-8 and column 9
  // holds a 9.
  Grid g{};
  const std::string s = "12345678.........9" + std::string(63, '.');
  for (int c = 0; c < kCells; ++c) g.cell[c] = s[c] == '.' ? 0 : s[c] - '0';
  EXPECT_EQ(solve_exact(g, 2).solutions, 0);
}

TEST(ExactSolver, ContradictoryGivensHaveNoSolution) {
  Grid g{};
  g.cell[0] = 5;
  g.cell[1] = 5;
  EXPECT_EQ(solve_exact(g, 2).solutions, 0);
}
