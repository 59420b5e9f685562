// The command line as a user meets it: help, version, check, and every bad input with a
// message on stderr, empty stdout and exit status 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_gpuga.hpp"
#include "temp_files.hpp"

TEST(Cli, HelpAndVersion) {
  auto r = run_gpuga("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("check"), std::string::npos);
  EXPECT_NE(r.out.find("Exit status"), std::string::npos);
  r = run_gpuga("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("commit"), std::string::npos) << r.out;
}

TEST(Cli, EveryHelpIsPrintableText) {
  for (const std::string cmd : {"", "check", "solve", "score", "devices", "bench", "batch",
                                "report", "sweep"}) {
    const auto r = run_gpuga(cmd + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    for (const char ch : r.out)
      ASSERT_TRUE(ch == '\n' || ch == '\t' || (ch >= 0x20 && ch < 0x7f))
          << cmd << " --help prints byte " << int(static_cast<unsigned char>(ch));
  }
}

TEST(Cli, NoSubcommandIsBadUsage) {
  const auto r = run_gpuga("");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
}

TEST(Cli, CheckReportsTheWholeCorpusUnique) {
  const auto r = run_gpuga("check puzzles/ALL_9x9.txt");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("613 puzzles: 613 with exactly one solution, 0 with several, 0 with none"),
            std::string::npos)
      << r.out.substr(r.out.size() > 300 ? r.out.size() - 300 : 0);
}

TEST(Cli, CheckReadsStdinAndWritesJson) {
  const auto r = run_gpuga("check --json -",
                           "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3."
                           ".9..5.1.3..\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"solutions\": \"one\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("483921657967345821251876493548132976729564138136798245372689514814253769"
                       "695417382"),
            std::string::npos);
  EXPECT_NE(r.out.find("\"file\": \"<stdin>\""), std::string::npos);
}

TEST(Cli, CheckGivesTheSameCountsByEverySolverAndRefusesAnUnknownOne) {
  // A unique puzzle, an open grid (several), and bench's puzzle, whose givens agree but have
  // no solution (none).
  const std::string puzzles =
      "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n" +
      std::string(81, '.') +
      "\n3......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...\n";
  const auto search = run_gpuga("check --solver search -", puzzles);
  ASSERT_EQ(search.status, 0) << search.err;
  EXPECT_NE(search.out.find("3 puzzles: 1 with exactly one solution, 1 with several, 1 with none"),
            std::string::npos) << search.out;
  EXPECT_EQ(run_gpuga("check --solver sat -", puzzles).out, search.out);
  EXPECT_EQ(run_gpuga("check --solver auto -", puzzles).out, search.out);
  const auto refused = run_gpuga("check --solver dlx -", puzzles);
  EXPECT_EQ(refused.status, 2);
  EXPECT_TRUE(refused.out.empty()) << refused.out;
  EXPECT_NE(refused.err.find("--solver"), std::string::npos) << refused.err;
}

TEST(Cli, CheckStrictFailsOnSeveralSolutions) {
  const std::string open_grid = std::string(81, '.') + "\n";
  auto r = run_gpuga("check -", open_grid);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("solutions: several"), std::string::npos);
  r = run_gpuga("check --strict -", open_grid);
  EXPECT_EQ(r.status, 1);
}

TEST(Cli, BadInputGivesFileAndLineOnStderrAndNothingOnStdout) {
  const std::string good =
      "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
  const std::string bad = good.substr(0, 40) + "\n";
  auto r = run_gpuga("check -", good + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("<stdin>:2:"), std::string::npos) << r.err;

  r = run_gpuga("check puzzles/ALL_9x9.txt no-such-file.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("no-such-file.txt"), std::string::npos) << r.err;

  r = run_gpuga("check -", "# nothing\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("no puzzle found"), std::string::npos) << r.err;
}

TEST(Cli, MessagesSayWhatWasReadAndWhatWasExpected) {
  // A line of 9 characters reads as a grid's first row: the message says so, and what a puzzle
  // on one line holds.
  auto r = run_gpuga("check -", "..3.2.6..\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("<stdin>:1: a line of 9 values, read as the first row of a 9x9 grid, and no "
                       "row after it; expected a grid of 9 rows, or a puzzle on one line of 16, 81, "
                       "256 or 625 cells"),
            std::string::npos) << r.err;
  // A negative number is out of range, not "not a number".
  r = run_gpuga("solve --pop -3 puzzles/example.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--pop: -3 is out of range; expected 0 to 200000000"), std::string::npos) << r.err;
  r = run_gpuga("solve --pop 3x puzzles/example.txt");
  EXPECT_NE(r.err.find("'3x' is not a number"), std::string::npos) << r.err;
  // A file that is not there, in a line of its own.
  r = run_gpuga("solve missing.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.txt: no such file; expected a puzzle file, or - for standard input"),
            std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("OR"), std::string::npos) << r.err;
  // One generation, not "1 generations".
  r = run_gpuga("solve --backend cpu --seed 1 --max-generations 1 --time-limit 0 --pop 20 "
                "--island-size 10 --propagate none --local-search 0 --report-every 0 puzzles/famous_named.txt");
  EXPECT_NE(r.err.find("after 1 generation, "), std::string::npos) << r.err;
}

TEST(Cli, BenchRecordsThePuzzleSize) {
  // Two generations of a tiny population on a 16x16 puzzle (no local search, no island solves
  // it): the table and the JSON name the size.
  const auto json = test_file("bench_size.json");
  const auto r = run_gpuga("bench --backend cpu --pop 20 --island-size 10 --generations 1 "
                           "--repeats 1 --warmup 1 --puzzle puzzles/acs_16x16_fixed040_inst00-09.txt "
                           "--json " + json.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("on a 16x16 puzzle"), std::string::npos) << r.out;
  EXPECT_EQ(nlohmann::json::parse(slurp(json))["options"]["size"], "16x16");
}

TEST(Cli, BenchRecordsARowWhoseIslandSolvedAndGoesOn) {
  // A 4x4 puzzle that the first generations solve: each row says so, in the table and the JSON,
  // and the bench measures every row instead of stopping at the first.
  const auto puzzle = test_file("bench_4x4.txt"), json = test_file("bench_solved.json");
  std::ofstream(puzzle) << "1.3.3...2..3...1\n";
  const auto r = run_gpuga("bench --backend cpu --pop 40,80 --island-size 20 --generations 3 "
                           "--repeats 2 --warmup 2 --puzzle " + puzzle.string() +
                           " --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("an island solved the puzzle at generation"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no rate"), std::string::npos) << r.out;
  const auto report = nlohmann::json::parse(slurp(json));
  const auto rows = report["results"];
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    ASSERT_TRUE(row["solved_at_generation"].is_number()) << row;
    EXPECT_LE(row["solved_at_generation"].get<int>(), 2 + 2 * 3) << row;
    EXPECT_TRUE(row["evaluations_per_s"].is_null()) << row;  // partial work is never a rate
  }
  EXPECT_EQ(report["options"]["puzzle_text"], "1.3.3...2..3...1");
}

TEST(Cli, APopulationThatDoesNotFitIsRefusedWithWhatItNeedsAndWhatThereIs) {
  // 1e8 individuals need about 19 GiB; under a 4 GB address-space limit the run is refused
  // before anything is allocated (it was a std::bad_alloc, exit 3), saying what to lower.
  // (Singles would complete the puzzle before any engine is made.)
  const auto r = run_gpuga("solve --backend cpu --pop 100000000 --max-generations 1 "
                           "--propagate none puzzles/example.txt", "", "ulimit -v 4000000 &&");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--pop 100000000 needs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("MiB of host memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is available; lower --pop"), std::string::npos) << r.err;
}

TEST(Cli, ScoreGivesEveryMetricForCompleteAndPartialGrids) {
  // The solution; r1c1 and r1c2 swapped (columns 1 and 2 each lose a digit); and the puzzle
  // itself with blanks (counted as no digit).
  const std::string solved =
      "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
  std::string swapped = solved;
  std::swap(swapped[0], swapped[1]);
  const auto r = run_gpuga("score --json -", solved + "\n" + swapped + "\n" +
                                                 "4" + std::string(80, '.') + "\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"box\": 0,\n      \"cell\": 0,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"box\": 2,\n      \"cell\": 2,"), std::string::npos) << r.out;
  // One digit in an otherwise blank grid: each of the 27 units has 9 - 1 conflicts if it holds
  // the digit, 9 otherwise; the squared metric sees no repeat.
  EXPECT_NE(r.out.find("\"blanks\": 80,\n      \"box\": " + std::to_string(2 * 8 + 16 * 9)),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"squared\": 0\n"), std::string::npos);
  const auto table = run_gpuga("score -", swapped + "\n");
  EXPECT_NE(table.out.find("<stdin>:1  1  0  2  2  2  2"), std::string::npos) << table.out;
}
