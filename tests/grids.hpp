#pragma once
// Grids for tests, built directly (not parsed: some hold duplicates on purpose).
#include <cstdint>
#include <string>

#include "gpuga/sudoku/grid.hpp"

// A solved grid of any box size: row r is the first shifted by its band's row times the box and
// its band's number, so every row, column and box holds each value once.
inline gpuga::Grid solved_pattern(int box) {
  gpuga::Grid g(box);
  const int n = g.side();
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) g.cell[r * n + c] = static_cast<std::uint8_t>((box * (r % box) + r / box + c) % n + 1);
  return g;
}

// A 9x9 grid from 81 characters, '.' a blank.
inline gpuga::Grid grid_of(const std::string& line) {
  gpuga::Grid g(3);
  for (int c = 0; c < g.cells(); ++c) g.cell[c] = line[c] == '.' ? 0 : line[c] - '0';
  return g;
}

// AI Escargot: hard enough that short runs do not solve it.
inline const std::string kHardPuzzle =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

// AI Escargot with one given more, a 2 at r1c2 (its solution has 6 there): no solution, and
// singles do not show it (test_repair.cpp checks both). Engines take it as it is: a repaired
// GA's runs of it never solve, so that they go on through restarts and migrations.
inline const std::string kUnsolvablePuzzle =
    "12...7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

// Norvig easy50 #1 and its solution.
inline const std::string kEasyPuzzle =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
inline const std::string kEasySolution =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
