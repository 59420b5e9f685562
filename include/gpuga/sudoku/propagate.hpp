#pragma once
// Constraint propagation on the givens, before a run starts (--presolve): naked singles (a cell
// with one candidate left) and hidden singles (a value with one cell left in a unit), to a fixed
// point. The GA, sa or hc then works on the grid it leaves: more givens, fewer free cells. It is
// labelled in every output; the default is singles (none: the search alone).
#include <string>

#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

enum class Propagation { None, Singles };

const char* to_string(Propagation);

struct Propagated {
  Grid grid;                 // the givens and every value propagation placed
  int placed = 0;            // values placed
  bool contradiction = false;  // a cell with no candidate, or a value with no cell in a unit
  std::string where;         // the contradiction, in words ("r3c5 has no candidate")
  bool complete() const;
};

// Naked and hidden singles to a fixed point, for any box size.
Propagated propagate_singles(const Grid& puzzle);

}  // namespace gpuga
