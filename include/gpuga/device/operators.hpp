#pragma once
// Initialisation, crossover and mutation over one individual of box size B (n * n bytes, givens
// in place), and what a move (propose_move) does to the fitness, computed from the units it
// touches rather than the whole grid (the full fitness, fitness.hpp, stays the reference that the
// tests hold these to). Givens never move; only free cells change. Written once for host and
// device.
#include <array>
#include <cstdint>

#include "gpuga/device/island_params.hpp"
#include "gpuga/device/fitness.hpp"
#include "gpuga/device/puzzle_info.hpp"
#include "gpuga/device/rng.hpp"

namespace gpuga {

// Swapping the values of free cells a and b leaves each where no given forbids it.
template <int B>
GPUGA_HD_INLINE bool swap_is_legal(const std::uint8_t* genome, const PuzzleInfo<B>& info, int a,
                                   int b) {
  return Shape<B>::holds(info.allowed[a], genome[b]) & Shape<B>::holds(info.allowed[b], genome[a]);
}

// Given-aware repair of one block after a random fill: each cell holding a digit a given
// forbids there swaps with the first cell (from a random start) where both digits become legal.
template <int B, class R>
GPUGA_HD_INLINE void repair_block(std::uint8_t* genome, const PuzzleInfo<B>& info, int b, R& rng) {
  const int count = info.free_count[b];
  const int start = count > 1 ? static_cast<int>(rng.below(static_cast<std::uint32_t>(count))) : 0;
  for (int i = 0; i < count; ++i) {
    const int ci = info.free_cells[b][i];
    if (Shape<B>::holds(info.allowed[ci], genome[ci])) continue;
    for (int k = 0; k < count; ++k) {
      const int cj = info.free_cells[b][(start + k) % count];
      if (cj != ci && swap_is_legal<B>(genome, info, ci, cj)) {
        const std::uint8_t t = genome[ci];
        genome[ci] = genome[cj];
        genome[cj] = t;
        break;
      }
    }
  }
}

// box/row: each block's missing values in random order (Fisher-Yates) into its free cells, so
// blocks are permutations, then (given-aware) repaired. cell: every free cell an independent
// value 1..n.
template <int B, class R>
GPUGA_HD_INLINE void init_individual(std::uint8_t* out, const PuzzleInfo<B>& info, Encoding encoding,
                                     bool given_aware, R& rng) {
  constexpr int n_side = Shape<B>::kSide;
  for (int c = 0; c < Shape<B>::kCells; ++c) out[c] = info.givens[c];
  if (encoding == Encoding::Cell) {
    for (int i = 0; i < info.n_free; ++i)
      out[info.all_free[i]] = static_cast<std::uint8_t>(1 + rng.below(n_side));
    return;
  }
  for (int b = 0; b < n_side; ++b) {
    std::uint8_t digits[n_side];
    const int count = info.free_count[b];
    for (int i = 0; i < count; ++i) digits[i] = info.missing[b][i];
    for (int i = count - 1; i > 0; --i) {
      const int j = static_cast<int>(rng.below(static_cast<std::uint32_t>(i + 1)));
      const std::uint8_t t = digits[i];
      digits[i] = digits[j];
      digits[j] = t;
    }
    for (int i = 0; i < count; ++i) out[info.free_cells[b][i]] = digits[i];
    if (given_aware) repair_block<B>(out, info, b, rng);
  }
}

template <int B>
GPUGA_HD_INLINE void copy_individual(std::uint8_t* out, const std::uint8_t* in) {
  for (int c = 0; c < Shape<B>::kCells; ++c) out[c] = in[c];
}

// Building-block crossover (after Sato & Inoue, 2010): the grid is cut into B bands (rows
// Bt..Bt+B-1) or B stacks (columns Bt..Bt+B-1), and each comes whole from the parent with fewer
// conflicts there (ties: a). box and cell: bands scored by rows or stacks by columns, at random,
// so boxes stay whole. row: bands of whole rows scored by their boxes.
template <int B, class R>
GPUGA_HD_INLINE void band_crossover(std::uint8_t* out, const std::uint8_t* a,
                                    const std::uint8_t* b, const std::uint8_t* score_a,
                                    const std::uint8_t* score_b, Encoding encoding, R& rng) {
  constexpr int count = Shape<B>::kSide, band = B * count;  // a band's cells, in a row
  const bool stacks = encoding != Encoding::Row && (rng.next() & 1u);
  const int first = encoding == Encoding::Row ? 2 * B : (stacks ? B : 0);
  for (int t = 0; t < B; ++t) {
    const std::uint8_t* src = score_b[first + t] < score_a[first + t] ? b : a;
    if (stacks) {  // columns Bt..Bt+B-1 of every row
      for (int r = 0; r < count; ++r)
        for (int j = 0; j < B; ++j) out[r * count + B * t + j] = src[r * count + B * t + j];
    } else {
      for (int k = band * t; k < band * t + band; ++k) out[k] = src[k];
    }
  }
}

// box/row: whole blocks from either parent, one-point over the n blocks (blocks before a point
// in 1..n-1 from a, the rest from b) or uniform. cell: one cut in 1..n*n-1 over the cells, or
// each free cell from either parent. (Crossover::Bands is band_crossover, which needs the
// scores.)
template <int B, class R>
GPUGA_HD_INLINE void crossover(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b,
                               const PuzzleInfo<B>& info, Encoding encoding, Crossover kind,
                               R& rng) {
  constexpr int count = Shape<B>::kSide, cells = Shape<B>::kCells;
  if (encoding == Encoding::Cell) {
    if (kind == Crossover::OnePoint) {
      const int cut = 1 + static_cast<int>(rng.below(cells - 1));
      for (int c = 0; c < cells; ++c) out[c] = c < cut ? a[c] : b[c];
      return;
    }
    copy_individual<B>(out, a);
    std::uint32_t bits = 0;
    for (int i = 0; i < info.n_free; ++i) {
      if (i % 32 == 0) bits = rng.next();
      const int c = info.all_free[i];
      if (bits & 1u) out[c] = b[c];
      bits >>= 1;
    }
    return;
  }
  using Bits = typename Shape<B>::Bits;
  constexpr Bits all = ~Bits(0) >> (8 * sizeof(Bits) - count);  // n may be the word's width
  Bits from_b;  // bit k set: block k comes from b
  if (kind == Crossover::OnePoint) {
    const std::uint32_t point = 1 + rng.below(count - 1);
    from_b = all & ~((Bits(1) << point) - 1u);
  } else if constexpr (count > 32) {  // 36x36 up: two draws, the first the low word
    const Bits low = rng.next();
    from_b = (Bits(rng.next()) << 32 | low) & all;
  } else {
    from_b = rng.next() & all;
  }
  for (int blk = 0; blk < count; ++blk) {
    const std::uint8_t* src = (from_b >> blk) & 1u ? b : a;
    for (int k = 0; k < count; ++k) {
      const int c = block_cell<B>(encoding, blk, k);
      out[c] = src[c];
    }
  }
}

// Cells a given-aware move tries before it gives up (and leaves the grid unchanged).
inline constexpr int kMutationTries = 4;

// The index in its block of the o-th free cell after free cell i (o < n - 1: any but i).
// i + 1 + o < 2n, so one subtraction does the modulo (a division costs more than the rest of a
// move).
GPUGA_HD_INLINE std::uint32_t partner(std::uint32_t i, std::uint32_t o, std::uint32_t count) {
  const std::uint32_t j = i + 1 + o;
  return j >= count ? j - count : j;
}

// One move of a grid: box/row, swap the values of free cells a and b; cell, cell a takes
// `value` (b < 0). a < 0: no move.
struct Move {
  int a = -1, b = -1;
  std::uint8_t value = 0;
};

// Bit j: free cells i and j of block b make a legal swap (both values stay legal there): j
// allows i's value (a table), and i allows j's value. The loop unrolls, and has no branch:
// which are legal is random, so a branch per cell would be mispredicted more often than not, at
// a cost above the tests.
template <int B>
GPUGA_HD_INLINE typename Shape<B>::Bits legal_partners(const std::uint8_t* genome,
                                                       const PuzzleInfo<B>& info, int b,
                                                       std::uint32_t i) {
  using Bits = typename Shape<B>::Bits;
  const Bits allowed_i = info.allowed[info.free_cells[b][i]];
  Bits fits = 0;  // bit j: free cell j's value is allowed at i (j >= n: masked below)
  GPUGA_UNROLL
  for (int j = 0; j < Shape<B>::kSide; ++j)
    fits |= Shape<B>::holds(allowed_i, genome[info.free_cells[b][j]]) << j;
  return fits & info.allows[b][genome[info.free_cells[b][i]]] & ~(Bits(1) << i);
}

// The move that mutation makes and that annealing and hill climbing propose. box/row: two
// distinct free cells of one block (chosen among blocks with two or more); given-aware, a random
// cell with the first cell from a random other one of its block on (cyclically) for which both
// values stay legal, up to kMutationTries cells. cell: one free cell, any value but its own.
template <int B, class R>
GPUGA_HD_INLINE Move propose_move(const std::uint8_t* genome, const PuzzleInfo<B>& info,
                                  Encoding encoding, bool given_aware, R& rng) {
  constexpr int n_side = Shape<B>::kSide;
  Move move;
  if (encoding == Encoding::Cell) {
    if (info.n_free == 0) return move;
    // Two draws: with one (Picks, as below), ptxas gave the segment step 320 more bytes of
    // local arrays (-Xptxas -v, sm_90).
    move.a = info.all_free[rng.below(info.n_free)];
    move.value = static_cast<std::uint8_t>((genome[move.a] + rng.below(n_side - 1)) % n_side + 1);
    return move;
  }
  if (info.n_swappable == 0) return move;
  for (int attempt = 0; attempt < (given_aware ? kMutationTries : 1); ++attempt) {
    Picks pick(rng.next());  // the block, the cell and the offset (bias below 25^3 / 2^32)
    const int blk = info.swappable[pick.below(info.n_swappable)];
    const std::uint32_t count = info.free_count[blk];
    const std::uint32_t i = pick.below(count);
    const std::uint32_t from = partner(i, pick.below(count - 1), count);
    move.a = info.free_cells[blk][i];
    if (!given_aware) {
      move.b = info.free_cells[blk][from];
      return move;
    }
    const auto legal = legal_partners<B>(genome, info, blk, i);
    if (legal == 0) continue;
    const auto later = legal & (~decltype(legal)(0) << from);  // the first from `from` on, cyclically
    move.b = info.free_cells[blk][lowest_bit(later ? later : legal)];
    return move;
  }
  move.a = -1;
  return move;
}

GPUGA_HD_INLINE void apply_move(std::uint8_t* genome, const Move& move) {
  if (move.b >= 0) {
    const std::uint8_t t = genome[move.a];
    genome[move.a] = genome[move.b];
    genome[move.b] = t;
  } else if (move.a >= 0) {
    genome[move.a] = move.value;
  }
}

// Mutation: one proposed move, always made.
template <int B, class R>
GPUGA_HD_INLINE void mutate(std::uint8_t* genome, const PuzzleInfo<B>& info, Encoding encoding,
                            bool given_aware, R& rng) {
  apply_move(genome, propose_move<B>(genome, info, encoding, given_aware, rng));
}

// What a move does to the fitness.

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

}  // namespace gpuga
