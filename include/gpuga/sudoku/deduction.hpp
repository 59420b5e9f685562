#pragma once
// How hard a puzzle is for a person: it is solved step by step, each step the easiest the
// techniques people use allow, on Sudoku Explainer's scale of difficulty (1.0 the last cell of a
// unit, 1.2-2.3 singles, 2.6-2.8 locked candidates, 3.0-5.4 subsets and fish, 4.2-5.6 wings
// and uniqueness patterns, 6.6-7.x alternating chains, 7.5 Nishio, 8.0 forcing chains, 8.5-9.x
// dynamic forcing chains, longer chains a little harder). The puzzle's difficulty is its
// hardest step's, as Sudoku Explainer rates (bench/rating-agreement.sh measures the agreement).
// Where the ladder runs out (nested forcing chains, kLadderTop and past), the puzzle is stalled and
// gpuga rate orders it by the GA's effort. The uniqueness patterns assume one solution.
#include <string>


#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

// Scores: a step's difficulty is at most kLargestStep (kLargestPattern without chains, past
// 16x16); a puzzle past the ladder scores kLadderTop and up.
inline constexpr double kLargestPattern = 6.6, kLargestStep = 9.9, kLadderTop = 10.0;

struct Deduction {
  double difficulty = 0;  // the hardest step's, 0 when the puzzle has no blank
  std::string technique;  // that step's technique ("hidden single in a box", "XY-wing", ...), or
                          // "beyond the ladder" where it stalled
  int steps = 0;          // the steps taken, all of them
  bool stalled = false;   // blanks left that no rung fills
  bool contradiction = false;  // stalled on a cell or a unit left no choice: the puzzle has
                               // several solutions (the uniqueness patterns took the others'
                               // candidates) or none; its difficulty then means nothing
  Grid grid;              // the puzzle as far as the ladder filled it
};

// The ladder on `puzzle`, whose givens agree, of one solution, several or none: it stops at a
// contradiction rather than read a cell with no candidate. Deterministic. Chains are tried up to 16x16 (at
// most 4,096 candidates, one propagation each a step); larger puzzles stall past the patterns.
Deduction deduce(const Grid& puzzle);

// The ladder's score: its difficulty, or kLadderTop where it stalled (gpuga rate adds the GA's
// effort above it).
inline double ladder_score(const Deduction& d) { return d.stalled ? kLadderTop : d.difficulty; }

// The rating's words, each a band of scores, easiest first:
//   easy       singles, and the locked candidates and hidden pairs that leave one (below 2.6)
//   medium     locked candidates, subsets to triples, X-wing, swordfish (2.6 to 4.2)
//   hard       wings, unique rectangles, quads, jellyfish, the grave (4.2 to 6.0)
//   very hard  alternating chains, Nishio (6.0 to 8.0)
//   extreme    forcing chains, dynamic ones, and past the ladder (8.0 and up)
struct ScoreBand {
  double low = 0, high = 0;  // [low, high)
  bool holds(double score) const { return score >= low && score < high; }
};
std::string rating_word(double score);
// The band of a word above, or of "LO-HI" (scores); InputError naming `option` otherwise.
ScoreBand rating_band(const std::string& text, const std::string& option);

}  // namespace gpuga
