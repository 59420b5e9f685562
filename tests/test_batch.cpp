// gpuga batch: CSV columns and values, rows that verify and reproduce alone, an interrupted
// batch resumed to the same CSV, batch results equal to one run at a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "gpuga/batch_runner.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/defaults.hpp"
#include "gpuga/device/island.hpp"
#include "grids.hpp"
#include "paths.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "run_gpuga.hpp"
#include "temp_files.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

namespace {

// Generation limits only, so that every run is a pure function of its seed.
const std::string kBatch = "batch --backend cpu --runs 2 --seed 77 --pop 200 --max-generations 150 "
                           "--time-limit 0 puzzles/example.txt puzzles/norvig_hardest.txt ";

std::string temp_csv(const std::string& name) {
  const auto p = test_file("batch_" + name + ".csv");
  std::filesystem::remove(p);
  return p.string();
}

// Rows without the timing column, which differs between runs.
std::vector<std::vector<std::string>> untimed(const std::string& csv) {
  auto rows = read_csv_rows(csv);
  for (auto& r : rows) r.erase(r.begin() + 3);
  return rows;
}

}  // namespace

TEST(Batch, CsvHasTheColumnsAndOneVerifiedRowPerRun) {
  const auto csv = temp_csv("columns");
  const auto r = run_gpuga(kBatch + "--csv " + csv);
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  // The summary: its runs a second (puzzles) and evaluations a second are the CSV's, over the
  // batch's wall time (each figure to three digits).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(batch: 24 runs in ([0-9.e+-]+) s wall \(8 at a time\): )"
                                                     R"(([0-9.e+]+) puzzles a second, ([0-9.e+]+) evaluations a )"
                                                     R"(second, ([0-9.e+-]+) s per run amortised)")))
      << r.err;
  const double wall = std::stod(m[1]);
  const auto rows = read_csv_rows(csv);
  double evaluations = 0;
  const auto column = std::find(rows[0].begin(), rows[0].end(), "evaluations") - rows[0].begin();
  for (std::size_t i = 1; i < rows.size(); ++i) evaluations += std::stod(rows[i][column]);
  EXPECT_NEAR(std::stod(m[2]), 24 / wall, 0.02 * 24 / wall);
  EXPECT_NEAR(std::stod(m[3]), evaluations / wall, 0.02 * evaluations / wall);
  EXPECT_NEAR(std::stod(m[4]), wall / 24, 0.02 * wall / 24);
  ASSERT_EQ(rows.size(), 1u + 12u * 2u);  // header, 12 puzzles x 2 runs
  const std::vector<std::string> first = {"puzzle_id", "solved", "best_fitness", "seconds",
                                          "generations", "pop", "mutation_rate",
                                          "restart_after"};
  ASSERT_TRUE(std::equal(first.begin(), first.end(), rows[0].begin()));
  int solved = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < rows[0].size(); ++c) row[rows[0][c]] = rows[i][c];
    EXPECT_EQ(row["pop"], "200");
    EXPECT_EQ(row["backend"], "cpu");
    EXPECT_EQ(row["puzzle"].size(), 81u);
    if (row["solved"] == "1") {
      ++solved;
      EXPECT_EQ(row["best_fitness"], "0");
      EXPECT_TRUE(verify_solution(grid_of(row["puzzle"]), grid_of(row["grid"])).ok) << i;
    } else {
      EXPECT_NE(row["best_fitness"], "0");
      EXPECT_EQ(row["generations"], "150");
    }
  }
  EXPECT_GT(solved, 0);
}

TEST(Batch, ARowReproducesWhenRunAloneWithItsSeed) {
  const auto csv = temp_csv("alone");
  run_gpuga(kBatch + "--csv " + csv);
  const auto rows = read_csv_rows(csv);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  for (std::size_t i : {1u, 6u, 13u}) {
    const auto& row = rows[i];
    const auto r = run_gpuga("solve --backend cpu --pop 200 --max-generations 150 --time-limit 0 "
                             "--report-every 0 --json --seed " + row[col["seed"]] + " -",
                             row[col["puzzle"]] + "\n");
    EXPECT_NE(r.out.find("\"generations\": " + row[col["generations"]] + ","), std::string::npos)
        << "row " << i << ": " << r.out;
    EXPECT_NE(r.out.find("\"grid\": \"" + row[col["grid"]] + "\""), std::string::npos) << "row " << i;
  }
}

TEST(Batch, AFileOfMixedSizesRunsEachSizesPlanAndEachRowReproducesAlone) {
  // 9x9, 4x4, 16x16 and 9x9 in one file, two runs each: each row records its size's plan (local
  // search and restart from the table), and gpuga solve with the row's seed on its puzzle alone
  // gives the row's run.
  const auto csv = temp_csv("mixed");
  const std::string options = "--backend cpu --threads 2 --presolve none --max-generations 12 "
                              "--time-limit 0 ";
  const auto r = run_gpuga("batch " + options + "--runs 2 --seed 8 --csv " + csv +
                           " puzzles/mixed_sizes.txt");
  ASSERT_LE(r.status, 1) << r.err;
  const auto rows = read_csv_rows(csv);
  ASSERT_EQ(rows.size(), 1u + 4u * 2u);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  std::set<std::string> sizes;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const Grid puzzle = read_puzzle_file(source_path("puzzles/mixed_sizes.txt"))
                            [std::stoi(row[col["puzzle_id"]].substr(row[col["puzzle_id"]].find('#') + 1)) - 1]
                                .grid;
    const SizeDefaults& d = size_defaults(Backend::Cpu, puzzle.box, Repair::None);  // --presolve none
    sizes.insert(row[col["size"]]);
    EXPECT_EQ(row[col["size"]], size_name(puzzle)) << "row " << i;
    EXPECT_EQ(row[col["local_search"]], std::to_string(d.local_search)) << "row " << i;
    EXPECT_EQ(row[col["restart_after"]], std::to_string(d.restart_after)) << "row " << i;
    const auto alone = run_gpuga("solve " + options + "--report-every 0 --json --seed " +
                                 row[col["seed"]] + " -", row[col["puzzle"]] + "\n");
    ASSERT_LE(alone.status, 1) << alone.err;
    const auto want = nlohmann::json::parse(alone.out)["results"][0];
    EXPECT_EQ(row[col["generations"]], std::to_string(want["generations"].get<int>())) << "row " << i;
    EXPECT_EQ(row[col["evaluations"]], std::to_string(want["evaluations"].get<std::uint64_t>())) << "row " << i;
    EXPECT_EQ(row[col["grid"]], want["grid"]) << "row " << i;
  }
  EXPECT_EQ(sizes, (std::set<std::string>{"4x4", "9x9", "16x16"}));
}

TEST(Batch, ConcurrentRunsEqualOneAtATime) {
  const auto a = temp_csv("one"), b = temp_csv("many");
  run_gpuga(kBatch + "--concurrent 1 --csv " + a);
  run_gpuga(kBatch + "--concurrent 5 --csv " + b);
  auto ra = untimed(a), rb = untimed(b);
  // Rows are written as runs end, so the order may differ; the set of rows may not.
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb);
}

TEST(Batch, AnInterruptedBatchResumesToTheSameCsv) {
  const auto full = temp_csv("full"), cut = temp_csv("cut");
  run_gpuga(kBatch + "--csv " + full);
  {
    // What a crash leaves: the header, some finished rows and half a row.
    std::ifstream in(full);
    std::ofstream out(cut);
    std::string line;
    for (int i = 0; i < 8 && std::getline(in, line); ++i) out << line << '\n';
    std::getline(in, line);
    out << line.substr(0, line.size() / 2);
  }
  auto r = run_gpuga(kBatch + "--csv " + cut);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("use --resume"), std::string::npos) << r.err;
  r = run_gpuga(kBatch + "--resume --csv " + cut);
  EXPECT_NE(r.err.find("(7 recorded already)"), std::string::npos) << r.err;
  auto ra = untimed(full), rb = untimed(cut);
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb);
}

TEST(Batch, ResumeMatchesRunsByTheirPuzzleEvenInAFileGivenTwice) {
  // One file given twice: 2 puzzle places x 2 runs recorded twice over. A crash that lost rows of
  // either copy is made good by --resume, to the uninterrupted CSV's rows.
  const std::string twice = "batch --backend cpu --runs 2 --seed 78 --pop 200 --max-generations 60 "
                            "--time-limit 0 --repair none puzzles/example.txt puzzles/example.txt ";
  const auto full = temp_csv("twice_full"), cut = temp_csv("twice_cut");
  ASSERT_LE(run_gpuga(twice + "--csv " + full).status, 1);
  {
    std::ifstream in(full);
    std::ofstream out(cut);
    std::string line;
    for (int i = 0; i < 2 && std::getline(in, line); ++i) out << line << '\n';  // header, one row
  }
  const auto r = run_gpuga(twice + "--resume --csv " + cut);
  ASSERT_LE(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("3 runs to do"), std::string::npos) << r.err;
  auto ra = untimed(full), rb = untimed(cut);
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb);

  // The file's puzzle replaced since: --resume refuses, naming the CSV's line.
  const auto dir = std::filesystem::path(full).parent_path();
  const auto changed = (dir / "changed_puzzles.txt").string();
  std::ofstream(changed) << "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
  const std::string before = "batch --backend cpu --runs 1 --seed 79 --pop 200 --max-generations 5 "
                             "--time-limit 0 --repair none " + changed + " ";
  const auto csv = temp_csv("changed");
  ASSERT_LE(run_gpuga(before + "--csv " + csv).status, 1);
  std::ofstream(changed) << "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
  const auto refused = run_gpuga(before + "--resume --csv " + csv);
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find(csv + ":2: a run of"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("whose puzzle the given files do not hold"), std::string::npos) << refused.err;
  std::filesystem::remove(changed);
}

TEST(Batch, SampleDrawsTheSamePuzzlesForTheSameSeed) {
  const auto a = temp_csv("sa"), b = temp_csv("sb");
  const std::string args = "batch --backend cpu --runs 1 --seed 5 --sample 3 --pop 100 "
                           "--max-generations 5 puzzles/norvig_top95.txt --csv ";
  run_gpuga(args + a);
  run_gpuga(args + b);
  auto ra = untimed(a), rb = untimed(b);
  ASSERT_EQ(ra.size(), 4u);
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb);
}

TEST(Batch, TracesHoldEveryGenerationOfEveryRecordedRun) {
  const auto csv = temp_csv("traced");
  const auto dir = std::filesystem::path(csv).replace_extension("").string() + "_traces";
  std::filesystem::remove_all(dir);
  // Without propagation, which completes some of these puzzles before a search to trace.
  run_gpuga(kBatch + "--presolve none --trace " + dir + " --csv " + csv);
  const auto rows = read_csv_rows(csv);
  const auto trace = read_csv_rows(dir + "/traces.csv");
  ASSERT_EQ(trace[0], (std::vector<std::string>{"config_id", "puzzle_id", "run", "seed",
                                                "generation", "best", "mean", "worst",
                                                "diversity", "restarts", "elapsed", "temperature",
                                                "best_so_far", "growths", "evaluations"}));
  ASSERT_EQ(rows[0].back(), "config_id");
  // A run is (configuration, puzzle, run number) in both files.
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::vector<std::vector<std::string>>> by_run;
  for (std::size_t i = 1; i < trace.size(); ++i)
    by_run[{trace[i][0], trace[i][1], trace[i][2]}].push_back(trace[i]);
  ASSERT_EQ(by_run.size(), rows.size() - 1);  // one trace per recorded run
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& t = by_run[{rows[i].back(), rows[i][0], rows[i][9]}];
    // Generations 0..N: N is generations_run, or for a solved run the halt check after it, up
    // to which the run's other islands go on (so that no result depends on the epochs).
    const unsigned long gens = std::stoul(rows[i][4]);
    if (rows[i][1] == "1") {
      ASSERT_GE(t.size(), gens + 1);
      ASSERT_LE(t.size(), (gens / kHaltInterval + 1) * kHaltInterval + 1);
    } else {
      ASSERT_EQ(t.size(), gens + 1) << "generations 0.." << gens;
    }
    // The trace's best is the population's at each generation (restarts keep nothing by
    // default), so the run's best fitness is the best of the trace, as its best so far says at
    // each generation; its evaluations only grow.
    unsigned best = 1000;
    for (std::size_t g = 0; g < t.size(); ++g) {
      ASSERT_EQ(std::stoul(t[g][4]), g);
      best = std::min<unsigned>(best, std::stoul(t[g][5]));
      ASSERT_EQ(std::to_string(best), t[g][12]) << "generation " << g;
      if (g > 0) ASSERT_GT(std::stoull(t[g][14]), std::stoull(t[g - 1][14]));
    }
    EXPECT_EQ(std::to_string(best), rows[i][2]);
  }
}

TEST(Batch, TheAlgorithmIsRecordedAndAnnealingTracesItsTemperature) {
  const auto csv = temp_csv("annealed");
  const auto dir = std::filesystem::path(csv).replace_extension("").string() + "_traces";
  std::filesystem::remove_all(dir);
  run_gpuga("batch --backend cpu --runs 1 --seed 4 --pop 100 --algorithm sa --max-generations 60 "
            "--time-limit 0 --trace " + dir + " --csv " + csv + " puzzles/famous_named.txt");
  const auto rows = read_csv_rows(csv);
  ASSERT_GE(rows.size(), 2u);
  const auto at = [&](const std::string& name) {
    return std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin();
  };
  std::size_t escargot = 0;  // famous_named.txt#1
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][at("algorithm")], "sa");
    EXPECT_EQ(rows[i][at("migration_interval")], "0");
    if (rows[i][0].size() > 2 && rows[i][0].substr(rows[i][0].size() - 2) == "#1") escargot = i;
  }
  ASSERT_GT(escargot, 0u);
  // One temperature per generation (the chain length defaults to the free cells), and no
  // reheat within the first 50: every generation colder than the one before.
  const auto trace = read_csv_rows(dir + "/traces.csv");
  ASSERT_EQ(trace[0][11], "temperature");
  std::map<int, double> t;
  for (std::size_t i = 1; i < trace.size(); ++i)
    if (trace[i][1] == rows[escargot][0]) t[std::stoi(trace[i][4])] = std::stod(trace[i][11]);
  ASSERT_EQ(t.size(), 61u);
  EXPECT_GT(t[0], 0.0);
  for (int g = 1; g <= 50; ++g) EXPECT_LT(t[g], t[g - 1]) << "generation " << g;
}

TEST(Batch, CtrlCHalfwayThenResumeGivesTheUninterruptedCsv) {
  const auto full = temp_csv("whole"), cut = temp_csv("halted");
  // The plain GA: the repaired one solves the whole file before the interrupt.
  const std::string args = "batch --backend cpu --runs 2 --seed 8 --pop 500 "
                           "--repair none --max-generations 120 --time-limit 0 "
                           "puzzles/famous_named.txt ";
  run_gpuga(args + "--csv " + full);
  // One SIGINT, as a Ctrl-C sends, once the first row is written, one run at a time: exit
  // status 5, and stderr says how many runs finished, how many did not and how to run them.
  const auto r = run_gpuga(args + "--concurrent 1 --csv " + cut, "",
                           source_path("tests/signal_when.sh") + " " + cut + " '^puzzles/' INT");
  const auto partial = read_csv_rows(cut);
  ASSERT_LT(partial.size(), 19u) << "the batch ended before the interrupt; make it longer";
  ASSERT_FALSE(partial.empty());
  EXPECT_EQ(r.status, 5) << r.err;
  const std::string finished = std::to_string(partial.size() - 1);
  EXPECT_NE(r.err.find("interrupted: " + finished + " of the 18 runs to do finished, " +
                       std::to_string(18 - (partial.size() - 1)) + " not run"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(cut + " holds every finished run; the same command with --resume runs the rest"),
            std::string::npos) << r.err;
  const auto stop = std::find(partial[0].begin(), partial[0].end(), "stop") - partial[0].begin();
  ASSERT_LT(stop, static_cast<std::ptrdiff_t>(partial[0].size()));
  for (std::size_t i = 1; i < partial.size(); ++i) EXPECT_NE(partial[i][stop], "interrupted");
  run_gpuga(args + "--resume --csv " + cut);
  auto ra = untimed(full), rb = untimed(cut);
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb);
}

TEST(Batch, TheLibraryPrintsNothingAndTellsItsReporter) {
  struct Recorder final : BatchReporter {
    std::vector<std::string> lines;
    std::vector<BatchProgress> steps;
    void news(const std::string& line) override { lines.push_back(line); }
    void progress(const BatchProgress& p) override { steps.push_back(p); }
  } heard;
  BatchSetup s;
  s.files = {source_path("puzzles/example.txt")};
  s.runs = 3;
  s.csv = temp_csv("reporter");
  RunOptions c;
  c.backend = Backend::Cpu;
  c.pop = 200;
  c.max_generations = 20;
  c.time_limit = 0;
  c.seed = 5;
  testing::internal::CaptureStderr();
  run_batches(s, {c}, nullptr, &heard);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_FALSE(heard.lines.empty());
  EXPECT_EQ(heard.lines.front(), "3 runs to do in 1 configuration(s) (0 recorded already)");
  ASSERT_EQ(heard.steps.size(), 3u);
  EXPECT_EQ(heard.steps.back().done, 3u);
  EXPECT_EQ(heard.steps.back().total, 3u);
  EXPECT_EQ(read_csv_rows(s.csv).size(), 4u);
  EXPECT_EQ(progress_text({1, 4, 1, 2.0}, 8), "[##......] 1/4 runs, 1 solved, 0.50 runs/s, 6 s left");
}

TEST(Batch, CheckpointsThatCannotBeWrittenLeaveTheRunsGoingAndSaySoOnce) {
  // CSV.checkpoints names a folder that takes no file, even from root (/proc): every save fails.
  const auto whole = temp_csv("unsaved_whole"), csv = temp_csv("unsaved");
  const std::string args = "batch --backend cpu --runs 2 --seed 8 --pop 500 --repair none "
                           "--max-generations 120 --time-limit 0 --concurrent 1 puzzles/famous_named.txt ";
  run_gpuga(args + "--csv " + whole);
  std::filesystem::create_directory_symlink("/proc", csv + ".checkpoints");
  const auto r = run_gpuga(args + "--checkpoint-every 0.001 --csv " + csv);
  EXPECT_LE(r.status, 1) << r.err;
  const std::string warning = "the runs go on without checkpoints";
  const auto first = r.err.find(warning);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, first + 1), std::string::npos) << "said more than once:\n" << r.err;
  auto ra = untimed(whole), rb = untimed(csv);
  std::sort(ra.begin() + 1, ra.end());
  std::sort(rb.begin() + 1, rb.end());
  EXPECT_EQ(ra, rb) << "the runs did not all go on to their rows";
  // A signal asking for the checkpoint stops the batch as an interruption, saying the runs in
  // flight were not saved. Runs that cannot end before it (a hard puzzle, the plain GA without
  // local search, no cap in reach), so that one is surely in flight when it comes.
  const auto cut = temp_csv("unsaved_cut");
  const auto hard = test_file("unsaved_hard.txt");
  std::ofstream(hard) << "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
  std::filesystem::create_directory_symlink("/proc", cut + ".checkpoints");
  const auto stopped = run_gpuga("batch --backend cpu --runs 2 --seed 8 --pop 500 --repair none --local-search 0 "
                                 "--max-generations 100000000 --time-limit 0 --checkpoint-every 1000 --csv " +
                                     cut + " " + hard.string(),
                                 "", source_path("tests/signal_when.sh") + " stderr 'runs to do' TERM");
  EXPECT_EQ(stopped.status, 5) << stopped.err;
  EXPECT_NE(stopped.err.find("the runs in flight could not all be saved"), std::string::npos) << stopped.err;
  EXPECT_EQ(read_csv_rows(cut).size(), 1u) << "a run recorded that the signal cut";
}

TEST(Batch, ASecondWriterOfTheSameCsvIsRefusedNamingTheFirst) {
  // The first batch's runs cannot end by themselves (a hard puzzle, the plain GA, no cap in
  // reach); it is stopped (SIGSTOP) once its CSV is begun, so that it surely holds it when the
  // second starts, then let go and interrupted.
  const auto csv = temp_csv("two_writers");
  const auto hard = test_file("two_writers.txt");
  std::ofstream(hard) << "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
  const std::string args = "batch --backend cpu --runs 2 --seed 8 --pop 200 --repair none --local-search 0 "
                           "--max-generations 100000000 --time-limit 0 --csv " + csv + " " + hard.string();
  const auto second_err = test_file("second.err"), first_err = test_file("first.err");
  const std::string script =
      "g=" + gpuga_binary() + "; $g " + args + " 2>" + first_err.string() + " & first=$!; "
      "for i in $(seq 12000); do grep -q '^puzzle_id' " + csv + " 2>/dev/null && break; sleep 0.01; done; "
      "kill -STOP $first; $g " + args + " --resume 2>" + second_err.string() + "; second=$?; "
      "kill -CONT $first; kill -INT $first; wait $first; exit $second";
  const auto script_file = test_file("two_writers.sh");
  set_file_bytes(script_file.string(), script + "\n");
  const int raw = std::system(("bash " + script_file.string()).c_str());
  EXPECT_EQ(WEXITSTATUS(raw), 2);
  const std::string err = file_bytes(second_err.string());
  EXPECT_NE(err.find(csv + ": in use by gpuga process "), std::string::npos) << err;
  EXPECT_NE(err.find("expected one batch, sweep or --resume at a time"), std::string::npos) << err;
  EXPECT_NE(file_bytes(first_err.string()).find("interrupted: 0 of the 2 runs to do finished"), std::string::npos)
      << file_bytes(first_err.string());
  EXPECT_EQ(read_csv_rows(csv).size(), 1u) << "a row from the refused second";
  EXPECT_FALSE(std::filesystem::exists(csv + ".lock")) << "the lock outlived its holder";
}
