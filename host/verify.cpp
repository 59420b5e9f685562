#include "verify.hpp"

namespace gpuga {
namespace {

std::string cell_name(int c) {
  // Appended, not "r" + to_string(...): GCC 12 warns falsely (-Wrestrict) on literal + string&&.
  std::string name = "r";
  name += std::to_string(row_of(c) + 1);
  name += 'c';
  name += std::to_string(col_of(c) + 1);
  return name;
}

std::string unit_name(int u) {
  static const char* kKind[] = {"row", "column", "box"};
  return std::string(kKind[u / 9]) + " " + std::to_string(u % 9 + 1);
}

}  // namespace

Verdict verify_solution(const Grid& puzzle, const Grid& candidate) {
  for (int c = 0; c < kCells; ++c) {
    const int v = candidate.cell[c];
    if (v < 1 || v > 9) return {false, cell_name(c) + " holds " + std::to_string(v) + ", not 1-9"};
    if (puzzle.cell[c] != 0 && puzzle.cell[c] != v)
      return {false, "given " + std::to_string(puzzle.cell[c]) + " at " + cell_name(c) +
                         " changed to " + std::to_string(v)};
  }
  for (int u = 0; u < kUnits; ++u) {
    unsigned seen = 0;
    for (int k = 0; k < kSide; ++k) seen |= 1u << candidate.cell[unit_cell(u, k)];
    if (seen != 0x3FEu) return {false, unit_name(u) + " is not a permutation of 1-9"};
  }
  return {true, {}};
}

}  // namespace gpuga
