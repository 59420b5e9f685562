#include "gpuga/sudoku/deduction.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <vector>

#include "ladder/rules.hpp"

namespace gpuga {
namespace {

using ladder::Board;
using ladder::Chaining;
using ladder::Step;
using Rule = std::function<std::optional<Step>(Board&, double)>;  // the hardest step so far

// The rungs in Sudoku Explainer's order of difficulty: at each step the first that applies.
const std::vector<Rule>& rungs() {
  using namespace ladder;
  static const std::vector<Rule> all = {
      [](Board& b, double) { return hidden_single(b); },
      [](Board& b, double) { return locked_candidates(b, true); },
      [](Board& b, double) { return hidden_subset(b, 2, true); },
      [](Board& b, double) { return naked_single(b); },
      [](Board& b, double) { return hidden_subset(b, 3, true); },
      [](Board& b, double) { return locked_candidates(b, false); },
      [](Board& b, double) { return naked_subset(b, 2); },
      [](Board& b, double) { return fish(b, 2); },
      [](Board& b, double) { return hidden_subset(b, 2, false); },
      [](Board& b, double) { return naked_subset(b, 3); },
      [](Board& b, double) { return fish(b, 3); },
      [](Board& b, double) { return hidden_subset(b, 3, false); },
      [](Board& b, double) { return strong_link_chain(b, 2); },
      [](Board& b, double) { return xy_wing(b, false); },
      [](Board& b, double) { return xy_wing(b, true); },
      [](Board& b, double) { return unique_rectangle(b); },
      [](Board& b, double) { return naked_subset(b, 4); },
      [](Board& b, double) { return fish(b, 4); },
      [](Board& b, double) { return hidden_subset(b, 4, false); },
      [](Board& b, double) { return strong_link_chain(b, 3); },
      [](Board& b, double) { return wing(b, 4); },
      [](Board& b, double) { return bivalue_grave(b); },
      [](Board& b, double) { return strong_link_chain(b, 4); },
      [](Board& b, double) { return wing(b, 5); },
      [](Board& b, double) { return wing(b, 6); },
      [](Board& b, double hardest) { return chained(b, Chaining::Alternating, hardest); },
      [](Board& b, double hardest) { return chained(b, Chaining::Nishio, hardest); },
      [](Board& b, double hardest) { return chained(b, Chaining::Multiple, hardest); },
      [](Board& b, double hardest) { return chained(b, Chaining::Dynamic, hardest); },
      [](Board& b, double hardest) { return chained(b, Chaining::DynamicPlus, hardest); },
  };
  return all;
}

}  // namespace

Deduction deduce(const Grid& puzzle) {
  Board board(puzzle);
  Deduction out;
  while (board.open()) {
    if (board.broken()) {  // only on a puzzle of several solutions, or none
      out.stalled = out.contradiction = true;
      out.technique = "contradiction: not one solution";
      break;
    }
    std::optional<Step> step;
    for (const Rule& rung : rungs())
      if ((step = rung(board, out.difficulty))) break;
    if (!step) {
      out.stalled = true;
      out.technique = "beyond the ladder";
      break;
    }
    ++out.steps;
    const double difficulty = std::min(step->difficulty, kLargestStep);
    if (difficulty > out.difficulty) out.difficulty = difficulty, out.technique = step->technique;
  }
  out.grid = board.grid();
  return out;
}

namespace {

struct Word {
  const char* word;
  ScoreBand band;
};
constexpr Word kWords[] = {{"easy", {0, 2.6}},
                           {"medium", {2.6, 4.2}},
                           {"hard", {4.2, 6.0}},
                           {"very hard", {6.0, 8.0}},
                           {"extreme", {8.0, 100}}};

}  // namespace

std::string rating_word(double score) {
  for (const Word& w : kWords)
    if (score < w.band.high) return w.word;
  return kWords[std::size(kWords) - 1].word;
}

ScoreBand rating_band(const std::string& text, const std::string& option) {
  for (const Word& w : kWords)
    if (text == w.word) return w.band;
  const auto dash = text.find('-', 1);
  ScoreBand band;
  std::size_t low_end = 0, high_end = 0;
  try {
    band.low = std::stod(text.substr(0, dash), &low_end);
    band.high = std::stod(text.substr(dash + 1), &high_end);
  } catch (const std::exception&) {
    low_end = 0;
  }
  const bool numbers = dash != std::string::npos && low_end == dash && high_end == text.size() - dash - 1;
  GPUGA_INPUT_CHECK(!numbers || band.low < band.high,
                    option + " '" + text + "': the band is inverted (" + text.substr(0, dash) +
                        " is not below " + text.substr(dash + 1) + "); expected LO-HI with LO below HI, "
                        "e.g. " + text.substr(dash + 1) + "-" + text.substr(0, dash));
  GPUGA_INPUT_CHECK(numbers,
                    option + " '" + text + "': expected LO-HI on the score's scale (e.g. 7-8), or "
                    "one of easy, medium, hard, 'very hard', extreme");
  return band;
}

}  // namespace gpuga
