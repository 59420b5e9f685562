#include "gpuga/sudoku/propagate.hpp"

#include <bit>
#include <vector>

namespace gpuga {

const char* to_string(Propagation p) { return p == Propagation::Singles ? "singles" : "none"; }

bool Propagated::complete() const {
  for (const auto v : grid.cell)
    if (v == 0) return false;
  return !contradiction;
}

namespace {

// Every value cell c may still take (value_bit's bits).
std::uint64_t candidates(const Grid& g, int c) {
  const int n = g.side();
  std::uint64_t taken = 0;
  for (int u : {g.row_of(c), n + g.col_of(c), 2 * n + g.box_of(c)})
    for (int k = 0; k < n; ++k)
      if (const int v = g.cell[g.unit_cell(u, k)]) taken |= value_bit(v);
  return all_values(n) & ~taken;
}

// One pass of naked singles: places every cell with one candidate left. False on a contradiction.
bool naked_singles(Propagated& p) {
  Grid& g = p.grid;
  for (int c = 0; c < g.cells(); ++c) {
    if (g.cell[c] != 0) continue;
    const std::uint64_t cand = candidates(g, c);
    if (cand == 0) {
      p.where = cell_name(g, c);
      p.where += " has no candidate";
      return false;
    }
    if (std::popcount(cand) == 1) {
      g.cell[c] = static_cast<std::uint8_t>(std::countr_zero(cand) + 1);
      ++p.placed;
    }
  }
  return true;
}

// One pass of hidden singles: a value that only one cell of a unit can take goes there. False on
// a contradiction (a value missing from a unit with no cell for it).
bool hidden_singles(Propagated& p) {
  Grid& g = p.grid;
  const int n = g.side();
  for (int u = 0; u < g.units(); ++u)
    for (int v = 1; v <= n; ++v) {
      int where = -1, count = 0;
      bool present = false;
      for (int k = 0; k < n && !present; ++k) {
        const int c = g.unit_cell(u, k);
        if (g.cell[c] == v) present = true;
        else if (g.cell[c] == 0 && (candidates(g, c) & value_bit(v))) where = c, ++count;
      }
      if (present || count > 1) continue;
      if (count == 0) {
        p.where = unit_name(g, u);
        p.where += " has no cell for ";
        p.where += std::to_string(v);
        return false;
      }
      g.cell[where] = static_cast<std::uint8_t>(v);
      ++p.placed;
    }
  return true;
}

}  // namespace

Propagated propagate_singles(const Grid& puzzle) {
  Propagated p;
  p.grid = puzzle;
  for (int before = -1; before != p.placed;) {
    before = p.placed;
    if (!naked_singles(p) || !hidden_singles(p)) {
      p.contradiction = true;
      break;
    }
  }
  return p;
}

}  // namespace gpuga
