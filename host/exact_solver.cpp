#include "exact_solver.hpp"

#include <bit>
#include <cstdint>

#include "errors.hpp"

namespace gpuga {
namespace {

using Mask = std::uint16_t;  // bit v set: digit v (1-9) is still possible
constexpr Mask kAll = 0x3FE;

struct State {
  Grid grid{};
  Mask used[kUnits]{};  // digits placed in each unit

  Mask candidates(int c) const {
    return kAll & ~(used[row_of(c)] | used[9 + col_of(c)] | used[18 + box_of(c)]);
  }
  void place(int c, int v) {
    grid.cell[c] = static_cast<std::uint8_t>(v);
    const Mask bit = Mask(1u << v);
    used[row_of(c)] |= bit;
    used[9 + col_of(c)] |= bit;
    used[18 + box_of(c)] |= bit;
  }
};

struct Search {
  int limit;
  ExactResult result;

  // The branch with fewest options: a cell (its candidates) or a unit-digit (its places).
  struct Branch {
    int options = 10;
    int cell = -1;  // branch on the digits of this cell ...
    int unit = -1;  // ... or on the cells of this unit for `digit`
    int digit = 0;
  };

  static Branch choose(const State& s) {
    Branch b;
    for (int c = 0; c < kCells && b.options > 1; ++c) {
      if (s.grid.cell[c]) continue;
      const int n = std::popcount(unsigned(s.candidates(c)));
      if (n < b.options) b = Branch{n, c, -1, 0};
    }
    for (int u = 0; u < kUnits && b.options > 1; ++u) {
      for (int v = 1; v <= 9; ++v) {
        if (s.used[u] & (1u << v)) continue;
        int n = 0;
        for (int k = 0; k < kSide; ++k) {
          const int c = unit_cell(u, k);
          n += s.grid.cell[c] == 0 && (s.candidates(c) & (1u << v));
        }
        if (n < b.options) b = Branch{n, -1, u, v};
      }
    }
    return b;
  }

  void run(const State& s) {
    if (result.solutions >= limit) return;
    const Branch b = choose(s);
    if (b.options == 10) {  // nothing left to fill
      if (result.solutions++ == 0) result.solution = s.grid;
      return;
    }
    if (b.options == 0) return;
    if (b.cell >= 0) {
      for (Mask m = s.candidates(b.cell); m && result.solutions < limit; m &= m - 1) {
        State next = s;
        next.place(b.cell, std::countr_zero(unsigned(m)));
        run(next);
      }
      return;
    }
    for (int k = 0; k < kSide && result.solutions < limit; ++k) {
      const int c = unit_cell(b.unit, k);
      if (s.grid.cell[c] || !(s.candidates(c) & (1u << b.digit))) continue;
      State next = s;
      next.place(c, b.digit);
      run(next);
    }
  }
};

}  // namespace

ExactResult solve_exact(const Grid& puzzle, int limit) {
  State s;
  for (int c = 0; c < kCells; ++c) {
    const int v = puzzle.cell[c];
    if (v == 0) continue;
    if (!(s.candidates(c) & (1u << v))) return {};  // contradictory givens: no solution
    s.place(c, v);
  }
  Search search{limit, {}};
  search.run(s);
  return search.result;
}

std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files) {
  auto puzzles = read_puzzle_files(files);
  for (const auto& p : puzzles)
    GPUGA_INPUT_CHECK(solve_exact(p.grid, 1).solutions > 0,
                      p.file + ":" + std::to_string(p.line) + ": puzzle " +
                          std::to_string(p.index) + " has no solution; expected a solvable puzzle");
  return puzzles;
}

}  // namespace gpuga
