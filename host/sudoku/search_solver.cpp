#include "search_solver.hpp"

#include <array>
#include <bit>
#include <type_traits>
#include <memory>
#include <vector>

namespace gpuga {
namespace {

// The units and peers of every cell of a grid of box size B, made once.
template <int B>
struct Tables {
  static constexpr int n = B * B, kCells = n * n, kUnits = 3 * n;
  static constexpr int kPeers = 3 * (n - 1) - 2 * (B - 1);  // row, column and box, less overlaps
  int unit[kUnits][n];
  int peer[kCells][kPeers];
  int unit_of[kCells][3];  // its row, column and box

  Tables() {
    const Grid g(B);
    for (int u = 0; u < kUnits; ++u)
      for (int k = 0; k < n; ++k) unit[u][k] = g.unit_cell(u, k);
    for (int c = 0; c < kCells; ++c) {
      unit_of[c][0] = g.row_of(c), unit_of[c][1] = n + g.col_of(c), unit_of[c][2] = 2 * n + g.box_of(c);
      int k = 0;
      for (int d = 0; d < kCells; ++d)
        if (d != c && (g.row_of(d) == g.row_of(c) || g.col_of(d) == g.col_of(c) || g.box_of(d) == g.box_of(c)))
          peer[c][k++] = d;
    }
  }
  static const Tables& get() {
    static const Tables t;
    return t;
  }
};

template <int B>
class Search {
  using T = Tables<B>;
  static constexpr int n = T::n, kCells = T::kCells;
  // Bit v - 1: value v (1..n); 64x64's values fill a 64-bit word.
  using Mask = std::conditional_t<(n <= 32), std::uint32_t, std::uint64_t>;
  static constexpr Mask kAll = static_cast<Mask>(all_values(n));
  static Mask bit(int v) { return static_cast<Mask>(value_bit(v)); }
  // bit(v) by table, 0 for a blank: a cell's value or none without a branch in the hottest loop.
  static constexpr auto kBitOf = [] {
    std::array<Mask, n + 1> bits{};
    for (int v = 1; v <= n; ++v) bits[v] = static_cast<Mask>(value_bit(v));
    return bits;
  }();
  static int value_of(Mask m) { return std::countr_zero(m) + 1; }  // its lowest value

  // A grid being filled: an open cell's candidates, a placed cell's value (its mask then 0).
  struct State {
    Mask cand[kCells];
    std::uint8_t value[kCells];
    int open = kCells;
  };

 public:
  Search() : t_(T::get()) {}

  SearchCount run(const Grid& puzzle, int limit, std::uint64_t budget, Forbidden forbidden,
                  Grid* first, const Grid* near) {
    limit_ = limit, budget_ = budget, first_ = first, near_ = near, result_ = {};
    if (load(puzzle, forbidden)) descend(0);
    result_.finished = result_.guesses <= budget_;
    return result_;
  }

 private:
  // v at c (open, v a candidate), and every naked single that follows; false on a cell left
  // with no candidate. A single waits open, its one candidate left, until it is placed: two
  // cells of a unit left with the same one value then leave one of them with none.
  bool place(State& s, int c, int v) {
    int waiting[kCells];
    int top = 0;
    waiting[top++] = c;
    s.cand[c] = bit(v);
    while (top > 0) {
      const int at = waiting[--top];
      const Mask one = s.cand[at];
      if (one == 0) return false;  // its one value went meanwhile
      s.value[at] = static_cast<std::uint8_t>(value_of(one)), s.cand[at] = 0, --s.open;
      for (const int p : t_.peer[at]) {
        if (!(s.cand[p] & one)) continue;  // placed (mask 0), or without that value already
        const Mask left = s.cand[p] & ~one;
        s.cand[p] = left;
        if (left == 0) return false;
        if ((left & (left - 1)) == 0) waiting[top++] = p;
      }
    }
    return true;
  }

  // The givens (but the forbidden cell's) placed at once: each unit's values held, each open
  // cell's candidates what its units leave, then the naked singles that leaves; false where
  // givens clash or a cell is left with no candidate.
  bool load(const Grid& puzzle, Forbidden forbidden) {
    State& s = level(0);
    Mask held[T::kUnits] = {};
    for (int u = 0; u < T::kUnits; ++u)
      for (const int c : t_.unit[u]) {
        const int v = c == forbidden.cell ? 0 : puzzle.cell[c];
        if (v == 0) continue;
        if (held[u] & bit(v)) return false;  // a value twice in a unit
        held[u] |= bit(v);
      }
    s.open = 0;
    int waiting[kCells], top = 0;
    for (int c = 0; c < kCells; ++c) {
      const int v = c == forbidden.cell ? 0 : puzzle.cell[c];
      s.value[c] = static_cast<std::uint8_t>(v);
      s.cand[c] = 0;
      if (v) continue;
      const int* u = t_.unit_of[c];
      const Mask left = kAll & ~(held[u[0]] | held[u[1]] | held[u[2]]);
      if (left == 0) return false;
      s.cand[c] = left, ++s.open;
      if ((left & (left - 1)) == 0) waiting[top++] = c;
    }
    if (forbidden.cell >= 0) {
      const Mask left = s.cand[forbidden.cell] & ~bit(forbidden.value);
      if (left == 0) return false;
      s.cand[forbidden.cell] = left;
      if ((left & (left - 1)) == 0) waiting[top++] = forbidden.cell;
    }
    for (int k = 0; k < top; ++k)  // each single placed with what follows from it
      if (s.cand[waiting[k]] && !place(s, waiting[k], value_of(s.cand[waiting[k]])))
        return false;
    return true;
  }

  // Hidden singles to a fixed point; false on a value left with no cell in a unit.
  bool hidden_singles(State& s) {
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& unit : t_.unit) {
        Mask once = 0, twice = 0, held = 0;
        for (const int c : unit) {
          held |= kBitOf[s.value[c]];
          twice |= once & s.cand[c];
          once |= s.cand[c];
        }
        if ((once | held) != kAll) return false;
        for (Mask lone = once & ~twice & ~held; lone; lone &= lone - 1) {
          const int v = value_of(lone);
          int cell = -1;
          for (const int c : unit)
            if (s.value[c] == v || (s.cand[c] & bit(v))) {
              cell = c;
              break;
            }
          if (cell < 0) return false;
          if (s.value[cell] == v) continue;  // a single placed it meanwhile
          if (s.value[cell] || !place(s, cell, v)) return false;
          changed = true;
        }
      }
    }
    return true;
  }

  // The state at depth d of the search, made when first reached (on the heap: a 25x25 state is
  // 3 KB, a 64x64 one 36 KB, and searches run on OpenMP threads whose stacks are small).
  State& level(std::size_t d) {
    while (levels_.size() <= d) levels_.push_back(std::make_unique<State>());
    return *levels_[d];
  }

  void descend(std::size_t depth) {
    State& s = level(depth);
    if (!hidden_singles(s)) return;
    if (s.open == 0) {
      if (result_.solutions++ == 0 && first_) {
        *first_ = Grid(B);
        for (int c = 0; c < kCells; ++c) first_->cell[c] = s.value[c];
      }
      return;
    }
    int best = -1, fewest = n + 1;
    for (int c = 0; c < kCells && fewest > 2; ++c)
      if (s.cand[c] && std::popcount(s.cand[c]) < fewest) best = c, fewest = std::popcount(s.cand[c]);
    if (fewest > 2) {  // a value with two places left in a unit branches two ways too
      for (const auto& unit : t_.unit) {
        Mask once = 0, twice = 0, thrice = 0;
        for (const int c : unit) {
          thrice |= twice & s.cand[c];
          twice |= once & s.cand[c];
          once |= s.cand[c];
        }
        if (const Mask two = twice & ~thrice) {
          const int v = value_of(two);
          int cells[2], k = 0;
          for (const int c : unit)
            if (s.cand[c] & bit(v)) cells[k++] = c;
          if (near_ && near_->cell[cells[1]] == v) std::swap(cells[0], cells[1]);  // near grid first
          if (branch(depth, cells[0], v)) branch(depth, cells[1], v);
          return;
        }
      }
    }
    Mask m = s.cand[best];
    if (near_ && (m & bit(near_->cell[best]))) {  // the near grid's value first
      if (!branch(depth, best, near_->cell[best])) return;
      m &= ~bit(near_->cell[best]);
    }
    for (; m; m &= m - 1)
      if (!branch(depth, best, value_of(m))) return;
  }

  // The branch of placing v at c from the state at `depth`; false when the search should stop
  // (the limit of solutions reached, or the budget of guesses spent).
  bool branch(std::size_t depth, int c, int v) {
    if (result_.solutions >= limit_) return false;
    if (++result_.guesses > budget_) return false;
    State& next = level(depth + 1);  // the state at depth stays where it is: each is an allocation
    next = level(depth);
    if (place(next, c, v)) descend(depth + 1);
    return result_.solutions < limit_;
  }

  const T& t_;
  int limit_ = 1;
  std::uint64_t budget_ = 0;
  Grid* first_ = nullptr;
  const Grid* near_ = nullptr;
  SearchCount result_;
  std::vector<std::unique_ptr<State>> levels_;
};

}  // namespace

SearchCount search_solutions(const Grid& puzzle, int limit, std::uint64_t guess_budget,
                             Forbidden forbidden, Grid* first, const Grid* near) {
  return with_box_size(puzzle.box, [&]<int B>() {
    thread_local Search<B> search;
    return search.run(puzzle, limit, guess_budget, forbidden, first, near);
  });
}

}  // namespace gpuga
