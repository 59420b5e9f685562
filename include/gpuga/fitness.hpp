#pragma once
// Fitness, an integer: 0 means solved, lower is better. Written once for host and device.
#include <cstdint>

#include "gpuga/config.hpp"
#include "gpuga/grid.hpp"

namespace gpuga {

// Conflicts of one unit: 9 minus the number of distinct digits in it (blanks are no digit).
// Rows, columns and boxes each have their own loop: the generic unit_cell() costs a division
// per cell, and these loops are the GA's innermost work.
GPUGA_HD_INLINE int distinct_conflicts(unsigned seen) { return kSide - GPUGA_POPCOUNT(seen & 0x3FEu); }

GPUGA_HD_INLINE int row_conflicts(const std::uint8_t* g, int r) {
  unsigned seen = 0;
  for (int k = 0; k < kSide; ++k) seen |= 1u << g[r * kSide + k];
  return distinct_conflicts(seen);
}
GPUGA_HD_INLINE int col_conflicts(const std::uint8_t* g, int c) {
  unsigned seen = 0;
  for (int k = 0; k < kSide; ++k) seen |= 1u << g[k * kSide + c];
  return distinct_conflicts(seen);
}
GPUGA_HD_INLINE int box_conflicts(const std::uint8_t* g, int b) {
  const std::uint8_t* top_left = g + (b / 3) * 27 + (b % 3) * 3;
  unsigned seen = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) seen |= 1u << top_left[i * kSide + j];
  return distinct_conflicts(seen);
}

// Units 0-8 rows, 9-17 columns, 18-26 boxes.
GPUGA_HD_INLINE int unit_conflicts(const std::uint8_t* g, int u) {
  return u < 9 ? row_conflicts(g, u) : (u < 18 ? col_conflicts(g, u - 9) : box_conflicts(g, u - 18));
}

// Squared metric of one unit: for each digit held c >= 1 times, (c - 1)^2.
GPUGA_HD_INLINE int unit_squared(const std::uint8_t* g, int u) {
  std::uint8_t count[10] = {};
  for (int k = 0; k < kSide; ++k) ++count[g[unit_cell(u, k)]];
  int s = 0;
  for (int v = 1; v <= 9; ++v) s += count[v] ? (count[v] - 1) * (count[v] - 1) : 0;
  return s;
}

// The units an encoding's conflict fitness counts: those its individuals can violate.
GPUGA_HD_INLINE int first_counted_unit(Encoding e) { return e == Encoding::Row ? 9 : 0; }
GPUGA_HD_INLINE int end_counted_unit(Encoding e) { return e == Encoding::Box ? 18 : kUnits; }

// The digits present in every row, column and box, in one pass over the cells (bit v: digit
// v present), for the fitness functions that need all three.
struct UnitMasks {
  unsigned row[kSide], col[kSide], box[kSide];
};

GPUGA_HD_INLINE UnitMasks unit_masks(const std::uint8_t* g) {
  UnitMasks m{};
  for (int r = 0; r < kSide; ++r)
    for (int c = 0; c < kSide; ++c) {
      const unsigned bit = 1u << g[r * kSide + c];
      m.row[r] |= bit;
      m.col[c] |= bit;
      m.box[(r / 3) * 3 + c / 3] |= bit;
    }
  return m;
}

GPUGA_HD_INLINE int conflict_fitness(const std::uint8_t* g, Encoding e) {
  const UnitMasks m = unit_masks(g);
  int f = 0;
  for (int i = 0; i < kSide; ++i) {
    if (e != Encoding::Row) f += distinct_conflicts(m.row[i]);
    f += distinct_conflicts(m.col[i]);
    if (e != Encoding::Box) f += distinct_conflicts(m.box[i]);
  }
  return f;
}

GPUGA_HD_INLINE int squared_fitness(const std::uint8_t* g) {
  int f = 0;
  for (int u = 0; u < kUnits; ++u) f += unit_squared(g, u);
  return f;
}

GPUGA_HD_INLINE int fitness(const std::uint8_t* g, Encoding e, FitnessKind kind) {
  return kind == FitnessKind::Squared ? squared_fitness(g) : conflict_fitness(g, e);
}

// Upper bound of any fitness value (27 units x 64 for squared), for counting sorts.
inline constexpr int kFitnessBound = 27 * 64 + 1;

}  // namespace gpuga
