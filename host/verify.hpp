#pragma once
// The one check behind every "solved": each given kept, and all 27 units permutations of 1-9.
#include <string>

#include "gpuga/grid.hpp"

namespace gpuga {

struct Verdict {
  bool ok = false;
  std::string reason;  // empty when ok; otherwise the first fault found, naming the cell or unit
};

Verdict verify_solution(const Grid& puzzle, const Grid& candidate);

}  // namespace gpuga
