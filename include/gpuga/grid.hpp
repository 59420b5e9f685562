#pragma once
// The shape of a grid in host and device code: 81 bytes, 0 for a blank, 1-9 for a digit.
#include <cstdint>

#include "gpuga/hd.hpp"

namespace gpuga {

inline constexpr int kSide = 9;
inline constexpr int kCells = 81;
inline constexpr int kUnits = 27;  // 9 rows, 9 columns, 9 boxes

GPUGA_HD_INLINE int row_of(int c) { return c / kSide; }
GPUGA_HD_INLINE int col_of(int c) { return c % kSide; }
GPUGA_HD_INLINE int box_of(int c) { return (row_of(c) / 3) * 3 + col_of(c) / 3; }

// Cell index of the k-th cell (0..8) of a unit. Units 0-8 are rows, 9-17 columns, 18-26 boxes.
GPUGA_HD_INLINE int row_cell(int r, int k) { return r * kSide + k; }
GPUGA_HD_INLINE int col_cell(int c, int k) { return k * kSide + c; }
GPUGA_HD_INLINE int box_cell(int b, int k) {
  return ((b / 3) * 3 + k / 3) * kSide + (b % 3) * 3 + k % 3;
}
GPUGA_HD_INLINE int unit_cell(int u, int k) {
  return u < 9 ? row_cell(u, k) : (u < 18 ? col_cell(u - 9, k) : box_cell(u - 18, k));
}

}  // namespace gpuga
