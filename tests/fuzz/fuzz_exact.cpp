// The exact checker on whatever the puzzle reader accepts: read_solvable_puzzles either refuses
// (a puzzle without a solution, naming its line) or gives puzzles whose solution, found by the
// SAT solver, keeps the givens and fills all 3n units; a solution found is itself the one
// solution of the full grid. Time is bounded by libFuzzer's -timeout (scripts/fuzz).
#include "fuzz_support.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

namespace {

constexpr std::size_t kPuzzlesChecked = 4;  // per input, so that one input stays quick

void check_solution(const Puzzle& p) {
  const ExactResult r = solve_exact(p.grid, 2);
  if (r.solutions < 1 || r.solutions > 2) fuzz::fault("solve_exact says " + std::to_string(r.solutions));
  const Verdict v = verify_solution(p.grid, r.solution);
  if (!v.ok) fuzz::fault("the exact checker's solution does not verify: " + v.reason);
  const ExactResult full = solve_exact(r.solution, 2);
  if (full.solutions != 1 || full.solution != r.solution)
    fuzz::fault("a full grid does not have itself as its one solution");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = fuzz::write_file(fuzz::scratch_file("exact.txt"), text);
  std::vector<Puzzle> puzzles;
  if (!fuzz::read_or_refusal([&] { puzzles = read_solvable_puzzles({file}); }, file, text,
                             {"no puzzle found;", "empty"}))
    return 0;
  for (std::size_t i = 0; i < puzzles.size() && i < kPuzzlesChecked; ++i) check_solution(puzzles[i]);
  return 0;
}
