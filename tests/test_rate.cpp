// How hard each puzzle is (gpuga/rate.hpp, gpuga rate): one row a puzzle in file order, its
// figures those of its runs' batch rows (nearest-rank percentiles, an unsolved run above every
// solved one), the same for the same seed, propagation and the exact solver beside them, and the
// rating's thresholds; the command writes the same as CSV and JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "gpuga/csv.hpp"
#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/rate.hpp"
#include "paths.hpp"
#include "run_gpuga.hpp"
#include "spearman.hpp"
#include "temp_files.hpp"

using namespace gpuga;

namespace {

// The first n puzzles of a file of the source tree, a line each.
std::string head_of(const std::string& file, std::size_t n) {
  std::string text;
  for (const Puzzle& p : read_puzzle_file(source_path(file))) {
    if (n-- == 0) break;
    text += to_line(p.grid) + "\n";
  }
  return text;
}

// An easy puzzle singles complete, then two hard ones.
std::string three_puzzles() {
  const auto path = test_file("rate_puzzles.txt");
  std::ofstream(path) << head_of("puzzles/norvig_easy50.txt", 1) << head_of("puzzles/norvig_top95.txt", 2);
  return path.string();
}

RunOptions quick(std::uint32_t max_generations) {
  RunOptions o;
  o.backend = Backend::Cpu;
  o.threads = 2;
  o.pop = 200;
  o.island_size = 100;
  o.local_search = 30;
  o.max_generations = max_generations;
  o.time_limit = 0;
  o.seed = 4;
  return o;
}

}  // namespace

TEST(Rate, EachPuzzlesFiguresAreThoseOfItsRuns) {
  RateSetup setup;
  setup.files = {three_puzzles()};
  setup.runs = 5;
  setup.runs_csv = test_file("rate_runs.csv").string();
  std::filesystem::remove(setup.runs_csv);
  const std::vector<PuzzleRating> ratings = rate(setup, quick(40));
  ASSERT_EQ(ratings.size(), 3u);
  EXPECT_EQ(ratings[0].rating, "easy");  // singles finish it
  EXPECT_LE(ratings[0].deduction, 2.3);
  EXPECT_EQ(ratings[0].score, ratings[0].deduction);  // the ladder's score, whatever the runs
  EXPECT_GT(ratings[0].propagation_fills, 0);
  const auto rows = read_csv_rows(setup.runs_csv);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  for (const PuzzleRating& r : ratings) {
    SCOPED_TRACE("puzzle " + std::to_string(r.index));
    EXPECT_EQ(r.runs, 5u);
    EXPECT_EQ(r.solutions, 1);
    std::vector<double> generations;
    std::uint32_t solved = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      if (rows[i][col["puzzle_id"]] != r.file + "#" + std::to_string(r.index)) continue;
      if (rows[i][col["solved"]] == "1") {
        ++solved;
        generations.push_back(std::stod(rows[i][col["generations"]]));
      }
    }
    std::sort(generations.begin(), generations.end());
    EXPECT_EQ(r.solved, solved);
    EXPECT_DOUBLE_EQ(r.success_rate, solved / 5.0);
    if (solved >= 3) {  // the 3rd of 5 runs, nearest rank
      ASSERT_TRUE(r.median_generations);
      EXPECT_EQ(*r.median_generations, generations[2]);
    } else {
      EXPECT_FALSE(r.median_generations);
      if (r.stalled) EXPECT_EQ(r.rating, "unsolved");
    }
    if (solved < 5) EXPECT_FALSE(r.p90_generations);  // the 5th run, an unsolved one
  }
  // The same seed, the same figures but time.
  setup.runs_csv.clear();
  const std::vector<PuzzleRating> again = rate(setup, quick(40));
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(again[k].median_evaluations, ratings[k].median_evaluations);
    EXPECT_EQ(again[k].solved, ratings[k].solved);
    EXPECT_EQ(again[k].exact_conflicts, ratings[k].exact_conflicts);
  }
}

TEST(Rate, TheScoreIsTheLaddersThenTheEvaluationsPastIt) {
  Deduction solved;
  solved.difficulty = 7.2;
  EXPECT_DOUBLE_EQ(score_of(solved, 1e6), 7.2);  // the GA's effort does not enter
  Deduction stalled;
  stalled.stalled = true;
  EXPECT_DOUBLE_EQ(score_of(stalled, 0), kLadderTop);
  EXPECT_DOUBLE_EQ(score_of(stalled, 999), kLadderTop + 0.3);
  EXPECT_DOUBLE_EQ(score_of(stalled, 1e20), kLadderTop + 0.9);          // at most 0.9
  EXPECT_DOUBLE_EQ(score_of(stalled, std::nullopt), kLadderTop + 0.9);  // the p90 on an unsolved run
  solved.difficulty = kLargestStep;
  EXPECT_LT(score_of(solved, std::nullopt), score_of(stalled, 0));  // past the ladder ranks higher
  PuzzleRating r;
  r.solutions = 1;
  r.stalled = true;
  r.runs = 3;
  EXPECT_EQ(rating_of(r), "unsolved");
  r.median_evaluations = 5;
  r.score = kLadderTop + 0.4;
  EXPECT_EQ(rating_of(r), "extreme");
  r.stalled = false;
  r.score = 4.4;
  EXPECT_EQ(rating_of(r), "hard");
  r.solutions = 2;
  EXPECT_EQ(rating_of(r), "not unique");
}

TEST(Rate, NoRunsRatesByTheLadderAlone) {
  const std::string file = three_puzzles();
  const auto csv = run_gpuga("rate --runs 0 " + file);
  ASSERT_EQ(csv.status, 0) << csv.err;
  const CsvRows rows = parse_csv(csv.out);
  ASSERT_EQ(rows.rows.size(), 4u);
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows.rows[0].size(); ++c) col[rows.rows[0][c]] = c;
  for (std::size_t k = 1; k < rows.rows.size(); ++k) {
    const auto& row = rows.rows[k];
    EXPECT_EQ(row[col["runs"]], "0");
    EXPECT_EQ(row[col["median_evaluations"]], "");
    EXPECT_EQ(row[col["score"]], row[col["deduction"]]);  // none of these stalls
    EXPECT_NE(row[col["technique"]], "");
  }
}

TEST(Rate, TheCommandWritesARowAPuzzleAsCsvAndJson) {
  const std::string file = three_puzzles();
  const std::string args = "rate --backend cpu --threads 2 --pop 200 --island-size 100 --runs 3 "
                           "--seed 2 --max-generations 1 --time-limit 0 --local-search 0 --repair none " +
                           file;
  const auto csv = run_gpuga(args);
  ASSERT_EQ(csv.status, 0) << csv.err;
  const CsvRows rows = parse_csv(csv.out);
  ASSERT_EQ(rows.rows.size(), 4u);
  EXPECT_EQ(rows.rows[0], rating_columns());
  EXPECT_EQ(rows.rows[1].back(), "easy");
  const auto technique = std::find(rows.rows[0].begin(), rows.rows[0].end(), "technique") - rows.rows[0].begin();
  EXPECT_NE(rows.rows[2][technique], "");  // the ladder's, whatever the runs

  const auto json = run_gpuga(args + " --json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  ASSERT_EQ(doc["puzzles"].size(), 3u);
  EXPECT_EQ(doc["puzzles"][2]["median_generations"], nullptr);
  EXPECT_EQ(doc["puzzles"][2]["runs"], 3);
  EXPECT_EQ(run_gpuga("rate --runs -1 " + file).status, 2);
  // Standard input, read once: a row for its puzzle.
  const auto piped = run_gpuga("rate --backend cpu --runs 2 --seed 2 --max-generations 1 -",
                               head_of("puzzles/norvig_easy50.txt", 1));
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(parse_csv(piped.out).rows.size(), 2u) << piped.out;
}

TEST(Rate, AnInterruptedRateWritesNoRating) {
  // The plain GA, many runs: far from done when the Ctrl-C comes; a row of the runs that finished
  // would read as a whole rating.
  const std::string runs = test_file("interrupted_rate.csv").string();
  const auto r = run_gpuga("rate --backend cpu --threads 2 --pop 500 --runs 1000 --seed 2 "
                           "--max-generations 120 --time-limit 0 --repair none --runs-csv " + runs +
                           " " + three_puzzles(), "", "timeout --foreground --preserve-status -s INT 1");
  EXPECT_EQ(r.status, 5) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("rate: interrupted: no rating written"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(runs + " holds every finished run"), std::string::npos) << r.err;
  EXPECT_GE(read_csv_rows(runs).size(), 1u);  // its header and the runs that finished, intact
}


TEST(Rate, TheScoreAgreesWithSudokuExplainerAndItsLabelsHoldAcrossSeeds) {
  // The targets on puzzles/se_rated.tsv (232 puzzles, SE 1 to 11+), one island of 8, 10 runs a
  // puzzle: Spearman's rho of the score against SE at least 0.93 and above the singles
  // baseline's; at least four labels; 90 % of labels the same for another seed; every score
  // inside its interval.
  const auto path = test_file("se_rated_puzzles.txt");
  std::vector<double> se;
  {
    std::ifstream tsv(source_path("puzzles/se_rated.tsv"));
    std::ofstream out(path);
    std::string line;
    while (std::getline(tsv, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto tab = line.find('\t');
      out << line.substr(0, tab) << '\n';
      se.push_back(std::stod(line.substr(tab + 1)));
    }
  }
  RateSetup setup;
  setup.files = {path.string()};
  RunOptions o;
  o.backend = Backend::Cpu;
  o.pop = 8;
  o.island_size = 8;
  o.seed = 1;
  const auto first = rate(setup, o);
  o.seed = 2;
  const auto second = rate(setup, o);
  ASSERT_EQ(first.size(), se.size());
  std::vector<double> score, singles_leave;
  std::set<std::string> labels;
  std::size_t same = 0;
  for (std::size_t k = 0; k < first.size(); ++k) {
    score.push_back(first[k].score);
    singles_leave.push_back(81.0 - first[k].givens - first[k].propagation_fills);
    labels.insert(first[k].rating);
    same += first[k].rating == second[k].rating;
    EXPECT_LE(first[k].score_low, first[k].score) << k;
    EXPECT_GE(first[k].score_high, first[k].score) << k;
  }
  const double rho = spearman(se, score);
  EXPECT_GE(rho, 0.93);
  EXPECT_GT(rho, spearman(se, singles_leave));
  EXPECT_GE(labels.size(), 4u);
  EXPECT_GE(same, first.size() * 9 / 10);
}

TEST(Rate, APuzzleOfSeveralSolutionsIsSaidNotUniqueAndNotScored) {
  const auto path = test_file("rate_several.txt");
  std::ofstream(path) << ".2.13894..962.47....89...5..574.9.3.63.5....9.1.32........45.275.37......7...3..5\n";
  RateSetup setup;
  setup.files = {path.string()};
  setup.runs = 0;
  const std::vector<PuzzleRating> ratings = rate(setup, quick(20));
  ASSERT_EQ(ratings.size(), 1u);
  EXPECT_EQ(ratings[0].solutions, 2);
  EXPECT_EQ(ratings[0].rating, "not unique");
  for (const auto& [name, value] : rating_fields(ratings[0]))
    if (name == "score" || name == "score_low" || name == "score_high" || name == "deduction")
      EXPECT_TRUE(std::holds_alternative<std::monostate>(value)) << name;
  const auto r = run_gpuga("rate --runs 2 --backend cpu --seed 1 --json " + path.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"rating\": \"not unique\""), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("puzzle 1 has several solutions: not rated"), std::string::npos) << r.err;
}
