// gpuga report: per set, the configurations side by side with their success intervals,
// expected running times and percentiles over every run, and the tests between them, checked
// against the batch CSV it reads.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "run_gpuga.hpp"
#include "temp_files.hpp"

namespace {

std::string temp(const std::string& name) {
  return test_file("report_" + name).string();
}

const std::string kHeader =
    "puzzle_id,solved,final_fitness,time_seconds,generations_run,population_size,mutation_rate,"
    "restart_after_n_stagnant,puzzle,run,seed,restarts,evaluations,encoding,fitness,selection,"
    "selection_param,crossover,crossover_rate,elite,given_aware,keep_on_restart,max_generations,"
    "time_limit,backend,device,gpuga_version,grid,stop,config_id\n";

std::string row(const std::string& id, int solved, double secs, int gens, int pop) {
  return id + "," + std::to_string(solved) + ",0," + std::to_string(secs) + "," +
         std::to_string(gens) + "," + std::to_string(pop) +
         ",0.8,30,p,0,1,0,0,box,conflicts,tournament,tournament_size=3,bands,1,1,true,0,100000,60,"
         "cpu,,0.1.0,g,solved,c\n";
}

}  // namespace

nlohmann::json group_of(const nlohmann::json& report, const std::string& set, const std::string& pop) {
  for (const auto& g : report["groups"])
    if (g["set"] == set && g["config"]["pop"] == pop) return g;
  ADD_FAILURE() << "no group " << set << " pop=" << pop << " in " << report.dump();
  return {};
}

TEST(Report, SetsSideBySideWithIntervalsExpectedRunningTimeAndUnsolvedRunsCounted) {
  // A CSV of the first layout, its columns under their former names (final_fitness,
  // time_seconds, generations_run, population_size, restart_after_n_stagnant).
  const auto csv = temp("r.csv");
  std::ofstream out(csv);
  out << kHeader;
  // set a, pop 100: 4 runs, 3 solved in 1, 2, 10 s; one not solved after 60 s
  out << row("dir/a.txt#1", 1, 1.0, 10, 100) << row("dir/a.txt#2", 1, 2.0, 20, 100)
      << row("dir/a.txt#1", 1, 10.0, 100, 100) << row("dir/a.txt#2", 0, 60.0, 500, 100);
  // set b, pop 100: 1 run, unsolved; set a, pop 200: 1 run solved
  out << row("b.txt#1", 0, 60.0, 500, 100) << row("a.txt#1", 1, 5.0, 50, 200);
  out.close();
  const auto r = run_gpuga("report --json " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["varied"], nlohmann::json::array({"pop"}));
  ASSERT_EQ(j["groups"].size(), 3u);
  const auto a = group_of(j, "a.txt", "100");
  EXPECT_EQ(a["runs"], 4);
  EXPECT_EQ(a["solved"], 3);
  EXPECT_DOUBLE_EQ(a["success_rate"].get<double>(), 0.75);
  EXPECT_NEAR(a["success_interval"][0].get<double>(), 0.3006, 1e-4);  // Wilson's, 3 of 4
  EXPECT_NEAR(a["success_interval"][1].get<double>(), 0.9544, 1e-4);
  EXPECT_DOUBLE_EQ(a["ert_seconds"].get<double>(), (1.0 + 2 + 10 + 60) / 3);
  // Over every run, the unsolved one last: the median the second of 1, 2, 10, unsolved; the
  // 95th percentile falls on the unsolved run, known only to exceed its 60 s.
  EXPECT_DOUBLE_EQ(a["median_seconds"].get<double>(), 2.0);
  EXPECT_TRUE(a["p95_seconds"].is_null());
  EXPECT_DOUBLE_EQ(a["median_generations"].get<double>(), 20.0);
  const auto b = group_of(j, "b.txt", "100");
  EXPECT_TRUE(b["median_seconds"].is_null() && b["ert_seconds"].is_null()) << b;
  // One set of two configurations: one comparison, too few runs to tell them apart.
  ASSERT_EQ(j["comparisons"].size(), 1u);
  EXPECT_EQ(j["comparisons"][0]["set"], "a.txt");
  EXPECT_FALSE(j["comparisons"][0]["differ"].get<bool>());
  const auto text = run_gpuga("report " + csv);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("| 100 | 4 | 3 | 75.0 % (30.1-95.4) | 24.3 | 0 | 2 | >60 | 20 | 0 |"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("| 100 | 1 | 0 | 0.0 % (0.0-79.3) | inf | inf | >60 | >60 | >500 | >0 |"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Every configuration: mutation_rate=0.8 restart_after=30"), std::string::npos)
      << text.out;
}

TEST(Report, SaysWhenTwoConfigurationsDifferBeyondChance) {
  // Ten runs each: all solved with pop 100, none with pop 200 (Fisher: p = 2 / C(20, 10)).
  std::string header = kHeader;
  for (const auto& [old_name, name] : {std::pair{"final_fitness", "best_fitness"}, {"time_seconds", "seconds"},
                                       {"generations_run", "generations"}, {"population_size", "pop"},
                                       {"restart_after_n_stagnant", "restart_after"}})
    header.replace(header.find(old_name), std::string(old_name).size(), name);
  const auto csv = temp("differ.csv");
  std::ofstream out(csv);
  out << header;  // today's names read as the former do
  for (int k = 0; k < 10; ++k) out << row("a.txt#1", 1, 1.0 + k, 10, 100) << row("a.txt#1", 0, 60.0, 500, 200);
  out.close();
  const auto j = nlohmann::json::parse(run_gpuga("report --json " + csv).out);
  ASSERT_EQ(j["comparisons"].size(), 1u);
  EXPECT_NEAR(j["comparisons"][0]["fisher_p"].get<double>(), 2.0 / 184756, 1e-9);
  EXPECT_LT(j["comparisons"][0]["mann_whitney_p"].get<double>(), 0.001);
  EXPECT_TRUE(j["comparisons"][0]["differ"].get<bool>());
  const auto text = run_gpuga("report " + csv);
  EXPECT_NE(text.out.find("| pop=100 | pop=200 | 1.08e-05 |"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("| yes |"), std::string::npos) << text.out;
}

TEST(Report, ANonBatchCsvIsRefused) {
  const auto csv = temp("bad.csv");
  std::ofstream(csv) << "a,b\n1,2\n";
  const auto r = run_gpuga("report " + csv);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(":1: no column 'pop'"), std::string::npos) << r.err;
}

// What the fuzz target for report's reader (tests/fuzz) asks of every refusal: the file and the
// line. A time that was not a number ended the command with std::stod's "failure" (status 3).
TEST(Report, AFieldThatIsNotWhatItShouldBeIsRefusedNamingItsLine) {
  struct Case {
    std::string bad_row, message;
  };
  std::string bad_time = row("a.txt#1", 1, 1.0, 10, 100);
  bad_time.replace(bad_time.find(",1.000000,"), 10, ",soon,");
  std::string negative = row("a.txt#1", 1, 1.0, 10, 100);
  negative.replace(negative.find(",10,100,"), 8, ",-10,100,");
  std::string two = row("a.txt#1", 1, 1.0, 10, 100);
  two.replace(two.find(",1,0,"), 5, ",2,0,");
  for (const Case& c : {Case{bad_time, ":4: seconds is 'soon'; expected a number >= 0"},
                        Case{negative, ":4: generations is '-10'; expected a number >= 0"},
                        Case{two, ":4: solved is '2'; expected 0 or 1"},
                        Case{"a,b\n", ":4: 2 fields; expected 30"}}) {
    const auto csv = temp("fields.csv");
    // a blank line before the bad row: lines are the file's, not the rows'
    std::ofstream(csv) << kHeader << row("a.txt#2", 0, 60.0, 500, 100) << "\n" << c.bad_row;
    const auto r = run_gpuga("report " + csv);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_NE(r.err.find(csv + c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}
