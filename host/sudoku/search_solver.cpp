#include "search_solver.hpp"

#include <bit>
#include <memory>
#include <vector>

#include "singles.hpp"

namespace gpuga {
namespace {

// The search over the core's states (singles.hpp), a state a depth: the singles at each, then a
// guess.
template <int B>
class Search {
  using Core = Singles<B>;
  using Mask = typename Core::Mask;
  using State = typename Core::State;
  static constexpr int n = Core::n, kCells = Core::kCells;
  static Mask bit(int v) { return Core::bit(v); }
  static int value_of(Mask m) { return Core::lowest_value(m); }

 public:
  SearchCount run(const Grid& puzzle, int limit, std::uint64_t budget, Forbidden forbidden,
                  Grid* first, const Grid* near) {
    limit_ = limit, budget_ = budget, first_ = first, near_ = near, result_ = {};
    if (core_.load(level(0), puzzle, forbidden)) descend(0);
    result_.finished = result_.guesses <= budget_;
    return result_;
  }

 private:
  // The state at depth d of the search, made when first reached (on the heap: a 25x25 state is
  // 3 KB, a 64x64 one 36 KB, and searches run on OpenMP threads whose stacks are small).
  State& level(std::size_t d) {
    while (levels_.size() <= d) levels_.push_back(std::make_unique<State>());
    return *levels_[d];
  }

  void descend(std::size_t depth) {
    State& s = level(depth);
    if (!core_.hidden_singles(s)) return;
    if (s.open == 0) {
      if (result_.solutions++ == 0 && first_) {
        *first_ = Grid(B);
        for (int c = 0; c < kCells; ++c) first_->cell[c] = s.value[c];
      }
      return;
    }
    int best = -1, fewest = n + 1;
    for (int c = 0; c < kCells && fewest > 2; ++c)
      if (s.candidates[c] && std::popcount(s.candidates[c]) < fewest) best = c, fewest = std::popcount(s.candidates[c]);
    if (fewest > 2) {  // a value with two places left in a unit branches two ways too
      for (const auto& unit : core_.tables().unit) {
        Mask once = 0, twice = 0, thrice = 0;
        for (const int c : unit) {
          thrice |= twice & s.candidates[c];
          twice |= once & s.candidates[c];
          once |= s.candidates[c];
        }
        if (const Mask two = twice & ~thrice) {
          const int v = value_of(two);
          int cells[2], k = 0;
          for (const int c : unit)
            if (s.candidates[c] & bit(v)) cells[k++] = c;
          if (near_ && near_->cell[cells[1]] == v) std::swap(cells[0], cells[1]);  // near grid first
          if (branch(depth, cells[0], v)) branch(depth, cells[1], v);
          return;
        }
      }
    }
    Mask m = s.candidates[best];
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
    if (core_.place(next, c, v)) descend(depth + 1);
    return result_.solutions < limit_;
  }

  Core core_;
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
