// The command line as a user meets it: help, version, check, and every bad input with a
// message on stderr, empty stdout and exit status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuga/csv.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/sudoku/verify.hpp"
#include "paths.hpp"
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

TEST(Cli, CheckCountsNoSolutionForContradictoryGivensAndGoesOn) {
  // Two 1s in row 1, then a puzzle of one solution: the first has none, the second is counted.
  const std::string clash = "11" + std::string(79, '.') + "\n";
  const std::string unique =
      "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
  const auto r = run_gpuga("check -", clash + unique);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("#1  9x9  clues 2  solutions: none (contradictory givens)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 puzzles: 1 with exactly one solution, 0 with several, 1 with none"),
            std::string::npos) << r.out;
  EXPECT_EQ(run_gpuga("check --strict -", clash + unique).status, 1);
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
                       "256, 625, 1296, 2401 or 4096 cells"),
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
                "--island-size 10 --presolve none --local-search 0 --report-every 0 puzzles/famous_named.txt");
  EXPECT_NE(r.err.find("after 1 generation, "), std::string::npos) << r.err;
}

// One timed generation of gpuga bench on the CPU with `args`, its table and its JSON report.
struct TinyBench {
  GpugaRun run;
  nlohmann::json report;
};
TinyBench tiny_bench(const std::string& args, const std::string& name) {
  const auto json = test_file(name);
  TinyBench b{run_gpuga("bench --backend cpu --generations 1 --repeats 1 --warmup 1 " + args +
                        " --json " + json.string()), {}};
  if (b.run.status == 0) b.report = nlohmann::json::parse(slurp(json));
  return b;
}

TEST(Cli, BenchRecordsThePuzzleSizeAndItsRowsSettings) {
  // A tiny population on a 16x16 puzzle (no local search, no island solves it): the table and
  // the JSON name the size, and the JSON the settings the rows ran with.
  const TinyBench b = tiny_bench("--pop 20 --island-size 10 --puzzle puzzles/acs_16x16_fixed040_inst00-09.txt",
                                 "bench_size.json");
  ASSERT_EQ(b.run.status, 0) << b.run.err;
  EXPECT_NE(b.run.out.find("on a 16x16 puzzle"), std::string::npos) << b.run.out;
  EXPECT_EQ(b.report["options"]["size"], "16x16");
  // The settings the rows ran with, as planned: the repaired GA on cells, the bench's seed.
  const auto config = b.report["options"]["config"];
  EXPECT_EQ(std::tie(config["repair"], config["encoding"], config["seed"], config["island_size"]),
            std::make_tuple("propagate", "cell", 1, 10)) << config;
}

TEST(Cli, BenchTakesTheWorksSettingsAndRefusesToMeasureNothing) {
  // The plain GA as solve takes it: its rows run with its settings, and the table says which GA.
  const TinyBench b = tiny_bench("--repair none --local-search 7 --selection rank --pop 20 --island-size 10",
                                 "bench_plain.json");
  ASSERT_EQ(b.run.status, 0) << b.run.err;
  EXPECT_NE(b.run.out.find("the plain genetic algorithm"), std::string::npos) << b.run.out;
  const auto config = b.report["options"]["config"];
  EXPECT_EQ(std::tie(config["repair"], config["local_search"], config["selection"], config["encoding"]),
            std::make_tuple("none", 7, "rank", "box")) << config;
  // No row that can run: refused as solve refuses it, with the row's reason.
  const TinyBench none = tiny_bench("--pop 16 --island-size 5", "bench_none.json");
  EXPECT_EQ(none.run.status, 2) << none.run.err;
  EXPECT_NE(none.run.err.find("no row ran: "), std::string::npos) << none.run.err;
  EXPECT_NE(none.run.err.find("--pop 16"), std::string::npos) << none.run.err;
  // A setting the bench owns is not the table's: --pop is its list, --time-limit not its own.
  EXPECT_EQ(run_gpuga("bench --backend cpu --time-limit 3").status, 2);
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

TEST(Cli, BenchGivesEveryRepeatsTimeAndTheirSpread) {
  // Each row's JSON keeps every timed epoch, the median among them; the table prints the median
  // and the fastest and slowest (two identical runs differed fourfold on a shared machine).
  const auto json = test_file("bench_spread.json");
  const auto r = run_gpuga("bench --backend cpu --pop 16 --island-size 8 --generations 2 --repeats 3 "
                           "--warmup 1 --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto row = nlohmann::json::parse(slurp(json))["results"][0];
  auto ms = row["ms_per_repeat"].get<std::vector<double>>();
  ASSERT_EQ(ms.size(), 3u) << row;
  std::sort(ms.begin(), ms.end());
  EXPECT_EQ(row["ms_per_epoch"].get<double>(), ms[1]) << row;
  char spread[64];
  std::snprintf(spread, sizeof spread, "%.2f-%.2f", ms[0], ms[2]);
  EXPECT_NE(r.out.find(spread), std::string::npos) << spread << "\n" << r.out;
  EXPECT_NE(r.out.find("min-max"), std::string::npos) << r.out;
}

TEST(Cli, BenchCountsTheTabuSearchsMovesApartFromItsEvaluations) {
  // On the built-in puzzle (no solution: every generation is whole work) a searched GA's row has
  // a tabu/s column, its moves a share of its evaluations; without --tabu no column, and none made.
  for (const int tabu : {50, 0}) {
    const auto json = test_file("bench_tabu_" + std::to_string(tabu) + ".json");
    const auto r = run_gpuga("bench --backend cpu --pop 16 --island-size 8 --generations 2 --repeats 1 "
                             "--warmup 1 --tabu " + std::to_string(tabu) + " --json " + json.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("tabu/s") != std::string::npos, tabu > 0) << r.out;
    const auto row = nlohmann::json::parse(slurp(json))["results"][0];
    const double moves = row["tabu_moves_per_s"].get<double>(), evals = row["evaluations_per_s"].get<double>();
    if (tabu > 0) {
      EXPECT_GT(moves, 0) << row;
      EXPECT_LT(moves, evals) << row;
    } else {
      EXPECT_EQ(moves, 0) << row;
    }
  }
}

TEST(Cli, APopulationThatDoesNotFitIsRefusedWithWhatItNeedsAndWhatThereIs) {
  // 1e8 individuals need about 19 GiB; under a 4 GB address-space limit the run is refused
  // before anything is allocated (it was a std::bad_alloc, exit 3), saying what to lower.
  // (Singles would complete the puzzle before any engine is made.)
  const auto r = run_gpuga("solve --backend cpu --pop 100000000 --max-generations 1 "
                           "--presolve none puzzles/example.txt", "", "ulimit -v 4000000 &&");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--pop 100000000 needs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("MiB of host memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is available; lower --pop"), std::string::npos) << r.err;
}

TEST(Cli, WhatSolveWritesCheckAndScoreRead) {
  // Solve's grids, pretty (its default: '|' between boxes, rules between bands) and one a line,
  // at 9x9 and 16x16 (letters), each read back by check and score as the grid it is.
  const std::string nine =
      "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
  std::ifstream unique16(source_path("puzzles/acs_16x16_unique_fixed055-060.txt"));
  std::string sixteen;
  while (std::getline(unique16, sixteen) && sixteen.rfind('#', 0) == 0) {
  }
  sixteen += "\n";
  for (const std::string& puzzle : {nine, sixteen})
    for (const std::string format : {"pretty", "line"}) {
      const auto solved = run_gpuga("solve --backend cpu --seed 1 --format " + format + " -", puzzle);
      ASSERT_EQ(solved.status, 0) << solved.err;
      const auto check = run_gpuga("check -", solved.out);
      EXPECT_EQ(check.status, 0) << format << "\n" << solved.out << check.err;
      EXPECT_NE(check.out.find("solutions: one"), std::string::npos) << check.out;
      const auto score = run_gpuga("score -", solved.out);
      EXPECT_EQ(score.status, 0) << format << "\n" << solved.out << score.err;
      EXPECT_NE(score.out.find("<stdin>:1  1  0  0  0  0  0"), std::string::npos) << score.out;
    }
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

TEST(Cli, EveryRefusalIsTheProjectsOwnMessageWithExitTwoAndNothingOnStdout) {
  // Each case: the arguments, what comes on stdin, and what stderr must say. Files the cases
  // name are made here: a config file, a binary one, a folder.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpuga_refusals_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string d = dir.string();
  std::ofstream(dir / "binary.toml", std::ios::binary) << std::string("solve.pop=2\0\1\n", 15);
  std::ofstream(dir / "unclosed.toml") << "solve.pop=16\nsolve.max-generations = [5\n";
  std::ofstream(dir / "twice.toml") << "# the population\nsolve.pop=16\nsolve.pop=32\n";
  std::ofstream(dir / "a-file") << "not a folder\n";
  std::ofstream(dir / "lone.toml") << "solve.pop=16\n[5\n";
  std::ofstream(dir / "run.toml") << "solve.max-generations=5\nsolve.pop=16\n";
  std::filesystem::copy_file(source_path("bench/instances/36x36/fill-0.70.txt"), dir / "36x36.txt");
  const std::string puzzle =
      "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
  // A 16x16 puzzle as a grid of characters (to_pretty's), with a fault on its 5th line, and
  // with its 11th row a value short; a 9x9 line with a two-byte character; UTF-16.
  const std::string sixteen = gpuga::to_line(gpuga::read_puzzle_file(source_path("puzzles/acs_16x16_fixed040_inst00-09.txt"))[0].grid,
                                      gpuga::Alphabet::HexZero);
  std::vector<std::string> rows;
  for (int r = 0; r < 16; ++r) {
    std::string row;
    for (int c = 0; c < 16; ++c) row += std::string(c ? " " : "") + sixteen[r * 16 + c];
    rows.push_back(row);
  }
  const auto grid_file = [&](const std::string& name, std::vector<std::string> lines) {
    std::ofstream out(dir / name);
    for (const auto& l : lines) out << l << '\n';
  };
  auto faulty = rows;
  faulty[4][6] = 'z';
  grid_file("g16-fault.txt", faulty);
  auto short_row = rows;
  short_row[10].resize(short_row[10].size() - 2);
  grid_file("g16-short.txt", short_row);
  std::ofstream(dir / "dot.txt") << puzzle.substr(0, 40) << "\xC2\xB7" << puzzle.substr(41);
  std::ofstream(dir / "utf16.txt", std::ios::binary) << std::string("\xFF\xFE" "1\0.\0", 6);
  std::ofstream(dir / "utf16.toml", std::ios::binary) << std::string("\xFF\xFE" "s\0o\0", 6);
  struct Case {
    std::string args, stdin_text, says;
  };
  const std::vector<Case> cases = {
      {"frobnicate", "", "unknown command 'frobnicate'; expected one of check, solve"},
      {"", "", "no command given; expected one of check, solve"},
      {"solve --config " + d + "/missing.toml -", puzzle, d + "/missing.toml: no such file; expected a TOML file"},
      {"solve --config " + d + " -", puzzle, d + ": is a folder; expected a TOML file"},
      {"solve --config " + d + "/binary.toml -", puzzle, "binary.toml: not a text file"},
      {"solve --format 2 -", puzzle, "--format: '2'; expected pretty or line"},
      {"solve --checkpoint-every 0 --checkpoint " + d + "/c.ckpt -", puzzle,
       "--checkpoint-every: 0 is out of range; expected seconds above 0"},
      {"solve --checkpoint " + d + "/nodir/c.ckpt -", puzzle, "c.ckpt: no folder"},
      {"solve --checkpoint " + d + " -", puzzle, d + ": is a folder; expected a file name for --checkpoint"},
      {"batch --runs 0 --csv " + d + "/b.csv -", puzzle, "--runs: 0 is out of range; expected 1 to 1000000"},
      {"batch --csv " + d + "/nodir/b.csv -", puzzle, "b.csv: no folder"},
      {"generate --seed -1 --fill 0.3", "", "--seed: -1 is out of range; expected 0 to 18446744073709551615"},
      {"bench --seed -1", "", "--seed: -1 is out of range; expected 0 to 18446744073709551615"},
      {"generate --box -3 --fill 0.3", "", "--box: -3 is out of range; expected 2 to 8"},
      {"generate --size 10 --fill 0.3", "", "--size: '10'; expected 4, 9, 16, 25, 36, 49 or 64"},
      {"solve --repair none --fitness squared " + d + "/36x36.txt", "",
       "--fitness squared on a 36x36 puzzle, whose squared fitness passes 65,535"},
      {"check --solver dlx -", puzzle, "--solver: 'dlx'; expected auto, search or sat"},
      {"sweep --grid 'pop=1000 pop=2000' --csv " + d + "/s.csv -", puzzle, "pop given twice"},
      {"sweep --grid 'pop=1000,1000' --csv " + d + "/s.csv -", puzzle, "holds 1000 twice"},
      {"check -", std::string(100000, '\0'), "<stdin>:1: a line of over 65536 bytes"},
      {"rate --backend cpu --runs-csv puzzles/example.txt -", puzzle,
       "puzzles/example.txt: exists; expected a new file for --runs-csv"},
      {"solve --config " + d + "/unclosed.toml -", puzzle,
       "unclosed.toml:2: --max-generations: '[5' cannot be read as a value"},
      // The same fault, the same words in every command; the right thing named.
      {"solve " + d, "", d + ": is a folder; expected a puzzle file, or - for standard input"},
      {"check " + d, "", d + ": is a folder; expected a puzzle file, or - for standard input"},
      {"batch --csv " + d + " -", puzzle, d + ": is a folder; expected a file name for the batch's CSV"},
      {"solve --pop 16 --pop 32 -", puzzle, "--pop given 2 times; expected it once"},
      {"solve --config " + d + "/twice.toml -", puzzle, "twice.toml:3: --pop given 2 times; expected it once"},
      {"solve --config " + d + "/lone.toml -", puzzle,
       "lone.toml:2: '[5' is neither a [section] nor a key=value line"},
      {"solve --seed 18446744073709551616 -", puzzle,
       "--seed: 18446744073709551616 is out of range; expected 0 to 18446744073709551615"},
      {"bench --backend cpu --json " + d + "/nodir/b.json", "", "b.json: no folder " + d + "/nodir"},
      {"batch --trace " + d + "/a-file --csv " + d + "/traced.csv -", puzzle,
       d + "/a-file: cannot be made a folder"},
      {"solve", "", "no puzzle file given; expected one or more puzzle files, or - for standard input"},
      {"solve --bogus -", puzzle, "'--bogus' is not an option of gpuga solve; expected those gpuga solve --help lists"},
      {"solve --pop", "", "--pop: no value given; expected one (gpuga solve --help"},
      {"sweep -", puzzle, "--grid not given; expected it (gpuga sweep --help)"},
      {"solve --show-best=maybe -", puzzle, "--show-best: 'maybe' is not a value it takes"},
      {"report " + d, "", d + ": is a folder; expected a file"},
      {"bench --puzzle " + d, "", d + ": is a folder; expected a file for --puzzle"},
      {"rate --runs-csv " + d + " -", puzzle, d + ": is a folder; expected a file name for --runs-csv"},
      // Numbers, options and values as typed: what is wrong with each, by name.
      {"solve --pop 1e3 -", puzzle, "--pop: '1e3' is not a whole number in decimal digits; expected 0 to 200000000"},
      {"solve --pop 0x40 -", puzzle, "--pop: '0x40' is not a whole number in decimal digits"},
      {"solve --popsize 5 -", puzzle, "'--popsize' is not an option of gpuga solve (--pop?)"},
      {"solve --seed --pop 64 -", puzzle, "--seed: no value given (--pop follows it)"},
      {"solve - --config", puzzle, "--config: no file given; expected --config FILE"},
      {"generate --foo 3", "", "'--foo' is not an option of gpuga generate"},
      {"generate --fill 1.0000001", "", "--fill 1.0000001: expected 0 to 1"},
      {"generate --rating 7-6", "", "--rating '7-6': the band is inverted (7 is not below 6)"},
      {"check - -", puzzle, "- given 2 times: standard input is read once"},
      {"sweep --grid pop=128 --pop 64 --csv " + d + "/s.csv -", puzzle, "--pop 64 given beside --grid's pop=128"},
      // Where a fault is: a lettered grid's own line and column; a character, not its bytes.
      {"check " + d + "/g16-fault.txt", "", "g16-fault.txt:5:7: illegal character 'z'"},
      {"check " + d + "/g16-short.txt", "", "g16-short.txt:11: grid row 11 has 15 values; expected 16"},
      {"check " + d + "/dot.txt", "", "dot.txt:1:41: illegal character '\xC2\xB7' (81 characters on the line)"},
      {"check " + d + "/utf16.txt", "", "utf16.txt:1: UTF-16 text"},
      {"solve --config " + d + "/utf16.toml -", puzzle, "utf16.toml: UTF-16 text"},
      // Refused before any output: a batch begins no CSV for a configuration it cannot run.
      {"batch --fitness squared --repair none --csv " + d + "/squared.csv " + d + "/36x36.txt", "",
       "--fitness squared on a 36x36 puzzle"},
      // --config once only, however it is given twice.
      {"solve --config " + d + "/run.toml --config " + d + "/twice.toml -", puzzle,
       "--config given 2 times (" + d + "/run.toml, " + d + "/twice.toml); expected one file"},
      {"--config " + d + "/run.toml solve --config=" + d + "/run.toml -", puzzle, "--config given 2 times"},
  };
  for (const Case& c : cases) {
    const auto r = run_gpuga(c.args, c.stdin_text);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args << "\n" << r.out;
    for (const char* cli11 : {"Run with --help", "is required", "not expected", "At Most",
                              "required but", "Could not convert", "File is actually", "files: "})
      EXPECT_EQ(r.err.find(cli11), std::string::npos) << c.args << "\n" << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "traced.csv")) << "a refused batch began its CSV";
  EXPECT_FALSE(std::filesystem::exists(dir / "squared.csv")) << "a refused batch began its CSV";
  EXPECT_FALSE(std::filesystem::exists(dir / "s.csv")) << "a refused sweep began its CSV";
  // What is accepted: a byte-order mark before the first puzzle; --config after the command.
  const auto bom = run_gpuga("check -", "\xEF\xBB\xBF" + puzzle);
  EXPECT_EQ(bom.status, 0) << bom.err;
  std::ofstream(dir / "run.toml") << "solve.max-generations=5\nsolve.pop=16\n";
  const auto after = run_gpuga("solve --backend cpu --config " + d + "/run.toml -", puzzle);
  EXPECT_LE(after.status, 1) << after.err;
  EXPECT_NE(after.err.find("max_generations=5"), std::string::npos) << after.err;
  std::filesystem::remove_all(dir);
}

TEST(Cli, SolvesThirtySixToSixtyFourOnTheCpuAndEveryGridVerifies) {
  // 60 % given, and 64x64 at 75 % (its 60 % is its hardest region). Each grid is a line of a
  // character a cell, as --help says (it said 81 characters at every size).
  EXPECT_NE(run_gpuga("solve --help").out.find("a character a cell (81 at 9x9, n x n at n x n)"), std::string::npos);
  for (const std::string size : {"36x36", "49x49", "64x64"}) {
    const std::string file = source_path(size == "64x64" ? "puzzles/gpuga_64x64_fill075.txt"
                                                         : "bench/instances/" + size + "/fill-0.60.txt");
    const auto r = run_gpuga("solve --backend cpu --seed 1 --format line " + file);
    ASSERT_EQ(r.status, 0) << size << ": " << r.err;
    const std::size_t side = std::stoul(size);
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')).size(), side * side) << size;
    std::istringstream out(r.out);
    const auto grids = parse_puzzles(out, "solved", ReadMode::Grids);
    const auto puzzles = read_puzzle_file(file);
    ASSERT_EQ(grids.size(), puzzles.size()) << size;
    for (std::size_t k = 0; k < grids.size(); ++k)
      EXPECT_TRUE(verify_solution(puzzles[k].grid, grids[k].grid).ok) << size << " puzzle " << k + 1;
  }
}

TEST(Cli, ARunWhoseCheckpointCannotBeWrittenGoesOnSaysSoOnceAndPrintsItsBest) {
  // The probe passes (the folder takes files) but every write fails: its temporary name is a
  // folder. The run goes to its generation limit and prints its best grid.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpuga_ckpt_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "c.ckpt.tmp");
  const std::string hard =
      "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
  const auto r = run_gpuga("solve --backend cpu --seed 3 --repair none --local-search 0 --pop 400 "
                           "--max-generations 60 --time-limit 0 --checkpoint-every 0.001 "
                           "--checkpoint " + (dir / "c.ckpt").string() + " -", hard);
  EXPECT_LE(r.status, 1) << r.err;
  const std::string warning = "the run goes on without checkpoints";
  const auto first = r.err.find(warning);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, first + 1), std::string::npos) << "said more than once:\n" << r.err;
  EXPECT_NE(r.out.find("------+-------+------"), std::string::npos) << "no grid printed:\n" << r.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, EveryWriterThatFailsSaysWhyWithExitThree) {
  // /dev/full takes no byte: each output there, and a closed stdout, ends with status 3 and the
  // reason, never exit 0 with the results gone.
  const auto dir = std::filesystem::temp_directory_path() / ("gpuga_full_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "traced");
  std::filesystem::create_symlink("/dev/full", dir / "traced" / "traces.csv");
  const std::string d = dir.string();
  const std::string hard = source_path("puzzles/norvig_hardest.txt");
  const std::string quick = " --backend cpu --seed 1 --pop 64 --max-generations 2 --time-limit 0 ";
  std::ofstream(dir / "grid.txt") << "534678912672195348198342567859761423426853791713924856961537284287419635345286179\n";
  struct Case {
    std::string args, says;
    std::string stdout_to = ">/dev/full";  // a redirection of gpuga's stdout, or ""
  };
  const std::string full = "(No space left on device)";
  const std::vector<Case> cases = {
      {"check " + hard, "standard output: cannot write " + full},
      {"solve" + quick + hard, "standard output: cannot write " + full},
      {"solve --json" + quick + hard, "standard output: cannot write " + full},
      {"score " + d + "/grid.txt ", "standard output: cannot write " + full},
      {"generate --count 3 --fill 0.5 ", "standard output: cannot write " + full},
      {"rate --runs 0 " + hard, "standard output: cannot write " + full},
      {"check " + hard, "standard output is closed", ">&-"},
      {"batch" + quick + "--csv /dev/full " + hard, "/dev/full: cannot write a row " + full, ""},
      {"batch" + quick + "--repair none --csv " + d + "/t.csv --trace " + d + "/traced " + hard,
       "traced/traces.csv: cannot write a row " + full, ""},
      {"bench --backend cpu --pop 64 --island-size 32 --generations 2 --repeats 1 --warmup 1 "
       "--json /dev/full", "/dev/full: cannot write the JSON report " + full, ""},
  };
  for (const Case& c : cases) {
    // run_gpuga's own redirection comes after the arguments: this one, inside, wins.
    const auto r = run_gpuga(c.args, "", c.stdout_to.empty() ? "" : "sh -c 'exec \"$0\" \"$@\" " + c.stdout_to + "'");
    EXPECT_EQ(r.status, 3) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
  }
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full")) << "a writer replaced /dev/full";
  // A checkpoint's write that fails: the run goes on, and its temporary file goes.
  std::filesystem::create_symlink("/dev/full", dir / "c.ckpt.tmp");
  const auto r = run_gpuga("solve --backend cpu --seed 1 --pop 64 --max-generations 40 --time-limit 0 "
                           "--repair none --checkpoint-every 0.001 --checkpoint " + d + "/c.ckpt " + hard);
  EXPECT_LE(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("No space left on device; the run goes on without checkpoints"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(dir / "c.ckpt.tmp"))) << "its .tmp stayed";
  std::filesystem::remove_all(dir);
}

TEST(Cli, WhatIsReadBackAndWhatIsSaidIsTrue) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuga_true_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string d = dir.string();
  const std::string quick = " --backend cpu --seed 1 --pop 64 --max-generations 3 --time-limit 0 ";
  const std::string hard = source_path("puzzles/norvig_hardest.txt");
  // A config file and a CSV that begin with a UTF-8 byte-order mark read as without it.
  std::ofstream(dir / "bom.toml") << "\xEF\xBB\xBFsolve.pop=64\nsolve.max-generations=3\n";
  const auto bom = run_gpuga("solve --backend cpu --config " + d + "/bom.toml " + hard);
  EXPECT_LE(bom.status, 1) << bom.err;
  EXPECT_NE(bom.err.find(" pop=64 "), std::string::npos) << bom.err;
  const std::string csv = d + "/runs.csv";
  ASSERT_LE(run_gpuga("batch" + quick + "--repair none --local-search 0 --csv " + csv + " " + hard).status, 1);
  const std::string rows = file_bytes(csv);
  set_file_bytes(d + "/bom.csv", "\xEF\xBB\xBF" + rows);
  const auto report = run_gpuga("report " + d + "/bom.csv");
  EXPECT_EQ(report.status, 0) << report.err;
  EXPECT_NE(report.out.find("\nnorvig_hardest.txt\n"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("\n| 11 | "), std::string::npos) << report.out;
  // Nothing solved: no median of nothing (it read 0.000 s), nor a time to solve.
  std::ofstream(dir / "one.txt") << "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
  ASSERT_EQ(run_gpuga("batch" + quick + "--runs 3 --repair none --local-search 0 --csv " + d + "/none.csv " +
                      d + "/one.txt").status, 1);
  const auto none = run_gpuga("report " + d + "/none.csv");
  EXPECT_NE(none.out.find("| 3 | 0 | 0.0 % (0.0-56.1) | inf | inf | >"), std::string::npos) << none.out;
  const auto json = run_gpuga("report --json " + d + "/none.csv");
  EXPECT_TRUE(nlohmann::json::parse(json.out)["groups"][0]["median_seconds"].is_null()) << json.out;
  const auto resumed = run_gpuga("batch" + quick + "--repair none --local-search 0 --resume --csv " + d + "/bom.csv " + hard);
  EXPECT_NE(resumed.err.find("0 runs to do in 1 configuration(s) (11 recorded already)"), std::string::npos)
      << resumed.err;
  // An older CSV, without a column added since: --resume names it.
  std::string older = rows;
  const auto drop_column = [](std::string& text, const std::string& name) {
    std::istringstream in(text);
    std::string out, line;
    std::size_t at = std::string::npos;
    while (std::getline(in, line)) {
      const auto fields = gpuga::csv_split(line);
      if (at == std::string::npos) at = std::find(fields.begin(), fields.end(), name) - fields.begin();
      std::vector<std::string> kept;
      for (std::size_t k = 0; k < fields.size(); ++k)
        if (k != at) kept.push_back(fields[k]);
      out += gpuga::csv_line(kept) + "\n";
    }
    text = out;
  };
  drop_column(older, "growths");
  set_file_bytes(d + "/older.csv", older);
  const auto old_resume = run_gpuga("batch" + quick + "--repair none --local-search 0 --resume --csv " + d + "/older.csv " + hard);
  EXPECT_EQ(old_resume.status, 2);
  EXPECT_NE(old_resume.err.find("older.csv:1: the header is not this gpuga batch's: it lacks the column(s) growths"),
            std::string::npos) << old_resume.err;
  // The unsolved grid solve prints reads back in score and check.
  const auto unsolved = run_gpuga("solve" + quick + "--repair none " + source_path("puzzles/norvig_hardest.txt"));
  std::ofstream(dir / "best.txt") << unsolved.out;
  EXPECT_EQ(run_gpuga("score " + d + "/best.txt").status, 0);
  EXPECT_EQ(run_gpuga("check " + d + "/best.txt").status, 0);
  // An interrupted solve --json says which puzzles it did not run.
  const auto cut = run_gpuga("solve --json --backend cpu --seed 1 --repair none --local-search 0 "
                             "--max-generations 100000 --time-limit 0 --report-every 1 " + hard,
                             "", source_path("tests/signal_when.sh") + " stderr 'gen 2 ' INT");
  EXPECT_EQ(cut.status, 5) << cut.err;
  const auto doc = nlohmann::json::parse(cut.out);
  EXPECT_TRUE(doc["interrupted"].get<bool>());
  EXPECT_EQ(doc["not_run"].size() + doc["results"].size(), 11u) << cut.out.substr(0, 400);
  ASSERT_GE(doc["not_run"].size(), 1u);
  EXPECT_EQ(doc["not_run"].back()["index"], 11);
  EXPECT_EQ(doc["not_run"].front()["index"], doc["results"].size() + 1);
  // An interrupted rate speaks as rate, not as the batch it runs.
  const auto rate = run_gpuga("rate --backend cpu --seed 1 --runs 4 --repair none --local-search 0 "
                              "--max-generations 100000 --time-limit 0 --concurrent 1 " + hard,
                              "", source_path("tests/signal_when.sh") + " stderr 'runs to do' INT");
  EXPECT_EQ(rate.status, 5) << rate.err;
  EXPECT_EQ(rate.err.find("batch:"), std::string::npos) << rate.err;
  EXPECT_NE(rate.err.find("rate: interrupted: no rating written, since a rating from part of a puzzle's runs"),
            std::string::npos) << rate.err;
  std::filesystem::remove_all(dir);
}
