// The chain rungs: what follows from assuming a candidate on or off (propagation.hpp), read as
// Sudoku Explainer reads forcing chains. Every conclusion found at a rung is weighed by its
// length and the shortest applied.
#include <algorithm>
#include <memory>
#include <optional>

#include "propagation.hpp"
#include "rules.hpp"

namespace gpuga::ladder {
namespace {

// The conclusions of a rung (a candidate on: place it; off: remove it), each with its
// difficulty, and the easiest.
struct Conclusion {
  int node = -1;
  double difficulty = 1e9;
  const char* technique = "";
  std::vector<std::pair<int, double>> all;
  void offer(int at, double d, const char* name) {
    all.emplace_back(at, d);
    if (d < difficulty) node = at, difficulty = d, technique = name;
  }
};

// Whether `node` would change the board: a candidate still there, to place or to remove.
bool changes(const Board& board, int node) {
  const int n = board.side(), c = cell_of_node(n, node), v = value_of_node(n, node);
  return !board.value(c) && (board.candidates(c) & value_bit(v));
}

// Applies the easiest conclusion, and with it every other no harder than it or than `ceiling`:
// they hold on this board all the same, and take nothing from the puzzle's rating, its
// hardest step, while saving a search each.
std::optional<Step> apply(Board& board, const Conclusion& best, double ceiling) {
  if (best.node < 0) return std::nullopt;
  const int n = board.side();
  const double limit = std::max(ceiling, best.difficulty);
  for (const auto& [node, difficulty] : best.all) {
    if (difficulty > limit || !changes(board, node)) continue;
    const int c = cell_of_node(n, node), v = value_of_node(n, node);
    if (is_on(node)) board.place(c, v);
    else board.remove(c, value_bit(v));
  }
  return Step{best.difficulty, best.technique};
}

// Whether a candidate taken out leaves nothing to follow: its cell keeps two others, and each of
// its units two other places for its value, so that no link, static or dynamic, starts there.
// Its assumption off is then a chain of one node, skipped. (A dynamic rung with locked
// candidates may still lock a value there: it follows every assumption.)
bool leads_nowhere_off(const Board& board, int c, int v) {
  if (std::popcount(board.candidates(c)) < 3) return false;
  for (const int u : board.units_of(c))
    if (board.places(u, v) < 3) return false;
  return true;
}

// Each open candidate of the board, as (cell, value).
template <class F>
void each_candidate(const Board& board, F&& f) {
  for (int c = 0; c < board.cells(); ++c)
    for (Mask rest = board.value(c) ? 0 : board.candidates(c); rest; rest &= rest - 1) f(c, std::countr_zero(rest) + 1);
}

// The depth at which each assumption meets its own negation along the board's links (on -> off
// by weak links, off -> on by strong ones), or -1: 64 assumptions at once, a bit each, level by
// level, each node's successors read once a level for all of them.
std::vector<int> negation_depths(const Board& board, const std::vector<int>& starts) {
  const int n = board.side();
  std::vector<std::vector<int>> next(2 * board.cells() * n);  // static successors, by node
  each_candidate(board, [&](int c, int v) {
    for (const bool on : {true, false}) {
      const int node = node_of(n, c, v, on);
      each_static_link(board, node, true, [&](int to) { next[node].push_back(to); });
    }
  });
  std::vector<int> depth(starts.size(), -1);
  std::vector<Mask> reached(next.size()), frontier(next.size()), coming(next.size());
  std::vector<int> negation_of(next.size(), -1);  // the batch's assumption a node negates
  for (std::size_t first = 0; first < starts.size(); first += 64) {
    const std::size_t count = std::min<std::size_t>(64, starts.size() - first);
    std::fill(reached.begin(), reached.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    for (std::size_t i = 0; i < count; ++i) {
      const int start = starts[first + i];
      reached[start] |= Mask(1) << i;
      frontier[start] |= Mask(1) << i;
      negation_of[start ^ 1] = static_cast<int>(i);
    }
    for (int level = 1; ; ++level) {
      bool any = false;
      for (std::size_t node = 0; node < next.size(); ++node) {
        if (!frontier[node]) continue;
        for (const int to : next[node]) {
          const Mask fresh = frontier[node] & ~reached[to];
          if (!fresh) continue;
          reached[to] |= fresh;
          coming[to] |= fresh;
          any = true;
          if (const int i = negation_of[to]; i >= 0 && (fresh >> i & 1) && depth[first + i] < 0) depth[first + i] = level;
        }
      }
      if (!any) break;
      std::swap(frontier, coming);
      std::fill(coming.begin(), coming.end(), 0);
    }
    for (std::size_t i = 0; i < count; ++i) negation_of[starts[first + i] ^ 1] = -1;
  }
  return depth;
}

// A candidate's assumption followed to its negation along the board's links: an alternating
// inference chain (its length the depth found), or a forcing X-chain where one value's links make
// it (easier; looked for only where some chain exists, X links being a part of all links).
void self_refuting_chains(const Board& board, Conclusion& best) {
  const int n = board.side();
  std::vector<int> starts;
  each_candidate(board, [&](int c, int v) {
    for (const bool on : {true, false})
      if (on || !leads_nowhere_off(board, c, v)) starts.push_back(node_of(n, c, v, on));
  });
  const std::vector<int> depth = negation_depths(board, starts);
  thread_local std::optional<Consequences> chain;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (depth[i] < 0) continue;
    const int start = starts[i];
    best.offer(start ^ 1, 7.0 + length_difficulty(depth[i] + 1), "forcing chain");
    if (chain) chain->run_on(board, Links::StaticX, start, start ^ 1);
    else chain.emplace(board, start, Links::StaticX, start ^ 1);
    if (chain->derived(start ^ 1))
      best.offer(start ^ 1, 6.6 + length_difficulty(chain->ancestors(start ^ 1)), "forcing X-chain");
  }
}

// Every candidate's assumptions, on and off, each followed once a rung and read by each kind of
// forcing chain.
class Assumptions {
 public:
  Assumptions(const Board& board, Links links) : board_(board), links_(links), made_(2 * board.cells() * board.side()) {}
  const Consequences& of(int node) {
    if (!made_[node]) made_[node] = std::make_unique<Consequences>(board_, node, links_);
    return *made_[node];
  }
  Links links() const { return links_; }

 private:
  const Board& board_;
  Links links_;
  std::vector<std::unique_ptr<Consequences>> made_;
};

// The nodes a contradiction rests on: the clash, and its opposite where that was derived too.
int contradiction_length(const Consequences& p) {
  int nodes = p.ancestors(p.clash());
  if (p.derived(p.clash() ^ 1)) nodes += p.ancestors(p.clash() ^ 1);
  return nodes;
}

// A value placed that leaves it no place in some unit, by its own singles alone: not there.
void nishio(const Board& board, Conclusion& best) {
  const int n = board.side();
  thread_local std::optional<Consequences> placed;
  each_candidate(board, [&](int c, int v) {
    const int start = node_of(n, c, v, true);
    if (placed) placed->run_on(board, Links::Nishio, start);
    else placed.emplace(board, start, Links::Nishio);
    if (placed->contradiction()) best.offer(start ^ 1, 7.5 + length_difficulty(contradiction_length(*placed)), "Nishio forcing chain");
  });
}

// An assumption, on or off, that ends in a contradiction under dynamic links: its negation holds.
void contradiction(const Board& board, Assumptions& assumed, double base, const char* name, Conclusion& best) {
  const int n = board.side();
  each_candidate(board, [&](int c, int v) {
    for (const bool on : {true, false}) {
      if (!on && assumed.links() == Links::Dynamic && leads_nowhere_off(board, c, v)) continue;
      const int start = node_of(n, c, v, on);
      const Consequences& p = assumed.of(start);
      if (p.contradiction()) best.offer(start ^ 1, base + length_difficulty(contradiction_length(p)), name);
    }
  });
}

// Conclusions every branch of a choice reaches: each candidate of a cell, or each place of a
// value in a unit. The branches' lengths add up.
void forced_by_all(const Board& board, Assumptions& assumed, const std::vector<int>& starts, double base,
                   const char* name, Conclusion& best) {
  const bool statics = assumed.links() == Links::Static;
  for (const int s : starts)
    if (!statics && assumed.of(s).contradiction()) return;  // a branch refuted: contradiction()'s
  for (const int node : assumed.of(starts.front()).nodes()) {
    bool all = changes(board, node);
    for (std::size_t b = 1; b < starts.size() && all; ++b) all = assumed.of(starts[b]).derived(node);
    for (const int s : starts) all = all && node != s;
    if (!all) continue;
    int nodes = 0;
    for (const int s : starts) nodes += assumed.of(s).ancestors(node);
    best.offer(node, base + length_difficulty(nodes), name);
  }
}

// Cell and unit forcing chains, named by their links.
void forcing_chains(const Board& board, Assumptions& assumed, double base, Conclusion& best) {
  const int n = board.side();
  const Links links = assumed.links();
  const char* cell = links == Links::Static    ? "cell forcing chain"
                     : links == Links::Dynamic ? "dynamic cell forcing chain"
                                               : "dynamic cell forcing chain (+)";
  const char* unit = links == Links::Static    ? "unit forcing chain"
                     : links == Links::Dynamic ? "dynamic unit forcing chain"
                                               : "dynamic unit forcing chain (+)";
  for (int c = 0; c < board.cells(); ++c) {  // every candidate of a cell
    if (board.value(c) || one_value(board.candidates(c))) continue;
    std::vector<int> starts;
    for (Mask rest = board.candidates(c); rest; rest &= rest - 1) starts.push_back(node_of(n, c, std::countr_zero(rest) + 1, true));
    forced_by_all(board, assumed, starts, base, cell, best);
  }
  for (int u = 0; u < board.units(); ++u)  // every place of a value in a unit
    for (int v = 1; v <= n; ++v) {
      if (board.places(u, v) < 2) continue;
      std::vector<int> starts;
      for (Mask rest = board.positions(u, v); rest; rest &= rest - 1) starts.push_back(node_of(n, board.unit(u)[std::countr_zero(rest)], v, true));
      forced_by_all(board, assumed, starts, base, unit, best);
    }
}

}  // namespace

double length_difficulty(int nodes) {
  double added = 0;
  int ceiling = 4;
  for (bool odd = false; nodes - 2 > ceiling; odd = !odd) {
    added += 0.1;
    ceiling = odd ? ceiling * 4 / 3 : ceiling * 3 / 2;
  }
  return added;
}

std::optional<Step> chained(Board& board, Chaining kind, double ceiling) {
  if (board.side() > 16) return std::nullopt;
  Conclusion best;
  switch (kind) {
    case Chaining::Alternating:
      self_refuting_chains(board, best);
      break;
    case Chaining::Nishio:
      nishio(board, best);
      break;
    case Chaining::Multiple: {
      Assumptions assumed(board, Links::Static);
      forcing_chains(board, assumed, 8.0, best);
      break;
    }
    case Chaining::Dynamic:
    case Chaining::DynamicPlus: {
      const bool plus = kind == Chaining::DynamicPlus;
      Assumptions assumed(board, plus ? Links::DynamicPlus : Links::Dynamic);
      const double base = plus ? 9.0 : 8.5;
      contradiction(board, assumed, base, plus ? "dynamic contradiction chain (+)" : "dynamic contradiction chain", best);
      forcing_chains(board, assumed, base, best);
      break;
    }
  }
  return apply(board, best, ceiling);
}

}  // namespace gpuga::ladder
