#pragma once
// Propagation as a repair (--repair propagate): a child of the cell encoding is rebuilt cell by
// cell within its cells' candidates, so that every individual is a grid that propagation cannot
// fault. The child's own values are its preferences: the most constrained open cell is placed
// next (fewest candidates; ties: the first from a random free cell on), taking the child's value
// there when it is still a candidate, else a random candidate; after each placement its value
// leaves its units' candidates, and naked singles (a cell with one candidate left) and hidden
// singles (a value with one cell left in a unit) are placed in turn. A cell left with no
// candidate stays blank (0). The grid that comes out has no two equal values in a unit, so the
// conflict fitness of the cell encoding counts each blank three times (once in each of its
// units): 0 is solved. Written once for host and device: the repair of a child reads nothing
// but the child, the puzzle and the child's own random stream.
#include <cstdint>

#include "gpuga/device/moves.hpp"

namespace gpuga {

// One grid under repair: each cell's candidates as a mask of values (bit v for value v), bit 0
// marking a placed cell (its value the one other bit); a free cell whose mask is 0 is blank for
// good. Naked singles wait on a stack until they are placed. On the device both arrays are the
// thread's local memory (9x9: 243 bytes; 25x25: 3750).
template <int B>
struct Rebuild {
  using S = Shape<B>;
  using Mask = typename S::Mask;
  using Cell = typename S::Cell;
  static constexpr Mask kPlaced = 1;

  Mask cand[S::kCells];
  Cell singles[S::kCells];
  int n_singles = 0;

  // The puzzle's givens placed, every free cell with the values no given of its units holds.
  GPUGA_HD_INLINE void start(const PuzzleInfo<B>& info) {
    for (int c = 0; c < S::kCells; ++c)
      cand[c] = info.givens[c] ? static_cast<Mask>(kPlaced | (1u << info.givens[c])) : info.allowed[c];
    for (int i = 0; i < info.n_free; ++i) {
      const Mask m = cand[info.all_free[i]];
      if (m && !(m & (m - 1))) singles[n_singles++] = info.all_free[i];
    }
  }

  GPUGA_HD_INLINE static bool open(Mask m) { return m != 0 && !(m & kPlaced); }

  // v out of the open cells of cell c's unit of type T; a cell left with one candidate waits.
  template <int T>
  GPUGA_HD_INLINE void strike(int c, Mask bit) {
    const int first = unit_first<T, B>(c);
    for (int k = 0; k < S::kSide; ++k) {
      const int p = first + unit_offset<T, B>(k);
      const Mask m = cand[p];
      if (p == c || !open(m) || !(m & bit)) continue;
      const Mask left = static_cast<Mask>(m & ~bit);
      cand[p] = left;
      if (left && !(left & (left - 1))) singles[n_singles++] = static_cast<Cell>(p);
    }
  }

  GPUGA_HD_INLINE void place(int c, int v) {
    const Mask bit = static_cast<Mask>(1u << v);
    cand[c] = static_cast<Mask>(kPlaced | bit);
    strike<0>(c, bit);
    strike<1>(c, bit);
    strike<2>(c, bit);
  }

  // The naked singles that wait, and those their placements make. A cell waits once: it has one
  // candidate from then on, or none.
  GPUGA_HD_INLINE void place_singles() {
    while (n_singles > 0) {
      const int c = singles[--n_singles];
      const Mask m = cand[c];
      if (open(m)) place(c, GPUGA_LOWEST_BIT(static_cast<unsigned>(m)));
    }
  }

  // One pass of hidden singles over every unit, each placed with the naked singles it makes;
  // whether it placed any.
  GPUGA_HD_INLINE bool hidden_singles() {
    bool placed_any = false;
    for (int u = 0; u < S::kUnits; ++u) {
      unsigned once = 0, twice = 0, held = 0;
      for (int k = 0; k < S::kSide; ++k) {
        const Mask m = cand[S::unit_cell(u, k)];
        if (m & kPlaced) held |= m;
        else twice |= once & m, once |= m;
      }
      unsigned lone = once & ~twice & ~held & S::kValues;
      while (lone) {
        const int v = GPUGA_LOWEST_BIT(lone);
        lone &= lone - 1;
        for (int k = 0; k < S::kSide; ++k) {  // its cell, unless a placement since took it
          const int c = S::unit_cell(u, k);
          if (open(cand[c]) && ((cand[c] >> v) & 1u)) {
            place(c, v);
            place_singles();
            placed_any = true;
            break;
          }
        }
      }
    }
    return placed_any;
  }

  // The open cell with the fewest candidates, the first of them from free cell `from` on
  // (cyclically); -1 when none is open. Naked singles are placed before it is asked, so two is
  // the fewest it can find.
  GPUGA_HD_INLINE int most_constrained(const PuzzleInfo<B>& info, int from) const {
    int best = -1, fewest = S::kSide + 1;
    for (int i = 0, at = from; i < info.n_free; ++i, at = at + 1 == info.n_free ? 0 : at + 1) {
      const Mask m = cand[info.all_free[at]];
      if (!open(m)) continue;
      const int count = GPUGA_POPCOUNT(static_cast<unsigned>(m));
      if (count < fewest) {
        fewest = count;
        best = info.all_free[at];
        if (count <= 2) break;
      }
    }
    return best;
  }
};

// The k-th (from 0) set bit of m, which has more than k.
GPUGA_HD_INLINE int nth_bit(unsigned m, std::uint32_t k) {
  for (; k > 0; --k) m &= m - 1;
  return GPUGA_LOWEST_BIT(m);
}

// Rebuilds `g` (a grid of the cell encoding; its free cells' values the preferences, 0 none) as
// the header says, in place.
template <int B, class R>
GPUGA_HD_INLINE void repair_by_propagation(std::uint8_t* g, const PuzzleInfo<B>& info, R& rng) {
  if (info.n_free == 0) return;
  Rebuild<B> r;
  r.start(info);
  r.place_singles();
  const int from = static_cast<int>(rng.below(info.n_free));
  for (;;) {
    while (r.hidden_singles()) {
    }
    const int c = r.most_constrained(info, from);
    if (c < 0) break;
    const unsigned m = r.cand[c];
    const int own = g[c];
    const int v = own && ((m >> own) & 1u)
                      ? own
                      : nth_bit(m, rng.below(static_cast<std::uint32_t>(GPUGA_POPCOUNT(m))));
    r.place(c, v);
    r.place_singles();
  }
  for (int i = 0; i < info.n_free; ++i) {
    const int c = info.all_free[i];
    const unsigned m = r.cand[c];
    g[c] = (m & Rebuild<B>::kPlaced) ? static_cast<std::uint8_t>(GPUGA_LOWEST_BIT(m & ~1u)) : 0;
  }
}

}  // namespace gpuga
