#include "propagation.hpp"

namespace gpuga::ladder {

Consequences::Consequences(const Board& board, int start, Links links, int target)
    : board_(&board), links_(links), n_(board.side()), depth_(2 * board.cells() * board.side(), -1),
      parent_begin_(new int[depth_.size()]), parent_count_(new int[depth_.size()]) {
  run(start, target);
}

void Consequences::run_on(const Board& board, Links links, int start, int target) {
  // Sized by the nodes held, not by board_, which may be a board gone since (a thread's
  // Consequences outlives the rating that made it, and the next may be of another size).
  if (const std::size_t nodes = 2 * board.cells() * board.side(); nodes != depth_.size()) {
    order_.clear();
    depth_.assign(nodes, -1);
    parent_begin_.reset(new int[depth_.size()]);
    parent_count_.reset(new int[depth_.size()]);
  }
  board_ = &board;
  links_ = links;
  n_ = board.side();
  run(start, target);
}

void Consequences::run(int start, int target) {
  for (const int node : order_) depth_[node] = -1;
  order_.clear();
  parents_.clear();
  contradiction_ = false;
  clash_ = -1;
  candidates_ = board_->candidates();
  places_ = board_->places();
  only_value_ = links_ == Links::Nishio ? value_of_node(n_, start) : 0;
  derive(start, 0, 0);
  // A static chain runs to its closure (a chain may pass a clash on its way to the one sought);
  // a dynamic one stops at its first clash, its state then being void.
  const bool dynamic = links_ != Links::Static && links_ != Links::StaticX;
  for (std::size_t next = 0; next < order_.size() && !(dynamic && contradiction_); ++next) {
    if (target >= 0 && derived(target)) break;
    follow(order_[next]);
  }
}

void Consequences::derive(int node, int parent_first, int parent_count) {
  if (derived(node)) return;
  int depth = 0;
  for (int i = 0; i < parent_count; ++i) depth = std::max(depth, depth_[parents_[parent_first + i]] + 1);
  depth_[node] = depth;
  parent_begin_[node] = parent_first;
  parent_count_[node] = parent_count;
  order_.push_back(node);
  if (derived(node ^ 1) && !contradiction_) contradiction_ = true, clash_ = node;
}

void Consequences::follow(int node) {
  if (links_ == Links::Static || links_ == Links::StaticX) follow_static(node);
  else follow_dynamic(node);
}

// The board's links (each_static_link), each derived from this node.
void Consequences::follow_static(int node) {
  parents_.push_back(node);
  const int first = static_cast<int>(parents_.size()) - 1;
  each_static_link(*board_, node, links_ == Links::Static, [&](int to) { derive(to, first, 1); });
}

// The assumption's own state: a value on empties its cell and its peers of that value; a value
// off may leave its cell one candidate or a unit one place for it.
void Consequences::follow_dynamic(int node) {
  const int c = cell_of_node(n_, node), v = value_of_node(n_, node);
  if (is_on(node)) {
    if (only_value_ == 0)
      for (Mask rest = candidates_[c] & ~value_bit(v); rest; rest &= rest - 1)
        on_removed(c, std::countr_zero(rest) + 1, node);
    else
      remove_quietly(c, candidates_[c] & ~value_bit(v));
    for (const int d : board_->peers(c))
      if (candidates_[d] & value_bit(v)) on_removed(d, v, node);
    return;
  }
  if (only_value_ == 0) {
    const Mask left = candidates_[c];
    if (left == 0) {
      contradiction_ = true, clash_ = node;
      return;
    }
    if (one_value(left)) {  // a naked single: every other candidate of the cell went
      const int first = static_cast<int>(parents_.size());
      for (Mask gone = board_->candidates(c) & ~left; gone; gone &= gone - 1)
        if (const int off = node_of(n_, c, std::countr_zero(gone) + 1, false); derived(off)) parents_.push_back(off);
      derive(node_of(n_, c, std::countr_zero(left) + 1, true), first, static_cast<int>(parents_.size()) - first);
    }
  }
  for (const int u : board_->units_of(c)) {  // a hidden single: every other place of v went
    const int places = places_[u * n_ + v - 1];
    if (places == 0) {
      contradiction_ = true, clash_ = node;
      return;
    }
    if (places != 1) continue;
    const int first = static_cast<int>(parents_.size());
    int single = -1;
    for (const int d : board_->unit(u)) {
      if (candidates_[d] & value_bit(v)) single = d;
      else if (const int off = node_of(n_, d, v, false); derived(off)) parents_.push_back(off);
    }
    derive(node_of(n_, single, v, true), first, static_cast<int>(parents_.size()) - first);
  }
  if (links_ == Links::DynamicPlus) lock(c, v, node);
}

void Consequences::remove_quietly(int cell, Mask values) {
  for (Mask rest = candidates_[cell] & values; rest; rest &= rest - 1)
    for (const int u : board_->units_of(cell)) --places_[u * n_ + std::countr_zero(rest)];
  candidates_[cell] &= ~values;
}

void Consequences::on_removed(int cell, int value, int node) {
  remove_quietly(cell, value_bit(value));
  parents_.push_back(node);
  derive(node_of(n_, cell, value, false), static_cast<int>(parents_.size()) - 1, 1);
}

// Locked candidates of v around cell c once v went from c: a unit whose places of v all lie in
// one crossing unit takes v out of the rest of that unit.
void Consequences::lock(int c, int v, int node) {
  const auto& units = board_->units_of(c);
  for (const int from : units)
    for (const int to : units) {
      if ((from == units[2]) == (to == units[2])) continue;  // a box with a line, either way
      bool any = false, inside = true;
      for (const int d : board_->unit(from))
        if (candidates_[d] & value_bit(v)) any = true, inside = inside && board_->in_unit(d, to);
      if (!any || !inside) continue;
      for (const int d : board_->unit(to))
        if (!board_->in_unit(d, from) && (candidates_[d] & value_bit(v))) on_removed(d, v, node);
    }
}

int Consequences::ancestors(int node) const {
  // Marks by a count that rises each call, so that no call clears them; one thread's marks
  // serve every propagation it reads.
  thread_local std::vector<std::uint32_t> seen;
  thread_local std::uint32_t stamp = 0;
  if (seen.size() < depth_.size()) seen.assign(depth_.size(), 0), stamp = 0;
  ++stamp;
  int count = 0;
  thread_local std::vector<int> stack;
  stack.assign(1, node);
  seen[node] = stamp;
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    ++count;
    for (int i = 0; i < parent_count_[at]; ++i)
      if (const int p = parents_[parent_begin_[at] + i]; seen[p] != stamp) seen[p] = stamp, stack.push_back(p);
  }
  return count;
}

}  // namespace gpuga::ladder
