#pragma once
// Initialisation, crossover and mutation over one individual of box size B (n * n bytes, givens
// in place). Givens never move; only free cells change. Written once for host and device.
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

}  // namespace gpuga
