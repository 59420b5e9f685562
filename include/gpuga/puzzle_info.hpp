#pragma once
// What the operators need to know about a puzzle under an encoding: the givens, and for each
// block (a box or a row) its free cells and the digits missing there. Plain data for the device.
#include <cstdint>

#include "gpuga/config.hpp"
#include "gpuga/grid.hpp"

namespace gpuga {

struct PuzzleInfo {
  std::uint8_t givens[kCells]{};
  std::uint8_t free_count[kSide]{};          // free cells per block
  std::uint8_t free_cells[kSide][kSide]{};   // their cell indices
  std::uint8_t missing[kSide][kSide]{};      // digits absent from the block's givens
  std::uint8_t swappable[kSide]{};           // blocks with two or more free cells
  std::uint8_t n_swappable = 0;
  std::uint8_t all_free[kCells]{};           // every free cell, for the cell encoding
  std::uint8_t n_free = 0;
  std::uint16_t allowed[kCells]{};           // bit v: no given in the cell's row, column or
                                             // box holds v (given-aware operators)
};

// Cell k of block b: a box for the box encoding, a row otherwise (the cell encoding uses rows
// only to lay out its free cells).
GPUGA_HD_INLINE int block_cell(Encoding e, int b, int k) {
  return e == Encoding::Box ? box_cell(b, k) : row_cell(b, k);
}

inline PuzzleInfo make_puzzle_info(const std::uint8_t* givens, Encoding e) {
  PuzzleInfo info;
  for (int c = 0; c < kCells; ++c) info.givens[c] = givens[c];
  for (int b = 0; b < kSide; ++b) {
    unsigned present = 0;
    for (int k = 0; k < kSide; ++k) {
      const int c = block_cell(e, b, k);
      if (givens[c])
        present |= 1u << givens[c];
      else
        info.free_cells[b][info.free_count[b]++] = static_cast<std::uint8_t>(c);
    }
    int m = 0;
    for (int v = 1; v <= 9; ++v)
      if (!(present & (1u << v))) info.missing[b][m++] = static_cast<std::uint8_t>(v);
    if (info.free_count[b] >= 2) info.swappable[info.n_swappable++] = static_cast<std::uint8_t>(b);
  }
  unsigned unit_givens[kUnits] = {};
  for (int u = 0; u < kUnits; ++u)
    for (int k = 0; k < kSide; ++k) unit_givens[u] |= 1u << givens[unit_cell(u, k)];
  for (int c = 0; c < kCells; ++c) {
    if (givens[c]) continue;
    info.all_free[info.n_free++] = static_cast<std::uint8_t>(c);
    const unsigned taken = unit_givens[row_of(c)] | unit_givens[9 + col_of(c)] |
                           unit_givens[18 + box_of(c)];
    info.allowed[c] = static_cast<std::uint16_t>(0x3FEu & ~taken);
  }
  return info;
}

}  // namespace gpuga
