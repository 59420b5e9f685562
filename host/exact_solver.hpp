#pragma once
// Exact solver for checking puzzles and for tests; never a way for the GA to find answers.
#include <string>
#include <vector>

#include "gpuga/grid.hpp"
#include "puzzle_io.hpp"

namespace gpuga {

struct ExactResult {
  int solutions = 0;  // 0, 1, or 2 meaning "two or more" (counting stops at the limit)
  Grid solution{};    // the first solution found, when solutions > 0
};

// Counts solutions up to `limit` by bitmask backtracking. At each node it branches on the
// tightest constraint: the cell with fewest candidates or the unit-digit with fewest places
// (naked and hidden singles are the branch-of-one cases), which keeps the hardest public
// puzzles in milliseconds.
ExactResult solve_exact(const Grid& puzzle, int limit = 2);

// The puzzles of the files, refusing (InputError naming file and line) any without a solution,
// so that the GA never starts on one.
std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files);

}  // namespace gpuga
