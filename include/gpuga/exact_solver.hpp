#pragma once
// Exact checker for puzzles and tests; never a way for the GA to find answers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuga/grid.hpp"
#include "gpuga/puzzle_io.hpp"

namespace gpuga {

// Which exact solver counts: the bitmask search (host/sudoku/search_solver.hpp), CaDiCaL (SAT),
// or the one that is faster for the puzzle (auto: the search, unless its guesses run past a
// budget, which only puzzles that make it branch widely do: then SAT, from the start).
enum class ExactSolver { Auto, Search, Sat };

struct ExactResult {
  int solutions = 0;  // 0, 1, or 2 meaning "two or more" (counting stops at the limit)
  Grid solution;      // the first found, when solutions > 0
  // The SAT solver's effort, where it answered: the clauses it learned, one a conflict, over the
  // whole count (how hard the puzzle is for it, the same on every machine); 0 where the search
  // answered.
  std::uint64_t conflicts = 0;
  ExactSolver answered_by = ExactSolver::Search;  // Search or Sat
};

const char* to_string(ExactSolver);

// Counts solutions of a puzzle of any size up to `limit`. The search: every box size, its
// values in a fixed order. SAT: the puzzle as CNF, solved, then solved again with each solution
// found forbidden; plain backtracking takes minutes on some 25x25 puzzles at 40% given, this
// milliseconds. Both are deterministic; which solution a puzzle of several gives first depends
// on the solver.
ExactResult solve_exact(const Grid& puzzle, int limit = 2, ExactSolver solver = ExactSolver::Auto);

// Whether `puzzle` (one solution) without its given at cell `c` still has exactly one solution:
// whether no solution holds another value there (gpuga generate --unique asks it of each given
// in turn). The search answers within its budget, else the SAT solver, on the free cells'
// candidates with that value forbidden at c: one solve where counting to two took two.
bool unique_without(const Grid& puzzle, int c);

// A completion of `puzzle` by the search alone, with its values tried in ascending order, or
// nothing when it has none or the search would guess more than `guess_budget` times.
std::optional<Grid> complete_by_search(const Grid& puzzle, std::uint64_t guess_budget);

// The puzzles of the files, refusing (InputError naming file and line) any without a solution,
// so that the GA never starts on one.
std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files);

}  // namespace gpuga
