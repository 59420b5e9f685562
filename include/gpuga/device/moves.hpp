#pragma once
// What a move (operators.hpp: propose_move) does to the fitness, computed from the units it
// touches rather than the whole grid, and the Metropolis acceptance of simulated annealing in
// integer arithmetic. Written once for host and device; the full fitness (fitness.hpp) stays the
// reference that the tests hold these to.
#include <array>
#include <cstdint>

#include "gpuga/device/operators.hpp"

namespace gpuga {

// Whether a fitness counts units of type T (0 rows, 1 columns, 2 boxes): the squared metric and
// the cell encoding count all 27; conflicts leave out the units the encoding keeps permutations.
template <int T>
GPUGA_HD_INLINE bool counts_units(Encoding encoding, FitnessKind kind) {
  if (kind == FitnessKind::Squared || encoding == Encoding::Cell) return true;
  return encoding == Encoding::Box ? T != 2 : T != 0;
}

// The unit of type T through cell c: its number, its first cell, and the offset of its k-th cell
// from the first (k a constant once the loops below unroll).
template <int T, int B>
GPUGA_HD_INLINE int unit_index(int c) {
  using S = Shape<B>;
  return T == 0 ? S::row_of(c) : (T == 1 ? S::col_of(c) : S::box_of(c));
}
template <int T, int B>
GPUGA_HD_INLINE int unit_first(int c) {
  using S = Shape<B>;
  constexpr int band = B * S::kSide;
  return T == 0 ? c - S::col_of(c) : (T == 1 ? S::col_of(c) : c / band * band + S::col_of(c) / B * B);
}
template <int T, int B>
GPUGA_HD_INLINE int unit_offset(int k) {
  return T == 0 ? k : (T == 1 ? Shape<B>::kSide * k : k / B * Shape<B>::kSide + k % B);
}

// 1 << 4v: one of value v (< 16) in a word of four-bit counts. On the host a table, so that
// counting a cell is a load and an add (a shift by a variable takes four instructions in the
// x86-64 baseline, and unit_change counts up to 36 cells a move); on the device a shift.
#if !defined(__CUDA_ARCH__)
inline constexpr std::array<std::uint64_t, 16> kNibbleOnes = [] {
  std::array<std::uint64_t, 16> t{};
  for (int v = 0; v < 16; ++v) t[v] = std::uint64_t(1) << (4 * v);
  return t;
}();
#endif
GPUGA_HD_INLINE std::uint64_t nibble_one(unsigned v) {
#if defined(__CUDA_ARCH__)
  return std::uint64_t(1) << (4 * v);
#else
  return kNibbleOnes[v];
#endif
}

// The change of the cost of a unit when one of its cells goes from value x to value y != x, with
// nx, ny the counts of x and y among the unit's other cells: conflicts (n - distinct values)
// change by [ny > 0] - [nx > 0]; the squared metric (sum of (count - 1)^2) by s(ny) - s(nx),
// where s(0) = 0 and s(n) = 2n - 1.
GPUGA_HD_INLINE int count_change(int nx, int ny, FitnessKind kind) {
  if (kind == FitnessKind::Conflicts) return (ny > 0) - (nx > 0);
  return (ny ? 2 * ny - 1 : 0) - (nx ? 2 * nx - 1 : 0);
}

// The same from the unit's values counted in one word, four bits a value (up to 9x9: a count is
// at most 9), x among them.
GPUGA_HD_INLINE int nibble_change(std::uint64_t counts, int x, int y, FitnessKind kind) {
  return count_change(static_cast<int>((counts >> (4 * x)) & 15) - 1,
                      static_cast<int>((counts >> (4 * y)) & 15), kind);
}

// The values of cell c's unit of type T counted in one word, four bits a value.
template <int T, int B>
GPUGA_HD_INLINE std::uint64_t unit_counts(const std::uint8_t* genome, int c) {
  static_assert(Shape<B>::kSide <= 9, "four-bit counts");
  const std::uint8_t* first = genome + unit_first<T, B>(c);
  std::uint64_t counts = 0;
  GPUGA_UNROLL
  for (int k = 0; k < Shape<B>::kSide; ++k) counts += nibble_one(first[unit_offset<T, B>(k)]);
  return counts;
}

// The change of the cost of cell c's unit of type T when c goes from value x (which it holds)
// to value y != x. Up to 9x9 the unit's values are counted in one word; larger units count x
// and y by comparison.
template <int T, int B>
GPUGA_HD_INLINE int unit_change(const std::uint8_t* genome, int c, int x, int y, FitnessKind kind) {
  constexpr int side = Shape<B>::kSide;
  if constexpr (side <= 9) {
    return nibble_change(unit_counts<T, B>(genome, c), x, y, kind);
  } else {
    const std::uint8_t* first = genome + unit_first<T, B>(c);
    int nx = -1, ny = 0;  // c itself holds x
    for (int k = 0; k < side; ++k) {
      const int v = first[unit_offset<T, B>(k)];
      nx += v == x;
      ny += v == y;
    }
    return count_change(nx, ny, kind);
  }
}

// The change that `move` makes in the units of type T: a swap leaves a unit that holds both
// cells as it was, so only the units of one cell and not the other change.
template <int T, int B>
GPUGA_HD_INLINE int units_change(const std::uint8_t* genome, const Move& move, Encoding encoding,
                                 FitnessKind kind) {
  if (!counts_units<T>(encoding, kind)) return 0;
  if (move.b < 0) return unit_change<T, B>(genome, move.a, genome[move.a], move.value, kind);
  if (unit_index<T, B>(move.a) == unit_index<T, B>(move.b)) return 0;
  return unit_change<T, B>(genome, move.a, genome[move.a], genome[move.b], kind) +
         unit_change<T, B>(genome, move.b, genome[move.b], genome[move.a], kind);
}

// Whether move leaves genome as it is: no move, or a swap of two equal values.
GPUGA_HD_INLINE bool leaves_grid(const std::uint8_t* genome, const Move& move) {
  return move.a < 0 || (move.b >= 0 && genome[move.a] == genome[move.b]);
}

// fitness(genome after move) - fitness(genome), with genome before the move: at most four units
// change.
template <int B>
GPUGA_HD_INLINE int move_delta(const std::uint8_t* genome, const Move& move, Encoding encoding,
                               FitnessKind kind) {
  if (leaves_grid(genome, move)) return 0;
  return units_change<0, B>(genome, move, encoding, kind) +
         units_change<1, B>(genome, move, encoding, kind) +
         units_change<2, B>(genome, move, encoding, kind);
}

// move_delta for a run of moves on one grid (a chain's sweep, a child's local search): the units
// the fitness counts (counts_units) have their values counted once, and a move's change is read
// from the counts of the four units it touches instead of counting their cells again (36 at 9x9,
// 100 at 25x25); apply() keeps the counts with the grid. Up to 9x9 a unit's counts are one word,
// four bits a value; larger units keep a byte a value. On the CPU, with the inlining that needs
// (host/CMakeLists.txt), that made 9x9 sa's moves about 20% faster and hc's 30%, and 16x16 and
// 25x25 moves 1.3-1.9 times faster (docs/decisions.md). On the
// device the counts would sit in local memory (registers cannot be indexed at run time), up to
// 216 bytes a 9x9 chain and 1950 a 25x25 one, beside an island that fills shared memory, so the
// device counts the cells, as move_delta does, until a GPU measures which is faster. Both give
// move_delta's value, so runs do not change.
template <int B>
struct UnitCounts {
  static constexpr int side = Shape<B>::kSide;
  static constexpr bool kWords = side <= 9;  // a unit's counts in one word
#if defined(__CUDA_ARCH__)
  static constexpr bool kCounted = false;
#else
  static constexpr bool kCounted = true;
#endif
  // By unit type (rows, columns, boxes) and unit: a word of four-bit counts, or a count by value
  // (none on the device).
  static constexpr int kWordUnits = kCounted && kWords ? side : 1;
  static constexpr int kByteUnits = kCounted && !kWords ? side : 1;
  std::uint64_t w[3][kWordUnits];
  std::uint8_t c[3][kByteUnits][kByteUnits == 1 ? 1 : side + 1];

  GPUGA_HD_INLINE void count(const std::uint8_t* genome, Encoding encoding, FitnessKind kind) {
    if constexpr (kCounted) {
      count_units<0>(genome, encoding, kind);
      count_units<1>(genome, encoding, kind);
      count_units<2>(genome, encoding, kind);
    }
  }

  // move_delta(genome, move, encoding, kind).
  GPUGA_HD_INLINE int delta(const std::uint8_t* genome, const Move& move, Encoding encoding,
                            FitnessKind kind) const {
    if constexpr (kCounted) {
      if (leaves_grid(genome, move)) return 0;
      return units_delta<0>(genome, move, encoding, kind) +
             units_delta<1>(genome, move, encoding, kind) +
             units_delta<2>(genome, move, encoding, kind);
    } else {
      return move_delta<B>(genome, move, encoding, kind);
    }
  }

  // The counts after `move`; `genome` is the grid before it (call before apply_move).
  GPUGA_HD_INLINE void apply(const std::uint8_t* genome, const Move& move, Encoding encoding,
                             FitnessKind kind) {
    if constexpr (kCounted) {
      if (move.a < 0) return;
      apply_units<0>(genome, move, encoding, kind);
      apply_units<1>(genome, move, encoding, kind);
      apply_units<2>(genome, move, encoding, kind);
    }
  }

 private:
  template <int T>
  GPUGA_HD_INLINE void count_units(const std::uint8_t* genome, Encoding encoding, FitnessKind kind) {
    if (!counts_units<T>(encoding, kind)) return;
    for (int u = 0; u < side; ++u) {
      const int first = Shape<B>::unit_cell(T * side + u, 0);
      if constexpr (kWords) {
        w[T][u] = unit_counts<T, B>(genome, first);
      } else {
        for (int v = 0; v <= side; ++v) c[T][u][v] = 0;
        for (int k = 0; k < side; ++k) ++c[T][u][genome[first + unit_offset<T, B>(k)]];
      }
    }
  }
  // The change of unit u's cost when one of its cells goes from x to y, from its counts.
  template <int T>
  GPUGA_HD_INLINE int unit_delta(int u, int x, int y, FitnessKind kind) const {
    if constexpr (kWords) return nibble_change(w[T][u], x, y, kind);
    else return count_change(c[T][u][x] - 1, c[T][u][y], kind);
  }
  // As units_change: a unit that holds both cells of a swap does not change. units_change skips
  // the counting then; here both changes cost two lookups, and a select instead of that branch
  // (taken at random) is worth 13% of sa's moves/s and 19% of hc's (docs/decisions.md).
  template <int T>
  GPUGA_HD_INLINE int units_delta(const std::uint8_t* genome, const Move& move, Encoding encoding,
                                  FitnessKind kind) const {
    if (!counts_units<T>(encoding, kind)) return 0;
    const int x = genome[move.a], ua = unit_index<T, B>(move.a);
    if (move.b < 0) return unit_delta<T>(ua, x, move.value, kind);
    const int y = genome[move.b], ub = unit_index<T, B>(move.b);
    const int change = unit_delta<T>(ua, x, y, kind) + unit_delta<T>(ub, y, x, kind);
    return ua == ub ? 0 : change;
  }
  // Within one unit a swap's two updates cancel.
  template <int T>
  GPUGA_HD_INLINE void apply_units(const std::uint8_t* genome, const Move& move, Encoding encoding,
                                   FitnessKind kind) {
    if (!counts_units<T>(encoding, kind)) return;
    const int x = genome[move.a], y = move.b < 0 ? move.value : genome[move.b];
    const int ua = unit_index<T, B>(move.a);
    if constexpr (kWords) {
      w[T][ua] += nibble_one(y) - nibble_one(x);
      if (move.b >= 0) w[T][unit_index<T, B>(move.b)] += nibble_one(x) - nibble_one(y);
    } else {
      --c[T][ua][x], ++c[T][ua][y];
      if (move.b >= 0) {
        const int ub = unit_index<T, B>(move.b);
        --c[T][ub][y], ++c[T][ub][x];
      }
    }
  }
};

// exp(-x) for x >= 0 in 32.32 fixed point, as a 32.32 fixed-point number: exp(-x / 4096) by its
// Taylor series to the fourth power (error below 1e-16), squared twelve times, all in 2.62
// fixed point. Integers only, so host and device compute the same bits.
GPUGA_HD_INLINE std::uint64_t exp_neg_fixed(std::uint64_t x) {
  constexpr std::uint64_t kOne = std::uint64_t(1) << 62;
  if (x >= std::uint64_t(23) << 32) return 0;  // exp(-23) * 2^32 < 1
  const std::uint64_t z = x << 18;             // x / 4096 in 2.62 (x < 2^37)
  auto mul = [](std::uint64_t a, std::uint64_t b) { return mul_hi_64(a, b) << 2; };
  const std::uint64_t z2 = mul(z, z), z3 = mul(z2, z), z4 = mul(z3, z);
  std::uint64_t y = kOne - z + z2 / 2 - z3 / 6 + z4 / 24;
  for (int k = 0; k < 12; ++k) y = mul(y, y);
  return y >> 30;
}

// The acceptance threshold of a worsening by d >= 1 at inverse temperature beta (32.32): a 32-bit
// draw below it accepts, which happens with probability exp(-d * beta). `accept1` is
// exp_neg_fixed(beta), that of d = 1; exp(-d beta) = exp(-beta)^d.
GPUGA_HD_INLINE std::uint64_t accept_threshold(std::uint64_t accept1, int d) {
  std::uint64_t t = accept1;
  for (int k = 1; k < d && t; ++k) t = (t * accept1) >> 32;
  return t;
}

// beta after one cooling step (temperature times `cooling`), saturated where no worsening is
// accepted any more (exp(-2^8) = 0 in 32 bits).
inline constexpr std::uint64_t kFrozenBeta = std::uint64_t(1) << 40;

GPUGA_HD_INLINE std::uint64_t cool(std::uint64_t beta, std::uint64_t cooling_step) {
  const std::uint64_t next = beta + (mul_hi_64(beta, cooling_step) << 1);
  return next < kFrozenBeta ? next : kFrozenBeta;
}

}  // namespace gpuga
