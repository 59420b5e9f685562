#pragma once
// What the rating ladder must do on any puzzle whose givens agree, of one solution, several or
// none (fuzz_ladder, ladder_sweep): keep the givens, stall at a contradiction rather than fail,
// and fill only a grid that verifies, a unique puzzle's with its solution.
#include <string>

#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/verify.hpp"

namespace gpuga::fuzz {

// "" where the ladder did all that on `puzzle`; else what it did wrong.
inline std::string ladder_fault(const Grid& puzzle) {
  const Deduction d = deduce(puzzle);
  for (int c = 0; c < puzzle.cells(); ++c)
    if (puzzle.cell[c] && d.grid.cell[c] != puzzle.cell[c]) return "the ladder changed a given";
  const ExactResult exact = solve_exact(puzzle, 2);
  if (d.contradiction && !d.stalled) return "a contradiction that did not stall the ladder";
  if (d.contradiction && exact.solutions == 1) return "a contradiction on a puzzle of one solution";
  if (d.stalled) return "";
  if (const Verdict v = verify_solution(puzzle, d.grid); !v.ok)
    return "the ladder filled a grid that does not verify: " + v.reason;
  if (exact.solutions == 1 && exact.solution != d.grid)
    return "the ladder filled a unique puzzle with another grid than its solution";
  return "";
}

}  // namespace gpuga::fuzz
