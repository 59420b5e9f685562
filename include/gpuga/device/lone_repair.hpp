#pragma once
// The repair by a tile of one lane (a CPU thread, each thread of the OpenMP twin): the order of
// the serial reference (tests/repair_reference.hpp), which team_repair.hpp's waves compute on a
// GPU's warp, kept up as cells are placed
// rather than found again each wave. A wave visits every open cell (its candidates, its claim,
// its key for the most constrained) and, for hidden singles, every cell of every unit; most waves
// place a single cell, so a lane alone would spend its time on cells that have not changed.
// Here a placement takes its value from its peers' candidates at once, and what a wave asks is
// kept as it changes:
//   - each open cell's candidates and their count; the cells left with one (naked singles);
//   - for each unit and value, how many open cells allow it and the XOR of their indices, so
//     that a value one cell allows (a lone value) names that cell;
//   - the open cells, in no order, each with its key (candidates, distance from the random free
//     cell the ties start from): the most constrained is the least key, which no two share.
// A wave's claims are all taken before any is placed, as the waves do. The same bytes and the
// same draws from the child's stream as the reference (tests/test_repair.cpp, at every size and
// from puzzle to puzzle). Its state is a thread's own (thread_local): larger than a GPU thread
// could hold, and used by none.
#include <cstdint>
#include <memory>

#include "gpuga/device/puzzle_info.hpp"

namespace gpuga {

// A genome byte's mark while a repair runs (here and team_repair.hpp): the cell
// is placed, its value in the low bits; the cells unmarked at the end were left without one.
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

  // Rebuilds `grid` as repair_on_lanes does with one lane: `cand` holds the open cells'
  // candidates (givens 0), `from` the random free cell the ties start from, `rng` the child's
  // stream for the values of the most constrained cells. A placed cell is marked in the grid
  // (kPlacedMark) until the end, as the waves mark it; an unplaced one keeps its preference.
  template <class R>
  void run(std::uint8_t* grid, const PuzzleInfo<B>& info, Mask* cand, std::uint32_t from, R& rng) {
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

}  // namespace gpuga
