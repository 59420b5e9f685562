// The batch CSV's schema (gpuga/batch_csv.hpp): the configuration's columns come from the
// settings table in its order, each column once; new configuration columns go at the end; a row
// puts every value in its column.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"

using namespace gpuga;

namespace {

std::size_t place_of(const std::string& column) {
  const auto& all = batch_columns();
  return static_cast<std::size_t>(std::find(all.begin(), all.end(), column) - all.begin());
}

}  // namespace

TEST(BatchCsv, EveryColumnOnceAndTheSettingsInTheirPlaces) {
  const auto& all = batch_columns();
  const std::set<std::string> names(all.begin(), all.end());
  EXPECT_EQ(names.size(), all.size()) << csv_line(all);
  ASSERT_EQ(config_columns().size(), csv_settings().size());
  for (std::size_t k = 0; k < csv_settings().size(); ++k) {
    const RunSetting& s = *csv_settings()[k];
    EXPECT_EQ(s.csv.position, static_cast<int>(k)) << s.csv.name << ": places are 0, 1, ...";
    EXPECT_EQ(config_columns()[k], s.csv.name);
    EXPECT_EQ(names.count(s.csv.name), 1u) << s.csv.name << " is not in the CSV";
  }
  // Later configuration columns keep their order in the row: the CSV's order is the table's.
  for (std::size_t k = 1; k < config_columns().size(); ++k)
    EXPECT_LT(place_of(config_columns()[k - 1]), place_of(config_columns()[k])) << config_columns()[k];
}

TEST(BatchCsv, AColumnAddedLaterComesAfterEveryOlderOne) {
  // Notebooks read columns by place: a new configuration column takes a place after those of
  // every earlier layout, never one between them.
  int since = 1;
  for (const RunSetting* s : csv_settings()) {
    EXPECT_GE(s->csv.since, since) << s->csv.name << " sits among older columns";
    since = s->csv.since;
    EXPECT_EQ(added_later(s->csv.name), s->csv.since > 1) << s->csv.name;
  }
  EXPECT_FALSE(added_later("puzzle_id"));
}

TEST(BatchCsv, ARowPutsEachValueInItsColumn) {
  RunFields run;
  for (const std::string& c : batch_columns())
    if (std::find(config_columns().begin(), config_columns().end(), c) == config_columns().end())
      run[c] = "<" + c + ">";
  RunConfig config;
  config.pop = 1234;
  config.engine.ga.selection = Selection::Rank;
  config.engine.rank_pressure = 1.25;
  const auto row = batch_row(run, config);
  ASSERT_EQ(row.size(), batch_columns().size());
  EXPECT_EQ(row[place_of("pop")], "1234");
  EXPECT_EQ(row[place_of("selection")], "rank");
  EXPECT_EQ(row[place_of("selection_param")], "rank_pressure=1.25");
  EXPECT_EQ(row[place_of("seed")], "<seed>");
  EXPECT_EQ(row[place_of("config_id")], "<config_id>");
  const auto values = config_values(config);
  for (std::size_t k = 0; k < values.size(); ++k)
    EXPECT_EQ(row[place_of(config_columns()[k])], values[k]) << config_columns()[k];
  run.erase("seed");
  EXPECT_THROW(batch_row(run, config), std::logic_error);
}

TEST(BatchCsv, TheConfigIdFollowsTheRecordedSettings) {
  RunConfig a, b;
  b.engine.migrants = 2;
  EXPECT_EQ(config_id(a), config_id(RunConfig{}));
  EXPECT_NE(config_id(a), config_id(b));
  EXPECT_EQ(config_id(a).size(), 16u);
}
