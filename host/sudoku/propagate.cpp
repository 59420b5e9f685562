#include "gpuga/sudoku/propagate.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "ladder/board.hpp"

namespace gpuga {

const char* to_string(Propagation p) { return p == Propagation::Singles ? "singles" : "none"; }

bool Propagated::complete() const {
  for (const auto v : grid.cell)
    if (v == 0) return false;
  return !contradiction;
}

namespace {

// One pass of naked singles: places every cell with one candidate left. False on a contradiction.
bool naked_singles(ladder::Board& board, Propagated& p) {
  for (int c = 0; c < board.cells(); ++c) {
    if (board.value(c) != 0) continue;
    const ladder::Mask cand = board.candidates(c);
    if (cand == 0) {
      p.where = cell_name(board.grid(), c) + " has no candidate";
      return false;
    }
    if (ladder::one_value(cand)) {
      board.place(c, std::countr_zero(cand) + 1);
      ++p.placed;
    }
  }
  return true;
}

// One pass of hidden singles: a value that only one cell of a unit can take goes there. False on
// a contradiction (a value missing from a unit with no cell for it).
bool hidden_singles(ladder::Board& board, Propagated& p) {
  const int n = board.side();
  for (int u = 0; u < board.units(); ++u)
    for (int v = 1; v <= n; ++v) {
      const auto& cells = board.unit(u);
      if (std::any_of(cells.begin(), cells.end(), [&](int c) { return board.value(c) == v; })) continue;
      const int places = board.places(u, v);
      if (places > 1) continue;
      if (places == 0) {
        p.where = unit_name(board.grid(), u) + " has no cell for " + std::to_string(v);
        return false;
      }
      board.place(cells[std::countr_zero(board.positions(u, v))], v);
      ++p.placed;
    }
  return true;
}

}  // namespace

Propagated propagate_singles(const Grid& puzzle) {
  Propagated p;
  ladder::Board board(puzzle);  // the candidates the ladder reads, kept as cells are placed
  for (int before = -1; before != p.placed;) {
    before = p.placed;
    if (!naked_singles(board, p) || !hidden_singles(board, p)) {
      p.contradiction = true;
      break;
    }
  }
  p.grid = board.grid();
  return p;
}

}  // namespace gpuga
