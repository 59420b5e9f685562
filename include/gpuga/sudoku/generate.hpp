#pragma once
// Puzzles made to order (gpuga generate, gpuga.generate in Python): at any box size, with a
// fraction of givens, or with exactly one solution, or both. Each puzzle is a pure function of
// (size, seed, its index, fill, unique): the same arguments give the same puzzles on any
// machine, thread count or rank count.
//
// A solved grid: the diagonal boxes filled with permutations drawn from the seed (no two share
// a row, column or box; drawn again in the rare case the search does not complete them within a
// fixed budget), completed by the exact search (exact_solver.hpp, deterministic), then its
// values relabelled, its bands, stacks, rows within bands and columns within stacks shuffled. Givens then go in an order drawn from the seed: down
// to the fill asked; with `unique`, one at a time while exactly one solution remains (to the fill
// asked, or until no given can go: a minimal puzzle). With both, where a grid stops short of the
// fill, another grid drawn from (seed, index, attempt), up to kUniqueFillAttempts. With a
// rating band, minimal puzzles from (seed, index, attempt) for attempt 0, 1, ... until the
// ladder's score (deduction.hpp) falls in the band, up to kRatingAttempts.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

struct GenerateSpec {
  int box = 3;                 // 2 to 8: 4x4 to 64x64
  std::uint32_t count = 1;
  std::uint64_t seed = 0;
  std::optional<double> fill;  // the fraction of cells given, 0 to 1
  bool unique = false;         // exactly one solution
  std::optional<ScoreBand> rating;  // minimal puzzles whose ladder score lies in it
};

struct Generated {
  Grid puzzle, solution;
  int givens = 0;
  bool unique = false;  // proven: the exact solver found one solution and no other
  // With a rating band: the ladder's score and hardest technique, and the grids tried.
  double score = 0;
  std::string technique;
  std::uint32_t tries = 1;
};

// The box side of puzzles of side `size` (4, 9, 16, 25), or 0 for any other.
int box_of_size(int size);

// Checks the spec (InputError naming the option, its value and what is allowed).
void check_spec(const GenerateSpec& spec);

// Grids tried for one puzzle of --unique --fill (a grid and an order of givens each), the first
// that reaches the fill kept: one grid often stops short of a low fill where another does not.
inline constexpr std::uint32_t kUniqueFillAttempts = 32;

// Grids tried for one puzzle of a rating band before it is refused.
inline constexpr std::uint32_t kRatingAttempts = 20000;

// Puzzle k (0 to count - 1) of the spec. NotFoundError when `unique` could not reach the fill
// asked in kUniqueFillAttempts grids, saying the fill it reached, or no puzzle of
// kRatingAttempts was in the rating band, saying the scores seen.
Generated generate_puzzle(const GenerateSpec& spec, std::uint32_t k);

// Puzzles first to last - 1 of the spec, made on every core at once, each handed to `take` in
// index order as soon as it and every one before it are made (one call at a time, from any of
// the threads; `take` must not throw), so that a front end writes each as it comes. `stop`,
// where given, is asked before each puzzle and between its grids: once it says so, no more
// begin and the handing ends at the first not made. Returns the puzzles handed. A puzzle that
// failed ends the handing there: its error (the first such puzzle's) is thrown once every
// puzzle before it is handed. And every puzzle of the spec, in order.
std::uint32_t generate(const GenerateSpec& spec, std::uint32_t first, std::uint32_t last,
                       const std::function<void(const Generated&)>& take,
                       const std::function<bool()>& stop = {});
std::vector<Generated> generate(const GenerateSpec& spec);

// A generated puzzle as one line every reader takes: 4x4 and 9x9 in digits, 25x25 in a-y, 16x16
// in 0-9a-f (as the published instances) unless its givens would read either way (only 1-9),
// then as whitespace-separated numbers; 36x36 to 64x64 in 0-9, A-Z, a-z, + and / (36x36: 0-9A-Z).
std::string generated_line(const Grid& puzzle);

}  // namespace gpuga
