// Puzzles made to order (gpuga/sudoku/generate.hpp, gpuga generate): the same arguments give the same
// puzzles whatever the thread count or the range asked; every puzzle holds its solution's
// values at the fill asked (to within one cell); --unique puzzles have exactly one solution by
// the exact checker, and a minimal one none fewer; bad arguments are refused, saying what was
// expected; the command's output reads back as puzzles. A rating band gives minimal puzzles that
// the ladder (deduction.hpp) scores in it.
#include <gtest/gtest.h>

#include <atomic>

#include <cmath>
#include <sstream>

#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/generate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/sudoku/verify.hpp"
#include "run_gpuga.hpp"

using namespace gpuga;

namespace {

GenerateSpec spec_of(int box, std::uint32_t count, std::optional<double> fill, bool unique,
                     std::uint64_t seed = 7) {
  GenerateSpec s;
  s.box = box;
  s.count = count;
  s.fill = fill;
  s.unique = unique;
  s.seed = seed;
  return s;
}

// The puzzle's givens are the solution's values there, and the solution is one.
void expect_consistent(const Generated& g) {
  ASSERT_EQ(g.puzzle.box, g.solution.box);
  for (int c = 0; c < g.puzzle.cells(); ++c)
    if (g.puzzle.cell[c]) ASSERT_EQ(g.puzzle.cell[c], g.solution.cell[c]) << "cell " << c;
  EXPECT_TRUE(verify_solution(g.puzzle, g.solution).ok);
  EXPECT_EQ(g.givens, clue_count(g.puzzle));
}

}  // namespace

TEST(Generate, TheSameArgumentsGiveTheSamePuzzlesInAnyRange) {
  const GenerateSpec s = spec_of(3, 12, 0.3, false);
  const std::vector<Generated> all = generate(s);
  ASSERT_EQ(all.size(), 12u);
  std::vector<Generated> part;
  generate(s, 5, 9, [&part](const Generated& g) { part.push_back(g); });
  ASSERT_EQ(part.size(), 4u);
  for (std::uint32_t k = 0; k < 12; ++k) {
    EXPECT_EQ(all[k].puzzle, generate_puzzle(s, k).puzzle) << k;
    if (k >= 5 && k < 9) EXPECT_EQ(part[k - 5].puzzle, all[k].puzzle) << k;
  }
  EXPECT_NE(all[0].puzzle, all[1].puzzle);
  EXPECT_NE(generate_puzzle(spec_of(3, 1, 0.3, false, 8), 0).puzzle, all[0].puzzle);  // another seed
}

TEST(Generate, EveryPuzzleHoldsItsSolutionAtTheFillAsked) {
  for (int box = 2; box <= 5; ++box)
    for (const double fill : {0.0, 0.33, 0.5, 1.0}) {
      const GenerateSpec s = spec_of(box, box == 5 ? 2 : 5, fill, false);
      for (const Generated& g : generate(s)) {
        SCOPED_TRACE("box " + std::to_string(box) + ", fill " + std::to_string(fill));
        expect_consistent(g);
        EXPECT_LE(std::abs(g.givens - fill * g.puzzle.cells()), 1.0);
      }
    }
}

TEST(Generate, UniquePuzzlesHaveOneSolutionAndAMinimalOneNoGivenToSpare) {
  for (const Generated& g : generate(spec_of(3, 4, std::nullopt, true))) {
    expect_consistent(g);
    EXPECT_TRUE(g.unique);
    const ExactResult r = solve_exact(g.puzzle, 2);
    ASSERT_EQ(r.solutions, 1);
    EXPECT_EQ(r.solution, g.solution);
    for (int c = 0; c < g.puzzle.cells(); ++c) {  // minimal: every given is needed
      if (!g.puzzle.cell[c]) continue;
      Grid fewer = g.puzzle;
      fewer.cell[c] = 0;
      EXPECT_EQ(solve_exact(fewer, 2).solutions, 2) << "given " << c << " could go";
    }
  }
  // Down to a fill: unique, at the fill.
  for (const Generated& g : generate(spec_of(4, 2, 0.6, true))) {
    EXPECT_EQ(solve_exact(g.puzzle, 2).solutions, 1);
    EXPECT_LE(std::abs(g.givens - 0.6 * 256), 1.0);
  }
}

TEST(Generate, GridsOf36x36To64x64HoldTheirSolutionsAndReadBackInTheirAlphabet) {
  for (int box = 6; box <= 8; ++box) {
    SCOPED_TRACE("box " + std::to_string(box));
    const Generated g = generate_puzzle(spec_of(box, 1, 0.45, false), 0);
    expect_consistent(g);
    EXPECT_LE(std::abs(g.givens - 0.45 * g.puzzle.cells()), 1.0);
    if (box == 6) EXPECT_EQ(generate_puzzle(spec_of(box, 1, 0.45, false), 0).puzzle, g.puzzle);  // by the seed
    std::istringstream in(generated_line(g.puzzle));
    const auto back = parse_puzzles(in, "generated");
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].grid, g.puzzle);
    EXPECT_EQ(back[0].alphabet, Alphabet::Alnum64);
  }
}

TEST(Generate, WhatCannotBeMadeIsRefusedSayingWhatWasExpected) {
  const auto message = [](const GenerateSpec& s) {
    try {
      generate(s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(spec_of(3, 1, 1.5, false)).find("--fill 1.5: expected 0 to 1"), std::string::npos);
  EXPECT_NE(message(spec_of(3, 1, -0.1, false)).find("expected 0 to 1"), std::string::npos);
  EXPECT_NE(message(spec_of(9, 1, 0.5, false)).find("--size 81: expected 4, 9, 16, 25, 36, 49 or 64"),
            std::string::npos);
  EXPECT_NE(message(spec_of(3, 1, std::nullopt, false)).find("neither --fill nor --unique"), std::string::npos);
  const std::string below = message(spec_of(3, 3, 0.1, true));
  EXPECT_NE(below.find("--unique --fill 0.1: puzzle 1 keeps one solution down to"), std::string::npos) << below;
  EXPECT_NE(below.find("givens at best (fill"), std::string::npos) << below;
  EXPECT_NE(below.find(std::to_string(kUniqueFillAttempts) + " grids tried"), std::string::npos) << below;
  EXPECT_NE(below.find("expected a higher --fill, or --unique alone"), std::string::npos) << below;
}

TEST(Generate, UniqueAtALowFillTriesAnotherGridWhereOneStopsShort) {
  // 9x9 at 0.3 (24 givens): some grids' orders keep one solution no lower than 25 or 26; another
  // grid reaches 24, so the whole request is made, each puzzle unique at its fill.
  // (Seed 1, the command's default: one grid a puzzle stopped at puzzle 3.)
  const auto made = generate(spec_of(3, 50, 0.3, true, 1));
  ASSERT_EQ(made.size(), 50u);
  for (const Generated& g : made) {
    EXPECT_EQ(g.givens, 24);
    EXPECT_EQ(solve_exact(g.puzzle, 2).solutions, 1);
  }
}

TEST(Generate, TheCommandWritesPuzzlesEveryCommandReads) {
  const auto a = run_gpuga("generate --size 16 --count 6 --seed 3 --fill 0.45");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out.rfind("# gpuga generate --size 16 --count 6 --seed 3 --fill 0.45", 0), 0u) << a.out;
  EXPECT_EQ(run_gpuga("generate --size 16 --count 6 --seed 3 --fill 0.45").out, a.out);
  std::istringstream in(a.out);
  const auto puzzles = parse_puzzles(in, "generated");
  ASSERT_EQ(puzzles.size(), 6u);
  for (const Puzzle& p : puzzles) {
    EXPECT_EQ(p.grid.box, 4);
    EXPECT_NEAR(clue_count(p.grid), 0.45 * 256, 1.0);
    EXPECT_GT(solve_exact(p.grid, 1).solutions, 0);
  }
  const auto check = run_gpuga("check --strict -", run_gpuga("generate --count 3 --unique --seed 5").out);
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  // Not found after the work: status 1 (not bad usage), the message, and nothing on stdout
  // where the first puzzle is the one not found (no header before a refusal).
  const auto refused = run_gpuga("generate --count 2 --unique --fill 0.05");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("not found: --unique --fill 0.05: puzzle 1 keeps one solution down to"),
            std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");
  const auto tiny = run_gpuga("generate --size 4 --count 1 --seed 1 --fill 0.1 --unique");
  EXPECT_EQ(tiny.status, 1) << tiny.err;
  EXPECT_EQ(tiny.out, "");
  EXPECT_EQ(run_gpuga("generate --fill 2").status, 2);
  EXPECT_EQ(run_gpuga("generate --size 10 --fill 0.5").status, 2);
}

TEST(Generate, OneThreadAndTwoWriteTheSameFileAndEveryPuzzleIsReported) {
  // Unique puzzles (the search, and SAT past its budget) made by one thread and by two: the
  // same bytes, whichever thread made which.
  const std::string args = "generate --box 3 --count 24 --seed 11 --unique";
  const auto one = run_gpuga(args, "", "env OMP_NUM_THREADS=1");
  const auto two = run_gpuga(args, "", "env OMP_NUM_THREADS=2");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  const auto large = run_gpuga("generate --box 4 --count 3 --seed 2 --unique --fill 0.5", "",
                               "env OMP_NUM_THREADS=1");
  ASSERT_EQ(large.status, 0) << large.err;
  EXPECT_EQ(large.out, run_gpuga("generate --box 4 --count 3 --seed 2 --unique --fill 0.5", "",
                                 "env OMP_NUM_THREADS=2").out);
  // The library hands each puzzle once, in index order, one call at a time; a stop ends the
  // handing at a puzzle, every one before it handed.
  const GenerateSpec forty = spec_of(3, 40, 0.4, false);
  std::vector<Grid> handed;
  EXPECT_EQ(generate(forty, 3, 33, [&handed](const Generated& g) { handed.push_back(g.puzzle); }), 30u);
  ASSERT_EQ(handed.size(), 30u);
  for (std::uint32_t k = 0; k < 30; ++k) EXPECT_EQ(handed[k], generate_puzzle(forty, k + 3).puzzle) << k;
  std::atomic<std::uint32_t> asked{0};
  handed.clear();
  const std::uint32_t before_stop = generate(
      forty, 0, 40, [&handed](const Generated& g) { handed.push_back(g.puzzle); },
      [&asked] { return ++asked > 12; });
  EXPECT_EQ(before_stop, handed.size());
  EXPECT_LT(before_stop, 40u);
  for (std::uint32_t k = 0; k < before_stop; ++k) EXPECT_EQ(handed[k], generate_puzzle(forty, k).puzzle) << k;
}

TEST(Generate, RatedPuzzlesAreMinimalAndScoreInTheBandReproducibly) {
  // A band around Sudoku Explainer's 7 to 8 (alternating chains, Nishio): each puzzle has one
  // solution, the ladder scores it in the band, and says so; the same seed, the same puzzles.
  GenerateSpec spec = spec_of(3, 6, std::nullopt, false, 3);
  spec.rating = rating_band("7-8", "--rating");
  const std::vector<Generated> made = generate(spec);
  ASSERT_EQ(made.size(), 6u);
  for (const Generated& g : made) {
    EXPECT_EQ(solve_exact(g.puzzle, 2).solutions, 1);
    const Deduction ladder = deduce(g.puzzle);
    EXPECT_EQ(ladder_score(ladder), g.score);
    EXPECT_TRUE(spec.rating->holds(g.score)) << g.score;
    EXPECT_EQ(ladder.technique, g.technique);
    EXPECT_GE(g.tries, 1u);
  }
  const std::vector<Generated> again = generate(spec);
  for (std::size_t k = 0; k < made.size(); ++k) EXPECT_EQ(again[k].puzzle, made[k].puzzle);
  // A word is its band: easy puzzles need no more than singles.
  spec.rating = rating_band("easy", "--rating");
  for (const Generated& g : generate(spec)) EXPECT_LT(g.score, 2.6) << g.technique;
}

TEST(Generate, ABandNoPuzzleReachesIsRefusedSayingWhy) {
  const auto refusal = [](int box, const std::string& band) {
    GenerateSpec spec = spec_of(box, 1, std::nullopt, true);
    spec.rating = rating_band(band, "--rating");
    try {
      generate(spec);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  EXPECT_NE(refusal(3, "12-13").find("no puzzle scores there"), std::string::npos);
  EXPECT_NE(refusal(5, "7-8").find("no chains past 16x16"), std::string::npos);
  // 4x4 puzzles need singles only: no grid of the budget is harder.
  const std::string budget = refusal(2, "3-4");
  EXPECT_NE(budget.find("not found in 20000 minimal puzzles, whose scores ran "), std::string::npos) << budget;
  for (const char* bad : {"7", "8-7", "x-8", "7-8x", "very"})
    EXPECT_THROW(rating_band(bad, "--rating"), InputError) << bad;
  const auto cmd = run_gpuga("generate --rating 7-8 --fill 0.3");
  EXPECT_EQ(cmd.status, 2);
  EXPECT_NE(cmd.err.find("--rating 7-8 with --fill"), std::string::npos) << cmd.err;
}

TEST(Generate, TheCommandWritesEachRatedPuzzleAfterItsRating) {
  const auto out = run_gpuga("generate --count 3 --seed 5 --rating hard");
  ASSERT_EQ(out.status, 0) << out.err;
  std::istringstream lines(out.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("# gpuga generate --size 9 --count 3 --seed 5 --rating 'hard'", 0), 0u) << line;
  int rated = 0;
  while (std::getline(lines, line)) {
    ASSERT_EQ(line.rfind("# rating ", 0), 0u) << line;
    EXPECT_NE(line.find(" hard: "), std::string::npos) << line;
    std::getline(lines, line);
    std::istringstream one(line + "\n");
    EXPECT_EQ(parse_puzzles(one, "out")[0].grid.box, 3);
    ++rated;
  }
  EXPECT_EQ(rated, 3);
  std::istringstream whole(out.out);
  EXPECT_EQ(parse_puzzles(whole, "out").size(), 3u);  // readers skip the ratings
}

TEST(Generate, AnInterruptedRunKeepsEveryPuzzleWrittenAndSaysHowMany) {
  // SIGINT once the first rated puzzle is on stdout: exit 5, every puzzle written whole (the
  // same as an uninterrupted run's first ones), and stderr says how many.
  const std::string args = "generate --count 1000 --seed 3 --rating 8.5-9.9";
  const auto cut = run_gpuga(args, "", source_path("tests/signal_when.sh") + " stdout '^[.1-9]{81}$' INT");
  EXPECT_EQ(cut.status, 5) << cut.err;
  std::istringstream in(cut.out);
  const auto puzzles = parse_puzzles(in, "cut");
  ASSERT_GE(puzzles.size(), 1u) << cut.out;
  ASSERT_LT(puzzles.size(), 1000u);
  EXPECT_NE(cut.err.find("generate: interrupted: " + std::to_string(puzzles.size()) + " of 1000 puzzles written"),
            std::string::npos) << cut.err;
  GenerateSpec spec = spec_of(3, 1000, std::nullopt, true, 3);
  spec.rating = rating_band("8.5-9.9", "--rating");
  EXPECT_EQ(puzzles.back().grid, generate_puzzle(spec, static_cast<std::uint32_t>(puzzles.size() - 1)).puzzle);
  // A slow puzzle: progress on stderr past 2 s while none is written yet, then SIGTERM ends the
  // run between two of its givens, with nothing written.
  const auto slow = run_gpuga("generate --size 36 --count 2 --unique --fill 0.5", "",
                              source_path("tests/signal_when.sh") + " stderr 'puzzles written' TERM");
  EXPECT_EQ(slow.status, 5) << slow.err;
  EXPECT_NE(slow.err.find("generate: 0 of 2 puzzles written, "), std::string::npos) << slow.err;
  EXPECT_EQ(slow.out, "");
}
