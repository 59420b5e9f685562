// The run configuration's table (include/gpuga/run_config.hpp): every option reads back what it writes,
// refuses what it cannot take with a message that says what it expected, and the batch CSV's
// columns keep the layout that existing CSVs (and --resume, report and notebooks) rely on.
#include <gtest/gtest.h>

#include <set>

#include "gpuga/errors.hpp"
#include "gpuga/run_config.hpp"

using namespace gpuga;

TEST(RunConfig, EveryOptionReadsBackWhatItWrites) {
  RunConfig changed;  // a value other than the default wherever there is one
  changed.algorithm = Algorithm::Hc;
  changed.pop = 1234;
  changed.selection = Selection::Rank;
  changed.rank_pressure = 1.25;
  changed.local_search = 77;
  changed.given_aware = false;
  changed.seed = 0xFFFFFFFFFFFFFFFFull;
  changed.backend = Backend::Cpu;
  for (const auto& [c, other] : {std::pair{RunConfig{}, changed}, std::pair{changed, RunConfig{}}})
    for (const RunSetting& s : run_settings()) {
      if (s.name.empty()) continue;
      RunConfig back = c;  // this option from the other configuration, then read back from c's
      ASSERT_EQ(s.parse(back, s.text(other)), "") << s.name << " " << s.text(other);
      EXPECT_EQ(s.parse(back, s.text(c)), "") << s.name << " " << s.text(c);
      EXPECT_EQ(s.text(back), s.text(c)) << s.name;
      EXPECT_EQ(s.value(back), s.value(c)) << s.name;
    }
}

TEST(RunConfig, BadValuesAreRefusedWithWhatWasExpected) {
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
    RunConfig c;
    const std::string error = s->parse(c, text);
    EXPECT_NE(error.find(expected), std::string::npos) << name << " " << text << ": " << error;
    EXPECT_EQ(s->text(c), s->text(RunConfig{})) << "a refused value changed " << name;
  }
}

TEST(RunConfig, NamesChoicesInAnyCaseAndByTheIndexOlderConfigFilesWrote) {
  RunConfig c;
  EXPECT_EQ(find_setting("selection")->parse(c, "TRUNCATION"), "");
  EXPECT_EQ(c.selection, Selection::Truncation);
  EXPECT_EQ(find_setting("backend")->parse(c, "1"), "");  // --print-config wrote solve.backend=1
  EXPECT_EQ(c.backend, Backend::Cpu);
  EXPECT_EQ(find_setting("seed")->parse(c, "42"), "");
  EXPECT_TRUE(c.seed_given);
}

TEST(RunConfig, EveryOptionIsDeclaredOnceWithItsHelp) {
  std::set<std::string> names, json, csv;
  for (const RunSetting& s : run_settings()) {
    if (!s.name.empty()) {
      EXPECT_TRUE(names.insert(s.name).second) << "twice: " << s.name;
      EXPECT_FALSE(s.help.empty()) << s.name;
      EXPECT_FALSE(s.group.empty()) << s.name;
      EXPECT_FALSE(s.type_name.empty()) << s.name;
    }
    if (!s.json.empty()) EXPECT_TRUE(json.insert(s.json).second) << "twice: " << s.json;
    if (!s.csv.name.empty()) EXPECT_TRUE(csv.insert(s.csv.name).second) << "twice: " << s.csv.name;
    EXPECT_TRUE(!s.name.empty() || !s.json.empty() || !s.csv.name.empty()) << "a setting of no use";
  }
}

TEST(RunConfig, OutputsRecordTheValuesInEffect) {
  const std::uint64_t n = size_defaults(Backend::Cpu, 3).island_size;  // --island-size 0's
  RunConfig c;
  c.pop = static_cast<std::uint32_t>(3 * n);
  c.selection = Selection::Truncation;
  c.algorithm = Algorithm::Ga;
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
  c.algorithm = Algorithm::Sa;
  EXPECT_EQ(value("migration_interval"), SettingValue(std::uint64_t(0)));  // chains never migrate
}

TEST(RunConfig, ValidateChecksTheOptionsAgainstEachOther) {
  const std::uint32_t n = size_defaults(Backend::Cpu, 3).island_size;  // --island-size 0's
  RunConfig c;
  c.pop = 2 * n;
  c.migrants = 600;
  try {
    c.validate();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--migrants 600: expected at most half the island size"),
              std::string::npos) << e.what();
  }
  c.migrants = 1;
  EXPECT_NO_THROW(c.validate());
  const EngineParams p = c.islands();
  EXPECT_EQ(p.islands, 2u);
  EXPECT_EQ(p.ga.island_size, n);
}
