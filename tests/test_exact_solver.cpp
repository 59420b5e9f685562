// The exact solver against the whole shipped corpus (the contract), and its counting.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include <unistd.h>

#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "grids.hpp"
#include "paths.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

TEST(ExactSolver, EveryCorpusPuzzleHasExactlyOneSolutionThatVerifies) {
  const auto puzzles = read_puzzle_file(source_path("puzzles/ALL_9x9.txt"));
  ASSERT_EQ(puzzles.size(), 613u);
  for (const auto& p : puzzles) {
    const auto r = solve_exact(p.grid, 2);
    ASSERT_EQ(r.solutions, 1) << "line " << p.line;
    const auto v = verify_solution(p.grid, r.solution);
    ASSERT_TRUE(v.ok) << "line " << p.line << ": " << v.reason;
  }
}

TEST(ExactSolver, CountsSeveralSolutions) {
  Grid empty{};
  EXPECT_EQ(solve_exact(empty, 2).solutions, 2);
  EXPECT_EQ(solve_exact(empty, 1).solutions, 1);
  EXPECT_TRUE(verify_solution(empty, solve_exact(empty, 1).solution).ok);
}

TEST(ExactSolver, FindsNoSolutionForAnUnsolvablePuzzle) {
  // Givens consistent pairwise, but r1c9 has no candidate left: row 1 holds 1-8 and column 9
  // holds a 9.
  Grid g{};
  const std::string s = "12345678.........9" + std::string(63, '.');
  for (int c = 0; c < g.cells(); ++c) g.cell[c] = s[c] == '.' ? 0 : s[c] - '0';
  EXPECT_EQ(solve_exact(g, 2).solutions, 0);
}

TEST(ExactSolver, ContradictoryGivensHaveNoSolution) {
  Grid g{};
  g.cell[0] = 5;
  g.cell[1] = 5;
  EXPECT_EQ(solve_exact(g, 2).solutions, 0);
}

namespace {

// Every solved 4x4 grid, by brute force over rows of permutations (288 of them).
std::vector<Grid> all_four_by_four() {
  std::vector<std::array<std::uint8_t, 4>> perms;
  std::array<std::uint8_t, 4> p = {1, 2, 3, 4};
  do perms.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  std::vector<Grid> out;
  for (const auto& a : perms)
    for (const auto& b : perms)
      for (const auto& c : perms)
        for (const auto& d : perms) {
          Grid g(2);
          const std::array<std::uint8_t, 4>* rows[] = {&a, &b, &c, &d};
          for (int r = 0; r < 4; ++r) std::copy(rows[r]->begin(), rows[r]->end(), g.cell.begin() + 4 * r);
          if (verify_solution(Grid(2), g).reason.find("permutation") == std::string::npos)
            out.push_back(g);
        }
  return out;
}

}  // namespace

TEST(ExactSolver, CountsFourByFourPuzzlesAsBruteForceDoes) {
  const auto solved = all_four_by_four();
  ASSERT_EQ(solved.size(), 288u);
  std::mt19937 rng(7);
  int seen[3] = {};
  for (int trial = 0; trial < 400; ++trial) {
    Grid puzzle(2);  // random givens: any count 0..3 of solutions
    for (int c = 0; c < 16; ++c)
      if (rng() % 3 == 0) puzzle.cell[c] = static_cast<std::uint8_t>(1 + rng() % 4);
    int count = 0;
    for (const auto& g : solved) {
      bool fits = true;
      for (int c = 0; c < 16; ++c) fits &= !puzzle.cell[c] || puzzle.cell[c] == g.cell[c];
      count += fits;
    }
    const auto r = solve_exact(puzzle, 2);
    ASSERT_EQ(r.solutions, std::min(count, 2)) << trial;
    if (r.solutions) ASSERT_TRUE(verify_solution(puzzle, r.solution).ok) << trial;
    ++seen[std::min(count, 2)];
  }
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[1], 0);
  EXPECT_GT(seen[2], 0);
}

TEST(ExactSolver, SharedLargeInstancesHaveTheSolutionsTheirSourceSays) {
  const std::pair<const char*, bool> files[] = {
      {"acs_16x16_fixed040_inst00-09.txt", false}, {"acs_16x16_unique_fixed055-060.txt", true},
      {"acs_25x25_fixed040_inst00-09.txt", false}, {"acs_25x25_unique_fixed065-070.txt", true}};
  for (const auto& [file, unique] : files) {
    const auto puzzles = read_puzzle_file(source_path(std::string("puzzles/") + file));
    int several = 0;
    for (const auto& p : puzzles) {
      const auto r = solve_exact(p.grid, 2);
      ASSERT_GE(r.solutions, 1) << file << ":" << p.line;
      const auto v = verify_solution(p.grid, r.solution);
      ASSERT_TRUE(v.ok) << file << ":" << p.line << ": " << v.reason;
      if (unique) ASSERT_EQ(r.solutions, 1) << file << ":" << p.line;
      several += r.solutions == 2;
    }
    if (!unique) EXPECT_GT(several, 0) << file;  // blanked full grids: most have several
  }
}

namespace {

// Puzzles of box size `box`: a solved grid with random cells blanked at fills from `low` to 0.9
// (one or several solutions), and one in three with a wrong value at a cell (mostly none).
std::vector<Grid> mixed_puzzles(int box, int count, double low, std::mt19937& rng) {
  std::vector<Grid> out;
  const Grid solved = solve_exact(Grid(box), 1, ExactSolver::Sat).solution;
  for (int k = 0; k < count; ++k) {
    Grid g = solved;
    std::vector<int> value(g.side());  // relabelled, so the puzzles differ in more than givens
    std::iota(value.begin(), value.end(), 1);
    std::shuffle(value.begin(), value.end(), rng);
    for (auto& v : g.cell) v = static_cast<std::uint8_t>(value[v - 1]);
    const double fill = low + (0.9 - low) * (rng() % 1000) / 1000.0;
    for (auto& v : g.cell)
      if (rng() % 1000 >= fill * 1000) v = 0;
    if (k % 3 == 2) {  // a cell given a value the grid's solution does not hold there
      const int c = static_cast<int>(rng() % g.cells());
      g.cell[c] = static_cast<std::uint8_t>(value[solved.cell[c] - 1] % g.side() + 1);
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace

TEST(ExactSolver, TheSearchCountsAsTheSatSolverDoesAtEverySize) {
  // Counts up to two, and the first solution verifies, on 400 puzzles of every box size: auto
  // (the search, SAT past its budget) against SAT alone; the search answers most of them at every
  // size. Up to 9x9 the search alone too, with no budget: from 16x16 on, a puzzle of several
  // solutions whose first sits deep may keep it searching for a second for minutes (the budget's
  // reason). 25x25 from 45 % given, where SAT takes milliseconds, not tenths of seconds.
  std::mt19937 rng(11);
  for (const int box : {2, 3, 4, 5}) {
    int seen[3] = {}, searched = 0;
    for (const Grid& g : mixed_puzzles(box, 400, box == 5 ? 0.45 : 0.2, rng)) {
      const int sat = solve_exact(g, 2, ExactSolver::Sat).solutions;
      for (const ExactSolver s : {ExactSolver::Search, ExactSolver::Auto}) {
        if (box > 3 && s == ExactSolver::Search) continue;
        const ExactResult r = solve_exact(g, 2, s);
        ASSERT_EQ(r.solutions, sat) << "box " << box << " " << to_string(s);
        if (r.solutions) ASSERT_TRUE(verify_solution(g, r.solution).ok) << "box " << box;
        if (s == ExactSolver::Auto) searched += r.answered_by == ExactSolver::Search;
      }
      ++seen[sat];
    }
    EXPECT_GT(seen[0], 0) << "box " << box;
    EXPECT_GT(seen[1], 0) << "box " << box;
    EXPECT_GT(seen[2], 0) << "box " << box;
    EXPECT_GT(searched, 320) << "box " << box;
  }
}

TEST(ExactSolver, TheSearchCountsAsTheSatSolverDoesFrom36x36To64x64) {
  // A solved grid with its first box's rows and columns blank and a third of the rest: cells of
  // over 25 candidates, which CNF says "at most one" of by a sequential counter; and the same
  // with a wrong value at a given (no solution, mostly).
  std::mt19937 rng(5);
  int unsolvable = 0;
  for (int box = 6; box <= 8; ++box) {
    SCOPED_TRACE("box " + std::to_string(box));
    const Grid solved = solved_pattern(box);
    const int n = solved.side();
    int seen[3] = {};
    for (int k = 0; k < 2; ++k) {
      Grid g = solved;
      for (int c = 0; c < g.cells(); ++c)
        if (g.row_of(c) < box || g.col_of(c) < box || rng() % 3 == 0) g.cell[c] = 0;
      if (k % 2) {
        const int c = (n - 1) * n + n - 1;  // a given far from the blank cross
        g.cell[c] = static_cast<std::uint8_t>(solved.cell[c] % n + 1);
      }
      const ExactResult sat = solve_exact(g, 2, ExactSolver::Sat), automatic = solve_exact(g, 2);
      ASSERT_EQ(automatic.solutions, sat.solutions) << "puzzle " << k;
      if (sat.solutions) {
        ASSERT_TRUE(verify_solution(g, sat.solution).ok) << "puzzle " << k;
        ASSERT_TRUE(verify_solution(g, automatic.solution).ok) << "puzzle " << k;
      }
      ++seen[sat.solutions];
    }
    EXPECT_GT(seen[1] + seen[2], 0);
    unsolvable += seen[0];
  }
  EXPECT_GT(unsolvable, 0);
}

TEST(ExactSolver, APuzzleToRunFrom36x36IsRefusedWhereTheSearchProvesItHasNoSolution) {
  // From 36x36 a puzzle to run is checked by the search within a budget (an exact count can take
  // minutes): a solvable one passes, one without a solution (its givens clashing nowhere) is
  // refused naming it.
  std::mt19937 rng(9);
  const Grid solved = solved_pattern(6);
  std::optional<Grid> unsolvable;
  for (int tries = 0; tries < 50 && !unsolvable; ++tries) {
    Grid g = solved;
    for (auto& v : g.cell)
      if (rng() % 3 == 0) v = 0;
    const int c = static_cast<int>(rng() % g.cells());
    g.cell[c] = static_cast<std::uint8_t>(solved.cell[c] % 36 + 1);
    if (!first_clash(g) && solve_exact(g, 1, ExactSolver::Sat).solutions == 0) unsolvable = g;
  }
  ASSERT_TRUE(unsolvable) << "no unsolvable puzzle without a clash drawn";
  const auto dir = std::filesystem::temp_directory_path() / ("gpuga_solvable_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Grid holed = solved;
  for (int c = 0; c < holed.cells(); c += 2) holed.cell[c] = 0;
  std::ofstream(dir / "good.txt") << to_line(holed, Alphabet::Alnum64) << "\n";
  std::ofstream(dir / "bad.txt") << to_line(holed, Alphabet::Alnum64) << "\n"
                                  << to_line(*unsolvable, Alphabet::Alnum64) << "\n";
  EXPECT_EQ(read_solvable_puzzles({(dir / "good.txt").string()}).size(), 1u);
  try {
    read_solvable_puzzles({(dir / "bad.txt").string()});
    ADD_FAILURE() << "an unsolvable 36x36 puzzle taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:2: puzzle 2 has no solution"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(ExactSolver, AGivenIsRemovedExactlyWhereOneSolutionRemainsDownToAMinimalPuzzle) {
  // From a solution grid, every cell asked in a drawn order down to a minimal puzzle (the last
  // questions past the search's budget at 16x16, where the SAT solver answers): each answer is
  // what counting the puzzle without that given says, and the puzzle left is the one answered.
  for (const char* file : {"demo.txt", "norvig_top95.txt", "acs_16x16_unique_fixed055-060.txt"}) {
    const Grid p = read_puzzle_file(source_path(std::string("puzzles/") + file))[0].grid;
    const Grid solution = solve_exact(p, 1).solution;
    GivenRemover remover(solution);
    std::vector<int> order(static_cast<std::size_t>(solution.cells()));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    int kept = 0, freed = 0;
    for (const int c : order) {
      const Grid before = remover.puzzle();
      Grid without = before;
      without.cell[c] = 0;
      const bool unique = solve_exact(without, 2, ExactSolver::Sat).solutions == 1;
      ASSERT_EQ(remover.remove_if_unique(c), unique) << file << " cell " << c;
      ASSERT_EQ(remover.puzzle().cell, (unique ? without : before).cell) << file << " cell " << c;
      (unique ? freed : kept) += 1;
    }
    EXPECT_GT(kept, 0) << file;
    EXPECT_GT(freed, 0) << file;
  }
}

TEST(ExactSolver, TheRatedSetsPuzzlesAreTheirSourcesOwnWithOneSolutionEach) {
  // puzzles/se_rated.tsv: each puzzle a line of the file it names, unique, its rating 1 to 11.
  std::ifstream tsv(source_path("puzzles/se_rated.tsv"));
  ASSERT_TRUE(tsv) << "puzzles/se_rated.tsv";
  std::string line;
  int rows = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string puzzle, rating, source;
    ASSERT_TRUE(std::getline(fields, puzzle, '\t') && std::getline(fields, rating, '\t') &&
                std::getline(fields, source))
        << line;
    const double se = std::stod(rating);
    EXPECT_TRUE(se >= 1.0 && se <= 11.0) << line;
    bool found = false;
    for (const Puzzle& p : read_puzzle_file(source_path("puzzles/" + source)))
      found = found || to_line(p.grid, Alphabet::Digits) == puzzle;
    EXPECT_TRUE(found) << puzzle << " is not in " << source;
    std::istringstream in(puzzle + "\n");
    EXPECT_EQ(solve_exact(parse_puzzles(in, "se_rated.tsv")[0].grid, 2).solutions, 1) << puzzle;
    ++rows;
  }
  EXPECT_EQ(rows, 232);
}
