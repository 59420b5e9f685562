#pragma once
// Every encoding x selection x crossover x fitness option, small enough to run many generations
// in a test. The CPU tests and the CPU-vs-CUDA equality tests walk the same list.
#include <ostream>
#include <string>
#include <vector>

#include "gpuga/island.hpp"

struct TestConfig {
  std::string name;
  gpuga::GaParams params;
  double rank_pressure = 1.7;
};

inline void PrintTo(const TestConfig& c, std::ostream* os) { *os << c.name; }

inline std::vector<TestConfig> all_test_configs(std::uint32_t pop = 300) {
  using namespace gpuga;
  std::vector<TestConfig> out;
  for (auto e : {Encoding::Box, Encoding::Row, Encoding::Cell})
    for (auto s : {Selection::Tournament, Selection::Rank, Selection::Truncation})
      for (auto x : {Crossover::OnePoint, Crossover::Uniform, Crossover::Bands}) {
        GaParams p;
        p.encoding = e;
        p.selection = s;
        p.crossover = x;
        p.fitness = (x == Crossover::Uniform) ? FitnessKind::Squared : FitnessKind::Conflicts;
        p.pop = pop;
        p.children = s == Selection::Truncation ? 3 * pop + 7 : pop;
        p.elite = s == Selection::Truncation ? 0 : 2;
        p.tournament_size = 3;
        p.crossover_threshold = rate_threshold(0.6);
        p.mutation_threshold = rate_threshold(0.8);
        p.seed = 0x5EEDull + out.size();
        const char* en[] = {"box", "row", "cell"};
        const char* sn[] = {"tournament", "rank", "truncation"};
        const char* xn[] = {"_onepoint_conflicts", "_uniform_squared", "_bands_conflicts"};
        p.given_aware = x != Crossover::OnePoint;  // both settings covered
        out.push_back({std::string(en[int(e)]) + "_" + sn[int(s)] + xn[int(x)], p});
      }
  return out;
}

// A configuration as islands: `islands` of c.params.pop each on a ring.
inline gpuga::IslandParams islands_of(const TestConfig& c, std::uint32_t islands,
                                      std::uint32_t migration_interval = 0,
                                      std::uint32_t migrants = 0, std::uint32_t restart_after = 0,
                                      std::uint32_t keep_on_restart = 0) {
  gpuga::IslandParams p;
  p.ga = c.params;
  p.islands = islands;
  p.migration_interval = migration_interval;
  p.migrants = migrants;
  p.restart_after = restart_after;
  p.keep_on_restart = keep_on_restart;
  return p;
}
