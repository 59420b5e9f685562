// Configuration files: what --print-config writes, --config reads back to the same run.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "run_gpuga.hpp"
#include "temp_files.hpp"

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto p = test_file("cfg_" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST(Config, PrintConfigRoundTripsThroughConfig) {
  const auto printed = run_gpuga("solve --backend cpu --pop 300 --seed 9 --mutation-rate 0.5 "
                                 "--selection rank --rank-pressure 1.8 --given-aware false "
                                 "--print-config puzzles/example.txt");
  ASSERT_EQ(printed.status, 0) << printed.err;
  EXPECT_NE(printed.out.find("solve.pop=300"), std::string::npos) << printed.out;
  EXPECT_NE(printed.out.find("solve.seed=9"), std::string::npos);
  const auto file = write_temp("run.toml", printed.out);
  const auto a = run_gpuga("--config " + file + " solve --report-every 0 --json");
  ASSERT_EQ(a.status, 0) << a.err;
  const auto b = run_gpuga("solve --backend cpu --pop 300 --seed 9 --mutation-rate 0.5 "
                           "--selection rank --rank-pressure 1.8 --given-aware false "
                           "--report-every 0 --json puzzles/example.txt");
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["config"], jb["config"]);
  EXPECT_EQ(ja["config"]["selection"], "rank");
  EXPECT_EQ(ja["config"]["given_aware"], false);
  EXPECT_EQ(ja["results"][0]["grid"], jb["results"][0]["grid"]);
  EXPECT_EQ(ja["results"][0]["generations"], jb["results"][0]["generations"]);
}

TEST(Config, DrawnSeedIsWrittenSoTheRunRepeats) {
  const auto printed = run_gpuga("solve --print-config puzzles/example.txt");
  ASSERT_EQ(printed.status, 0);
  EXPECT_NE(printed.out.find("solve.seed="), std::string::npos) << printed.out;
}

TEST(Config, TheCommandLineWinsAndBadFilesAreRefused) {
  const auto file = write_temp("pop.toml", "solve.pop=300\nsolve.seed=4\n");
  const auto r = run_gpuga("--config " + file + " solve --backend cpu --pop 500 --report-every 0 "
                           "--json puzzles/example.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["config"]["pop"], 500);
  const auto bad = write_temp("bad.toml", "solve.pop=1\n");
  auto e = run_gpuga("--config " + bad + " solve puzzles/example.txt");
  EXPECT_EQ(e.status, 2);
  EXPECT_NE(e.err.find("--pop"), std::string::npos) << e.err;
  e = run_gpuga("--config /nonexistent.toml solve puzzles/example.txt");
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(e.out.empty());
}

TEST(Config, AMisspeltKeyIsRefusedWithItsLine) {
  for (const std::string text : {"solve.pop=300\nsolve.mutation-rat=0.5\n",
                                 "# a comment\n[solve]\npop = 300\n\nmutation-rat = 0.5\n"}) {
    const auto file = write_temp("typo.toml", text);
    const auto e = run_gpuga("--config " + file + " solve --backend cpu puzzles/example.txt");
    EXPECT_EQ(e.status, 2) << text;
    EXPECT_TRUE(e.out.empty()) << e.out;
    const std::string line = text[0] == '#' ? ":5:" : ":2:";
    EXPECT_NE(e.err.find(file + line + " unknown key 'solve.mutation-rat'"), std::string::npos)
        << e.err;
  }
}

TEST(Config, ABadValueFromTheFileNamesItsLine) {
  for (const std::string text : {"solve.pop=abc\n", "# run\n[solve]\nseed = 3\npop = abc\n"}) {
    const auto file = write_temp("value.toml", text);
    const auto e = run_gpuga("--config " + file + " solve --backend cpu puzzles/example.txt");
    EXPECT_EQ(e.status, 2);
    const std::string line = text[0] == '#' ? ":4: " : ":1: ";
    EXPECT_NE(e.err.find(file + line + "--pop: 'abc' is not a number"), std::string::npos) << e.err;
  }
  // The same value given on the command line too: it is the command line's, not the file's.
  const auto file = write_temp("value.toml", "solve.pop=abc\n");
  const auto e = run_gpuga("--config " + file + " solve --pop abc --backend cpu puzzles/example.txt");
  EXPECT_EQ(e.status, 2);
  EXPECT_EQ(e.err.find(file + ":1:"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("options were also read from " + file), std::string::npos) << e.err;
}

TEST(Config, AnOptionsFormerNameReadsAsItsNameNow) {
  // --propagate became --presolve (it read like --repair propagate): on the command line, in a
  // file and in sweep's grid, the old name still sets it, and what is written names the new.
  const auto given = run_gpuga("solve --propagate none --print-config puzzles/example.txt");
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_NE(given.out.find("solve.presolve=\"none\""), std::string::npos) << given.out;
  EXPECT_EQ(given.out.find("propagate="), std::string::npos) << given.out;
  const auto file = write_temp("former.toml", "solve.propagate=\"none\"\n");
  const auto read = run_gpuga("--config " + file + " solve --print-config puzzles/example.txt");
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_NE(read.out.find("solve.presolve=\"none\""), std::string::npos) << read.out;
  const auto help = run_gpuga("solve --help");
  EXPECT_NE(help.out.find("--presolve,--propagate"), std::string::npos);
  EXPECT_NE(help.out.find("--propagate, its former name, is read as --presolve"), std::string::npos);
}
