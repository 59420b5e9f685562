#pragma once
// Fitness, an integer: 0 means solved, lower is better. Written once for host and device, for
// every box size B (grid.hpp).
#include <cstdint>

#include "gpuga/device/island_params.hpp"
#include "gpuga/device/grid.hpp"

namespace gpuga {

// Conflicts of one unit: n minus the number of distinct values in it (blanks are no value).
template <int B>
GPUGA_HD_INLINE int distinct_conflicts(typename Shape<B>::Bits seen) {
  return Shape<B>::kSide - bit_count(seen & Shape<B>::kValues);
}

// Units 0..n-1 rows, n..2n-1 columns, 2n..3n-1 boxes (for checks by hand and tests; the GA's
// own loops use band_scores below).
template <int B>
GPUGA_HD_INLINE int unit_conflicts(const std::uint8_t* grid, int u) {
  using Bits = typename Shape<B>::Bits;
  Bits seen = 0;
  for (int k = 0; k < Shape<B>::kSide; ++k) seen |= Shape<B>::value_bit(grid[Shape<B>::unit_cell(u, k)]);
  return distinct_conflicts<B>(seen);
}

// Squared metric of one unit: for each value held c >= 1 times, (c - 1)^2.
template <int B>
GPUGA_HD_INLINE int unit_squared(const std::uint8_t* grid, int u) {
  constexpr int side = Shape<B>::kSide;
  std::uint8_t count[side + 1] = {};
  for (int k = 0; k < side; ++k) ++count[grid[Shape<B>::unit_cell(u, k)]];
  int s = 0;
  for (int v = 1; v <= side; ++v) s += count[v] ? (count[v] - 1) * (count[v] - 1) : 0;
  return s;
}

// Conflicts of B units together: B n minus their distinct values. Up to 9x9 with one popcount
// over their masks' value bits side by side (B n <= 32 bits).
template <int B>
GPUGA_HD_INLINE int group_conflicts(const typename Shape<B>::Bits* m) {
  constexpr int side = Shape<B>::kSide;
  if constexpr (B * side <= 32) {
    unsigned packed = 0;
    for (int k = 0; k < B; ++k) packed |= ((m[k] & Shape<B>::kValues) >> 1) << (side * k);
    return B * side - bit_count(packed);
  } else {
    int c = 0;
    for (int k = 0; k < B; ++k) c += distinct_conflicts<B>(m[k]);
    return c;
  }
}

// Per-individual scores, also what the band crossover reads (computed at evaluation, so that
// breeding reads 3B bytes of each parent instead of scanning both grids): [t] the conflicts of
// rows Bt..Bt+B-1, [B+t] of columns Bt..Bt+B-1, [2B+t] of boxes Bt..Bt+B-1, each over the units
// the encoding counts (0 otherwise). Returns their sum: the conflict fitness.
template <int B>
inline constexpr int kBandScores = 3 * B;

// Band t's three scores to out (null: not kept; a scratch array for them made the chains' step
// spill at 64 registers); returns their sum. The encoding's own blocks score 0 (not
// counted: box encoding's boxes, row encoding's rows).
template <int B>
GPUGA_HD_INLINE int put_band_scores(int t, int rows, int cols, int boxes, std::uint8_t* out) {
  if (!out) return rows + cols + boxes;
  // A band's B units hold at most B n conflicts: over a byte from 49x49 (343), where a score
  // stops at 255 (the band crossover only compares them; the sum returned is exact).
  const auto score = [](int x) { return static_cast<std::uint8_t>(B * B * B > 255 && x > 255 ? 255 : x); };
  out[t] = score(rows);
  out[B + t] = score(cols);
  out[2 * B + t] = score(boxes);
  return rows + cols + boxes;
}

// The scores in one pass over the cells, with all 3n masks live (9x9: 27, 25x25: 75): the host's.
template <int B>
GPUGA_HD_INLINE int band_scores_one_pass(const std::uint8_t* grid, Encoding encoding, std::uint8_t* out) {
  constexpr int side = Shape<B>::kSide;
  using Bits = typename Shape<B>::Bits;
  Bits rows[side] = {}, cols[side] = {}, boxes[side] = {};
  for (int r = 0; r < side; ++r) {
    Bits row = 0;
    for (int s = 0; s < B; ++s) {  // the row's B cells in box column s
      Bits seg = 0;
      for (int j = 0; j < B; ++j) {
        const Bits bit = Shape<B>::value_bit(grid[r * side + B * s + j]);
        seg |= bit;
        cols[B * s + j] |= bit;
      }
      row |= seg;
      boxes[r - r % B + s] |= seg;
    }
    rows[r] = row;
  }
  int total = 0;
  for (int t = 0; t < B; ++t)
    total += put_band_scores<B>(t, encoding != Encoding::Row ? group_conflicts<B>(rows + B * t) : 0,
                                group_conflicts<B>(cols + B * t),
                                encoding != Encoding::Box ? group_conflicts<B>(boxes + B * t) : 0, out);
  return total;
}

// The same band after band: band t's rows and boxes, then stack t's columns, at most 2B masks
// live at once and each cell read twice: the device's. The one pass's masks made the GPU's
// segment step spill at 64 registers; band by band made the CPU's plain GA 7-18 % slower
// (docs/decisions.md).
template <int B>
GPUGA_HD_INLINE int band_scores_by_band(const std::uint8_t* grid, Encoding encoding, std::uint8_t* out) {
  constexpr int side = Shape<B>::kSide;
  using Bits = typename Shape<B>::Bits;
  int total = 0;
  for (int t = 0; t < B; ++t) {
    Bits rows[B], boxes[B] = {}, cols[B] = {};
    for (int i = 0; i < B; ++i) {
      const std::uint8_t* row = grid + (B * t + i) * side;
      Bits whole = 0;
      for (int s = 0; s < B; ++s) {
        Bits seg = 0;
        for (int j = 0; j < B; ++j) seg |= Shape<B>::value_bit(row[B * s + j]);
        whole |= seg;
        boxes[s] |= seg;
      }
      rows[i] = whole;
    }
    const int row_score = encoding != Encoding::Row ? group_conflicts<B>(rows) : 0;
    const int box_score = encoding != Encoding::Box ? group_conflicts<B>(boxes) : 0;
    for (int r = 0; r < side; ++r)  // rows and boxes counted first: their masks are dead here
      for (int j = 0; j < B; ++j) cols[j] |= Shape<B>::value_bit(grid[r * side + B * t + j]);
    total += put_band_scores<B>(t, row_score, group_conflicts<B>(cols), box_score, out);
  }
  return total;
}

template <int B>
GPUGA_HD_INLINE int band_scores(const std::uint8_t* grid, Encoding encoding, std::uint8_t* out) {
#if defined(__CUDA_ARCH__)
  return band_scores_by_band<B>(grid, encoding, out);
#else
  return band_scores_one_pass<B>(grid, encoding, out);
#endif
}

// Units counted: box encoding rows and columns (boxes are permutations), row encoding columns
// and boxes, cell encoding all 3n.
template <int B>
GPUGA_HD_INLINE int conflict_fitness(const std::uint8_t* grid, Encoding encoding) {
  return band_scores<B>(grid, encoding, nullptr);
}

template <int B>
GPUGA_HD_INLINE int squared_fitness(const std::uint8_t* grid) {
  int f = 0;
  for (int u = 0; u < Shape<B>::kUnits; ++u) f += unit_squared<B>(grid, u);
  return f;
}

template <int B>
GPUGA_HD_INLINE int fitness(const std::uint8_t* grid, Encoding encoding, FitnessKind kind) {
  return kind == FitnessKind::Squared ? squared_fitness<B>(grid) : conflict_fitness<B>(grid, encoding);
}

// The highest value any fitness takes: 3n units x (n - 1)^2, the squared metric of a grid of
// one value.
template <int B>
inline constexpr int kMaxFitness = Shape<B>::kUnits * (Shape<B>::kSide - 1) * (Shape<B>::kSide - 1);

}  // namespace gpuga
