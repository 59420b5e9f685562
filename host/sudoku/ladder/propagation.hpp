#pragma once
// What follows from one assumption on a candidate (it is the value of its cell, or it is not),
// the forcing chains' one primitive. A candidate is node 2 * (c * n + v - 1) + 1 when on, + 0 when
// off. Each derived node remembers the nodes it follows from, so that a conclusion's chain
// length (its ancestors) can be counted as Sudoku Explainer counts it.
#include <cstdint>
#include <memory>
#include <vector>

#include "board.hpp"

namespace gpuga::ladder {

enum class Links {
  Static,       // the board's own links: a bivalue cell or a value's two places in a unit
  StaticX,      // the same, one value's links only (an X-chain)
  Nishio,       // the assumption's value alone, its singles as they arise
  Dynamic,      // every single as it arises under the assumption
  DynamicPlus,  // and the locked candidates that arise
};

class Consequences {
 public:
  // Follows `start` on `board` with `links`. Static links alternate (on, off, on...), as a chain
  // does; the others take every consequence. Where `target` is a node, it stops there once
  // derived (a chain sought, its shortest found first).
  Consequences(const Board& board, int start, Links links, int target = -1);
  // Follows another assumption on the same board, reusing this one's memory.
  void run(int start, int target = -1);
  // The same on another board or links, still reusing this one's memory.
  void run_on(const Board& board, Links links, int start, int target = -1);

  bool contradiction() const { return contradiction_; }
  // The node that met its opposite (the contradiction), or -1.
  int clash() const { return clash_; }
  bool derived(int node) const { return depth_[node] >= 0; }
  const std::vector<int>& nodes() const { return order_; }  // derived, in order, start first
  // The nodes `node` rests on back to the assumption, itself included.
  int ancestors(int node) const;

 private:
  void derive(int node, int parent_first, int parent_count);
  void follow(int node);
  void follow_static(int node);
  void follow_dynamic(int node);
  void on_removed(int cell, int value, int node);
  void remove_quietly(int cell, Mask values);
  void lock(int cell, int value, int node);

  const Board* board_;
  Links links_;
  int n_, only_value_ = 0;
  std::vector<Mask> candidates_;
  std::vector<std::uint8_t> places_;  // as Board::places, under the assumption
  // By node: its depth, -1 until derived, and where its parents are in parents_ (set once
  // derived: left unset until then, so that a propagation starts by clearing one array).
  std::vector<int> depth_;
  std::unique_ptr<int[]> parent_begin_, parent_count_;
  std::vector<int> parents_, order_;
  bool contradiction_ = false;
  int clash_ = -1;
};

inline int node_of(int n, int cell, int value, bool on) { return 2 * (cell * n + value - 1) + (on ? 1 : 0); }
inline int cell_of_node(int n, int node) { return node / 2 / n; }
inline int value_of_node(int n, int node) { return node / 2 % n + 1; }
inline bool is_on(int node) { return node & 1; }

// Calls to(next) for each of the board's own links from `node`: on -> off along weak links (the
// cell's other candidates, the value's peers), off -> on along strong ones (a bivalue cell, the
// value's other place in a unit of two). `cells` false keeps one value's links only.
template <class F>
void each_static_link(const Board& board, int node, bool cells, F&& to) {
  const int n = board.side(), c = cell_of_node(n, node), v = value_of_node(n, node);
  if (is_on(node)) {
    if (cells)
      for (Mask rest = board.candidates(c) & ~value_bit(v); rest; rest &= rest - 1)
        to(node_of(n, c, std::countr_zero(rest) + 1, false));
    for (const int d : board.peers(c))
      if (board.candidates(d) & value_bit(v)) to(node_of(n, d, v, false));
    return;
  }
  if (cells && two_values(board.candidates(c)))
    to(node_of(n, c, std::countr_zero(board.candidates(c) & ~value_bit(v)) + 1, true));
  for (const int u : board.units_of(c)) {
    if (board.places(u, v) != 2) continue;
    for (Mask rest = board.positions(u, v); rest; rest &= rest - 1)
      if (const int d = board.unit(u)[std::countr_zero(rest)]; d != c) to(node_of(n, d, v, true));
  }
}

}  // namespace gpuga::ladder
