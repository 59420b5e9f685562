#pragma once
// The shape of a grid of box size B (2..8) in host and device code: n = B * B values, n * n
// cells row by row, one byte a cell (0 a blank, 1..n a value). Every operator is a template over
// B, so that the 9x9 path keeps its constants and the larger grids get their own.
#include <cstdint>
#include <type_traits>

#include "gpuga/device/hd.hpp"

namespace gpuga {

template <int B>
struct Shape {
  static_assert(B >= 2 && B <= 8, "box sizes 2 to 8: 4x4 to 64x64");
  static constexpr int kBox = B;
  static constexpr int kSide = B * B;
  static constexpr int kCells = kSide * kSide;
  static constexpr int kUnits = 3 * kSide;  // n rows, n columns, n boxes
  // A set of values or of a block's cells (bit i for its i-th): a 32-bit word up to 25x25, 64
  // bits from 36x36. Value v is bit v up to 49x49, where a blank (0) sets bit 0, outside
  // kValues, so that a unit's mask needs no test for blanks; 64x64's 64 values fill the word
  // from bit 0 (bit v - 1), and a blank sets none. value_bit, holds and value_of_bit are the
  // only places that know which (tests/test_fitness.cpp checks every size against the host's).
  using Bits = std::conditional_t<(kSide < 32), std::uint32_t, std::uint64_t>;
  static constexpr int kValueShift = kSide == 64 ? 1 : 0;
  // Every value once.
  static constexpr Bits kValues = kValueShift ? ~Bits(0) : ((Bits(1) << kSide) - 1u) << 1;
  // Value v's bit (0 for a blank at 64x64).
  GPUGA_HD_INLINE static constexpr Bits value_bit(int v) {
    if constexpr (kValueShift != 0)
      return Bits(v != 0) << ((v - 1) & (8 * sizeof(Bits) - 1));
    else
      return Bits(1) << v;
  }
  // 1 when the set m holds value v (1..n), else 0; 0 for a blank at 64x64, whose shift by
  // v - 1 would be by -1 (undefined: x86 and PTX give different bits), as value_bit says.
  GPUGA_HD_INLINE static constexpr Bits holds(Bits m, int v) {
    if constexpr (kValueShift != 0)
      return Bits(v != 0) & (m >> ((v - 1) & (8 * sizeof(Bits) - 1)));
    else
      return (m >> v) & 1u;
  }
  // The value of bit i of a set of values.
  GPUGA_HD_INLINE static constexpr int value_of_bit(int i) { return i + kValueShift; }
  // An individual's genome bytes: its cells and zero padding to an odd number of 32-bit words (9x9: 84
  // bytes, 21 words), so that the genomes of the 32 threads of a warp start in 32 different
  // shared-memory banks and a warp that reads the same cell of each thread's own individual
  // reads without a bank conflict. 4x4's four words become five and 16x16's 64 become 65 (at 64
  // every genome starts on the same bank: a 32-way conflict); 9x9 and 25x25 are odd already.
  // (16x16's 65 made the segment step spill at 128 registers on sm_90; at 64, since the GA's
  // step of its own, it does not: docs/decisions.md.)
  static constexpr int kWords = (kCells + 3) / 4;
  static constexpr int kGenomeBytes = 4 * (kWords | 1);
  // A cell index, and a mask of values.
  using Cell = std::conditional_t<(kCells <= 256), std::uint8_t, std::uint16_t>;
  using Mask = std::conditional_t<(kSide < 16), std::uint16_t, Bits>;

  GPUGA_HD_INLINE static int row_of(int c) { return c / kSide; }
  GPUGA_HD_INLINE static int col_of(int c) { return c % kSide; }
  GPUGA_HD_INLINE static int box_of(int c) { return row_of(c) / B * B + col_of(c) / B; }

  // Cell index of the k-th cell (0..n-1) of a unit. Units 0..n-1 are rows, n..2n-1 columns,
  // 2n..3n-1 boxes.
  GPUGA_HD_INLINE static int row_cell(int r, int k) { return r * kSide + k; }
  GPUGA_HD_INLINE static int col_cell(int c, int k) { return k * kSide + c; }
  GPUGA_HD_INLINE static int box_cell(int b, int k) {
    return (b / B * B + k / B) * kSide + b % B * B + k % B;
  }
  GPUGA_HD_INLINE static int unit_cell(int u, int k) {
    return u < kSide ? row_cell(u, k)
                     : (u < 2 * kSide ? col_cell(u - kSide, k) : box_cell(u - 2 * kSide, k));
  }
};

}  // namespace gpuga
