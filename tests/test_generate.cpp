// Puzzles made to order (gpuga/generate.hpp, gpuga generate): the same arguments give the same
// puzzles whatever the thread count or the range asked; every puzzle holds its solution's
// values at the fill asked (to within one cell); --unique puzzles have exactly one solution by
// the exact checker, and a minimal one none fewer; bad arguments are refused, saying what was
// expected; the command's output reads back as puzzles.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "gpuga/errors.hpp"
#include "gpuga/exact_solver.hpp"
#include "gpuga/generate.hpp"
#include "gpuga/puzzle_io.hpp"
#include "gpuga/verify.hpp"
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
  generate(s, 5, 9, part);
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
  // A refusal: status 2, the message, and the puzzles made before it kept on stdout.
  const auto refused = run_gpuga("generate --count 2 --unique --fill 0.05");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("keeps one solution down to"), std::string::npos) << refused.err;
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
  // The library calls made_one once a puzzle, one call at a time.
  std::vector<Generated> out;
  std::uint32_t calls = 0;
  generate(spec_of(3, 40, 0.4, false), 3, 33, out, [&calls] { ++calls; });
  EXPECT_EQ(calls, 30u);
  EXPECT_EQ(out.size(), 30u);
}
