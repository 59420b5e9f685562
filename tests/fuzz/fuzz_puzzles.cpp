// Puzzle files (every format, alphabet and size, as README "Puzzle files" lists them), read both
// ways: as puzzles (solve, check, batch) and as grids (score). A read either refuses, naming the
// file and a line of it, or gives puzzles that the formatter writes back to the same grids.
#include <sstream>

#include "fuzz_support.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

using namespace gpuga;

namespace {

const std::string kName = "fuzz.txt";

// The puzzles as one-line text, in their alphabet, one file: read back, the same grids.
void expect_round_trip(const std::vector<Puzzle>& puzzles, ReadMode mode) {
  std::string text;
  for (const auto& p : puzzles) text += to_line(p.grid, p.alphabet) + "\n";
  std::istringstream in(text);
  std::vector<Puzzle> again;
  try {
    again = parse_puzzles(in, "round-trip", mode);
  } catch (const InputError& e) {
    fuzz::fault(std::string("the formatter's lines are refused: ") + e.what() + "\n" + text);
  }
  if (again.size() != puzzles.size()) fuzz::fault("a round trip changed the number of puzzles");
  for (std::size_t i = 0; i < again.size(); ++i)
    if (again[i].grid != puzzles[i].grid || again[i].alphabet != puzzles[i].alphabet)
      fuzz::fault("a round trip changed puzzle " + std::to_string(i + 1) + ": " + text);
}

void read_as(const std::string& text, ReadMode mode) {
  std::istringstream in(text);
  std::vector<Puzzle> puzzles;
  if (!fuzz::read_or_refusal([&] { puzzles = parse_puzzles(in, kName, mode); }, kName, text,
                             {"no puzzle found;"}))
    return;
  for (const auto& p : puzzles) {
    if (p.grid.box < 2 || p.grid.box > 5) fuzz::fault("a puzzle of box " + std::to_string(p.grid.box));
    for (auto v : p.grid.cell)
      if (v > p.grid.side()) fuzz::fault("a value past the side: " + std::to_string(v));
  }
  expect_round_trip(puzzles, mode);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_as(text, ReadMode::Puzzles);
  read_as(text, ReadMode::Grids);
  return 0;
}
