#include "gpuga/deduction.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace gpuga {
namespace {

using Mask = std::uint64_t;  // candidates: bit v-1 for value v (64 values at most)

// The grid's values and candidates, and the units' cells, as the ladder works on them.
class Ladder {
 public:
  explicit Ladder(const Grid& g) : g_(g), n_(g.side()), cand_(g.cells(), 0) {
    units_.resize(g.units());
    for (int u = 0; u < g.units(); ++u)
      for (int k = 0; k < n_; ++k) units_[u].push_back(g.unit_cell(u, k));
    const Mask all = all_values(n_);
    for (int c = 0; c < g.cells(); ++c)
      if (!g_.cell[c]) cand_[c] = all;
    for (int c = 0; c < g.cells(); ++c)
      if (g_.cell[c]) strike(c, g_.cell[c]);
  }

  int rung() {
    int needed = 0;
    while (open()) {
      int used = 0;
      if (hidden_single()) used = 1;
      else if (naked_single()) used = 2;
      else if (locked_candidates()) used = 3;
      else if (subsets(2) || x_wing()) used = 4;
      else if (subsets(3)) used = 5;
      else if (subsets(4)) used = 6;
      else return kBeyondTheLadder;
      needed = used > needed ? used : needed;
    }
    return needed;
  }

 private:
  bool open() const {
    for (const auto v : g_.cell)
      if (!v) return true;
    return false;
  }
  // Value v placed at c: no longer a candidate of c's peers.
  void strike(int c, int v) {
    const Mask bit = value_bit(v);
    for (const int u : {g_.row_of(c), n_ + g_.col_of(c), 2 * n_ + g_.box_of(c)})
      for (const int d : units_[u]) cand_[d] &= ~bit;
  }
  void place(int c, int v) {
    g_.cell[c] = static_cast<std::uint8_t>(v);
    cand_[c] = 0;
    strike(c, v);
  }
  // Removes `values` from cell c; whether any was there.
  bool remove(int c, Mask values) {
    if (!(cand_[c] & values)) return false;
    cand_[c] &= ~values;
    return true;
  }

  bool hidden_single() {
    for (const auto& unit : units_)
      for (int v = 1; v <= n_; ++v) {
        int at = -1, count = 0;
        for (const int c : unit)
          if (cand_[c] >> (v - 1) & 1) at = c, ++count;
        if (count == 1) {
          place(at, v);
          return true;
        }
      }
    return false;
  }
  bool naked_single() {
    for (int c = 0; c < g_.cells(); ++c)
      if (!g_.cell[c] && std::popcount(cand_[c]) == 1) {
        place(c, std::countr_zero(cand_[c]) + 1);
        return true;
      }
    return false;
  }
  // A value whose cells in one unit all lie in another: gone from the rest of the other.
  bool locked_candidates() {
    bool changed = false;
    const int boxes = 2 * n_;
    for (int a = 0; a < g_.units(); ++a)
      for (int b = 0; b < g_.units(); ++b) {
        if ((a >= boxes) == (b >= boxes)) continue;  // a box with a line, either way round
        for (int v = 1; v <= n_; ++v) {
          const Mask bit = value_bit(v);
          bool any = false, inside = true;
          for (const int c : units_[a])
            if (cand_[c] & bit) any = true, inside = inside && in_unit(c, b);
          if (!any || !inside) continue;
          for (const int c : units_[b])
            if (!in_unit(c, a)) changed = remove(c, bit) || changed;
        }
      }
    return changed;
  }
  bool in_unit(int c, int u) const {
    if (u < n_) return g_.row_of(c) == u;
    if (u < 2 * n_) return g_.col_of(c) == u - n_;
    return g_.box_of(c) == u - 2 * n_;
  }
  // Naked: k open cells of a unit holding k values between them; hidden: k values whose cells
  // in the unit are k. Either way the rest goes.
  bool subsets(int k) {
    bool changed = false;
    for (const auto& unit : units_) {
      std::vector<int> open;
      for (const int c : unit)
        if (!g_.cell[c]) open.push_back(c);
      std::vector<int> pick;
      changed = naked(open, k, 0, pick, 0) || changed;
      changed = hidden(open, k, 1, 0) || changed;
    }
    return changed;
  }
  bool naked(const std::vector<int>& open, int k, std::size_t from, std::vector<int>& pick, Mask seen) {
    if (std::popcount(seen) > k) return false;
    if (static_cast<int>(pick.size()) == k) {
      if (std::popcount(seen) != k) return false;
      bool changed = false;
      for (const int c : open)
        if (std::find(pick.begin(), pick.end(), c) == pick.end()) changed = remove(c, seen) || changed;
      return changed;
    }
    bool changed = false;
    for (std::size_t i = from; i < open.size(); ++i) {
      pick.push_back(open[i]);
      changed = naked(open, k, i + 1, pick, seen | cand_[open[i]]) || changed;
      pick.pop_back();
    }
    return changed;
  }
  bool hidden(const std::vector<int>& open, int k, int from_value, Mask values) {
    if (std::popcount(values) == k) {
      int cells = 0;
      for (const int c : open) cells += (cand_[c] & values) != 0;
      if (cells != k) return false;
      for (Mask rest = values; rest; rest &= rest - 1) {  // every value has a cell among them
        bool there = false;
        for (const int c : open) there = there || (cand_[c] & (rest & -rest));
        if (!there) return false;
      }
      bool changed = false;
      for (const int c : open)
        if (cand_[c] & values) changed = remove(c, ~values) || changed;
      return changed;
    }
    bool changed = false;
    for (int v = from_value; v <= n_; ++v)
      changed = hidden(open, k, v + 1, values | value_bit(v)) || changed;
    return changed;
  }
  // A value in exactly two cells of each of two rows, in the same two columns: gone from the
  // rest of those columns (and the same with rows and columns swapped).
  bool x_wing() {
    bool changed = false;
    for (const int base : {0, n_}) {  // rows as lines, then columns
      const int cross = n_ - base;
      for (int v = 1; v <= n_; ++v) {
        const Mask bit = value_bit(v);
        std::vector<Mask> where(n_, 0);  // per line: the positions along it holding v
        for (int l = 0; l < n_; ++l)
          for (int p = 0; p < n_; ++p)
            if (cand_[units_[base + l][p]] & bit) where[l] |= Mask(1) << p;
        for (int a = 0; a < n_; ++a)
          for (int b = a + 1; b < n_; ++b) {
            if (std::popcount(where[a]) != 2 || where[a] != where[b]) continue;
            for (Mask ps = where[a]; ps; ps &= ps - 1) {
              const int p = std::countr_zero(ps);
              for (const int c : units_[cross + p])
                if (!in_unit(c, base + a) && !in_unit(c, base + b)) changed = remove(c, bit) || changed;
            }
          }
      }
    }
    return changed;
  }

  Grid g_;
  int n_;
  std::vector<Mask> cand_;
  std::vector<std::vector<int>> units_;
};

}  // namespace

int deduction_rung(const Grid& puzzle) { return Ladder(puzzle).rung(); }

}  // namespace gpuga
