#pragma once
// Exact search by bitmasks, for every box size: each cell's candidates as a mask of values;
// after every placement naked singles (a cell with one candidate) and hidden singles (a value
// with one cell left in a unit) to a fixed point; then a guess at the open cell with the fewest
// candidates (the first in cell order), its values in ascending order, depth first, until the
// limit of solutions. Deterministic: a grid gives the same solutions in the same order. It
// never gives up on its own: `guess_budget` bounds its effort, and the caller (exact_solver.cpp)
// hands a puzzle that exceeds it to the SAT solver, which is faster on the few puzzles that make
// a search branch widely (25x25 at low fills).
#include <cstdint>

#include "gpuga/sudoku/grid.hpp"
#include "singles.hpp"

namespace gpuga {

struct SearchCount {
  bool finished = false;      // false: the guesses ran past the budget, nothing else is known
  int solutions = 0;          // up to the limit
  std::uint64_t guesses = 0;  // values tried at branches: the search's effort
};

// Solutions of `puzzle` up to `limit` (0 when its givens clash), and the first of them into
// `first` when it is not null. Given a full grid `near`, each guess tries its value first (and,
// where a value has two places left in a unit, its place first): solutions close to it come
// first. Made to be called many times a second (gpuga generate removes a
// given at a time): each thread keeps its search's memory from call to call.
SearchCount search_solutions(const Grid& puzzle, int limit, std::uint64_t guess_budget,
                             Forbidden forbidden = {}, Grid* first = nullptr,
                             const Grid* near = nullptr);

}  // namespace gpuga
