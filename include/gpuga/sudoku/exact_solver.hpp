#pragma once
// Exact checker for puzzles and tests; never a way for the GA to find answers.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuga/sudoku/grid.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

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

// Takes givens away from a full grid one cell at a time, each cell decided once and for good
// (gpuga generate --unique): a given goes where the puzzle without it keeps exactly one solution,
// that is where no solution holds another value at its cell, and stays otherwise. The search
// answers within its budget, trying the grid's own values first (a puzzle that lost a given has
// its other solutions near the grid); past it, one SAT solver made for the whole removal answers,
// the givens not yet decided as assumptions and the kept ones as clauses, so that what it learns
// from one question serves the next (a solver made afresh for each question spent most of its
// time being built).
class GivenRemover {
 public:
  explicit GivenRemover(const Grid& solution);  // a full grid: the puzzle before any removal
  ~GivenRemover();

  // Removes the given at `c` where one solution remains without it; true then. Each cell is
  // asked at most once.
  bool remove_if_unique(int c);
  const Grid& puzzle() const { return puzzle_; }

 private:
  struct Sat;
  bool unique_by_sat(int c);

  Grid solution_;
  Grid puzzle_;
  std::vector<std::uint8_t> decided_;  // per cell: asked already (its given kept or gone)
  std::unique_ptr<Sat> sat_;           // made at the first question past the search's budget
};

// A completion of `puzzle` by the search alone, with its values tried in ascending order, or
// nothing when it has none or the search would guess more than `guess_budget` times.
std::optional<Grid> complete_by_search(const Grid& puzzle, std::uint64_t guess_budget);

// The puzzles of the files, refusing (InputError naming file and line) any without a solution,
// so that the GA never starts on one: decided exactly up to 25x25; from 36x36, where an exact
// count can take minutes, one the search proves unsolvable within a budget of guesses (one it
// cannot decide in that budget runs). `stop`, where given, is asked before each puzzle's check:
// once it says so (a signal), the puzzles checked so far come back.
std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files,
                                          const std::function<bool()>& stop = {});

}  // namespace gpuga
