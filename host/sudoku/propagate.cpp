#include "gpuga/sudoku/propagate.hpp"

#include <memory>

#include "singles.hpp"

namespace gpuga {

const char* to_string(Propagation p) { return p == Propagation::Singles ? "singles" : "none"; }

bool Propagated::complete() const {
  for (const auto v : grid.cell)
    if (v == 0) return false;
  return !contradiction;
}

Propagated propagate_singles(const Grid& puzzle) {
  return with_box_size(puzzle.box, [&puzzle]<int B>() {
    Singles<B> core;
    // On the heap: a 64x64 state is 36 KB, and puzzles are started on OpenMP threads.
    const auto state = std::make_unique<typename Singles<B>::State>();
    Propagated p;
    p.contradiction = !core.load(*state, puzzle) || !core.hidden_singles(*state);
    if (p.contradiction) p.where = core.contradiction().words(puzzle);
    p.grid = puzzle;
    for (int c = 0; c < puzzle.cells(); ++c)
      if (puzzle.cell[c] == 0 && state->value[c] != 0) p.grid.cell[c] = state->value[c], ++p.placed;
    return p;
  });
}

}  // namespace gpuga
