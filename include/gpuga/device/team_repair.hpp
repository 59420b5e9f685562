#pragma once
// Propagation as a repair (--repair propagate), by a tile of lanes (lanes.hpp): the operator the
// engine runs on every backend. The order it places cells in is the serial reference's
// (tests/repair_reference.hpp); this is the same order computed by lanes that share the work, so that on a GPU a
// warp (or part of one) rebuilds a child with its candidates in shared memory, where a thread
// alone held them in local memory (docs/decisions.md).
//
// Every lane owns every width-th free cell (a list of those still open, its own to keep) and
// every width-th unit. A wave:
//   update  each lane's open cells' candidates from their units' placed values, the cells left
//           with none dropped from its list; whether any lane holds a naked single, or an open
//           cell at all (reduce_min);
//   lone    without naked singles, each unit's lone values (a candidate of exactly one of its
//           open cells), a unit a lane;
//   claim   each open cell's claim (its naked single; without any, its lowest lone value),
//           OR-ed into its units' claimed values (fetch_or), a value claimed twice in a unit
//           marking a clash; without claims, the cells offer (candidates, cells on from a
//           random free cell `from`) for the most constrained;
// then, when any lane claimed (ballot), every claim that clashes with none is placed, and of the
// others the first free cell's (reduce_min); else the most constrained (reduce_min) is placed by
// lane 0 with the child's own value if it is still a candidate, or a random one from the child's
// stream (lane 0's, in the scratch: no draw depends on the width). Barriers and the collectives,
// each of which is one, separate the phases. A tile of one lane (a CPU thread) computes the same
// order without waves (lone_repair.hpp): a wave visits every open cell, which a warp shares out
// and a lane alone does not.
#include <cstdint>
#include <type_traits>

#include "gpuga/device/lanes.hpp"
#include "gpuga/device/lone_repair.hpp"

namespace gpuga {

// Lanes a child's repair takes on a GPU: a warp. Narrower tiles would share a warp, but the
// children of one warp take different waves, and a warp runs its tiles' different paths one
// after the other.
template <int B>
inline constexpr std::uint32_t kRepairLanes = 32;

// Where the candidates lie in the scratch: a row of the grid every `stride` slots, and `gap`
// slots after each box's width of a row. In the lone phase the lanes read the k-th cell of a
// unit each, at once; laid out cell after cell, those reads fell up to 16 to a bank of shared
// memory (64x64 rows; 8 at 16x16 rows and 64x64 boxes, 4 at 36x36). These layouts, the least
// conflicted of this form, keep it to 2 at every size (tests/test_repair.cpp counts them, a
// half-warp at a time for 64-bit words). 9x9 keeps cell after cell (2 already): there a slot that
// is the cell's index saves the register that its 64-register step lacks.
struct CandLayout {
  int stride, gap;
};
template <int B>
inline constexpr CandLayout kCandLayout = B == 2   ? CandLayout{4, 0}
                                          : B == 3 ? CandLayout{9, 0}
                                          : B == 4 ? CandLayout{19, 1}
                                          : B == 5 ? CandLayout{27, 0}
                                          : B == 6 ? CandLayout{38, 0}
                                          : B == 7 ? CandLayout{55, 0}
                                                   : CandLayout{71, 1};
static_assert(kCandLayout<8>.stride >= 64 + 7 * kCandLayout<8>.gap, "a row's slots fit its stride");

// The slot of the cell in row `row` (0..n-1) and column `col` (0..n-1).
template <int B>
GPUGA_HD_INLINE int cand_slot(int row, int col) {
  return row * kCandLayout<B>.stride + col + col / B * kCandLayout<B>.gap;
}

// Where unit u's cells' candidates are: the k-th at first + k / B * across + k % B * along (a
// row along itself, a column down, a box along each of its rows and across to the next). The
// same arithmetic for every kind of unit, so that a warp's lanes, some on rows and some on
// columns or boxes, take no separate paths.
struct UnitSlots {
  int first, along, across;
};
template <int B>
GPUGA_HD_INLINE UnitSlots unit_slots(int u) {
  constexpr int kSide = Shape<B>::kSide, kStride = kCandLayout<B>.stride, kGap = kCandLayout<B>.gap;
  const int kind = u / kSide, x = u - kind * kSide;
  if (kind == 0) return {x * kStride, 1, B + kGap};
  if (kind == 1) return {x + x / B * kGap, kStride, B * kStride};
  return {x / B * B * kStride + x % B * (B + kGap), 1, kStride};
}

// An open cell, its row, column and box among the 3n units (Shape::unit_cell), and the slot of
// its candidates, from the puzzle's packed units_of (pack_units).
template <int B>
struct FreeCell {
  using S = Shape<B>;
  int cell, row, col, box, slot;
  GPUGA_HD_INLINE explicit FreeCell(std::uint32_t units)
      : cell(static_cast<int>(units & 0xFFFu)), row(static_cast<int>(units >> 12 & 63u)),
        col(S::kSide + static_cast<int>(units >> 18 & 63u)),
        box(2 * S::kSide + static_cast<int>(units >> 24)), slot(cand_slot<B>(row, col - S::kSide)) {}
};

// A tile's working state for one child, in its scratch (a GPU's shared memory). Unit masks are
// whole words for fetch_or's atomics (32 bits up to 25x25, 64 from 36x36).
template <int B>
struct RepairScratch {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  Bits used[S::kUnits];     // values placed in the unit, givens included
  Bits lone[S::kUnits];     // this wave: values that one open cell of the unit allows
  Bits claimed[S::kUnits];  // this wave: values some cell of the unit claims (0 between)
  Bits clash[S::kUnits];    //   and those two or more claim
  // Candidates, laid out by kCandLayout (cand_slot): 0 for givens, placed and dead cells; the
  // slots between rows and boxes are never read.
  typename S::Mask cand[kCandLayout<B>.stride * S::kSide];
  typename S::Cell open[S::kCells];  // the open cells with candidates, each lane's in cell order
  Rng rng;                           // the child's stream, lane 0's to draw from (draw below)
};

// A block's scratch for the repair on a GPU: a tile of kRepairLanes<B> lanes each, or one tile
// where the team is narrower (a CPU thread, the OpenMP twin).
template <int B>
GPUGA_HD_INLINE constexpr std::uint32_t repair_scratch_bytes(std::uint32_t threads) {
  return (threads > kRepairLanes<B> ? threads / kRepairLanes<B> : 1) *
         tile_scratch_bytes(sizeof(RepairScratch<B>));
}

// One child's repair on a tile: its phases, each called by every lane alike. Lane l's open
// cells are the cells scratch.open[j * width + l] for j below its count, in cell order.
template <int B, class Lanes>
struct TeamRebuild {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  using FreeCell = gpuga::FreeCell<B>;
  const Lanes& lanes;
  RepairScratch<B>& scratch;
  std::uint8_t* grid;
  const PuzzleInfo<B>& info;
  std::uint32_t lane, width;

  GPUGA_HD_INLINE int open_cell(std::uint32_t j) const { return scratch.open[j * width + lane]; }

  // The masks of free cell f's units OR-ed (of placed, lone or clashing values).
  GPUGA_HD_INLINE static Bits of_units(const Bits* masks, const FreeCell& f) {
    return masks[f.row] | masks[f.col] | masks[f.box];
  }

  // The value free cell f (candidates m, open) claims as a bit: its naked single, else (in a
  // wave of hidden singles) its lowest lone value; 0 for none.
  GPUGA_HD_INLINE Bits claim_of(const FreeCell& f, Bits m, bool hidden) const {
    if (!(m & (m - 1))) return m;
    if (!hidden) return 0;
    const Bits lonely = m & of_units(scratch.lone, f);
    return lonely & (~lonely + 1);
  }

  GPUGA_HD_INLINE void place(const FreeCell& f, Bits bit) const {
    grid[f.cell] = static_cast<std::uint8_t>(kPlacedMark | S::value_of_bit(lowest_bit(bit)));
    scratch.cand[f.slot] = 0;
    lanes.fetch_or(&scratch.used[f.row], bit);
    lanes.fetch_or(&scratch.used[f.col], bit);
    lanes.fetch_or(&scratch.used[f.box], bit);
  }

  GPUGA_HD_INLINE void note_claim(int u, Bits bit) const {
    if (lanes.fetch_or(&scratch.claimed[u], bit) & bit) lanes.fetch_or(&scratch.clash[u], bit);
  }

  // This lane's open cells' candidates, those left with none dropped from its list (which keeps
  // its order); its open cells' count, and whether one is a naked single.
  struct Open {
    std::uint32_t count;
    bool naked;
  };
  GPUGA_HD_INLINE Open update(std::uint32_t count) const {
    Open kept{0, false};
    for (std::uint32_t j = 0; j < count; ++j) {
      const FreeCell f(info.units_of[open_cell(j)]);
      const Bits m = scratch.cand[f.slot] & ~of_units(scratch.used, f);
      scratch.cand[f.slot] = static_cast<typename S::Mask>(m);
      if (!m) continue;
      kept.naked = kept.naked || !(m & (m - 1));
      scratch.open[kept.count++ * width + lane] = static_cast<typename S::Cell>(f.cell);
    }
    return kept;
  }

  // Every unit's lone values, the 3n units shared out over the lanes as one list: at 36x36 four
  // units a lane, where a kind of unit at a time took six (two rows, two columns, two boxes for
  // lanes 0-3); at 9x9 one, where it took three. A unit is read a line of B cells at a time (a
  // box's row, a row's box-width), each line's loads unrolled: unrolled whole, the 9x9 step
  // spilled at its 64-register bound.
  GPUGA_HD_INLINE void find_lone() const {
    for (std::uint32_t u = lane; u < S::kUnits; u += width) {
      const UnitSlots at = unit_slots<B>(static_cast<int>(u));
      Bits once = 0, twice = 0;
      GPUGA_ROLLED
      for (int line = 0, first = at.first; line < B; ++line, first += at.across)
        GPUGA_UNROLL
        for (int k = 0, slot = first; k < B; ++k, slot += at.along) {
          const Bits m = scratch.cand[slot];
          twice |= once & m;
          once |= m;
        }
      scratch.lone[u] = once & ~twice;
    }
  }

  struct Offer {
    bool claims;           // this lane claimed
    std::uint32_t fewest;  // else its most constrained: candidates << 16 | cells on from `from`
  };
  // This lane's open cells' claims, noted in their units; without claims, its most constrained.
  GPUGA_HD_INLINE Offer claim(std::uint32_t count, bool hidden, std::uint32_t from) const {
    Offer offer{false, ~0u};
    for (std::uint32_t j = 0; j < count; ++j) {
      const FreeCell f(info.units_of[open_cell(j)]);
      const Bits m = scratch.cand[f.slot];
      if (const Bits bit = claim_of(f, m, hidden)) {
        offer.claims = true;
        note_claim(f.row, bit);
        note_claim(f.col, bit);
        note_claim(f.box, bit);
      } else if (!offer.claims) {
        const auto cell = static_cast<std::uint32_t>(f.cell);
        const std::uint32_t distance = cell >= from ? cell - from : cell + S::kCells - from;
        const std::uint32_t key = static_cast<std::uint32_t>(bit_count(m)) << 16 | distance;
        offer.fewest = key < offer.fewest ? key : offer.fewest;
      }
    }
    return offer;
  }

  // Every claim that clashes with none; of the others, the first free cell's. The units'
  // claims are empty again after.
  GPUGA_HD_INLINE void place_claims(std::uint32_t count, bool hidden) const {
    std::uint32_t first_clash = ~0u;
    for (std::uint32_t j = 0; j < count; ++j) {
      const FreeCell f(info.units_of[open_cell(j)]);
      const Bits bit = claim_of(f, scratch.cand[f.slot], hidden);
      if (!bit) continue;
      const auto cell = static_cast<std::uint32_t>(f.cell);
      if (bit & of_units(scratch.clash, f))
        first_clash = cell < first_clash ? cell : first_clash;
      else
        place(f, bit);
    }
    first_clash = lanes.reduce_min(first_clash);
    if (first_clash != ~0u && lane == 0) {  // no other lane writes its cell or reads its units now
      const FreeCell f(info.units_of[first_clash]);
      place(f, claim_of(f, scratch.cand[f.slot], hidden));
    }
    for (std::uint32_t u = lane; u < S::kUnits; u += width)
      scratch.claimed[u] = scratch.clash[u] = 0;
    lanes.sync();
  }

  // The most constrained cell (its key `fewest`), by lane 0: the child's value where it is still
  // a candidate, else a random one.
  GPUGA_HD_INLINE void decide(std::uint32_t fewest, std::uint32_t from) const {
    if (lane == 0) {
      const std::uint32_t cell = (fewest & 0xFFFFu) + from;
      const FreeCell f(info.units_of[cell >= S::kCells ? cell - S::kCells : cell]);
      const Bits m = scratch.cand[f.slot];
      const std::uint32_t own = grid[f.cell];
      const bool kept = own && S::holds(m, static_cast<int>(own));
      const auto candidates = static_cast<std::uint32_t>(bit_count(m));
      place(f, kept ? S::value_bit(static_cast<int>(own))
                    : Bits(1) << nth_bit(m, scratch.rng.below(candidates)));
    }
    lanes.sync();
  }
};

// Rebuilds `grid` (a grid of the cell encoding; its free cells' values the preferences, 0 none)
// in place, as the serial reference (repair_by_propagation) does, on the tile `lanes` (at most 32 lanes: a
// ballot's bits) and its scratch, drawing from the child's stream scratch.rng (lane 0 set it,
// before a barrier of the tile). Every lane calls it alike.
template <int B, class Lanes>
GPUGA_HD void repair_on_lanes(const Lanes& lanes, RepairScratch<B>& scratch, std::uint8_t* grid,
                              const PuzzleInfo<B>& info) {
  using S = Shape<B>;
  const std::uint32_t n_free = info.n_free, lane = lanes.lane(), width = lanes.width();
  if (n_free == 0) return;
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Lanes, OneLane>) {  // a lane alone: lone_repair.hpp
    const std::uint32_t from = scratch.rng.below(n_free);
    for (int c = 0; c < S::kCells; ++c) scratch.cand[c] = info.givens[c] ? 0 : info.allowed[c];
    lone_repair<B>().run(grid, info, scratch.cand, from, scratch.rng);
    return;
  }
#endif
  const TeamRebuild<B, Lanes> rebuild{lanes, scratch, grid, info, lane, width};
  // The random free cell the ties start from. Free cells are in cell order, so that the cells
  // on from it are the free cells on from its index, in the same order.
  const std::uint32_t from = info.all_free[lanes.broadcast(lane == 0 ? scratch.rng.below(n_free) : 0u, 0)];
  for (std::uint32_t u = lane; u < S::kUnits; u += width) {
    scratch.used[u] = info.unit_givens[u];
    scratch.claimed[u] = scratch.clash[u] = 0;
  }
  for (std::uint32_t c = lane; c < S::kCells; c += width)
    scratch.cand[cand_slot<B>(S::row_of(static_cast<int>(c)), S::col_of(static_cast<int>(c)))] =
        info.givens[c] ? 0 : info.allowed[c];
  for (std::uint32_t i = lane; i < n_free; i += width) scratch.open[i] = info.all_free[i];
  std::uint32_t count = n_free > lane ? (n_free - lane + width - 1) / width : 0;  // this lane's
  lanes.sync();
  for (;;) {
    const auto open = rebuild.update(count);
    count = open.count;
    // 0: a naked single somewhere; 1: open cells, none a naked single; 2: none open.
    const std::uint32_t state = lanes.reduce_min(open.naked ? 0u : count ? 1u : 2u);
    if (state == 2) break;
    const bool hidden = state == 1;
    if (hidden) {
      rebuild.find_lone();
      lanes.sync();
    }
    const auto offer = rebuild.claim(count, hidden, from);
    if (lanes.ballot(offer.claims))
      rebuild.place_claims(count, hidden);
    else
      rebuild.decide(lanes.reduce_min(offer.fewest), from);
  }
  // Placed cells keep their value; the others (dead) are blank.
  for (std::uint32_t i = lane; i < n_free; i += width) unmark_placed(grid, info.all_free[i]);
  lanes.sync();
}

}  // namespace gpuga
