// The run settings' table (include/gpuga/run_config.hpp): every option reads back what it
// writes, refuses what it cannot take with a message that says what it expected, leaves what
// is not given to the plan, and the batch CSV's columns keep the layout that existing CSVs (and
// --resume, report and notebooks) rely on.
#include <gtest/gtest.h>

#include <set>

#include "gpuga/batch_csv.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/run_config.hpp"
#include "plans.hpp"

using namespace gpuga;

TEST(RunOptions, EveryOptionReadsBackWhatItWrites) {
  RunOptions changed;  // a value other than the default wherever there is one
  changed.algorithm = Algorithm::Hc;
  changed.pop = 1234;
  changed.selection = Selection::Rank;
  changed.rank_pressure = 1.25;
  changed.local_search = 77;
  changed.given_aware = false;
  changed.seed = 0xFFFFFFFFFFFFFFFFull;
  changed.backend = Backend::Cpu;
  for (const auto& [o, other] : {std::pair{RunOptions{}, changed}, std::pair{changed, RunOptions{}}})
    for (const RunSetting& s : run_settings()) {
      if (s.name.empty()) continue;
      RunOptions back = o;  // this option from the other options, then read back from o's
      ASSERT_EQ(s.parse(back, s.text(other)), "") << s.name << " " << s.text(other);
      EXPECT_EQ(s.parse(back, s.text(o)), "") << s.name << " " << s.text(o);
      EXPECT_EQ(s.text(back), s.text(o)) << s.name;
      RunConfig in_back, in_o;
      s.apply(back, in_back);
      s.apply(o, in_o);
      EXPECT_EQ(s.value(in_back), s.value(in_o)) << s.name;
    }
}

TEST(RunOptions, BadValuesAreRefusedWithWhatWasExpected) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"pop", "abc", "'abc' is not a number; expected 0 to 200000000"},
      {"pop", "200000001", "200000001 is out of range; expected 0 to 200000000"},
      {"mutation-rate", "1.5", "expected 0 to 1"},
      {"time-limit", "nan", "expected 0 or more"},
      {"time-limit", "-1", "expected 0 or more"},
      {"selection", "roulette", "'roulette'; expected one of tournament|rank|truncation"},
      {"given-aware", "maybe", "expected true or false"},
      {"local-search", "lots", "'lots' is not a number; expected 0 to 100000 or auto"},
      {"restart-after", "4000000001", "out of range; expected 0 to 4000000000 or auto"},
  };
  for (const auto& [name, text, expected] : cases) {
    const RunSetting* s = find_setting(name);
    ASSERT_NE(s, nullptr) << name;
    RunOptions o;
    const std::string error = s->parse(o, text);
    EXPECT_NE(error.find(expected), std::string::npos) << name << " " << text << ": " << error;
    EXPECT_EQ(s->text(o), s->text(RunOptions{})) << "a refused value changed " << name;
  }
}

TEST(RunOptions, NamesChoicesInAnyCaseAndByTheIndexOlderConfigFilesWrote) {
  RunOptions o;
  EXPECT_EQ(find_setting("selection")->parse(o, "TRUNCATION"), "");
  EXPECT_EQ(o.selection, Selection::Truncation);
  EXPECT_EQ(find_setting("backend")->parse(o, "1"), "");  // --print-config wrote solve.backend=1
  EXPECT_EQ(o.backend, Backend::Cpu);
  EXPECT_FALSE(o.seed);
  EXPECT_EQ(find_setting("seed")->parse(o, "42"), "");
  EXPECT_EQ(o.seed, 42u);
}

TEST(RunOptions, AutoAndZeroWhereTheyMeanItLeaveASettingToThePlan) {
  RunOptions o;
  for (const char* name : {"pop", "island-size", "children", "local-search"})
    ASSERT_EQ(find_setting(name)->parse(o, "7"), "") << name;
  EXPECT_EQ(find_setting("pop")->parse(o, "0"), "");
  EXPECT_EQ(find_setting("island-size")->parse(o, "0"), "");
  EXPECT_EQ(find_setting("children")->parse(o, "0"), "");
  EXPECT_EQ(find_setting("local-search")->parse(o, "auto"), "");
  EXPECT_FALSE(o.pop || o.island_size || o.children || o.local_search);
  EXPECT_EQ(find_setting("local-search")->parse(o, "0"), "");  // none: a value of its own
  EXPECT_EQ(o.local_search, 0u);
  EXPECT_EQ(find_setting("grow-after")->text(RunOptions{}), "auto");
  EXPECT_EQ(find_setting("pop")->text(RunOptions{}), "0");
}

TEST(RunOptions, EveryOptionIsDeclaredOnceWithItsHelp) {
  std::set<std::string> names, json, csv;
  for (const RunSetting& s : run_settings()) {
    if (!s.name.empty()) {
      EXPECT_TRUE(names.insert(s.name).second) << "twice: " << s.name;
      EXPECT_FALSE(s.help.empty()) << s.name;
      EXPECT_FALSE(s.group.empty()) << s.name;
      EXPECT_FALSE(s.type_name.empty()) << s.name;
      EXPECT_TRUE(s.parse && s.text && s.apply) << s.name;
    }
    if (!s.json.empty()) EXPECT_TRUE(json.insert(s.json).second) << "twice: " << s.json;
    if (!s.csv.name.empty()) EXPECT_TRUE(csv.insert(s.csv.name).second) << "twice: " << s.csv.name;
    EXPECT_TRUE(!s.name.empty() || !s.json.empty() || !s.csv.name.empty()) << "a setting of no use";
  }
}

TEST(RunOptions, EverySettingHasOneNameOnEverySurface) {
  // The command line's --NAME, a configuration file's key and sweep's --grid NAME are the name;
  // the JSON's key, the CSV's column and Python's keyword are it with dashes as underscores. A
  // former name still reads as the setting, and a former column as its column.
  for (const RunSetting& s : run_settings()) {
    std::string key = s.name;
    for (char& ch : key) ch = ch == '-' ? '_' : ch;
    if (s.name.empty()) key = !s.json.empty() ? s.json : s.csv.name;  // an output only
    if (!s.json.empty()) EXPECT_EQ(s.json, key) << s.name;
    if (!s.csv.name.empty()) EXPECT_EQ(s.csv.name, key) << s.name;
    if (!s.formerly.empty()) EXPECT_EQ(find_setting(s.formerly), &s) << s.formerly;
    if (!s.csv.formerly.empty()) EXPECT_EQ(current_column(s.csv.formerly), s.csv.name);
  }
  EXPECT_EQ(find_setting("propagate"), find_setting("presolve"));  // it read like --repair propagate
  EXPECT_EQ(current_column("population_size"), "pop");
  EXPECT_EQ(current_column("restart_after_n_stagnant"), "restart_after");
}

TEST(RunOptions, OutputsRecordTheValuesInEffect) {
  const std::uint64_t n = size_defaults(Backend::Cpu, 3, Repair::Propagate).island_size;  // --island-size 0's
  RunOptions o;
  o.pop = static_cast<std::uint32_t>(3 * n);
  o.selection = Selection::Truncation;
  RunConfig c = plan_on(o).config;
  const auto value = [&](const char* json) {
    for (const RunSetting& s : run_settings())
      if (s.json == json) return s.value(c);
    ADD_FAILURE() << json;
    return SettingValue{};
  };
  EXPECT_EQ(value("island_size"), SettingValue(n));
  EXPECT_EQ(value("islands"), SettingValue(std::uint64_t(3)));
  EXPECT_EQ(value("children"), SettingValue(10 * n));  // truncation: 10 x island
  EXPECT_EQ(value("elite"), SettingValue(std::uint64_t(0)));          // truncation keeps none
  o.algorithm = Algorithm::Sa;
  o.selection = std::nullopt;
  c = plan_on(o).config;
  EXPECT_EQ(value("migration_interval"), SettingValue(std::uint64_t(0)));  // chains never migrate
}
