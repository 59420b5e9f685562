// gpuga solve end to end: verified solutions with the defaults, byte-identical reruns, limits,
// Ctrl-C, the interactive prompt, and bad options refused with a clear message.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gpuga/csv.hpp"
#include "gpuga/devices.hpp"
#include "paths.hpp"
#include "gpuga/run_config.hpp"
#include "gpuga/solve.hpp"
#include "grids.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "run_gpuga.hpp"
#include "temp_files.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

namespace {

const std::string kHard = "puzzles/famous_named.txt";  // AI Escargot first
const std::string kCpu = " --backend cpu --report-every 0 ";

std::vector<Puzzle> puzzles_in(const std::string& file) {
  return read_puzzle_file(source_path(file));
}

// The first n puzzles of a file, a line each, for solve's standard input.
std::string first_lines(const std::string& file, std::size_t n) {
  std::string text;
  for (const auto& p : puzzles_in(file)) {
    if (n-- == 0) break;
    text += to_line(p.grid) + "\n";
  }
  return text;
}

}  // namespace

TEST(Solve, LargerGridsSolveAndPrintInTheInputsAlphabet) {
  // A 16x16 puzzle in 0-9a-f and a 4x4 one: solved with defaults, the answer in the input's
  // alphabet, verified here too.
  const auto big = puzzles_in("puzzles/acs_16x16_unique_fixed055-060.txt")[0];
  const std::string four = "1.3.3...2..3...1";
  for (const auto& [text, size] : {std::pair{to_line(big.grid, big.alphabet), 256}, {four, 16}}) {
    const auto r = run_gpuga("solve --backend cpu --seed 5 --format line --time-limit 60 -", text + "\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string line = r.out.substr(0, r.out.find('\n'));
    ASSERT_EQ(line.size(), std::size_t(size)) << r.out;
    std::istringstream in(line + "\n");
    const Puzzle answer = parse_puzzles(in, "answer")[0];  // the same alphabet, or it fails
    const Puzzle puzzle = [&] { std::istringstream q(text + "\n"); return parse_puzzles(q, "q")[0]; }();
    EXPECT_EQ(answer.alphabet, puzzle.alphabet);
    const auto v = verify_solution(puzzle.grid, answer.grid);
    EXPECT_TRUE(v.ok) << v.reason;
  }
}

TEST(Solve, LocalSearchAutoFollowsTheGridSize) {
  // auto (the default) is resolved from the puzzle's size and recorded as the number it became;
  // a number given stays that number at every size.
  const auto big = puzzles_in("puzzles/acs_25x25_unique_fixed065-070.txt")[0];
  const std::string nine = to_line(puzzles_in("puzzles/norvig_easy50.txt")[0].grid);
  const std::string twenty_five = to_line(big.grid, big.alphabet);
  const std::string run = "solve --backend cpu --seed 3 --pop 20 --island-size 10 "
                          "--max-generations 1 --report-every 0 --json ";
  const auto plain = [](int box) { return size_defaults(Backend::Cpu, box, Repair::None).local_search; };
  for (const auto& [opts, text, expected] :
       {std::tuple{std::string("--repair none "), nine, plain(3)},
        {"--repair none --local-search auto ", twenty_five, plain(5)},
        {"--encoding box ", twenty_five, plain(5)},
        {"--local-search 77 ", twenty_five, 77u},
        {std::string(), twenty_five, size_defaults(Backend::Cpu, 5, Repair::Propagate).local_search}}) {
    const auto r = run_gpuga(run + opts + "-", text + "\n");
    ASSERT_LE(r.status, 1) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["config"]["local_search"], expected) << opts;
  }
  EXPECT_NE(plain(3), plain(5));
}

TEST(Solve, EasyPuzzlesSolveWithDefaultsAndVerify) {
  // A fixed handful of norvig_easy50 (the whole set is in the benchmark).
  const auto all = puzzles_in("puzzles/norvig_easy50.txt");
  for (int k : {0, 7, 19, 33, 48}) {
    const auto r = run_gpuga("solve --backend cpu --seed 2026 --format line -",
                             to_line(all[k].grid) + "\n");
    ASSERT_EQ(r.status, 0) << "puzzle " << k + 1 << ": " << r.err;
    const auto v = verify_solution(all[k].grid, grid_of(r.out.substr(0, 81)));
    EXPECT_TRUE(v.ok) << "puzzle " << k + 1 << ": " << v.reason;
    EXPECT_NE(r.err.find("seed 2026"), std::string::npos);
  }
}

TEST(Solve, AnnealingAndHillClimbingSolveEasyPuzzlesAndVerify) {
  const auto all = puzzles_in("puzzles/norvig_easy50.txt");
  for (const std::string algorithm : {"sa", "hc"})
    for (int k : {0, 19, 48}) {
      const auto r = run_gpuga("solve" + kCpu + "--algorithm " + algorithm +
                                   " --seed 7 --time-limit 30 --format line -",
                               to_line(all[k].grid) + "\n");
      ASSERT_EQ(r.status, 0) << algorithm << " puzzle " << k + 1 << ": " << r.err;
      const auto v = verify_solution(all[k].grid, grid_of(r.out.substr(0, 81)));
      EXPECT_TRUE(v.ok) << algorithm << " puzzle " << k + 1 << ": " << v.reason;
    }
}

TEST(Solve, ChainsRecordTheirScheduleCountMovesAndReproduce) {
  // AI Escargot has 58 free cells: a generation is 58 moves per chain, after the initial grids.
  const std::string args = "solve" + kCpu + "--algorithm sa --pop 200 --max-generations 30 "
                           "--presolve none --cooling 0.95 --chain-length 100 --reheat-after 7 --seed 3 --json ";
  const auto a = run_gpuga(args + "--threads 1 " + kHard);
  const auto b = run_gpuga(args + "--threads 2 " + kHard);
  ASSERT_EQ(a.status, 1) << a.err;
  auto j = nlohmann::json::parse(a.out), k = nlohmann::json::parse(b.out);
  for (auto* x : {&j, &k}) {
    x->erase("seconds");
    for (auto& r : (*x)["results"]) r.erase("seconds"), r.erase("time");
  }
  EXPECT_EQ(j, k);  // all but the time
  EXPECT_EQ(j["config"]["algorithm"], "sa");
  EXPECT_EQ(j["config"]["cooling"], 0.95);
  EXPECT_EQ(j["config"]["chain_length"], 100);
  EXPECT_EQ(j["config"]["reheat_after"], 7);
  EXPECT_EQ(j["config"]["migration_interval"], 0);  // chains are independent
  EXPECT_EQ(j["results"][0]["evaluations"], 200 + 200 * 58 * 30);
  const auto hc = run_gpuga("solve" + kCpu + "--algorithm hc --pop 200 --max-generations 30 "
                            "--seed 3 --json " + kHard);
  EXPECT_NE(nlohmann::json::parse(hc.out)["results"][0]["grid"], j["results"][0]["grid"]);
  const auto progress = run_gpuga("solve --backend cpu --report-every 10 --algorithm sa "
                                  "--pop 100 --max-generations 10 --seed 3 " + kHard);
  EXPECT_NE(progress.err.find("gen 10  best so far "), std::string::npos) << progress.err;
  EXPECT_NE(progress.err.find("temperature "), std::string::npos) << progress.err;
}

TEST(Solve, TheProgressLineSaysTheBestSoFarApartAndMarksRestartsAndGrowths) {
  // The plain GA restarting after 2 stagnant generations and growing after 4: each line's best
  // so far never rises and no island now holds better; a line after a restart or a growth says
  // so (+N), and growths appear once there are some. Redirected, no bar.
  std::ifstream hard(source_path(kHard));
  std::string escargot;
  while (std::getline(hard, escargot) && escargot.rfind('#', 0) == 0) {}
  const auto r = run_gpuga("solve --backend cpu --repair none --local-search 0 --pop 64 --island-size 16 "
                           "--restart-after 2 --grow-after 4 --max-generations 12 --time-limit 0 "
                           "--report-every 1 --seed 2 -", escargot + "\n");
  std::istringstream lines(r.err);
  std::string line;
  unsigned so_far_before = ~0u, lines_seen = 0;
  bool marked_restart = false, marked_growth = false;
  while (std::getline(lines, line)) {
    unsigned gen = 0, so_far = 0, now = 0;
    if (std::sscanf(line.c_str(), "gen %u  best so far %u  now: best %u", &gen, &so_far, &now) != 3) continue;
    ++lines_seen;
    EXPECT_LE(so_far, so_far_before) << line;
    EXPECT_GE(now, so_far) << line;
    so_far_before = so_far;
    marked_restart = marked_restart || line.find("restarts") < line.find("(+");
    marked_growth = marked_growth || line.find("growths 1 (+1)") != std::string::npos;
    EXPECT_EQ(line.find('['), std::string::npos) << line;
  }
  EXPECT_EQ(lines_seen, 13u) << r.err;
  EXPECT_TRUE(marked_restart) << r.err;
  EXPECT_TRUE(marked_growth) << r.err;
}

TEST(Solve, TraceWritesEveryNthGenerationOfEachPuzzleAsBatchDoes) {
  // --trace DIR --trace-every 2: a row a puzzle at generations 0, 2, 4 and 6, in batch's columns,
  // the same whether the puzzles run together or one at a time (but for the clock); a --trace
  // that cannot be a folder is refused before any run.
  const std::string run = "solve --backend cpu --repair none --local-search 0 --pop 64 --max-generations 6 "
                          "--time-limit 0 --report-every 3 --seed 3 --trace-every 2 --trace ";
  const auto together = test_file("trace_together"), alone = test_file("trace_alone");
  ASSERT_EQ(run_gpuga(run + together.string() + " " + source_path(kHard)).status, 1);
  ASSERT_EQ(run_gpuga(run + alone.string() + " --concurrent 1 " + source_path(kHard)).status, 1);
  const auto rows_of = [](const std::filesystem::path& dir) {
    std::ifstream in(dir / "traces.csv");
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "config_id,puzzle_id,run,seed,generation,best,mean,worst,diversity,restarts,"
                    "elapsed,temperature,best_so_far,growths,evaluations");
    std::multiset<std::string> rows;  // each without its elapsed seconds
    while (std::getline(in, line)) {
      auto fields = gpuga::csv_split(line);
      fields[10].clear();
      rows.insert(gpuga::csv_line(fields));
    }
    return rows;
  };
  const auto rows = rows_of(together);
  EXPECT_EQ(rows, rows_of(alone));
  const std::size_t puzzles = read_puzzle_file(source_path(kHard)).size();
  ASSERT_EQ(rows.size(), 4 * puzzles);
  std::map<std::string, std::set<std::string>> generations;
  for (const std::string& row : rows) {
    const auto fields = gpuga::csv_split(row);
    generations[fields[1]].insert(fields[4]);
  }
  EXPECT_EQ(generations.size(), puzzles);
  for (const auto& [id, gens] : generations) EXPECT_EQ(gens, (std::set<std::string>{"0", "2", "4", "6"})) << id;
  std::ofstream(test_file("not_a_folder")) << "x";
  const auto refused = run_gpuga(run + test_file("not_a_folder").string() + " " + source_path(kHard));
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("expected a folder for --trace"), std::string::npos) << refused.err;
}

TEST(Solve, BoxAndRowEncodingsSolveWithEverySelectionScheme) {
  // (The naive cell encoding is there to be compared against; it rarely solves, as the
  // literature reports.)
  const Grid puzzle = puzzles_in("puzzles/example.txt")[0].grid;
  for (const std::string enc : {"box", "row"})
    for (const std::string sel : {"tournament", "rank", "truncation"}) {
      const auto r = run_gpuga("solve" + kCpu + "--seed 4 --max-generations 2000 --time-limit 0 "
                               "--format line --encoding " + enc + " --selection " + sel +
                               " puzzles/example.txt");
      ASSERT_EQ(r.status, 0) << enc << "/" << sel << ": " << r.err;
      EXPECT_TRUE(verify_solution(puzzle, grid_of(r.out.substr(0, 81))).ok) << enc << "/" << sel;
    }
}

TEST(Solve, PrettyOutputAndJson) {
  auto r = run_gpuga("solve" + kCpu + "--seed 5 puzzles/example.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 22), "4 8 3 | 9 2 1 | 6 5 7\n") << r.out;
  // The defaults: singles complete this easy puzzle before any search.
  r = run_gpuga("solve" + kCpu + "--seed 5 --json puzzles/example.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["results"][0]["stop"], "propagation");
  EXPECT_EQ(j["results"][0]["generations"], 0);
  EXPECT_EQ(j["results"][0]["grid"], kEasySolution);
  r = run_gpuga("solve" + kCpu + "--seed 5 --presolve none --json puzzles/example.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["results"][0]["solved"], true);
  EXPECT_EQ(j["results"][0]["grid"], kEasySolution);
  EXPECT_EQ(j["config"]["seed"], 5);
  EXPECT_EQ(j["config"]["backend"], "cpu");
  // --pop left out: the table's islands, as many as the backend fills; the solving island named.
  const SizeDefaults& plain = size_defaults(Backend::Cpu, 3, Repair::None);  // --presolve none
  const int size = static_cast<int>(plain.island_size);
  EXPECT_EQ(j["config"]["island_size"], size);
  EXPECT_EQ(j["config"]["pop"], j["config"]["islands"].get<int>() * size);
  EXPECT_EQ(j["config"]["grow_after"], plain.grow_after);
  EXPECT_LT(j["results"][0]["island"].get<int>(), j["config"]["islands"].get<int>());
  EXPECT_EQ(j["results"][0]["stop"], "solved");
  // Where the time went: before the run, its generation 0, and the generations after; the
  // run's own two add up to its seconds.
  const auto& time = j["results"][0]["time"];
  for (const char* part : {"start_up", "initialisation", "generations"})
    EXPECT_GE(time[part].get<double>(), 0.0) << part;
  EXPECT_NEAR(time["initialisation"].get<double>() + time["generations"].get<double>(),
              j["results"][0]["seconds"].get<double>(), 1e-9);
  EXPECT_GT(time["initialisation"].get<double>(), 0.0);
}

TEST(Solve, PopIsTheWholePopulationInIslands) {
  // --pop 4000 runs islands of the table's size on a ring, and they do not grow (the table's
  // growth is for its own islands); --island-size equal to --pop, one. (The plain GA without
  // local search: the repair or local search solves AI Escargot within these generations.)
  const std::uint32_t size = size_defaults(Backend::Cpu, 3, Repair::None).island_size;
  auto r = run_gpuga("solve" + kCpu + "--seed 6 --pop 4000 --max-generations 20 --local-search 0 "
                     "--repair none --json " + kHard);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["islands"], 4000 / size);
  EXPECT_EQ(j["config"]["island_size"], size);
  EXPECT_EQ(j["config"]["grow_after"], 0);
  EXPECT_EQ(j["config"]["migration_interval"], 50);
  EXPECT_EQ(j["results"][0]["evaluations"], 4000 * 21);  // initial islands and 20 generations
  r = run_gpuga("solve" + kCpu + "--seed 6 --pop 1500 --island-size 1500 --max-generations 5 "
                "--local-search 0 --repair none --json " + kHard);
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["islands"], 1);
  EXPECT_EQ(j["results"][0]["evaluations"], 1500 * 6);
}

TEST(Solve, SameSeedGivesByteIdenticalOutputWithOneAndTwoThreads) {
  const std::string args = "solve" + kCpu + "--pop 500 --max-generations 40 --repair none " + kHard;
  const auto a = run_gpuga(args + " --seed 99 --threads 1");
  const auto b = run_gpuga(args + " --seed 99 --threads 2");
  const auto c = run_gpuga(args + " --seed 99 --threads 2");
  EXPECT_EQ(a.status, 1);  // the plain GA leaves some unsolved
  EXPECT_FALSE(a.out.empty());
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(b.out, c.out);
  const auto other = run_gpuga(args + " --seed 100");
  EXPECT_NE(other.out, a.out);
  // The repaired GA at the defaults solves them all, each at the same generation, island and
  // evaluations on any number of threads.
  auto runs = [](const std::string& opts) {
    const auto r = run_gpuga("solve" + kCpu + "--pop 32 --json " + opts + " " + kHard);
    EXPECT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out)["results"];
    for (auto& run : j) run.erase("seconds"), run.erase("time");
    return j.dump();
  };
  const std::string one = runs("--seed 99 --threads 1");
  EXPECT_EQ(one, runs("--seed 99 --threads 2"));
  EXPECT_NE(one, runs("--seed 100 --threads 2"));
}

TEST(Solve, TheResultDoesNotDependOnWhereTheHostLooks) {
  // --report-every ends epochs at its multiples. Puzzle 3 ends 5 generations with two islands at
  // the same fitness, the higher one there first: the host saw it alone when it looked after
  // every generation, and the run used to report it then, and the lower island otherwise.
  const std::string args = "solve --backend cpu --pop 400 --island-size 200 --max-generations 5 "
                           "--presolve none --seed 7 --json puzzles/acs_16x16_fixed045_inst00-09.txt";
  auto results = [&](const std::string& cadence) {
    const auto r = run_gpuga(args + " --report-every " + cadence);
    EXPECT_EQ(r.status, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> runs;  // what each run reports but its time, and not its puzzle
    for (auto run : j["results"]) {
      for (const char* key : {"seconds", "time", "puzzle", "file"}) run.erase(key);
      runs.push_back(run.dump());
    }
    return runs;
  };
  const auto every = results("1");
  ASSERT_EQ(every.size(), 10u);
  for (const char* cadence : {"2", "3", "5"}) {
    const auto other = results(cadence);
    ASSERT_EQ(other.size(), every.size());
    for (std::size_t k = 0; k < every.size(); ++k)
      EXPECT_EQ(other[k], every[k]) << "puzzle " << k + 1 << ", --report-every " << cadence;
  }
}

TEST(Solve, PuzzlesSolvedTogetherEqualThemSolvedOneAtATime) {
  // Eight hard puzzles, three at a time on one engine (a run slot takes the next puzzle as its
  // run ends), and as many as fill this machine (0), against one after another: each result is
  // the one the puzzle gets alone with the seed, written in file order; islands that grow too.
  const std::string text = first_lines("puzzles/norvig_top95.txt", 8);
  const std::string args = "solve" + kCpu + "--pop 200 --island-size 100 --local-search 50 "
                           "--repair none --max-generations 40 --grow-after 4 --seed 5 ";
  auto results = [&](const std::string& opts) {
    const auto r = run_gpuga(args + opts + " --json -", text);
    EXPECT_LE(r.status, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> runs;
    for (auto run : j["results"]) {
      for (const char* key : {"seconds", "time"}) run.erase(key);
      runs.push_back(run.dump());
    }
    return runs;
  };
  const auto alone = results("--concurrent 1");
  ASSERT_EQ(alone.size(), 8u);
  EXPECT_TRUE(std::any_of(alone.begin(), alone.end(), [](const std::string& run) {
    return nlohmann::json::parse(run)["growths"].get<int>() > 0;
  }));
  for (const char* together : {"--concurrent 3", "--concurrent 0"}) EXPECT_EQ(results(together), alone) << together;
  // The grids on stdout too, in file order.
  EXPECT_EQ(run_gpuga(args + "--concurrent 3 --format line -", text).out,
            run_gpuga(args + "--concurrent 1 --format line -", text).out);
  // What takes puzzles one at a time refuses more.
  const auto r = run_gpuga(args + "--concurrent 2 --checkpoint ck.bin -", text);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--concurrent 2 with --checkpoint, which solve one puzzle at a time"),
            std::string::npos) << r.err;
}

TEST(Solve, AFileOfMixedSizesGivesEachPuzzleItsOwnPlanAndItsResultAlone) {
  // 9x9, 4x4, 16x16 and 9x9 in one file: each puzzle runs its size's defaults (local search and
  // restart from the table), records them with its result and on its summary line, and gets
  // what it gets alone, one at a time and many at once.
  const std::string file = source_path("puzzles/mixed_sizes.txt");
  const std::string args = "solve" + kCpu + "--threads 2 --seed 3 --presolve none "
                           "--max-generations 12 --time-limit 0 ";
  const auto puzzles = read_puzzle_file(file);
  ASSERT_EQ(puzzles.size(), 4u);
  for (const char* mode : {"--concurrent 1 ", "--concurrent 0 "}) {
    const auto r = run_gpuga(args + mode + "--json " + file);
    ASSERT_LE(r.status, 1) << r.err;
    const auto results = nlohmann::json::parse(r.out)["results"];
    ASSERT_EQ(results.size(), puzzles.size());
    for (std::size_t k = 0; k < puzzles.size(); ++k) {
      const Puzzle& p = puzzles[k];
      const SizeDefaults& d = size_defaults(Backend::Cpu, p.grid.box, Repair::None);  // --presolve none
      const auto& got = results[k];
      SCOPED_TRACE(std::string(mode) + "puzzle " + std::to_string(k + 1) + ", " + size_name(p.grid));
      EXPECT_EQ(got["size"], size_name(p.grid));
      EXPECT_EQ(got["config"]["local_search"], d.local_search);
      EXPECT_EQ(got["config"]["restart_after"], d.restart_after);
      EXPECT_NE(r.err.find("puzzle " + std::to_string(k + 1) + " ("), std::string::npos) << r.err;
      const auto alone = run_gpuga(args + "--json -", to_line(p.grid, p.alphabet) + "\n");
      ASSERT_LE(alone.status, 1) << alone.err;
      const auto want = nlohmann::json::parse(alone.out)["results"][0];
      for (const char* key : {"grid", "generations", "evaluations", "restarts", "island", "config"})
        EXPECT_EQ(got[key], want[key]) << key;
    }
    // Each summary line names its own plan.
    EXPECT_NE(r.err.find("local_search=" + std::to_string(size_defaults(Backend::Cpu, 4, Repair::None).local_search)),
              std::string::npos) << r.err;
  }
}

TEST(Solve, TheJsonsSecondsSpanEveryRun) {
  // The solve's own seconds (puzzles a second: bench/throughput.sh) hold every run's start-up
  // and generations: all of them one after another, each of them side by side.
  const std::string text = first_lines("puzzles/norvig_top95.txt", 4);
  const std::string args = "solve" + kCpu + "--pop 200 --island-size 100 --local-search 50 "
                           "--max-generations 30 --seed 5 ";
  for (const char* concurrent : {"1", "0"}) {
    const auto r = run_gpuga(args + "--json --concurrent " + concurrent + " -", text);
    ASSERT_LE(r.status, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["results"].size(), 4u);
    const double seconds = j["seconds"].get<double>();
    // The last line on stderr says the same: the puzzles solved, and a second's worth.
    std::size_t solved = 0;
    for (const auto& run : j["results"]) solved += run["solved"].get<bool>();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(gpuga: 4 puzzles, (\d+) solved, in ([0-9.]+) s \((\d+) puzzles a second\)\n$)")))
        << r.err;
    EXPECT_EQ(std::stoul(m[1]), solved) << concurrent;
    EXPECT_NEAR(std::stod(m[2]), seconds, 0.001) << concurrent;
    double sum = 0, longest = 0;
    for (const auto& run : j["results"]) {
      const double own = run["time"]["start_up"].get<double>() + run["seconds"].get<double>();
      sum += own;
      longest = std::max(longest, own);
    }
    EXPECT_GT(longest, 0) << concurrent;
    EXPECT_GE(seconds, std::string(concurrent) == "1" ? sum : longest) << concurrent;
  }
  // One puzzle: its own summary line says it all.
  const auto one = run_gpuga(args + "--format line -", first_lines("puzzles/norvig_top95.txt", 1));
  EXPECT_EQ(one.err.find("puzzles a second"), std::string::npos) << one.err;
}

TEST(Solve, DrawnSeedIsPrintedAndReproducesTheRun) {
  const std::string args = "solve" + kCpu + "--pop 300 --max-generations 20 --format line ";
  const auto a = run_gpuga(args + kHard);
  const auto at = a.err.find("  seed ");
  ASSERT_NE(at, std::string::npos) << a.err;
  const std::string seed = a.err.substr(at + 7, a.err.find(' ', at + 7) - at - 7);
  const auto b = run_gpuga(args + "--seed " + seed + " " + kHard);
  EXPECT_EQ(a.out, b.out);
}

TEST(Solve, MaxGenerationsAndTimeLimitStopRuns) {
  auto r = run_gpuga("solve" + kCpu + "--pop 200 --max-generations 7 --repair none --seed 1 " + kHard);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("max-generations after 7 generations"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("not solved"), std::string::npos);
  r = run_gpuga("solve" + kCpu + "--pop 2000 --local-search 0 --repair none --restart-after 0 "
                "--time-limit 0.1 --max-generations 4000000000 --seed 1 " + kHard);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("time-limit after"), std::string::npos) << r.err;
}

TEST(Solve, CtrlCStopsCleanlyWithTheBestSoFar) {
  // --foreground: one SIGINT to gpuga, as a Ctrl-C sends (otherwise timeout signals its whole
  // process group too, and a second Ctrl-C ends gpuga at once by design).
  // The plain GA without restarts: its islands converge on the hard puzzles and cannot finish
  // the file before the Ctrl-C (the repaired default solves a puzzle in milliseconds).
  const auto r = run_gpuga("solve" + kCpu + "--pop 2000 --restart-after 0 --local-search 0 "
                           "--repair none --time-limit 0 --seed 1 " + kHard, "",
                           "timeout --foreground --preserve-status -s INT 1");
  EXPECT_EQ(r.status, 5) << r.err;  // interrupted, not "not solved"
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" puzzles not run"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("best grid found"), std::string::npos) << r.out;
}

TEST(Solve, InteractiveAsksAfterEachGeneration) {
  const auto r = run_gpuga("solve" + kCpu + "--pop 200 --repair none --seed 3 --interactive " + kHard,
                           "y\nmaybe\no\nn\n");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("generation 2 (island 0)\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("generation 3 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Please answer y or n."), std::string::npos);
  EXPECT_NE(r.err.find("stopped after 2 generations"), std::string::npos) << r.err;
}

TEST(Solve, RestartsAreCountedAndReported) {
  const auto r = run_gpuga("solve" + kCpu + "--pop 100 --restart-after 3 --max-generations 60 "
                           "--repair none --seed 4 " + kHard);
  EXPECT_EQ(r.status, 1);
  // Every puzzle that ran to the limit restarted (a puzzle solved within 3 generations cannot).
  const std::regex limited(R"(max-generations after 60 generations, (\d+) restarts?,)");
  int runs = 0;
  for (std::sregex_iterator m(r.err.begin(), r.err.end(), limited), end; m != end; ++m, ++runs)
    EXPECT_GT(std::stoi((*m)[1]), 0) << m->str();
  EXPECT_GT(runs, 0) << r.err;
}

TEST(Solve, UnsolvablePuzzleIsRefusedBeforeTheGa) {
  const auto r = run_gpuga("solve" + kCpu + "-", "12345678.........9" + std::string(63, '.') + "\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("<stdin>:1: puzzle 1 has no solution"), std::string::npos) << r.err;
}

TEST(Solve, BadOptionsAreRefusedWithAClearMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--pop 1", "--pop"},
      {"--mutation-rate 1.5", "--mutation-rate"},
      {"--crossover-rate -0.1", "--crossover-rate"},
      {"--encoding hexagon", "--encoding"},
      {"--selection roulette", "--selection"},
      {"--rank-pressure 2.5", "--rank-pressure"},
      {"--pop 10 --island-size 10 --elite 10", "--elite 10 must be smaller than the island size 10"},
      {"--repair often", "--repair: 'often'; expected one of none|propagate or auto"},
      {"--repair propagate --encoding box", "--repair propagate with --encoding box"},
      {"--pop 1009 --island-size 1000", "--pop 1009 is not a multiple of the island size 1000; "
                                        "expected a multiple such as 1000 or 2000"},
      {"--pop 3000 --island-size 4000", "--island-size 4000: expected 2 to --pop 3000"},
      {"--pop 2000 --migrants 600", "--migrants 600: expected at most half the island size"},
      {"--pop 2000 --keep-on-restart 1001", "--keep-on-restart 1001 must not exceed the island"},
      {"--children 50", "--children 50 applies to --selection truncation only"},
      {"--backend gpu", "--backend"},
      {"--algorithm tabu", "--algorithm"},
      {"--local-search lots", "--local-search: 'lots' is not a number; expected 0 to 100000 or "
                              "auto"},
      {"--local-search 100001", "100001 is out of range; expected 0 to 100000 or auto"},
      {"--restart-after soon", "--restart-after: 'soon' is not a number; expected 0 to 4000000000 "
                               "or auto"},
      {"--algorithm sa --cooling 1.5", "--cooling"},
      {"--algorithm hc --pop 4194304 --island-size 4194304",
       "--island-size 4194304: sa and hc take at most 2097152 chains an island"},
  };
  for (const auto& [opts, expected] : cases) {
    const auto r = run_gpuga("solve " + opts + " puzzles/example.txt");
    EXPECT_EQ(r.status, 2) << opts;
    EXPECT_TRUE(r.out.empty()) << opts;
    EXPECT_NE(r.err.find(expected), std::string::npos) << opts << ": " << r.err;
  }
}

TEST(Solve, CudaBackendWithoutADeviceFailsWithAHint) {
  if (!list_devices().devices.empty()) GTEST_SKIP() << "a CUDA device is present";
  const auto r = run_gpuga("solve --backend cuda puzzles/example.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("--backend cuda"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("use --backend cpu"), std::string::npos) << r.err;
}

TEST(Solve, TheLibrarysOneCallEqualsTheCommandLine) {
  // gpuga::solve makes the choices gpuga solve makes: the same defaults, seed, propagation and
  // result, on the same backend.
  using Options = std::vector<std::pair<std::string, std::string>>;
  const std::string file = source_path("puzzles/norvig_hardest.txt");
  const Puzzle p = read_puzzle_file(file)[1];
  const Options common = {{"backend", "cpu"}, {"seed", "9"}, {"max-generations", "30"}, {"time-limit", "0"}};
  for (const Options& own : {Options{{"pop", "400"}, {"island-size", "200"}},
                             Options{{"algorithm", "hc"}, {"pop", "200"}, {"island-size", "100"}},
                             Options{{"presolve", "singles"}, {"pop", "400"}, {"island-size", "200"}}}) {
    std::string line = "solve --json";
    RunOptions c;
    for (const Options& options : {common, own})
      for (const auto& [name, value] : options) {
        line += " --" + name + " " + value;
        ASSERT_EQ(find_setting(name)->parse(c, value), "") << name;
      }
    SCOPED_TRACE(line);
    const auto r = run_gpuga(line + " " + file);
    ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
    const auto want = nlohmann::json::parse(r.out)["results"][1];
    const Solution s = gpuga::solve(p.grid, c);
    EXPECT_EQ(s.config.backend, Backend::Cpu);
    EXPECT_EQ(to_line(s.result.best, p.alphabet), want["grid"]);
    EXPECT_EQ(s.result.solved, want["solved"]);
    EXPECT_EQ(s.result.generations, want["generations"]);
    EXPECT_EQ(s.result.evaluations, want["evaluations"]);
    EXPECT_EQ(to_string(s.result.stop_reason), want["stop"]);
    EXPECT_EQ(s.config.engine.ga.local_search,
              size_defaults(Backend::Cpu, 3, s.config.engine.ga.repair).local_search)
        << "the outputs record the values in effect";
  }
}

TEST(Solve, ThePlainOperatorsKeepTheBytesTheyHadBeforeTheRepair) {
  // Runs of the plain GA (the search alone, an encoding given, the memetic table's local search,
  // growth), sa and hc, on 9x9 and 16x16: each result's grid, generations, evaluations, restarts,
  // island and stop are those gpuga printed before the repair existed
  // (tests/data/plain_operators_b8177dd.json says how it was made), so that published studies
  // repeat.
  const auto data = source_path("tests/data/plain_operators_b8177dd.json");
  ASSERT_TRUE(std::filesystem::exists(data)) << data << " is missing";
  const auto doc = nlohmann::json::parse(slurp(data));
  ASSERT_GE(doc["cases"].size(), 5u);
  for (const auto& c : doc["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::ifstream file(source_path(c["file"].get<std::string>()));
    std::string text, line;
    for (int k = 0; k < c["lines"].get<int>() && std::getline(file, line); ++k) text += line + "\n";
    const auto r = run_gpuga("solve" + kCpu + "--json " + c["args"].get<std::string>() + " -", text);
    ASSERT_LE(r.status, 1) << r.err;
    const auto got = nlohmann::json::parse(r.out)["results"];
    EXPECT_EQ(got[0]["config"]["repair"], "none");
    ASSERT_EQ(got.size(), c["results"].size());
    // Read as that gpuga wrote them: its --propagate (now --presolve) and its key "fitness"
    // (now best_fitness, apart from the --fitness setting).
    for (std::size_t k = 0; k < got.size(); ++k)
      for (const auto& [field, want] : c["results"][k].items()) {
        const std::string now = field == "fitness" ? "best_fitness" : field;
        EXPECT_EQ(got[k][now], want) << "puzzle " << k + 1 << ": " << field;
      }
  }
}
