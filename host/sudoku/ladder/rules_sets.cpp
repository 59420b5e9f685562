// The rungs on sets of cells and values: singles, locked candidates, naked and hidden subsets,
// fish.
#include <functional>

#include "rules.hpp"

namespace gpuga::ladder {
namespace {

// Calls found(picked, union) for every choice of k of the masks, in order, whose union holds at
// most k bits, until found returns true; whether it did. A choice is cut as soon as its union
// passes k bits: the search is bounded by the choices that can still succeed.
bool each_choice(const std::vector<Mask>& masks, int k,
                 const std::function<bool(const std::vector<int>&, Mask)>& found) {
  std::vector<int> picked;
  std::function<bool(std::size_t, Mask)> extend = [&](std::size_t from, Mask seen) {
    if (std::popcount(seen) > k) return false;
    if (static_cast<int>(picked.size()) == k) return found(picked, seen);
    for (std::size_t i = from; i < masks.size(); ++i) {
      picked.push_back(static_cast<int>(i));
      if (extend(i + 1, seen | masks[i])) return true;
      picked.pop_back();
    }
    return false;
  };
  return extend(0, 0);
}

// Whether value v has a single place left in a unit of any of `cells`.
bool leaves_hidden_single(const Board& board, const std::vector<int>& cells, int v) {
  for (const int c : cells)
    for (const int u : board.units_of(c))
      if (board.places(u, v) == 1) return true;
  return false;
}

}  // namespace

std::optional<Step> hidden_single(Board& board) {
  const int n = board.side();
  for (int u = 0; u < board.units(); ++u) {  // the last open cell of a unit
    int open = -1, count = 0;
    for (const int c : board.unit(u))
      if (!board.value(c)) open = c, ++count;
    if (count == 1 && std::popcount(board.candidates(open)) == 1) {
      board.place(open, std::countr_zero(board.candidates(open)) + 1);
      return Step{1.0, "last cell of a unit"};
    }
  }
  for (const int first : {2 * n, 0}) {  // boxes, then lines
    const int last = first == 0 ? 2 * n : 3 * n;
    for (int u = first; u < last; ++u)
      for (int v = 1; v <= n; ++v) {
        if (board.places(u, v) != 1) continue;
        board.place(board.unit(u)[std::countr_zero(board.positions(u, v))], v);
        return first == 0 ? Step{1.5, "hidden single in a line"} : Step{1.2, "hidden single in a box"};
      }
  }
  return std::nullopt;
}

std::optional<Step> naked_single(Board& board) {
  for (int c = 0; c < board.cells(); ++c)
    if (!board.value(c) && std::popcount(board.candidates(c)) == 1) {
      board.place(c, std::countr_zero(board.candidates(c)) + 1);
      return Step{2.3, "naked single"};
    }
  return std::nullopt;
}

std::optional<Step> locked_candidates(Board& board, bool direct) {
  const int n = board.side();
  // Pointing (a box's value on one line) before claiming (a line's value in one box).
  for (const bool pointing : {true, false})
    for (int box = 2 * n; box < 3 * n; ++box)
      for (int line = 0; line < 2 * n; ++line) {
        bool crosses = false;
        for (const int c : board.unit(box)) crosses = crosses || board.in_unit(c, line);
        if (!crosses) continue;
        const int from = pointing ? box : line, to = pointing ? line : box;
        for (int v = 1; v <= n; ++v) {
          bool any = false, inside = true;
          for (const int c : board.unit(from))
            if (board.candidates(c) & value_bit(v)) any = true, inside = inside && board.in_unit(c, to);
          if (!any || !inside) continue;
          std::vector<int> outside;
          for (const int c : board.unit(to))
            if (!board.in_unit(c, from) && (board.candidates(c) & value_bit(v))) outside.push_back(c);
          if (outside.empty()) continue;
          Board before = board;
          for (const int c : outside) board.remove(c, value_bit(v));
          if (direct && !leaves_hidden_single(board, outside, v)) {
            board = std::move(before);
            continue;
          }
          if (direct) return pointing ? Step{1.7, "direct pointing"} : Step{1.9, "direct claiming"};
          return pointing ? Step{2.6, "pointing"} : Step{2.8, "claiming"};
        }
      }
  return std::nullopt;
}

std::optional<Step> naked_subset(Board& board, int k) {
  static const char* kName[] = {"", "", "naked pair", "naked triple", "naked quad"};
  const double difficulty = k == 2 ? 3.0 : k == 3 ? 3.6 : 5.0;
  for (int u = 0; u < board.units(); ++u) {
    std::vector<int> open;
    std::vector<Mask> masks;
    for (const int c : board.unit(u))
      if (!board.value(c)) open.push_back(c), masks.push_back(board.candidates(c));
    if (static_cast<int>(open.size()) <= k) continue;
    const bool found = each_choice(masks, k, [&](const std::vector<int>& picked, Mask values) {
      if (std::popcount(values) != k) return false;
      bool changed = false;
      for (std::size_t i = 0, p = 0; i < open.size(); ++i) {
        if (p < picked.size() && picked[p] == static_cast<int>(i)) { ++p; continue; }
        changed = board.remove(open[i], values) || changed;
      }
      return changed;
    });
    if (found) return Step{difficulty, kName[k]};
  }
  return std::nullopt;
}

std::optional<Step> hidden_subset(Board& board, int k, bool direct) {
  static const char* kName[] = {"", "", "hidden pair", "hidden triple", "hidden quad"};
  static const char* kDirect[] = {"", "", "direct hidden pair", "direct hidden triple", ""};
  const double difficulty = direct ? (k == 2 ? 2.0 : 2.5) : k == 2 ? 3.4 : k == 3 ? 4.0 : 5.4;
  const int n = board.side();
  for (int u = 0; u < board.units(); ++u) {
    std::vector<int> values;
    std::vector<Mask> masks;  // each value's places in the unit
    for (int v = 1; v <= n; ++v)
      if (board.places(u, v)) values.push_back(v), masks.push_back(board.positions(u, v));
    if (static_cast<int>(values.size()) <= k) continue;
    const bool found = each_choice(masks, k, [&](const std::vector<int>& picked, Mask places) {
      if (std::popcount(places) != k) return false;
      Mask keep = 0;
      for (const int i : picked) keep |= value_bit(values[i]);
      Board before = board;
      bool changed = false;
      for (Mask rest = places; rest; rest &= rest - 1)
        changed = board.remove(board.unit(u)[std::countr_zero(rest)], ~keep) || changed;
      if (!changed) return false;
      if (!direct) return true;
      for (int v = 1; v <= n; ++v)  // another value left with a single place in the unit
        if (!(keep & value_bit(v)) && board.places(u, v) == 1 &&
            before.places(u, v) > 1)
          return true;
      board = std::move(before);
      return false;
    });
    if (found) return Step{difficulty, direct ? kDirect[k] : kName[k]};
  }
  return std::nullopt;
}

std::optional<Step> fish(Board& board, int k) {
  static const char* kName[] = {"", "", "X-wing", "swordfish", "jellyfish"};
  const double difficulty = k == 2 ? 3.2 : k == 3 ? 3.8 : 5.2;
  const int n = board.side();
  for (int v = 1; v <= n; ++v)
    for (const int base : {0, n}) {  // rows as the base lines, then columns
      const int cover = n - base;
      std::vector<int> lines;
      std::vector<Mask> masks;  // each line's places of v, along it
      for (int l = 0; l < n; ++l)
        if (board.places(base + l, v) >= 2) lines.push_back(l), masks.push_back(board.positions(base + l, v));
      const bool found = each_choice(masks, k, [&](const std::vector<int>& picked, Mask across) {
        if (std::popcount(across) != k) return false;
        bool changed = false;
        for (Mask rest = across; rest; rest &= rest - 1)
          for (const int c : board.unit(cover + std::countr_zero(rest))) {
            bool in_base = false;
            for (const int i : picked) in_base = in_base || board.in_unit(c, base + lines[i]);
            if (!in_base) changed = board.remove(c, value_bit(v)) || changed;
          }
        return changed;
      });
      if (found) return Step{difficulty, kName[k]};
    }
  return std::nullopt;
}

}  // namespace gpuga::ladder
