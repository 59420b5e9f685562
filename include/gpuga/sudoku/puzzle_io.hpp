#pragma once
// Puzzle input, used by every subcommand. See README "Puzzle files" for the formats: 4x4, 9x9,
// 16x16 and 25x25, one per line or as grids, the size told by the input. One file holds puzzles
// of one size and one alphabet.
#include <iosfwd>
#include <string>
#include <vector>

#include "gpuga/sudoku/alphabet.hpp"
#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

struct Puzzle {
  Grid grid{};        // 0 for a blank
  Alphabet alphabet = Alphabet::Digits;  // the input's, for output
  std::string file;   // as named on the command line ("-" is shown as "<stdin>")
  int line = 0;       // first line of the puzzle in its file, 1-based
  int index = 0;      // position in its file, 1-based
};

// Puzzles refuse contradictory givens; grids (for `gpuga score`) may hold any values.
enum class ReadMode { Puzzles, Grids };

// Parses every puzzle in `in`; `name` is used in messages. Throws InputError naming the file,
// the line (and column where it applies), what was found and what was expected.
std::vector<Puzzle> parse_puzzles(std::istream& in, const std::string& name,
                                  ReadMode mode = ReadMode::Puzzles);

// Reads a file, or standard input for "-". A missing, unreadable or empty file is an InputError.
std::vector<Puzzle> read_puzzle_file(const std::string& path, ReadMode mode = ReadMode::Puzzles);

// All puzzles of all files, in order; every file is read before anything is returned.
std::vector<Puzzle> read_puzzle_files(const std::vector<std::string>& paths,
                                      ReadMode mode = ReadMode::Puzzles);

int clue_count(const Grid& g);

// The most blanks of a puzzle of box size `box` among `puzzles` (0 without one).
std::uint32_t most_free_cells(const std::vector<Puzzle>& puzzles, int box);

// One line: a character a cell ('.' a blank), or for Numbers above 9x9 numbers separated by
// spaces. parse_puzzles reads it back.
std::string to_line(const Grid& g, Alphabet a = Alphabet::Digits);

// A readable grid with box separators, one row per line.
std::string to_pretty(const Grid& g, Alphabet a = Alphabet::Digits);

// "9x9", "16x16" ...
std::string size_name(const Grid& g);

}  // namespace gpuga
