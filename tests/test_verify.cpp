// Verification: the only gate to "solved".
#include <gtest/gtest.h>

#include "grids.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

namespace {
const std::string& kPuzzle = kEasyPuzzle;
const std::string& kSolution = kEasySolution;
}  // namespace

TEST(Verify, AcceptsTheSolution) {
  const auto v = verify_solution(grid_of(kPuzzle), grid_of(kSolution));
  EXPECT_TRUE(v.ok) << v.reason;
  EXPECT_TRUE(v.reason.empty());
}

TEST(Verify, RejectsAChangedGiven) {
  // Swapping two digits throughout keeps every unit a permutation but moves givens.
  std::string other = kSolution;
  for (auto& ch : other) ch = ch == '4' ? '8' : (ch == '8' ? '4' : ch);
  const auto v = verify_solution(grid_of(kPuzzle), grid_of(other));
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("given"), std::string::npos) << v.reason;
}

TEST(Verify, RejectsADuplicateInAUnit) {
  // Free cells r1c1 (4) and r1c2 (8) swapped: row 1 stays a permutation, columns break.
  std::string bad = kSolution;
  std::swap(bad[0], bad[1]);
  auto v = verify_solution(grid_of(kPuzzle), grid_of(bad));
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("column 1"), std::string::npos) << v.reason;
  bad = kSolution;
  bad[0] = '8';  // row 1 now holds 8 twice
  v = verify_solution(grid_of(kPuzzle), grid_of(bad));
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("row 1"), std::string::npos) << v.reason;
}

TEST(Verify, RejectsAnIncompleteGrid) {
  const auto v = verify_solution(grid_of(kPuzzle), grid_of(kPuzzle));
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("not 1-9"), std::string::npos) << v.reason;
}

TEST(Verify, ChecksAllUnitsOfALargerGrid) {
  Grid solved(4);  // the pattern solution: (4 (r % 4) + r / 4 + c) mod 16
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) solved.cell[r * 16 + c] = static_cast<std::uint8_t>((4 * (r % 4) + r / 4 + c) % 16 + 1);
  Grid puzzle = solved;
  for (int c = 0; c < 256; c += 3) puzzle.cell[c] = 0;
  EXPECT_TRUE(verify_solution(puzzle, solved).ok) << verify_solution(puzzle, solved).reason;
  Grid bad = solved;
  std::swap(bad.cell[1], bad.cell[1 + 16 * 4]);  // column 2 keeps its values, boxes change
  auto v = verify_solution(Grid(4), bad);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("row"), std::string::npos) << v.reason;
  bad = solved;
  bad.cell[0] = 17;
  v = verify_solution(puzzle, bad);
  EXPECT_NE(v.reason.find("not 1-16"), std::string::npos) << v.reason;
  EXPECT_FALSE(verify_solution(puzzle, grid_of(kEasySolution)).ok);  // another size
}
