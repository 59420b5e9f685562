#pragma once
// The grid as a person solves it by deduction: each cell's value or its candidates (bit v - 1
// for value v, as the library's core of candidates gives them: singles.hpp), each unit's cells
// and each cell's peers, which the ladder's rules (rules.hpp) read. They change it only
// through place() and remove(), which keep every peer's candidates true. A
// copy is cheap (the cells and their candidates; the units and peers are shared), so that a
// rule or a chain may try a change on a copy.
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpuga/sudoku/grid.hpp"

namespace gpuga::ladder {

using Mask = std::uint64_t;

// Whether a set holds exactly one value, or two: cheaper than a count where the machine's
// baseline has no population count instruction.
inline bool one_value(Mask m) { return m && !(m & (m - 1)); }
inline bool two_values(Mask m) { return m && one_value(m & (m - 1)); }

class Board {
 public:
  explicit Board(const Grid& puzzle);

  int side() const { return n_; }
  int box() const { return grid_.box; }
  int cells() const { return grid_.cells(); }
  int units() const { return grid_.units(); }
  int value(int c) const { return grid_.cell[c]; }
  Mask candidates(int c) const { return candidates_[c]; }
  const std::vector<Mask>& candidates() const { return candidates_; }
  const std::vector<int>& unit(int u) const { return shape_->unit_cells[u]; }
  // Cell c's row, column and box, as unit indices.
  const std::array<int, 3>& units_of(int c) const { return shape_->units_of[c]; }
  const std::vector<int>& peers(int c) const { return shape_->peers[c]; }
  bool sees(int a, int b) const {
    const auto& ua = units_of(a);
    const auto& ub = units_of(b);
    return a != b && (ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2]);
  }
  bool in_unit(int c, int u) const;
  // Where value v may still go in unit u: bit k for the unit's k-th cell; how many places.
  Mask positions(int u, int v) const;
  int places(int u, int v) const { return places_[u * n_ + v - 1]; }
  const std::vector<std::uint8_t>& places() const { return places_; }

  void place(int c, int v);
  // Takes `values` out of cell c's candidates; whether any was there.
  bool remove(int c, Mask values);
  bool open() const;
  // Whether some open cell has no candidate left, or some unit no place for a value it lacks:
  // the givens, or a uniqueness pattern on a puzzle of several solutions, left no solution. A
  // rule on such a board could read an empty choice (a cell's candidates, a value's places), so
  // the ladder stops before its rules see one.
  bool broken() const;
  const Grid& grid() const { return grid_; }

 private:
  struct Shape {
    std::vector<std::vector<int>> unit_cells, peers;
    std::vector<std::array<int, 3>> units_of;
  };
  Grid grid_;
  int n_;
  std::vector<Mask> candidates_;
  std::vector<std::uint8_t> places_;  // places(u, v), kept as candidates go
  std::shared_ptr<const Shape> shape_;
  void forget(int c, Mask values);
};

}  // namespace gpuga::ladder
