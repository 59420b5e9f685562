#pragma once
// Fitness, an integer: 0 means solved, lower is better. Written once for host and device.
#include <cstdint>

#include "gpuga/config.hpp"
#include "gpuga/grid.hpp"

namespace gpuga {

// Conflicts of one unit: 9 minus the number of distinct digits in it (blanks are no digit).
GPUGA_HD_INLINE int distinct_conflicts(unsigned seen) { return kSide - GPUGA_POPCOUNT(seen & 0x3FEu); }

// Units 0-8 rows, 9-17 columns, 18-26 boxes (for checks by hand and tests; the GA's own loops
// use unit_masks below).
GPUGA_HD_INLINE int unit_conflicts(const std::uint8_t* g, int u) {
  unsigned seen = 0;
  for (int k = 0; k < kSide; ++k) seen |= 1u << g[unit_cell(u, k)];
  return distinct_conflicts(seen);
}

// Squared metric of one unit: for each digit held c >= 1 times, (c - 1)^2.
GPUGA_HD_INLINE int unit_squared(const std::uint8_t* g, int u) {
  std::uint8_t count[10] = {};
  for (int k = 0; k < kSide; ++k) ++count[g[unit_cell(u, k)]];
  int s = 0;
  for (int v = 1; v <= 9; ++v) s += count[v] ? (count[v] - 1) * (count[v] - 1) : 0;
  return s;
}

// The digits present in every row, column and box, in one pass over the cells (bit v: digit
// v present), for the fitness functions that need all three.
struct UnitMasks {
  unsigned row[kSide], col[kSide], box[kSide];
};

GPUGA_HD_INLINE UnitMasks unit_masks(const std::uint8_t* g) {
  UnitMasks m{};
  for (int r = 0; r < kSide; ++r) {
    unsigned row = 0;
    for (int s = 0; s < 3; ++s) {  // the row's three cells in box column s
      unsigned seg = 0;
      for (int j = 0; j < 3; ++j) {
        const unsigned bit = 1u << g[r * kSide + 3 * s + j];
        seg |= bit;
        m.col[3 * s + j] |= bit;
      }
      row |= seg;
      m.box[r - r % 3 + s] |= seg;
    }
    m.row[r] = row;
  }
  return m;
}

// Conflicts of three units together: 27 minus their distinct digits, counted with one popcount
// over their masks' digit bits (1-9) side by side.
GPUGA_HD_INLINE int triple_conflicts(unsigned a, unsigned b, unsigned c) {
  const unsigned packed = ((a & 0x3FEu) >> 1) | ((b & 0x3FEu) << 8) | ((c & 0x3FEu) << 17);
  return 3 * kSide - GPUGA_POPCOUNT(packed);
}

// Per-individual scores, also what the band crossover reads (computed at evaluation, so that
// breeding reads 9 bytes of each parent instead of scanning both grids): [t] the conflicts of
// rows 3t..3t+2, [3+t] of columns 3t..3t+2, [6+t] of boxes 3t..3t+2, each over the units the
// encoding counts (0 otherwise). Returns their sum: the conflict fitness.
inline constexpr int kBandScores = 9;

GPUGA_HD_INLINE int band_scores(const std::uint8_t* g, Encoding e, std::uint8_t* out) {
  const UnitMasks m = unit_masks(g);
  int total = 0;
  for (int t = 0; t < 3; ++t) {
    const int k = 3 * t;
    const int rows = e != Encoding::Row ? triple_conflicts(m.row[k], m.row[k + 1], m.row[k + 2]) : 0;
    const int cols = triple_conflicts(m.col[k], m.col[k + 1], m.col[k + 2]);
    const int boxes = e != Encoding::Box ? triple_conflicts(m.box[k], m.box[k + 1], m.box[k + 2]) : 0;
    total += rows + cols + boxes;
    out[t] = static_cast<std::uint8_t>(rows);
    out[3 + t] = static_cast<std::uint8_t>(cols);
    out[6 + t] = static_cast<std::uint8_t>(boxes);
  }
  return total;
}

// Units counted: box encoding rows and columns (boxes are permutations), row encoding columns
// and boxes, cell encoding all 27.
GPUGA_HD_INLINE int conflict_fitness(const std::uint8_t* g, Encoding e) {
  std::uint8_t scores[kBandScores];
  return band_scores(g, e, scores);
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
