#pragma once
// What the operators need to know about a puzzle of box size B under an encoding: the givens,
// and for each block (a box or a row) its free cells and the values missing there. Plain data
// for the device.
#include <cstdint>
#include <vector>

#include "gpuga/device/candidate_slots.hpp"
#include "gpuga/device/island_params.hpp"
#include "gpuga/device/grid.hpp"

namespace gpuga {

template <int B>
struct PuzzleInfo {
  using S = Shape<B>;
  std::uint8_t givens[S::kCells]{};
  std::uint8_t free_count[S::kSide]{};                 // free cells per block
  typename S::Cell free_cells[S::kSide][S::kSide]{};   // their cell indices
  std::uint8_t missing[S::kSide][S::kSide]{};          // values absent from the block's givens
  std::uint8_t swappable[S::kSide]{};                  // blocks with two or more free cells
  std::uint8_t n_swappable = 0;
  typename S::Cell all_free[S::kCells]{};              // every free cell, for the cell encoding
  std::uint16_t n_free = 0;
  typename S::Mask allowed[S::kCells]{};  // bit v: no given in the cell's row, column or box
                                          // holds v (given-aware operators)
  typename S::Mask allows[S::kSide][S::kSide + 1]{};  // [b][v] bit i: block b's free cell i
                                                      // allows v (given-aware moves)
  typename S::Mask unit_givens[S::kUnits]{};  // bit v: a given of the unit holds v (the repair)
  // The repair's tables (repair.hpp), last, so that a step that repairs nothing stages the puzzle
  // without them (island.hpp). A tile keeps a free cell's candidates in a slot of its own, slots
  // 0 to n_free - 1 in a SlotOrder (make_puzzle_info):
  //   units_of[s]   slot s's cell and the numbers of its row, column and box (each of n), packed
  //                 by pack_units: the waves visit every open cell in every wave, and a load and
  //                 shifts cost fewer registers than dividing the index by n and B;
  //   free_slot[c]  cell c's slot, n_free for a given (no slot), for the waves that read a
  //                 unit's cells.
  std::uint32_t units_of[S::kCells]{};
  typename S::Cell free_slot[S::kCells]{};
};

// Cell c's index and the numbers of its row, column and box among the units of each kind, in
// 12 + 3 x 6 bits.
template <int B>
inline std::uint32_t pack_units(int c) {
  using S = Shape<B>;
  static_assert(S::kCells <= 1 << 12 && S::kSide <= 1 << 6);
  return static_cast<std::uint32_t>(c) | static_cast<std::uint32_t>(S::row_of(c)) << 12 |
         static_cast<std::uint32_t>(S::col_of(c)) << 18 | static_cast<std::uint32_t>(S::box_of(c)) << 24;
}

// Cell k of block b: a box for the box encoding, a row otherwise (the cell encoding uses rows
// only to lay out its free cells).
template <int B>
GPUGA_HD_INLINE int block_cell(Encoding e, int b, int k) {
  return e == Encoding::Box ? Shape<B>::box_cell(b, k) : Shape<B>::row_cell(b, k);
}

// The order of a tile's candidate slots: the free cells' own (cell order), or laid out for a GPU's
// banks (candidate_slots.hpp), which costs a run's start a millisecond at 25x25 and is read only by
// the waves of several lanes; the bytes of a repair are the same in both.
enum class SlotOrder : std::uint8_t { Cells, Banks };

template <int B>
inline PuzzleInfo<B> make_puzzle_info(const std::uint8_t* givens, Encoding e, SlotOrder order = SlotOrder::Banks) {
  using S = Shape<B>;
  using Cell = typename S::Cell;
  using Bits = typename S::Bits;
  PuzzleInfo<B> info;
  for (int c = 0; c < S::kCells; ++c) info.givens[c] = givens[c];
  for (int b = 0; b < S::kSide; ++b) {
    Bits present = 0;
    for (int k = 0; k < S::kSide; ++k) {
      const int c = block_cell<B>(e, b, k);
      if (givens[c])
        present |= S::value_bit(givens[c]);
      else
        info.free_cells[b][info.free_count[b]++] = static_cast<Cell>(c);
    }
    int m = 0;
    for (int v = 1; v <= S::kSide; ++v)
      if (!S::holds(present, v)) info.missing[b][m++] = static_cast<std::uint8_t>(v);
    if (info.free_count[b] >= 2) info.swappable[info.n_swappable++] = static_cast<std::uint8_t>(b);
  }
  for (int u = 0; u < S::kUnits; ++u) {
    Bits held = 0;
    for (int k = 0; k < S::kSide; ++k) held |= S::value_bit(givens[S::unit_cell(u, k)]);
    info.unit_givens[u] = static_cast<typename S::Mask>(held & S::kValues);
  }
  for (int c = 0; c < S::kCells; ++c) {
    if (givens[c]) continue;
    info.all_free[info.n_free++] = static_cast<Cell>(c);
    const Bits taken = info.unit_givens[S::row_of(c)] | info.unit_givens[S::kSide + S::col_of(c)] |
                           info.unit_givens[2 * S::kSide + S::box_of(c)];
    info.allowed[c] = static_cast<typename S::Mask>(S::kValues & ~taken);
  }
  for (int c = 0; c < S::kCells; ++c) info.free_slot[c] = static_cast<Cell>(info.n_free);
  const std::vector<std::uint32_t> banked =
      order == SlotOrder::Banks ? candidate_slots<B>({info.all_free, info.n_free}) : std::vector<std::uint32_t>{};
  for (std::uint32_t i = 0; i < info.n_free; ++i) {
    const std::uint32_t slot = order == SlotOrder::Banks ? banked[i] : i;
    info.units_of[slot] = pack_units<B>(info.all_free[i]);
    info.free_slot[info.all_free[i]] = static_cast<Cell>(slot);
  }
  for (int b = 0; b < S::kSide; ++b)
    for (int i = 0; i < info.free_count[b]; ++i)
      for (int v = 1; v <= S::kSide; ++v)
        if (S::holds(info.allowed[info.free_cells[b][i]], v)) info.allows[b][v] |= Bits(1) << i;
  return info;
}

}  // namespace gpuga
