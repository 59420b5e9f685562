#include "board.hpp"

#include "../singles.hpp"

namespace gpuga::ladder {

Board::Board(const Grid& puzzle)
    : grid_(puzzle), n_(puzzle.side()) {
  auto shape = std::make_shared<Shape>();
  shape->unit_cells.resize(units());
  shape->peers.resize(cells());
  shape->units_of.resize(cells());
  for (int u = 0; u < units(); ++u)
    for (int k = 0; k < n_; ++k) shape->unit_cells[u].push_back(grid_.unit_cell(u, k));
  for (int c = 0; c < cells(); ++c)
    shape->units_of[c] = {grid_.row_of(c), n_ + grid_.col_of(c), 2 * n_ + grid_.box_of(c)};
  shape_ = shape;
  for (int c = 0; c < cells(); ++c)
    for (int d = 0; d < cells(); ++d)
      if (sees(c, d)) shape->peers[c].push_back(d);
  candidates_ = given_candidates(puzzle);
  places_.assign(static_cast<std::size_t>(units()) * n_, 0);
  for (int c = 0; c < cells(); ++c)
    for (Mask rest = candidates_[c]; rest; rest &= rest - 1)
      for (const int u : units_of(c)) ++places_[u * n_ + std::countr_zero(rest)];
}

bool Board::in_unit(int c, int u) const {
  const int kind = u / n_;
  return units_of(c)[kind] == u;
}

Mask Board::positions(int u, int v) const {
  Mask where = 0;
  const Mask bit = value_bit(v);
  for (int k = 0; k < n_; ++k)
    if (candidates_[unit(u)[k]] & bit) where |= Mask(1) << k;
  return where;
}

void Board::forget(int c, Mask values) {
  for (Mask rest = candidates_[c] & values; rest; rest &= rest - 1)
    for (const int u : units_of(c)) --places_[u * n_ + std::countr_zero(rest)];
  candidates_[c] &= ~values;
}

void Board::place(int c, int v) {
  grid_.cell[c] = static_cast<std::uint8_t>(v);
  forget(c, candidates_[c]);
  for (const int d : peers(c)) forget(d, value_bit(v));
}

bool Board::remove(int c, Mask values) {
  if (!(candidates_[c] & values)) return false;
  forget(c, values);
  return true;
}

bool Board::open() const {
  for (const auto v : grid_.cell)
    if (!v) return true;
  return false;
}

bool Board::broken() const {
  for (int c = 0; c < cells(); ++c)
    if (!grid_.cell[c] && !candidates_[c]) return true;
  std::vector<std::uint8_t> placed(places_.size(), 0);  // by unit and value
  for (int c = 0; c < cells(); ++c)
    if (const int v = grid_.cell[c])
      for (const int u : units_of(c)) placed[u * n_ + v - 1] = 1;
  for (std::size_t k = 0; k < places_.size(); ++k)
    if (!placed[k] && !places_[k]) return true;
  return false;
}

}  // namespace gpuga::ladder
