// Verification: the only gate to "solved".
#include <gtest/gtest.h>

#include "verify.hpp"

using namespace gpuga;

namespace {

// Built directly, not parsed: the parser rightly refuses grids with duplicates.
Grid grid_of(const std::string& line) {
  Grid g{};
  for (int c = 0; c < kCells; ++c) g.cell[c] = line[c] == '.' ? 0 : line[c] - '0';
  return g;
}

const std::string kPuzzle =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const std::string kSolution =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

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
