// gpuga report: success rate and time/generation percentiles per configuration and set,
// checked against the batch CSV it reads.
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

TEST(Report, RatesAndPercentilesPerConfigurationAndSet) {
  const auto csv = temp("r.csv");
  std::ofstream out(csv);
  out << kHeader;
  // set a, pop 100: 4 runs, 3 solved in 1, 2, 10 s (median 2, p95 10)
  out << row("dir/a.txt#1", 1, 1.0, 10, 100) << row("dir/a.txt#2", 1, 2.0, 20, 100)
      << row("dir/a.txt#1", 1, 10.0, 100, 100) << row("dir/a.txt#2", 0, 60.0, 500, 100);
  // set b, pop 100: 1 run, unsolved; set a, pop 200: 1 run solved
  out << row("b.txt#1", 0, 60.0, 500, 100) << row("a.txt#1", 1, 5.0, 50, 200);
  out.close();
  const auto r = run_gpuga("report --json " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 3u);
  bool seen = false;
  for (const auto& g : j) {
    if (g["set"] != "a.txt" || g["config"].get<std::string>().find("pop=100 ") != 0)
      continue;
    seen = true;
    EXPECT_EQ(g["runs"], 4);
    EXPECT_EQ(g["solved"], 3);
    EXPECT_DOUBLE_EQ(g["success_rate"].get<double>(), 0.75);
    EXPECT_DOUBLE_EQ(g["median_seconds"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(g["p95_seconds"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(g["median_generations"].get<double>(), 20.0);
  }
  EXPECT_TRUE(seen) << r.out;
  const auto text = run_gpuga("report " + csv);
  EXPECT_NE(text.out.find("| a.txt | 4 | 3 | 75.0% | 2.000 | 10.000 | 20 | 100 |"),
            std::string::npos) << text.out;
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
