// The rating ladder on any puzzle the reader accepts, of one solution, several or none, and on
// generate --rating's path. The first byte picks:
// - even: the input is a puzzle file; each of its first puzzles up to 9x9 (a 16x16's dynamic
//   chains outlast the -timeout under the sanitizers; ladder_sweep.cpp rates those) goes
//   through deduce(), which must hold as ladder_checks.hpp says.
// - odd: the rest seeds generate_puzzle with a rating band (4x4 or 9x9, from the next byte),
//   whose puzzle must be unique, score in the band and be its ladder's score, or be refused
//   naming --rating.
#include <algorithm>

#include "fuzz_support.hpp"
#include "ladder_checks.hpp"
#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/generate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

using namespace gpuga;

namespace {

constexpr std::size_t kPuzzlesRated = 2;  // per input, so that one input stays quick

void check_generated(const std::uint8_t* data, std::size_t size) {
  GenerateSpec spec;
  spec.box = size > 1 && (data[1] & 1) ? 3 : 2;
  spec.seed = 0;
  for (std::size_t k = 2; k < std::min<std::size_t>(size, 10); ++k) spec.seed = spec.seed << 8 | data[k];
  // A band from 0 to 1.0 up, which every puzzle's first grid meets (a step is 1.0 at least): a
  // narrow band may take thousands of grids, each seconds under the sanitizers.
  spec.rating = ScoreBand{size > 10 ? data[10] % 11 / 10.0 : 0, 100};
  spec.unique = true;
  try {
    check_spec(spec);
    const Generated g = generate_puzzle(spec, 0);
    if (!spec.rating->holds(g.score)) fuzz::fault("a rated puzzle outside its band");
    if (solve_exact(g.puzzle, 2).solutions != 1) fuzz::fault("a rated puzzle of several solutions");
    if (ladder_score(deduce(g.puzzle)) != g.score) fuzz::fault("a rated puzzle's score is not its ladder's");
  } catch (const InputError& e) {
    if (std::string(e.what()).find("--rating") == std::string::npos)
      fuzz::fault(std::string("a refusal that does not name --rating: ") + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) {
    check_generated(data, size);
    return 0;
  }
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string file = fuzz::write_file(fuzz::scratch_file("ladder.txt"), text);
  std::vector<Puzzle> puzzles;
  if (!fuzz::read_or_refusal([&] { puzzles = read_puzzle_files({file}); }, file, text,
                             {"no puzzle found;", "empty"}))
    return 0;
  std::size_t rated = 0;
  for (const Puzzle& p : puzzles) {
    if (rated == kPuzzlesRated) break;
    if (p.grid.box > 3) continue;  // the reader refused contradictory givens
    if (const std::string fault = fuzz::ladder_fault(p.grid); !fault.empty()) fuzz::fault(fault);
    ++rated;
  }
  return 0;
}
