#pragma once
// The ladder's rungs. Each rule looks for one application of its technique on the board; where
// it finds one it applies it (places a value or removes candidates) and says how hard that step
// was, on Sudoku Explainer's scale: 1.0 for the last cell of a unit up to 9.0 and more for
// dynamic forcing chains. Where a rule has several applications it applies its easiest (its
// shortest chain, its first found at one difficulty), so that a solve is deterministic.
//
// Each rule's cost is bounded by the board's size: subsets and fish by the choices of at most
// four lines or cells, cut once they hold too many values or places; wings by groups of at most
// five cells that see each other; strong-link chains by four links; chains by two propagations
// per candidate (rules_chains.cpp, only up to 16x16, where a board has at most 4,096
// candidates).
#include <optional>

#include "board.hpp"

namespace gpuga::ladder {

struct Step {
  double difficulty = 0;
  const char* technique = "";
};

// Singles: the last cell of a unit (1.0), a hidden single in a box (1.2) or a line (1.5), a
// naked single (2.3).
std::optional<Step> hidden_single(Board& board);
std::optional<Step> naked_single(Board& board);
// A value of a box confined to a line (pointing, 2.6) or of a line to a box (claiming, 2.8);
// `direct` only where the removal leaves a hidden single of that value (1.7 and 1.9).
std::optional<Step> locked_candidates(Board& board, bool direct);
// k cells of a unit holding k values between them (naked: pair 3.0, triple 3.6, quad 5.0).
std::optional<Step> naked_subset(Board& board, int k);
// k values of a unit confined to k cells (hidden: pair 3.4, triple 4.0, quad 5.4); `direct` only
// where the removal leaves a hidden single in the unit (pair 2.0, triple 2.5).
std::optional<Step> hidden_subset(Board& board, int k, bool direct);
// A value confined in k lines to k crossing lines (X-wing 3.2, swordfish 3.8, jellyfish 5.2).
std::optional<Step> fish(Board& board, int k);

// A pivot of two or three values and two pincers (XY-wing 4.2, XYZ-wing 4.4).
std::optional<Step> xy_wing(Board& board, bool xyz);
// size - 1 cells that see each other holding `size` values, and a bivalue cell that closes
// them (WXYZ-wing 5.5-5.6, VWXYZ-wing 6.2-6.4, UVWXYZ-wing 6.6).
std::optional<Step> wing(Board& board, int size);
// A value's chain of 2, 3 or 4 conjugate pairs joined by weak links: it goes from cells seeing
// both ends (2: skyscraper, two-string kite, turbot fish, 4.2; 3: 5.4; 4: 5.8).
std::optional<Step> strong_link_chain(Board& board, int links);
// The deadly pattern of a unique solution: a rectangle over two boxes whose corners all hold the
// same two values, three of them only those (type 1) or two with one more value alike (type 2):
// 4.5. Like the bivalue universal grave (one cell of three values, every other of two: 5.6), it
// assumes the puzzle has one solution.
std::optional<Step> unique_rectangle(Board& board);
std::optional<Step> bivalue_grave(Board& board);

// Chains (rules_chains.cpp).
enum class Chaining {
  Alternating,  // a forcing chain over the board's strong and weak links (X-chain 6.6, AIC 7.0)
  Nishio,       // one value's placements followed from an assumption to a contradiction (7.5)
  Multiple,     // cell and unit forcing chains over the board's links (8.0)
  Dynamic,      // forcing chains whose links follow the assumption's own singles (8.5)
  DynamicPlus,  // and its locked candidates (9.0)
};
// Besides the easiest conclusion, applies every other no harder than `ceiling` (the hardest
// step so far), which leaves the rating as it is. Nothing where the board is larger than 16x16.
std::optional<Step> chained(Board& board, Chaining kind, double ceiling);

// Sudoku Explainer's rise in a chain's difficulty with its length: 0.1 for each of 4, 6, 8, 12,
// 16, 24, 32, ... links that `nodes` (the chain's candidates, assumption included) passes.
double length_difficulty(int nodes);

}  // namespace gpuga::ladder
