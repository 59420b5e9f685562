#pragma once
// Propagation as a repair (--repair propagate): a child of the cell encoding is rebuilt within
// its cells' candidates, so that every individual is a grid that propagation cannot fault. This
// is the serial reference, written for clarity and kept beside the tests that hold the engine to
// it: the engine runs the same order on a tile of lanes (gpuga/device/repair.hpp: TeamRebuild) or on a
// lane alone (LoneRepair there), and tests/test_repair.cpp checks them byte for byte against this
// at every width.
//
// The child's own values are its preferences. The repair goes in waves, each over the open cells
// (free cells not placed) and their candidates (the values no placed cell of their units holds):
//   - Singles are claimed at once: every open cell with one candidate claims it (naked
//     singles); where there is none, every open cell claims the lowest of its values that no
//     other open cell of one of its units allows (hidden singles). A claim whose value another
//     claim of one of its units also holds clashes: every claim that does not is placed, and of
//     those that do, the first free cell's.
//   - With no claim, the most constrained open cell is placed (fewest candidates; ties: the first
//     from a random free cell on, cyclically): the child's value there when it is still a
//     candidate, else a random candidate.
// An open cell with no candidate left stays blank (0); the repair ends when no open cell has one.
// The grid that comes out has no two equal values in a unit, so the conflict fitness of the cell
// encoding counts each blank three times (once in each of its units): 0 is solved. The repair of
// a child reads nothing but the child, the puzzle and the child's own random stream.
#include <cstdint>
#include <vector>

#include "gpuga/device/repair.hpp"

namespace gpuga {

// Rebuilds `grid` (a grid of the cell encoding; its free cells' values the preferences, 0 none) as
// the header says, in place.
template <int B, class R>
void repair_by_propagation(std::uint8_t* grid, const PuzzleInfo<B>& info, R& rng) {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  const int n_free = info.n_free;
  if (n_free == 0) return;
  const int from = static_cast<int>(rng.below(static_cast<std::uint32_t>(n_free)));
  std::vector<int> value(S::kCells, 0);  // placed values: givens, then the repair's
  for (int c = 0; c < S::kCells; ++c) value[c] = info.givens[c];
  const auto units_of = [](int c) {
    return std::vector<int>{S::row_of(c), S::kSide + S::col_of(c), 2 * S::kSide + S::box_of(c)};
  };
  const auto candidates = [&](int c) {
    Bits m = S::kValues;
    for (const int u : units_of(c))
      for (int k = 0; k < S::kSide; ++k) m &= ~S::value_bit(value[S::unit_cell(u, k)]);
    return m;
  };
  for (;;) {
    // Each open cell's candidates, and how many open cells of each unit allow each value.
    std::vector<Bits> cand(S::kCells, 0);
    std::vector<std::vector<int>> allowing(S::kUnits, std::vector<int>(S::kSide + 1, 0));
    for (int c = 0; c < S::kCells; ++c) {
      if (value[c]) continue;
      cand[c] = candidates(c);
      for (const int u : units_of(c))
        for (int v = 1; v <= S::kSide; ++v) allowing[u][v] += static_cast<int>(S::holds(cand[c], v));
    }
    // Claims, in the order of the free cells: naked singles, else hidden ones.
    bool naked = false;
    for (int c = 0; c < S::kCells; ++c) naked = naked || bit_count(cand[c]) == 1;
    std::vector<int> claim(S::kCells, 0);
    std::vector<std::vector<int>> claims_in(S::kUnits, std::vector<int>(S::kSide + 1, 0));
    bool any = false;
    for (int i = 0; i < n_free; ++i) {
      const int c = info.all_free[i];
      if (!cand[c]) continue;
      if (naked) {
        if (bit_count(cand[c]) == 1) claim[c] = S::value_of_bit(lowest_bit(cand[c]));
      } else {
        for (int v = 1; v <= S::kSide && !claim[c]; ++v)
          for (const int u : units_of(c))
            if (S::holds(cand[c], v) && allowing[u][v] == 1) claim[c] = v;
      }
      if (!claim[c]) continue;
      any = true;
      for (const int u : units_of(c)) ++claims_in[u][claim[c]];
    }
    if (any) {
      int first_clash = -1;
      for (int i = 0; i < n_free; ++i) {
        const int c = info.all_free[i];
        if (!claim[c]) continue;
        bool clashes = false;
        for (const int u : units_of(c)) clashes = clashes || claims_in[u][claim[c]] > 1;
        if (!clashes) value[c] = claim[c];
        else if (first_clash < 0) first_clash = c;
      }
      if (first_clash >= 0) value[first_clash] = claim[first_clash];
      continue;
    }
    // The most constrained open cell.
    int best = -1, fewest = S::kSide + 1;
    for (int k = 0; k < n_free; ++k) {
      const int c = info.all_free[(from + k) % n_free];
      const int count = bit_count(cand[c]);
      if (count >= 2 && count < fewest) best = c, fewest = count;
    }
    if (best < 0) break;
    const Bits m = cand[best];
    const int own = grid[best];
    value[best] = own && S::holds(m, own)
                      ? own
                      : S::value_of_bit(nth_bit(m, rng.below(static_cast<std::uint32_t>(bit_count(m)))));
  }
  for (int i = 0; i < n_free; ++i)
    grid[info.all_free[i]] = static_cast<std::uint8_t>(value[info.all_free[i]]);
}

}  // namespace gpuga
