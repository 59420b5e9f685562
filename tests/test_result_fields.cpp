// A finished run's fields (gpuga/result_fields.hpp): each output names a field once, the batch
// CSV has a column for every field that names one (its other columns are the configuration's and
// the batch's own), and each value is the run's as the outputs write it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "gpuga/batch_csv.hpp"
#include "gpuga/device/rng.hpp"
#include "gpuga/result_fields.hpp"
#include "gpuga/run_config.hpp"
#include "grids.hpp"

using namespace gpuga;

namespace {

const char* const kWikipediaSolution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const char* const kWikipediaPuzzle =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

FieldValue value_of(const FinishedRun& run, const std::string& name) {
  for (const ResultField& f : result_fields())
    if (name == f.name) return f.value(run);
  ADD_FAILURE() << "no field " << name;
  return std::string();
}

}  // namespace

TEST(ResultFields, EachFieldHasOneNameApartFromTheSettingsAndTheCsvHasAColumnForEach) {
  std::set<std::string> names, csv;
  const auto& settings = config_columns();
  for (const ResultField& f : result_fields()) {
    ASSERT_NE(f.outputs & kEvery, 0u) << f.name << ": written nowhere";
    EXPECT_TRUE(f.meaning && *f.meaning);
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    // One row of the CSV holds the run and its configuration: no field takes a setting's column.
    for (const RunSetting& s : run_settings()) EXPECT_NE(s.csv.name, f.name) << f.name;
    if (f.formerly) EXPECT_EQ(current_column(f.formerly), f.name);
    if (!f.written_in(kCsv)) continue;
    csv.insert(f.name);
    const auto& columns = batch_columns();
    EXPECT_NE(std::find(columns.begin(), columns.end(), f.name), columns.end()) << f.name;
  }
  // The CSV's columns that are neither a setting's nor a result field's: the batch's own.
  std::set<std::string> rest;
  for (const std::string& c : batch_columns())
    if (!csv.count(c) && std::find(settings.begin(), settings.end(), c) == settings.end()) rest.insert(c);
  EXPECT_EQ(rest, (std::set<std::string>{"puzzle_id", "run", "device", "ranks", "gpuga_version", "config_id"}));
}

TEST(ResultFields, EachValueIsTheRunsAsTheOutputsWriteIt) {
  const Grid puzzle = grid_of(kWikipediaPuzzle);
  RunResult r;
  r.solved = true;
  r.best = grid_of(kWikipediaSolution);
  r.island = 3;
  r.generations = 12;
  r.restarts = 1;
  r.growths = 2;
  r.evaluations = 123456789012ull;
  r.seconds = 1.5;
  r.seed = 42;
  r.stop_reason = StopReason::Solved;
  const FinishedRun run{puzzle, Alphabet::Digits, r, Backend::Cpu};
  EXPECT_EQ(csv_text(value_of(run, "solved")), "1");
  EXPECT_EQ(std::get<std::string>(value_of(run, "puzzle")), kWikipediaPuzzle);
  EXPECT_EQ(std::get<std::string>(value_of(run, "grid")), kWikipediaSolution);
  EXPECT_EQ(std::get<std::string>(value_of(run, "size")), "9x9");
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "best_fitness")), 0u);
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "generations")), 12u);
  EXPECT_EQ(csv_text(value_of(run, "evaluations")), "123456789012");
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "restarts")), 1u);
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "growths")), 2u);
  EXPECT_EQ(csv_text(value_of(run, "seconds")), "1.500000");
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "seed")), 42u);
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "island")), 3u);
  EXPECT_EQ(std::get<std::uint64_t>(value_of(run, "island_seed")), derive_seed(42, 3));
  EXPECT_EQ(std::get<std::string>(value_of(run, "stop")), "solved");
  EXPECT_EQ(std::get<std::string>(value_of(run, "backend")), "cpu");
  r.solved = false;
  EXPECT_EQ(csv_text(value_of(run, "solved")), "0");
}
