// The rungs on small patterns: turbot fish, wings, and the uniqueness patterns.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <vector>

#include "rules.hpp"

namespace gpuga::ladder {
namespace {

// Removes v from every open cell other than `except` that sees all of `seen`; whether any went.
bool remove_seen_by_all(Board& board, const std::vector<int>& seen, int v) {
  bool changed = false;
  for (const int c : board.peers(seen.front())) {
    if (!(board.candidates(c) & value_bit(v))) continue;
    bool all = true;
    for (const int s : seen) all = all && (s != c) && board.sees(s, c);
    if (all) changed = board.remove(c, value_bit(v)) || changed;
  }
  return changed;
}

}  // namespace

std::optional<Step> strong_link_chain(Board& board, int links) {
  static const char* kName[] = {"", "", "turbot fish", "three strong links", "four strong links"};
  const double difficulty = links == 2 ? 4.2 : links == 3 ? 5.4 : 5.8;
  const int n = board.side();
  for (int v = 1; v <= n; ++v) {
    std::vector<std::vector<int>> partner(board.cells());  // conjugates of v, cell by cell
    for (int u = 0; u < board.units(); ++u)
      if (board.places(u, v) == 2) {
        const Mask where = board.positions(u, v);
        const int a = board.unit(u)[std::countr_zero(where)];
        const int b = board.unit(u)[63 - std::countl_zero(where)];
        partner[a].push_back(b);
        partner[b].push_back(a);
      }
    // Strong, weak, strong, ... from `chain`'s last cell: its conjugates, then cells they see.
    std::vector<int> chain;
    const auto on_chain = [&](int c) { return std::find(chain.begin(), chain.end(), c) != chain.end(); };
    std::function<bool(int)> extend = [&](int strong_left) {
      const int last = chain.back();
      for (const int next : partner[last]) {
        if (on_chain(next)) continue;
        chain.push_back(next);
        if (strong_left == 1) {
          if (!board.sees(chain.front(), next)) {
            bool changed = false;
            for (const int c : board.peers(chain.front()))
              if (!on_chain(c) && board.sees(c, next)) changed = board.remove(c, value_bit(v)) || changed;
            if (changed) return true;
          }
        } else {
          for (const int weak : board.peers(next)) {
            if (on_chain(weak) || partner[weak].empty() || !(board.candidates(weak) & value_bit(v))) continue;
            chain.push_back(weak);
            if (extend(strong_left - 1)) return true;
            chain.pop_back();
          }
        }
        chain.pop_back();
      }
      return false;
    };
    for (int start = 0; start < board.cells(); ++start) {
      if (partner[start].empty()) continue;
      chain = {start};
      if (extend(links)) return Step{difficulty, kName[links]};
    }
  }
  return std::nullopt;
}

std::optional<Step> wing(Board& board, int size) {
  // A group of size - 1 cells that all see each other, holding `size` values between them (so
  // each value of the group is in it once at most), and a bivalue cell {x, z} of those values
  // outside it that sees every cell of the group holding x: then z is in the group or in the
  // bivalue cell, and goes from every cell seeing all of those places.
  std::vector<int> group;
  const auto eliminate = [&](Mask values) {
    for (int yz = 0; yz < board.cells(); ++yz) {
      const Mask pair = board.candidates(yz);
      if (board.value(yz) || !two_values(pair) || (pair & ~values) ||
          std::find(group.begin(), group.end(), yz) != group.end())
        continue;
      for (const Mask x : {pair & -pair, pair & (pair - 1)}) {
        bool tight = true;
        for (const int g : group) tight = tight && (!(board.candidates(g) & x) || board.sees(g, yz));
        if (!tight) continue;
        const Mask z = pair & ~x;
        std::vector<int> holders = {yz};
        for (const int g : group)
          if (board.candidates(g) & z) holders.push_back(g);
        bool changed = false;
        for (const int c : board.peers(yz)) {
          if (std::find(group.begin(), group.end(), c) != group.end()) continue;
          bool all = true;
          for (const int h : holders) all = all && board.sees(c, h);
          if (all) changed = board.remove(c, z) || changed;
        }
        if (changed) return true;
      }
    }
    return false;
  };
  const auto extend = [&](auto& self, Mask values) -> bool {
    if (static_cast<int>(group.size()) == size - 1) return std::popcount(values) == size && eliminate(values);
    for (const int c : board.peers(group.front())) {
      if (c <= group.back() || board.value(c) || one_value(board.candidates(c))) continue;
      const Mask more = values | board.candidates(c);
      if (std::popcount(more) > size) continue;
      bool sees_all = true;
      for (const int g : group) sees_all = sees_all && board.sees(g, c);
      if (!sees_all) continue;
      group.push_back(c);
      if (self(self, more)) return true;
      group.pop_back();
    }
    return false;
  };
  for (int first = 0; first < board.cells(); ++first) {
    const Mask p = board.candidates(first);
    if (board.value(first) || one_value(p) || std::popcount(p) > size) continue;
    group = {first};
    if (!extend(extend, p)) continue;
    int largest = 0;
    for (const int c : group) largest = std::max(largest, std::popcount(board.candidates(c)));
    static const char* kName[] = {"", "", "", "", "WXYZ-wing", "VWXYZ-wing", "UVWXYZ-wing"};
    // Sudoku Explainer's: wings whose largest cell is of middling size a tenth harder.
    const double base = size == 4 ? 5.5 : size == 5 ? 6.2 : 6.6;
    const int middle = (size + 2) / 2;
    const double shade = size == 6 ? 0 : 0.1 * ((size - middle) - std::abs(middle - largest));
    return Step{base + std::max(0.0, shade), kName[size]};
  }
  return std::nullopt;
}

std::optional<Step> xy_wing(Board& board, bool xyz) {
  const int pivot_values = xyz ? 3 : 2;
  for (int pivot = 0; pivot < board.cells(); ++pivot) {
    const Mask p = board.candidates(pivot);
    if (std::popcount(p) != pivot_values) continue;
    std::vector<int> pincers;  // bivalue peers sharing one value with the pivot (xyz: within it)
    for (const int c : board.peers(pivot)) {
      const Mask q = board.candidates(c);
      if (std::popcount(q) != 2) continue;
      if (xyz ? (q & ~p) == 0 : std::popcount(q & p) == 1) pincers.push_back(c);
    }
    for (std::size_t i = 0; i < pincers.size(); ++i)
      for (std::size_t j = i + 1; j < pincers.size(); ++j) {
        const Mask a = board.candidates(pincers[i]), b = board.candidates(pincers[j]);
        const Mask z = a & b;
        if (std::popcount(z) != 1 || a == b) continue;
        if (xyz ? (a | b) != p : (z & p) || ((a | b) & p) != p) continue;
        const int v = std::countr_zero(z) + 1;
        std::vector<int> seen = {pincers[i], pincers[j]};
        if (xyz) seen.push_back(pivot);
        if (remove_seen_by_all(board, seen, v)) return xyz ? Step{4.4, "XYZ-wing"} : Step{4.2, "XY-wing"};
      }
  }
  return std::nullopt;
}

std::optional<Step> unique_rectangle(Board& board) {
  const int n = board.side();
  for (int r1 = 0; r1 < n; ++r1)
    for (int r2 = r1 + 1; r2 < n; ++r2)
      for (int c1 = 0; c1 < n; ++c1)
        for (int c2 = c1 + 1; c2 < n; ++c2) {
          const int corner[4] = {r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2};
          const bool two_boxes = (r1 / board.box() == r2 / board.box()) != (c1 / board.box() == c2 / board.box());
          if (!two_boxes) continue;
          Mask common = all_values(n);
          for (const int c : corner) common &= board.candidates(c);
          if (std::popcount(common) != 2) continue;
          std::vector<int> extra;  // corners holding more than the pair
          for (const int c : corner)
            if (board.candidates(c) != common) extra.push_back(c);
          if (extra.size() == 1 && board.remove(extra[0], common)) return Step{4.5, "unique rectangle"};
          if (extra.size() != 2) continue;
          const Mask more = board.candidates(extra[0]) & ~common;
          if (std::popcount(more) != 1 || (board.candidates(extra[1]) & ~common) != more) continue;
          if (!board.sees(extra[0], extra[1])) continue;
          if (remove_seen_by_all(board, extra, std::countr_zero(more) + 1)) return Step{4.5, "unique rectangle"};
        }
  return std::nullopt;
}

std::optional<Step> bivalue_grave(Board& board) {
  int three = -1;
  for (int c = 0; c < board.cells(); ++c) {
    if (board.value(c)) continue;
    const int count = std::popcount(board.candidates(c));
    if (count == 2) continue;
    if (count != 3 || three >= 0) return std::nullopt;
    three = c;
  }
  if (three < 0) return std::nullopt;
  // The value of the three that its units hold three times: without it, every value of every
  // unit would have two places, a grave with two solutions.
  for (Mask rest = board.candidates(three); rest; rest &= rest - 1) {
    const int v = std::countr_zero(rest) + 1;
    bool grave = true;
    for (int u = 0; u < board.units() && grave; ++u)
      for (int w = 1; w <= board.side() && grave; ++w) {
        const int places = board.places(u, w);
        const int expected = (w == v && board.in_unit(three, u)) ? 3 : 2;
        grave = places == 0 || places == expected;
      }
    if (grave) {
      board.place(three, v);
      return Step{5.6, "bivalue universal grave"};
    }
  }
  return std::nullopt;
}

}  // namespace gpuga::ladder
