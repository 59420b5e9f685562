#pragma once
// Propagation as a repair (--repair propagate): the operator the engine runs on every backend,
// entered by repair_on_lanes (at the end), which the tile's type chooses the form of. The order it
// places cells in is the serial reference's (tests/repair_reference.hpp), computed two ways:
//
// By a tile of one lane (a CPU thread, each thread of the OpenMP twin): LoneRepair, the
// reference's order kept up as cells are placed rather than found again each wave. A wave visits
// every open cell (its candidates, its claim, its key for the most constrained) and, for hidden
// singles, every cell of every unit; most waves place a single cell, so a lane alone would spend
// its time on cells that have not changed. Here a placement takes its value from its peers'
// candidates at once, and what a wave asks is kept as it changes:
//   - each open cell's candidates and their count; the cells left with one (naked singles);
//   - for each unit and value, how many open cells allow it and the XOR of their indices, so
//     that a value one cell allows (a lone value) names that cell;
//   - the open cells, in no order, each with its key (candidates, distance from the random free
//     cell the ties start from): the most constrained is the least key, which no two share.
// A wave's claims are all taken before any is placed, as the waves do. Its state is a thread's
// own (thread_local): larger than a GPU thread could hold, and used by none.
//
// By a tile of lanes (lanes.hpp) that share the work in waves, so that on a GPU a warp (or part
// of one) rebuilds a child with its candidates in shared memory, where a thread alone held them
// in local memory (docs/decisions.md): TeamRebuild. The candidates are kept by free cell (a
// cell placed or left with none holds 0: no longer open). Every lane owns every width-th free
// cell and every width-th unit. A wave:
//   update  each lane's open cells' candidates from their units' placed values; whether any lane
//           holds a naked single, or an open cell at all (reduce_min);
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
// each of which is one, separate the phases.
//
// Both give the reference's bytes and draws from the child's stream, at every width and size and
// from puzzle to puzzle (tests/test_repair.cpp).
#include <cstdint>
#include <memory>
#include <type_traits>

#include "gpuga/device/lanes.hpp"
#include "gpuga/device/puzzle_info.hpp"
#include "gpuga/device/rng.hpp"

namespace gpuga {

// A genome byte's mark while a repair runs: the cell is placed, its value in the low bits; the
// cells unmarked at the end were left without one.
inline constexpr std::uint8_t kPlacedMark = 0x80;

// Free cell c after the repair: its placed value, or blank.
GPUGA_HD_INLINE void unmark_placed(std::uint8_t* grid, int c) {
  grid[c] = grid[c] & kPlacedMark ? static_cast<std::uint8_t>(grid[c] & ~kPlacedMark) : 0;
}

// The k-th (from 0) set bit of m, which has more than k.
template <class Bits>
GPUGA_HD_INLINE int nth_bit(Bits m, std::uint32_t k) {
  for (; k > 0; --k) m &= m - 1;
  return lowest_bit(m);
}

// The repair by a tile of one lane (above).
template <int B>
class LoneRepair {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  using Mask = typename S::Mask;

 public:
  // Each cell's units and each unit's cells, as Shape computes them (by division), once a thread.
  LoneRepair() {
    for (int c = 0; c < S::kCells; ++c) {
      units_of_[c][0] = static_cast<std::uint8_t>(S::row_of(c));
      units_of_[c][1] = static_cast<std::uint8_t>(S::kSide + S::col_of(c));
      units_of_[c][2] = static_cast<std::uint8_t>(2 * S::kSide + S::box_of(c));
    }
    for (int u = 0; u < S::kUnits; ++u)
      for (int k = 0; k < S::kSide; ++k) cells_of_[u][k] = static_cast<std::uint16_t>(S::unit_cell(u, k));
  }

  // Rebuilds `grid` as repair_on_lanes does with one lane: `from` the random free cell the ties
  // start from, `rng` the child's stream for the values of the most constrained cells. A placed
  // cell is marked in the grid (kPlacedMark) until the end, as the waves mark it; an unplaced one
  // keeps its preference.
  template <class R>
  void run(std::uint8_t* grid, const PuzzleInfo<B>& info, std::uint32_t from, R& rng) {
    Mask* const cand = cand_;
    for (int c = 0; c < S::kCells; ++c) cand[c] = info.givens[c] ? 0 : info.allowed[c];
    start(info, cand, from);
    for (;;) {
      drop_placed_singles(cand);
      if (take_claims(cand, n_singles_ == 0)) {
        place_claims(grid, cand);
      } else if (n_open_ > 0) {
        decide(grid, info, cand, from, rng);
      } else {
        break;
      }
    }
    for (std::uint32_t i = 0; i < info.n_free; ++i) unmark_placed(grid, info.all_free[i]);
  }

 private:
  Mask cand_[S::kCells];                               // each cell's candidates (givens 0)
  std::uint8_t holders_[S::kUnits][S::kSide + 1];    // by value bit: open cells allowing it
  std::uint16_t holder_xor_[S::kUnits][S::kSide + 1];  //   and the XOR of their indices
  Bits lone_[S::kUnits];                               // values with one such cell
  Bits claimed_[S::kUnits], clash_[S::kUnits];         // this wave's claims
  std::uint16_t free_index_[S::kCells];  // a free cell's index in all_free (givens: unused)
  std::uint8_t count_[S::kCells];        // an open cell's candidates
  std::uint16_t open_[S::kCells], open_at_[S::kCells];  // the open cells, and where each is
  std::uint32_t open_key_[S::kCells];  // theirs: candidates << 16 | distance from `from`
  std::uint16_t singles_[S::kCells], claim_cell_[S::kCells];
  Bits claim_bit_[S::kCells];
  int n_open_ = 0, n_singles_ = 0, n_claims_ = 0;
  std::uint8_t units_of_[S::kCells][3];
  std::uint16_t cells_of_[S::kUnits][S::kSide];

  int unit_of(int c, int kind) const { return units_of_[c][kind]; }
  // The masks of cell c's units OR-ed (of lone or clashing values).
  Bits of_units(const Bits* masks, int c) const {
    return masks[unit_of(c, 0)] | masks[unit_of(c, 1)] | masks[unit_of(c, 2)];
  }

  void start(const PuzzleInfo<B>& info, const Mask* cand, std::uint32_t from) {
    for (int u = 0; u < S::kUnits; ++u) {
      lone_[u] = claimed_[u] = clash_[u] = 0;
      for (int i = 0; i <= S::kSide; ++i) holders_[u][i] = 0, holder_xor_[u][i] = 0;
    }
    n_open_ = n_singles_ = 0;
    for (std::uint32_t i = 0; i < info.n_free; ++i) {
      const int c = info.all_free[i];
      free_index_[c] = static_cast<std::uint16_t>(i);
      const Bits m = cand[c];
      count_[c] = static_cast<std::uint8_t>(bit_count(m));
      if (!m) continue;  // dead from the start
      const std::uint32_t distance = i >= from ? i - from : i + info.n_free - from;
      open_at_[c] = static_cast<std::uint16_t>(n_open_);
      open_key_[n_open_] = std::uint32_t(count_[c]) << 16 | distance;
      open_[n_open_++] = static_cast<std::uint16_t>(c);
      if (count_[c] == 1) singles_[n_singles_++] = static_cast<std::uint16_t>(c);
      for (int kind = 0; kind < 3; ++kind)
        for (Bits bits = m; bits; bits &= bits - 1) {
          const int u = unit_of(c, kind), i_bit = lowest_bit(bits);
          ++holders_[u][i_bit];
          holder_xor_[u][i_bit] ^= static_cast<std::uint16_t>(c);
        }
    }
    for (int u = 0; u < S::kUnits; ++u)
      for (int i = 0; i <= S::kSide; ++i)
        if (holders_[u][i] == 1) lone_[u] |= Bits(1) << i;
  }

  void close(int c) {  // c is no longer open (placed, or left without candidates)
    const int at = open_at_[c], last = open_[--n_open_];
    open_[at] = static_cast<std::uint16_t>(last);
    open_key_[at] = open_key_[n_open_];
    open_at_[last] = static_cast<std::uint16_t>(at);
  }

  // Open cell c no longer allows the values `lost` (some of its candidates).
  void lose(int c, Bits lost, Mask* cand) {
    cand[c] = static_cast<Mask>(cand[c] & ~lost);
    const int lost_count = bit_count(lost);
    count_[c] = static_cast<std::uint8_t>(count_[c] - lost_count);
    open_key_[open_at_[c]] -= std::uint32_t(lost_count) << 16;
    for (; lost; lost &= lost - 1) {
      const int i_bit = lowest_bit(lost);
      for (int kind = 0; kind < 3; ++kind) {
        const int u = unit_of(c, kind);
        holder_xor_[u][i_bit] ^= static_cast<std::uint16_t>(c);
        const int left = --holders_[u][i_bit];
        if (left == 1) lone_[u] |= Bits(1) << i_bit;
        else if (left == 0) lone_[u] &= ~(Bits(1) << i_bit);
      }
    }
  }

  // Naked singles that a wave placed or killed since they became singles.
  void drop_placed_singles(const Mask* cand) {
    int kept = 0;
    for (int k = 0; k < n_singles_; ++k)
      if (cand[singles_[k]]) singles_[kept++] = singles_[k];
    n_singles_ = kept;
  }

  void note_claim(int c, Bits bit) {
    claim_cell_[n_claims_] = static_cast<std::uint16_t>(c);
    claim_bit_[n_claims_++] = bit;
    for (int kind = 0; kind < 3; ++kind) {
      const int u = unit_of(c, kind);
      if (claimed_[u] & bit) clash_[u] |= bit;
      claimed_[u] |= bit;
    }
  }

  // The wave's claims: every naked single, or without any (hidden) every open cell's lowest lone
  // value. Whether there are any.
  bool take_claims(const Mask* cand, bool hidden) {
    n_claims_ = 0;
    if (!hidden) {
      for (int k = 0; k < n_singles_; ++k) note_claim(singles_[k], cand[singles_[k]]);
      return n_claims_ > 0;
    }
    for (int u = 0; u < S::kUnits; ++u)
      for (Bits bits = lone_[u]; bits; bits &= bits - 1) {
        const Bits here = bits & (~bits + 1);
        const int c = holder_xor_[u][lowest_bit(here)];
        const Bits lonely = cand[c] & of_units(lone_, c);
        // A cell claims once: its lowest lone value, from the first of its units where it is lone.
        if ((lonely & (~lonely + 1)) != here) continue;
        const int row = unit_of(c, 0), col = unit_of(c, 1);
        const int home = lone_[row] & here ? row : lone_[col] & here ? col : unit_of(c, 2);
        if (home == u) note_claim(c, here);
      }
    return n_claims_ > 0;
  }

  void place(std::uint8_t* grid, int c, Bits bit, Mask* cand) {
    grid[c] = static_cast<std::uint8_t>(kPlacedMark | S::value_of_bit(lowest_bit(bit)));
    lose(c, cand[c], cand);
    close(c);
    for (int kind = 0; kind < 3; ++kind) {
      const int u = unit_of(c, kind);
      for (int k = 0; k < S::kSide; ++k) {
        const int peer = cells_of_[u][k];
        if (!(cand[peer] & bit)) continue;
        lose(peer, bit, cand);
        if (count_[peer] == 1) singles_[n_singles_++] = static_cast<std::uint16_t>(peer);
        else if (count_[peer] == 0) close(peer);
      }
    }
  }

  // Every claim that clashes with none; of the others, the first free cell's.
  void place_claims(std::uint8_t* grid, Mask* cand) {
    int first_clash = -1;
    for (int k = 0; k < n_claims_; ++k) {
      const int c = claim_cell_[k];
      if (!(claim_bit_[k] & of_units(clash_, c)))
        place(grid, c, claim_bit_[k], cand);
      else if (first_clash < 0 || free_index_[c] < free_index_[claim_cell_[first_clash]])
        first_clash = k;
    }
    if (first_clash >= 0) place(grid, claim_cell_[first_clash], claim_bit_[first_clash], cand);
    for (int k = 0; k < n_claims_; ++k)
      for (int kind = 0; kind < 3; ++kind) {
        const int u = unit_of(claim_cell_[k], kind);
        claimed_[u] = clash_[u] = 0;
      }
  }

  // The most constrained open cell (fewest candidates; ties: the first from `from` on), with the
  // child's value where it is still a candidate, else a random one.
  template <class R>
  void decide(std::uint8_t* grid, const PuzzleInfo<B>& info, Mask* cand, std::uint32_t from, R& rng) {
    std::uint32_t fewest = ~0u;
    for (int k = 0; k < n_open_; ++k) fewest = open_key_[k] < fewest ? open_key_[k] : fewest;
    const std::uint32_t at = (fewest & 0xFFFFu) + from;
    const int best = info.all_free[at >= info.n_free ? at - info.n_free : at];
    const Bits m = cand[best];
    const int own = grid[best];
    const bool kept = own && S::holds(m, own);
    const Bits bit = kept ? S::value_bit(own)
                          : Bits(1) << nth_bit(m, rng.below(static_cast<std::uint32_t>(count_[best])));
    place(grid, best, bit, cand);
  }
};

// A thread's own state for its repairs, made at its first (about 180 KB at 64x64: on the heap,
// not in every thread's static TLS block for each box size).
template <int B>
LoneRepair<B>& lone_repair() {
  static thread_local std::unique_ptr<LoneRepair<B>> state;
  if (!state) state = std::make_unique<LoneRepair<B>>();
  return *state;
}

// The waves of a tile of lanes, from here on. Lanes a child's repair takes on a GPU: a warp
// (kRepairLanes, candidate_slots.hpp). Narrower tiles would share a warp, but the children of one
// warp take different waves, and a warp runs its tiles' different paths one after the other.

// Where unit u's cells are: the k-th at first + k / B * across + k % B * along (a row along
// itself, a column down, a box along each of its rows and across to the next). A unit is read by
// the same loop whatever its kind, so that a warp's lanes, some on rows and some on columns or
// boxes, read theirs together.
struct UnitCells {
  int first, along, across;
};
template <int B>
GPUGA_HD_INLINE UnitCells unit_cells(int u) {
  constexpr int kSide = Shape<B>::kSide;
  const int kind = u / kSide, x = u - kind * kSide;
  if (kind == 0) return {x * kSide, 1, B};
  if (kind == 1) return {x, kSide, B * kSide};
  return {x / B * B * kSide + x % B * B, 1, kSide};
}

// A free cell, its row, column and box among the 3n units (Shape::unit_cell), from the puzzle's
// packed units_of (pack_units).
template <int B>
struct FreeCell {
  using S = Shape<B>;
  int cell, row, col, box;
  GPUGA_HD_INLINE explicit FreeCell(std::uint32_t units)
      : cell(static_cast<int>(units & 0xFFFu)), row(static_cast<int>(units >> 12 & 63u)),
        col(S::kSide + static_cast<int>(units >> 18 & 63u)), box(2 * S::kSide + static_cast<int>(units >> 24)) {}
};

// A tile's working state for one child, in its scratch (a GPU's shared memory): this header, then
// the candidates of the puzzle's free cells (candidates()), one a slot (PuzzleInfo::free_slot).
// By free cell rather than by cell, a tile holds only what the puzzle leaves open: at 64x64 a
// third of the bytes at 0.35 given, which is what lets eight warps' tiles share a
// multiprocessor. Unit masks are whole words for fetch_or's atomics (32 bits up to 25x25, 64
// from 36x36).
template <int B>
struct RepairScratch {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  Bits used[S::kUnits];     // values placed in the unit, givens included
  Bits lone[S::kUnits];     // this wave: values that one open cell of the unit allows
  Bits claimed[S::kUnits];  // this wave: values some cell of the unit claims (0 between)
  Bits clash[S::kUnits];    //   and those two or more claim
  Rng rng;                  // the child's stream, lane 0's to draw from (decide)

  // Slot s's candidates: 0 once its cell is placed or left with none (so 0 is "not open"). They
  // follow the header aligned: its size is a multiple of its words', which are no narrower.
  GPUGA_HD_INLINE typename S::Mask* candidates() { return reinterpret_cast<typename S::Mask*>(this + 1); }
};

// Bytes of a tile's scratch for a puzzle of `free_cells` free cells, and of a block's tiles.
template <int B>
GPUGA_HD_INLINE constexpr std::uint32_t repair_tile_bytes(std::uint32_t free_cells) {
  return tile_scratch_bytes(sizeof(RepairScratch<B>) + std::uint64_t(free_cells) * sizeof(typename Shape<B>::Mask));
}

// A block's repair tiles on a GPU: one of kRepairLanes<B> lanes each, or one where the team is
// narrower (a CPU thread, the OpenMP twin); and their scratch for puzzles of at most
// `free_cells` free cells.
template <int B>
GPUGA_HD_INLINE constexpr std::uint32_t repair_tiles(std::uint32_t threads) {
  return threads > kRepairLanes<B> ? threads / kRepairLanes<B> : 1;
}
template <int B>
GPUGA_HD_INLINE constexpr std::uint32_t repair_scratch_bytes(std::uint32_t threads, std::uint32_t free_cells) {
  return repair_tiles<B>(threads) * repair_tile_bytes<B>(free_cells);
}

// One child's repair on a tile: its phases, each called by every lane alike. Lane l's free cells
// are those of slots l, l + width, ... (open while their candidates are not 0). The waves are
// reductions over the open cells with ties broken by cell, so the slots' order (the banks',
// candidate_slots.hpp) changes no byte: the free cells are in cell order, and "the first free
// cell on from `from`" is the first cell on from its cell.
template <int B, class Lanes>
struct TeamRebuild {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  using FreeCell = gpuga::FreeCell<B>;
  const Lanes& lanes;
  RepairScratch<B>& scratch;
  typename S::Mask* cand;  // scratch.candidates()
  std::uint8_t* grid;
  const PuzzleInfo<B>& info;
  std::uint32_t lane, width, n_free;

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

  // The cell of slot s (f) takes the value `bit`.
  GPUGA_HD_INLINE void place(std::uint32_t s, const FreeCell& f, Bits bit) const {
    grid[f.cell] = static_cast<std::uint8_t>(kPlacedMark | S::value_of_bit(lowest_bit(bit)));
    cand[s] = 0;
    lanes.fetch_or(&scratch.used[f.row], bit);
    lanes.fetch_or(&scratch.used[f.col], bit);
    lanes.fetch_or(&scratch.used[f.box], bit);
  }

  GPUGA_HD_INLINE void note_claim(int u, Bits bit) const {
    if (lanes.fetch_or(&scratch.claimed[u], bit) & bit) lanes.fetch_or(&scratch.clash[u], bit);
  }

  // This lane's open cells' candidates from their units' placed values (0 for those left with
  // none); whether it holds an open cell, and whether one is a naked single.
  struct Open {
    bool any, naked;
  };
  GPUGA_HD_INLINE Open update() const {
    Open open{false, false};
    for (std::uint32_t s = lane; s < n_free; s += width) {
      const Bits had = cand[s];
      if (!had) continue;
      const FreeCell f(info.units_of[s]);
      const Bits m = had & ~of_units(scratch.used, f);
      cand[s] = static_cast<typename S::Mask>(m);
      open.any = open.any || m;
      open.naked = open.naked || (m && !(m & (m - 1)));
    }
    return open;
  }

  // Every unit's lone values, the 3n units shared out over the lanes as one list: at 36x36 four
  // units a lane, where a kind of unit at a time took six (two rows, two columns, two boxes for
  // lanes 0-3); at 9x9 one, where it took three. A unit is read a line of B cells at a time (a
  // box's row, a row's box-width), each line's loads unrolled: unrolled whole, the 9x9 step
  // spilled at its 64-register bound. A cell's candidates are at its slot; a given has none (0),
  // and its lane reads nothing, so that the givens of a request take no bank.
  GPUGA_HD_INLINE void find_lone() const {
    for (std::uint32_t u = lane; u < S::kUnits; u += width) {
      const UnitCells at = unit_cells<B>(static_cast<int>(u));
      Bits once = 0, twice = 0;
      GPUGA_ROLLED
      for (int line = 0, first = at.first; line < B; ++line, first += at.across)
        GPUGA_UNROLL
        for (int k = 0, cell = first; k < B; ++k, cell += at.along) {
          const std::uint32_t slot = info.free_slot[cell];
          const Bits m = slot < n_free ? Bits(cand[slot]) : Bits(0);
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
  // Cells from `from` on to `cell`, round the grid.
  GPUGA_HD_INLINE static std::uint32_t cells_on(std::uint32_t from, std::uint32_t cell) {
    return cell >= from ? cell - from : cell + S::kCells - from;
  }
  // This lane's open cells' claims, noted in their units; without claims, its most constrained
  // (ties to the first cell on from the cell `from`).
  GPUGA_HD_INLINE Offer claim(bool hidden, std::uint32_t from) const {
    Offer offer{false, ~0u};
    for (std::uint32_t s = lane; s < n_free; s += width) {
      const Bits m = cand[s];
      if (!m) continue;
      const FreeCell f(info.units_of[s]);
      if (const Bits bit = claim_of(f, m, hidden)) {
        offer.claims = true;
        note_claim(f.row, bit);
        note_claim(f.col, bit);
        note_claim(f.box, bit);
      } else if (!offer.claims) {
        const std::uint32_t key = static_cast<std::uint32_t>(bit_count(m)) << 16 |
                                   cells_on(from, static_cast<std::uint32_t>(f.cell));
        offer.fewest = key < offer.fewest ? key : offer.fewest;
      }
    }
    return offer;
  }

  // Every claim that clashes with none; of the others, the first cell's. The units' claims are
  // empty again after.
  GPUGA_HD_INLINE void place_claims(bool hidden) const {
    std::uint32_t first_clash = ~0u;  // a cell
    for (std::uint32_t s = lane; s < n_free; s += width) {
      const Bits m = cand[s];
      if (!m) continue;
      const FreeCell f(info.units_of[s]);
      const Bits bit = claim_of(f, m, hidden);
      if (!bit) continue;
      if (bit & of_units(scratch.clash, f))
        first_clash = static_cast<std::uint32_t>(f.cell) < first_clash ? static_cast<std::uint32_t>(f.cell) : first_clash;
      else
        place(s, f, bit);
    }
    first_clash = lanes.reduce_min(first_clash);
    if (first_clash != ~0u && lane == 0) {  // no other lane writes its cell or reads its units now
      const std::uint32_t s = info.free_slot[first_clash];
      const FreeCell f(info.units_of[s]);
      place(s, f, claim_of(f, cand[s], hidden));
    }
    for (std::uint32_t u = lane; u < S::kUnits; u += width)
      scratch.claimed[u] = scratch.clash[u] = 0;
    lanes.sync();
  }

  // The most constrained cell (its key `fewest`, from the cell `from`), by lane 0: the child's
  // value where it is still a candidate, else a random one.
  GPUGA_HD_INLINE void decide(std::uint32_t fewest, std::uint32_t from) const {
    if (lane == 0) {
      const std::uint32_t at = (fewest & 0xFFFFu) + from;
      const std::uint32_t s = info.free_slot[at >= S::kCells ? at - S::kCells : at];
      const FreeCell f(info.units_of[s]);
      const Bits m = cand[s];
      const std::uint32_t own = grid[f.cell];
      const bool kept = own && S::holds(m, static_cast<int>(own));
      const auto candidates = static_cast<std::uint32_t>(bit_count(m));
      place(s, f, kept ? S::value_bit(static_cast<int>(own))
                       : Bits(1) << nth_bit(m, scratch.rng.below(candidates)));
    }
    lanes.sync();
  }
};

// Rebuilds `grid` (a grid of the cell encoding; its free cells' values the preferences, 0 none)
// in place, as the serial reference (repair_by_propagation) does, on the tile `lanes` (at most 32
// lanes: a ballot's bits) and its scratch (repair_tile_bytes(info.n_free) bytes), drawing from the
// child's stream scratch.rng (lane 0 set it, before a barrier of the tile). Every lane calls it
// alike.
template <int B, class Lanes>
GPUGA_HD void repair_on_lanes(const Lanes& lanes, RepairScratch<B>& scratch, std::uint8_t* grid,
                              const PuzzleInfo<B>& info) {
  using S = Shape<B>;
  const std::uint32_t n_free = info.n_free, lane = lanes.lane(), width = lanes.width();
  if (n_free == 0) return;
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Lanes, OneLane>) {  // a lane alone: LoneRepair, with state of its own
    const std::uint32_t from = scratch.rng.below(n_free);
    lone_repair<B>().run(grid, info, from, scratch.rng);
    return;
  }
#endif
  typename S::Mask* const cand = scratch.candidates();
  const TeamRebuild<B, Lanes> rebuild{lanes, scratch, cand, grid, info, lane, width, n_free};
  // The cell of the random free cell the ties start from: free cells are in cell order, so that
  // the cells on from it are the free cells on from its index, in the same order.
  const std::uint32_t from = lanes.broadcast(lane == 0 ? std::uint32_t(info.all_free[scratch.rng.below(n_free)]) : 0u, 0);
  for (std::uint32_t u = lane; u < S::kUnits; u += width) {
    scratch.used[u] = info.unit_givens[u];
    scratch.claimed[u] = scratch.clash[u] = 0;
  }
  for (std::uint32_t s = lane; s < n_free; s += width) cand[s] = info.allowed[FreeCell<B>(info.units_of[s]).cell];
  lanes.sync();
  for (;;) {
    const auto open = rebuild.update();
    // 0: a naked single somewhere; 1: open cells, none a naked single; 2: none open.
    const std::uint32_t state = lanes.reduce_min(open.naked ? 0u : open.any ? 1u : 2u);
    if (state == 2) break;
    const bool hidden = state == 1;
    if (hidden) {
      rebuild.find_lone();
      lanes.sync();
    }
    const auto offer = rebuild.claim(hidden, from);
    if (lanes.ballot(offer.claims))
      rebuild.place_claims(hidden);
    else
      rebuild.decide(lanes.reduce_min(offer.fewest), from);
  }
  // Placed cells keep their value; the others (dead) are blank.
  for (std::uint32_t i = lane; i < n_free; i += width) unmark_placed(grid, info.all_free[i]);
  lanes.sync();
}

}  // namespace gpuga
