#pragma once
// Exact checker for puzzles and tests; never a way for the GA to find answers.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuga/grid.hpp"
#include "gpuga/puzzle_io.hpp"

namespace gpuga {

struct ExactResult {
  int solutions = 0;  // 0, 1, or 2 meaning "two or more" (counting stops at the limit)
  Grid solution;      // the first solution found, when solutions > 0
  // The solver's effort: the clauses it learned, one a conflict, over the whole count (a
  // measure of how hard the puzzle is for it, the same on every machine).
  std::uint64_t conflicts = 0;
};

// Counts solutions of a puzzle of any size up to `limit` with a SAT solver (CaDiCaL): the
// puzzle as CNF, solved, then solved again with each solution found forbidden. Plain
// backtracking takes minutes on some 25x25 puzzles at 40% given; this takes milliseconds.
ExactResult solve_exact(const Grid& puzzle, int limit = 2);

// The puzzles of the files, refusing (InputError naming file and line) any without a solution,
// so that the GA never starts on one.
std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files);

}  // namespace gpuga
