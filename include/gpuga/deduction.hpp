#pragma once
// How strong a deduction a puzzle needs, on a ladder of the techniques people use, weakest
// first: 1 hidden singles, 2 naked singles, 3 locked candidates (pointing, claiming), 4 pairs
// (naked, hidden) and X-wings, 5 triples, 6 quads; 7 when the ladder stalls (chains, guesses:
// what the GA's effort then orders). At each step the weakest technique that places a value or
// removes a candidate is applied, so the rung is the strongest one the puzzle could not do
// without on this ladder. Sudoku Explainer rates by the same principle with more rungs
// (bench/rating-agreement.sh measures the agreement); gpuga rate reports it beside the GA's
// effort.
#include "gpuga/grid.hpp"

namespace gpuga {

inline constexpr int kBeyondTheLadder = 7;

// The rung (1 to 6, or kBeyondTheLadder) that `puzzle`, whose givens agree, needs; 0 when it
// has no blank. Deterministic.
int deduction_rung(const Grid& puzzle);

}  // namespace gpuga
