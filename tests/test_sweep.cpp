// gpuga sweep: every combination of the grid, into one CSV, resumable.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "gpuga/csv.hpp"
#include "run_gpuga.hpp"
#include "temp_files.hpp"

using namespace gpuga;

namespace {

std::string sweep_csv(const std::string& name) {
  const auto p = test_file("sweep_" + name + ".csv");
  std::filesystem::remove(p);
  return p.string();
}

const std::string kSweep = "sweep --backend cpu --runs 2 --seed 3 --max-generations 40 "
                           "--time-limit 0 puzzles/example.txt ";

}  // namespace

TEST(Sweep, RunsEveryCombination) {
  const auto csv = sweep_csv("grid");
  const auto r = run_gpuga(kSweep + "--grid 'pop=100,200 mutation-rate=0.2,0.6 selection=rank,"
                                    "tournament' --csv " + csv);
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  const auto rows = read_csv_rows(csv);
  ASSERT_EQ(rows.size(), 1u + 8u * 2u);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  std::set<std::string> combos;
  std::set<std::string> seeds;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    combos.insert(rows[i][col["pop"]] + "/" + rows[i][col["mutation_rate"]] + "/" +
                  rows[i][col["selection"]]);
    seeds.insert(rows[i][col["seed"]]);
  }
  EXPECT_EQ(combos.size(), 8u);
  EXPECT_TRUE(combos.count("100/0.2/rank") && combos.count("200/0.6/tournament"));
  EXPECT_EQ(seeds.size(), 2u);  // the same two run seeds in every combination
  const auto again = run_gpuga(kSweep + "--grid 'pop=100,200 mutation-rate=0.2,0.6 selection=rank,"
                                        "tournament' --resume --csv " + csv);
  EXPECT_NE(again.err.find("0 runs to do in 8 configuration(s) (16 recorded already)"),
            std::string::npos) << again.err;
}

TEST(Sweep, SaysBeforeItRunsWhatItsConfigurationsDifferIn) {
  // --grid repair=none,propagate changes the GA's defaults too (island size, local search): the
  // news names every setting that differs as planned, the grid's own first among them.
  const auto r = run_gpuga(kSweep + "--grid 'repair=none,propagate' --csv " + sweep_csv("varied"));
  ASSERT_TRUE(r.status == 0 || r.status == 1) << r.err;
  const auto at = r.err.find("the configurations differ in ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_NE(line.find("repair (none, propagate)"), std::string::npos) << line;
  EXPECT_NE(line.find("island_size ("), std::string::npos) << line;
  EXPECT_NE(line.find("local_search ("), std::string::npos) << line;
  EXPECT_EQ(line.find("seed ("), std::string::npos) << line;  // the same seed in every one
}

TEST(Sweep, BadGridsAreRefused) {
  for (const auto& [grid, expected] : std::vector<std::pair<std::string, std::string>>{
           {"pop", "expected NAME=VALUE"},
           {"pop=1", "--pop"},
           {"colour=red", "colour"},
           {"mutation-rate=2", "--mutation-rate"}}) {
    const auto r = run_gpuga(kSweep + "--grid '" + grid + "' --csv " + sweep_csv("bad"));
    EXPECT_EQ(r.status, 2) << grid;
    EXPECT_NE(r.err.find(expected), std::string::npos) << grid << ": " << r.err;
  }
}
