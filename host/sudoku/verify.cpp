#include "gpuga/sudoku/verify.hpp"

#include <cstdint>

namespace gpuga {
Verdict verify_solution(const Grid& puzzle, const Grid& candidate) {
  const int n = puzzle.side();
  const std::string range = "1-" + std::to_string(n);
  if (candidate.box != puzzle.box || candidate.cell.size() != puzzle.cell.size())
    return {false, "a grid of side " + std::to_string(candidate.side()) + " for a puzzle of side " +
                       std::to_string(n)};
  for (int c = 0; c < puzzle.cells(); ++c) {
    const int v = candidate.cell[c];
    if (v < 1 || v > n)
      return {false, cell_name(puzzle, c) + " holds " + std::to_string(v) + ", not " + range};
    if (puzzle.cell[c] != 0 && puzzle.cell[c] != v)
      return {false, "given " + std::to_string(puzzle.cell[c]) + " at " + cell_name(puzzle, c) +
                         " changed to " + std::to_string(v)};
  }
  for (int u = 0; u < puzzle.units(); ++u) {
    std::uint64_t seen = 0;
    for (int k = 0; k < n; ++k) seen |= value_bit(candidate.cell[puzzle.unit_cell(u, k)]);
    if (seen != all_values(n)) return {false, unit_name(puzzle, u) + " is not a permutation of " + range};
  }
  return {true, {}};
}

}  // namespace gpuga
