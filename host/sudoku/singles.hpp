#pragma once
// The puzzle library's one core of candidates and singles, for grids of box size B: an open
// cell's candidates as a mask of values (bit v - 1: value v), a placed cell's value. Placing a
// value takes it from its peers and places every naked single that follows; hidden singles run
// to a fixed point over the units. The exact search (search_solver.cpp) branches on it,
// propagation on the givens (propagate.cpp) runs it once, and the ladder's Board
// (ladder/board.hpp) starts from its candidates. Fixed-size arrays, since the search copies a
// state at every guess, many thousand times a second.
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

// A cell taken as blank (its given, if any, left out) that no solution may give a value:
// uniqueness after removing a given is whether the puzzle without it has a solution with
// another value there.
struct Forbidden {
  int cell = -1;  // -1: none
  int value = 0;
};

// Why singles found no solution: a cell left with no candidate, or a unit with no place for a
// value it lacks, or with a value given twice.
struct Contradiction {
  int cell = -1;   // the cell with no candidate; -1: a unit's
  int unit = -1;
  int value = 0;
  bool twice = false;  // the unit holds the value twice among the givens
  std::string words(const Grid& grid) const {
    if (cell >= 0) return cell_name(grid, cell) + " has no candidate";
    return unit_name(grid, unit) + (twice ? " holds " + std::to_string(value) + " twice"
                                          : " has no cell for " + std::to_string(value));
  }
};

// The units and peers of every cell of a grid of box size B, made once.
template <int B>
struct UnitTables {
  static constexpr int n = B * B, kCells = n * n, kUnits = 3 * n;
  static constexpr int kPeers = 3 * (n - 1) - 2 * (B - 1);  // row, column and box, less overlaps
  int unit[kUnits][n];
  int peer[kCells][kPeers];
  int unit_of[kCells][3];  // its row, column and box

  UnitTables() {
    const Grid shape(B);
    for (int u = 0; u < kUnits; ++u)
      for (int k = 0; k < n; ++k) unit[u][k] = shape.unit_cell(u, k);
    for (int c = 0; c < kCells; ++c) {
      unit_of[c][0] = shape.row_of(c), unit_of[c][1] = n + shape.col_of(c), unit_of[c][2] = 2 * n + shape.box_of(c);
      int k = 0;
      for (int d = 0; d < kCells; ++d)
        if (d != c && (shape.row_of(d) == shape.row_of(c) || shape.col_of(d) == shape.col_of(c) ||
                       shape.box_of(d) == shape.box_of(c)))
          peer[c][k++] = d;
    }
  }
  static const UnitTables& get() {
    static const UnitTables tables;
    return tables;
  }
};

template <int B>
class Singles {
 public:
  using Tables = UnitTables<B>;
  static constexpr int n = Tables::n, kCells = Tables::kCells;
  // Bit v - 1: value v (1..n); 64x64's values fill a 64-bit word.
  using Mask = std::conditional_t<(n <= 32), std::uint32_t, std::uint64_t>;
  static constexpr Mask kAll = static_cast<Mask>(all_values(n));

  // A grid being filled: an open cell's candidates, a placed cell's value (its mask then 0).
  struct State {
    Mask candidates[kCells];
    std::uint8_t value[kCells];
    int open = kCells;
  };

  Singles() : tables_(Tables::get()) {}

  static Mask bit(int v) { return static_cast<Mask>(value_bit(v)); }
  static int lowest_value(Mask values) { return std::countr_zero(values) + 1; }
  const Contradiction& contradiction() const { return contradiction_; }

  // Each open cell's candidates, what the givens of its units leave (the forbidden cell's given
  // left out, and its forbidden value taken from it); false where a unit holds a value twice
  // (the candidates are filled all the same).
  bool load_candidates(State& state, const Grid& puzzle, Forbidden forbidden = {}) {
    Mask held[Tables::kUnits] = {};
    bool clashed = false;
    for (int u = 0; u < Tables::kUnits; ++u)
      for (const int c : tables_.unit[u]) {
        const int v = c == forbidden.cell ? 0 : puzzle.cell[c];
        if (v == 0) continue;
        if ((held[u] & bit(v)) && !clashed) {
          fail({-1, u, v, true});
          clashed = true;
        }
        held[u] |= bit(v);
      }
    state.open = 0;
    for (int c = 0; c < kCells; ++c) {
      const int v = c == forbidden.cell ? 0 : puzzle.cell[c];
      state.value[c] = static_cast<std::uint8_t>(v);
      state.candidates[c] = 0;
      if (v) continue;
      const int* units = tables_.unit_of[c];
      state.candidates[c] = kAll & ~(held[units[0]] | held[units[1]] | held[units[2]]);
      ++state.open;
    }
    if (forbidden.cell >= 0) state.candidates[forbidden.cell] &= ~bit(forbidden.value);
    return !clashed;
  }

  // The candidates of the givens, then every naked single they leave; false where givens clash
  // or a cell is left with no candidate.
  bool load(State& state, const Grid& puzzle, Forbidden forbidden = {}) {
    if (!load_candidates(state, puzzle, forbidden)) return false;
    for (int c = 0; c < kCells; ++c) {
      const Mask left = state.candidates[c];
      if (state.value[c] || (left & (left - 1))) continue;  // placed meanwhile, or several left
      if (left == 0) return fail({c});
      if (!place(state, c, lowest_value(left))) return false;  // place says where
    }
    return true;
  }

  // v at c (open, v a candidate), and every naked single that follows; false on a cell left
  // with no candidate. A single waits open, its one candidate left, until it is placed: two
  // cells of a unit left with the same one value then leave one of them with none.
  bool place(State& state, int c, int v) {
    int waiting[kCells];
    int top = 0;
    waiting[top++] = c;
    state.candidates[c] = bit(v);
    while (top > 0) {
      const int at = waiting[--top];
      const Mask one = state.candidates[at];
      if (one == 0) return fail({at});  // its one value went meanwhile
      state.value[at] = static_cast<std::uint8_t>(lowest_value(one)), state.candidates[at] = 0, --state.open;
      for (const int peer : tables_.peer[at]) {
        if (!(state.candidates[peer] & one)) continue;  // placed (mask 0), or without that value already
        const Mask left = state.candidates[peer] & ~one;
        state.candidates[peer] = left;
        if (left == 0) return fail({peer});
        if ((left & (left - 1)) == 0) waiting[top++] = peer;
      }
    }
    return true;
  }

  // Hidden singles (and the naked ones each placement leaves) to a fixed point; false on a value
  // left with no place in a unit, or a cell with no candidate.
  bool hidden_singles(State& state) {
    for (bool changed = true; changed;) {
      changed = false;
      for (int u = 0; u < Tables::kUnits; ++u) {
        const int* unit = tables_.unit[u];
        Mask once = 0, twice = 0, held = 0;
        for (int k = 0; k < n; ++k) {
          const int c = unit[k];
          held |= kBitOf[state.value[c]];
          twice |= once & state.candidates[c];
          once |= state.candidates[c];
        }
        if (const Mask missing = kAll & ~(once | held)) return fail({-1, u, lowest_value(missing)});
        for (Mask lone = once & ~twice & ~held; lone; lone &= lone - 1) {
          const int v = lowest_value(lone);
          int cell = -1;
          for (int k = 0; k < n && cell < 0; ++k)
            if (state.value[unit[k]] == v || (state.candidates[unit[k]] & bit(v))) cell = unit[k];
          if (cell < 0) return fail({-1, u, v});
          // A placed cell's mask is 0, so a cell found placed holds v: a single placed it meanwhile.
          if (state.value[cell] == v) continue;
          if (!place(state, cell, v)) return false;
          changed = true;
        }
      }
    }
    return true;
  }

  const Tables& tables() const { return tables_; }

 private:
  // bit(v) by table, 0 for a blank: a cell's value or none without a branch in the hottest loop.
  static constexpr auto kBitOf = [] {
    std::array<Mask, n + 1> bits{};
    for (int v = 1; v <= n; ++v) bits[v] = static_cast<Mask>(value_bit(v));
    return bits;
  }();

  bool fail(Contradiction found) {
    contradiction_ = found;
    return false;
  }

  const Tables& tables_;
  Contradiction contradiction_;
};

// Each open cell's candidates as the givens of its units leave them (0 for a given), for a grid
// of any box size: where the ladder's Board starts.
inline std::vector<std::uint64_t> given_candidates(const Grid& puzzle) {
  return with_box_size(puzzle.box, [&puzzle]<int B>() {
    Singles<B> core;
    const auto state = std::make_unique<typename Singles<B>::State>();
    core.load_candidates(*state, puzzle);  // givens that clash: the broken board says so
    return std::vector<std::uint64_t>(state->candidates, state->candidates + puzzle.cells());
  });
}

}  // namespace gpuga
