#pragma once
// The one check behind every "solved": the candidate has the puzzle's size, each given is kept,
// and all 3n units are permutations of 1..n.
#include <string>

#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

struct Verdict {
  bool ok = false;
  std::string reason;  // empty when ok; otherwise the first fault found, naming the cell or unit
};

Verdict verify_solution(const Grid& puzzle, const Grid& candidate);

}  // namespace gpuga
