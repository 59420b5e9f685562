// The ladder of techniques (gpuga/sudoku/deduction.hpp): each rung named on a puzzle whose hardest step
// it is, at its difficulty on Sudoku Explainer's scale; every step sound (what the ladder fills
// is the puzzle's solution); its order agrees with Sudoku Explainer's on the rated sets; every
// size; and the rating's words and bands.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/generate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "paths.hpp"
#include "spearman.hpp"

using namespace gpuga;

namespace {

Grid line_grid(const std::string& line) {
  std::istringstream in(line + "\n");
  return parse_puzzles(in, "puzzle")[0].grid;
}

// What the ladder filled agrees with the puzzle's one solution: no step removed a true
// candidate (a wrong removal leaves a wrong value or a stall with a cell out of candidates). A
// puzzle of several solutions: what it filled has a solution still.
void expect_sound(const Grid& puzzle, const Deduction& d, const std::string& where) {
  const ExactResult exact = solve_exact(puzzle, 2, ExactSolver::Sat);
  ASSERT_GE(exact.solutions, 1) << where;
  if (exact.solutions > 1) {
    EXPECT_GE(solve_exact(d.grid, 1, ExactSolver::Sat).solutions, 1) << where;
    return;
  }
  for (int c = 0; c < puzzle.cells(); ++c)
    if (d.grid.cell[c]) ASSERT_EQ(d.grid.cell[c], exact.solution.cell[c]) << where << " cell " << c;
  if (!d.stalled) EXPECT_EQ(d.grid, exact.solution) << where;
}

struct RatedSet {
  std::vector<Grid> puzzles;
  std::vector<double> se;
};

// A TSV of the source tree: puzzle, Sudoku Explainer's rating, its source.
RatedSet read_rated(const std::string& file) {
  std::ifstream tsv(source_path(file));
  RatedSet out;
  std::string line;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    out.puzzles.push_back(line_grid(line.substr(0, tab)));
    out.se.push_back(std::stod(line.substr(tab + 1)));
  }
  return out;
}

struct RungExample {
  const char* technique;
  double difficulty;
  const char* puzzle;
};

// A puzzle whose hardest step is each rung's (found by rating public and generated puzzles).
const RungExample kRungExamples[] = {
    {"last cell of a unit", 1.0, "483921657967345821251876493548132976729564138136798245372689514814253769695417.8."},
    {"hidden single in a box", 1.2, ".2.81.74.7....31...9...28.5..9.4..874..2.8..316..3.2..3.27...6...56....8.76.51.9."},
    {"hidden single in a line", 1.5, ".3..5..4...8.1.5..46.....12.7.5.2.8....6.3....4.1.9.3.25.....98..1.2.6...8..6..2."},
    {"direct pointing", 1.7, ".2..3..9....9.7...9..2.8..5..48.65..6.7...2.8..31.29..8..6.5..7...3.9....3..2..5."},
    {"direct claiming", 1.9, ".425..3.....94.2.............48.......9.56.4...5.1.862523...4.1.........9.1.....3"},
    {"direct hidden pair", 2.0, ".....8.4.......96.......2.5.97.15...8.4.6..9..5....71697..4..5..412...78.2......."},
    {"naked single", 2.3, "......9.....8..62.3.....8..6.72....35........2.....76.12.58.3.9..63.7..8.7..21.5."},
    {"direct hidden triple", 2.5, "..2.3..4...32.1.....18...5...............47.1...5..4.85.71....4.2...9...39.75.2.."},
    {"pointing", 2.6, "5....12.3.....54...6..2.........2.......8....1...76.3.75.214..838...7..4.12.3.7.5"},
    {"claiming", 2.8, ".2.4.....7.496..58...7.86....7....6......638..3.5.27......4...9...2.98....38....."},
    {"naked pair", 3.0, "..9..2...781........51....8...2.....617...9...9.7....5.5.87.......3..2...38..95.7"},
    {"X-wing", 3.2, ".43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71."},
    {"hidden pair", 3.4, "2....1.9..1..3.7..9..8...2.......85..6.4.........7...3.2.3...6....5.....1.9...2.5"},
    {"naked triple", 3.6, "...7.9...8.......9..4.3..76.6.8....5......2..9....4..7....5..64.7546.3.....9...58"},
    {"swordfish", 3.8, ".6.5.4.3.1...9...8.........9...5...6.4.6.2.7.7...4...5.........4...8...1.5.2.3.4."},
    {"hidden triple", 4.0, "4...7.1....19.46.5.....1......7....2..2.3....847..6....14...8.6.2....3..6...9...."},
    {"turbot fish", 4.2, ".....8..4...3726.9.......7.3.9..5.8......43.6...8.....8.36.9..7..524..3...4...9.."},
    {"XY-wing", 4.2, ".64..3.1723.71..9...1...25.3...9..7....54..2..4.3....1..........7.4..6..6...7...."},
    {"XYZ-wing", 4.4, "3......1.86.4.3..9...61.4..9..7......4.18.7..57..69..4..5......4....69...3...8..."},
    {"unique rectangle", 4.5, "...4....7.479...6..5...7...2..3.......4...6.8..8..4..2.....5.9.6..19..2..3.8....."},
    {"naked quad", 5.0, "..8...54.74.3.5...6....7...9.2..........2..81.71.....3....34.......5..3..1..7.4.."},
    {"jellyfish", 5.2, "................12..3.45........64.7.2.......45..........1..8....6...5..7...2...."},
    {"hidden quad", 5.4, ".......548.172....5....9.....421.69..6.4..285...9..............71..6..4...8...561"},
    {"three strong links", 5.4, "52..1...7.8..4..32..75..1........7..41..6..59..2........9..62..36..7..8.2...5..43"},
    {"WXYZ-wing", 5.5, ".....4.7.28..6195..1.23....69....7...45...39...2....85....72.6..2741..39.6.9....."},
    {"bivalue universal grave", 5.6, ".824....39.7..5....1..27........9.62.9.....5.26.8........17..2....9..7.48....613."},
    {"four strong links", 5.8, "......6....57....3.8..4.9.55.2..9.3..6..7.....3......1.9.6.3..4.......9...74..1.."},
    {"VWXYZ-wing", 6.3, "4....8.625...278...6.5.....38....1...2.....9...5....73.....3.8...675...973.9....5"},
    {"UVWXYZ-wing", 6.6, "....1.....6..4.2.1.....9.64.9...35..8.7.9.4.6..46...9.14.3.....9.5.6..2.....5...."},
    {"forcing X-chain", 6.7, ".5..3..7...7...8..6.42.75.9..........7.5.6.4.5.28.97.3..6...2....5.9.4..72.....96"},
    {"forcing chain", 7.1, "5.24....3..1.6......38.5492..6.3.7.1.2.1.9.4.1.4.2.9..4389.12......4.3..2....31.4"},
    {"Nishio forcing chain", 7.5, "61........4.6..5..3.7..9..4..38.4..1....5....4..9.36..9..4..2.7..8..5.3........56"},
    {"unit forcing chain", 8.2, "..6...2..9.......4243...896...591.....2.8.3..4..2.3..13.......7...9.7....1.4.8.2."},
    {"cell forcing chain", 8.3, "7.....81..4...82.....2.6..3...32.9..2..8.4..7..3.67...8..6.2.....95...8..51.....2"},
    {"dynamic contradiction chain", 8.5, "..........72.6.1....51...82.8...13..4.........37.9..1.....238..5.4..9.........79."},
    {"dynamic contradiction chain (+)", 9.6, "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5..........."},
};

}  // namespace

TEST(Deduction, EachRungIsTheHardestStepOfAPuzzleAtItsDifficulty) {
  for (const RungExample& e : kRungExamples) {
    const Grid puzzle = line_grid(e.puzzle);
    const Deduction d = deduce(puzzle);
    EXPECT_FALSE(d.stalled) << e.technique;
    EXPECT_EQ(d.technique, e.technique) << e.puzzle;
    EXPECT_NEAR(d.difficulty, e.difficulty, 1e-9) << e.technique;
    EXPECT_GE(d.steps, 1) << e.technique;
    expect_sound(puzzle, d, e.technique);
    EXPECT_EQ(deduce(puzzle).grid, d.grid) << e.technique;  // deterministic
  }
}

TEST(Deduction, EveryStepOnTheRatedSetsIsSound) {
  // Sudoku Explainer's rated puzzles, SE 1 to 11+: what the ladder fills is each one's solution,
  // and a stalled puzzle is one past its top (SE 11+ puzzles are).
  for (const char* file : {"puzzles/se_rated.tsv", "puzzles/se_rated_holdout.tsv"}) {
    const RatedSet set = read_rated(file);
    for (std::size_t k = 0; k < set.puzzles.size(); ++k) {
      const Deduction d = deduce(set.puzzles[k]);
      expect_sound(set.puzzles[k], d, std::string(file) + " #" + std::to_string(k + 1));
      if (set.se[k] < 9) EXPECT_FALSE(d.stalled) << file << " #" << k + 1;
    }
  }
}

TEST(Deduction, ItsScoreRanksPuzzlesAsSudokuExplainerDoes) {
  // Spearman's rho of the ladder's score against SE: on the set the rungs were checked on, and
  // on a second set graded apart, mostly SE 4 to 11+ (puzzles/README.md).
  const auto rho_of = [](const std::string& file, double from) {
    const RatedSet set = read_rated(file);
    std::vector<double> se, score;
    for (std::size_t k = 0; k < set.puzzles.size(); ++k) {
      if (set.se[k] < from) continue;
      se.push_back(set.se[k]);
      score.push_back(ladder_score(deduce(set.puzzles[k])));
    }
    return spearman(se, score);
  };
  EXPECT_GE(rho_of("puzzles/se_rated.tsv", 0), 0.93);
  EXPECT_GE(rho_of("puzzles/se_rated_holdout.tsv", 4), 0.85);
}

TEST(Deduction, EverySizeFromFourToSixtyFour) {
  // 4x4 by singles; a minimal 16x16 puzzle by chains; 25x25 and 64x64 without chains (64x64
  // at 75 %: several solutions); a full grid needs nothing.
  const Grid small = read_puzzle_file(source_path("puzzles/example.txt"))[0].grid;
  const Deduction easy = deduce(small);
  EXPECT_LE(easy.difficulty, 2.3);
  expect_sound(small, easy, "example.txt");
  for (const char* file : {"puzzles/acs_16x16_unique_fixed055-060.txt", "puzzles/acs_25x25_unique_fixed065-070.txt",
                           "puzzles/gpuga_64x64_fill075.txt"}) {
    const Grid puzzle = read_puzzle_file(source_path(file))[0].grid;
    const Deduction d = deduce(puzzle);
    EXPECT_GE(d.difficulty, 1.0) << file;
    expect_sound(puzzle, d, file);
  }
  GenerateSpec minimal;
  minimal.box = 4;
  minimal.seed = 3;
  minimal.unique = true;
  const Generated sixteen = generate_puzzle(minimal, 0);
  const Deduction chained = deduce(sixteen.puzzle);
  EXPECT_GE(chained.difficulty, 6.6) << chained.technique;  // no pattern finishes it
  expect_sound(sixteen.puzzle, chained, "a minimal 16x16");
  const Deduction none = deduce(line_grid("483921657967345821251876493548132976729564138136798245372689514814253769695417382"));
  EXPECT_EQ(none.difficulty, 0);
  EXPECT_EQ(none.steps, 0);
  EXPECT_FALSE(none.stalled);
}

TEST(Deduction, TheRatingsWordsCoverTheScoresInOrder) {
  const std::vector<std::pair<double, std::string>> words = {
      {1.0, "easy"}, {2.5, "easy"}, {2.6, "medium"}, {4.0, "medium"}, {4.2, "hard"}, {5.9, "hard"},
      {6.0, "very hard"}, {7.9, "very hard"}, {8.0, "extreme"}, {kLadderTop + 0.5, "extreme"}};
  for (const auto& [score, word] : words) {
    EXPECT_EQ(rating_word(score), word) << score;
    EXPECT_TRUE(rating_band(word, "--rating").holds(score)) << word;
  }
  const ScoreBand band = rating_band("7-8.5", "--rating");
  EXPECT_EQ(band.low, 7);
  EXPECT_EQ(band.high, 8.5);
  EXPECT_TRUE(band.holds(7));
  EXPECT_FALSE(band.holds(8.5));
  try {
    rating_band("hardest", "--rating");
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--rating 'hardest': expected LO-HI"), std::string::npos) << e.what();
  }
}

TEST(Deduction, APuzzleOfSeveralSolutionsStopsTheLadderRatherThanCrashIt) {
  // generate --size 9 --count 10000 --fill 0.45 --seed 3, line 220: the uniqueness patterns
  // take the candidates of every solution from some cell, which the forcing chains then read.
  const Grid several =
      line_grid(".2.13894..962.47....89...5..574.9.3.63.5....9.1.32........45.275.37......7...3..5");
  const Deduction d = deduce(several);
  EXPECT_TRUE(d.stalled);
  EXPECT_TRUE(d.contradiction);
  for (int c = 0; c < several.cells(); ++c)
    if (several.cell[c]) EXPECT_EQ(d.grid.cell[c], several.cell[c]) << "cell " << c;
  // A one-solution puzzle is still rated, after the ladder ran on a board of another size in
  // this thread (its chains' memory is the thread's, sized anew).
  const Grid sixteen = read_puzzle_file(source_path("puzzles/acs_16x16_unique_fixed055-060.txt"))[0].grid;
  const Deduction unique = deduce(sixteen);
  EXPECT_FALSE(unique.contradiction);
  expect_sound(sixteen, unique, "a 16x16 after a 9x9");
}
