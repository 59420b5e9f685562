#pragma once
// Every encoding x selection x crossover x fitness option of the GA, annealing and hill climbing
// in every encoding, then the repaired GA with each selection, small enough to run many
// generations in a test. The CPU tests and
// the CPU-vs-CUDA equality tests walk the same list.
#include <ostream>
#include <string>
#include <vector>

#include "gpuga/device/island.hpp"
#include "gpuga/engine.hpp"

struct TestConfig {
  std::string name;
  gpuga::GaParams params;
  gpuga::AnnealParams anneal;  // sa
  double rank_pressure = 1.7;  // rank selection
};

inline void PrintTo(const TestConfig& c, std::ostream* os) { *os << c.name; }

inline const char* to_name(gpuga::FitnessKind f) {
  return f == gpuga::FitnessKind::Squared ? "squared" : "conflicts";
}

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
        p.individuals = pop;
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
        p.local_search = x == Crossover::Bands ? 3 : 0;  // memetic children too
        out.push_back({std::string(en[int(e)]) + "_" + sn[int(s)] + xn[int(x)], p});
      }
  // Chains: a short chain length that ends temperatures within sweeps, quick reheats.
  for (auto a : {Algorithm::Sa, Algorithm::Hc})
    for (auto e : {Encoding::Box, Encoding::Row, Encoding::Cell}) {
      GaParams p;
      p.algorithm = a;
      p.encoding = e;
      p.fitness = (a == Algorithm::Sa) == (e == Encoding::Row) ? FitnessKind::Squared
                                                               : FitnessKind::Conflicts;
      p.given_aware = (a == Algorithm::Sa) != (e == Encoding::Row);
      p.individuals = p.children = pop;
      p.seed = 0xC4A1ull + out.size();
      AnnealParams anneal;
      anneal.cooling_step = cooling_step(0.9);
      anneal.chain_length = 37;
      anneal.reheat_after = 3;
      const char* en[] = {"box", "row", "cell"};
      out.push_back({std::string(a == Algorithm::Sa ? "sa_" : "hc_") + en[int(e)] + "_" +
                         to_name(p.fitness) + (p.given_aware ? "_aware" : ""),
                     p, anneal});
    }
  // The repaired GA (cell encoding, conflicts), last so that the others keep their places: with
  // each selection, one crossover each, and a local search before the repair once.
  for (auto s : {Selection::Tournament, Selection::Rank, Selection::Truncation}) {
    GaParams p;
    p.encoding = Encoding::Cell;
    p.selection = s;
    p.crossover = s == Selection::Tournament ? Crossover::Bands
                  : s == Selection::Rank     ? Crossover::Uniform
                                             : Crossover::OnePoint;
    p.fitness = FitnessKind::Conflicts;
    p.repair = Repair::Propagate;
    p.individuals = pop;
    p.children = s == Selection::Truncation ? 2 * pop + 3 : pop;
    p.elite = s == Selection::Truncation ? 0 : 1;
    p.tournament_size = 3;
    p.crossover_threshold = rate_threshold(0.9);
    p.mutation_threshold = rate_threshold(0.7);
    p.local_search = s == Selection::Rank ? 3 : 0;
    p.seed = 0x4E9Aull + out.size();
    const char* sn[] = {"tournament_bands", "rank_uniform_searched", "truncation_onepoint"};
    out.push_back({std::string("repaired_cell_") + sn[int(s)], p});
  }
  return out;
}

// A configuration as islands: `islands` of c.params.individuals each on a ring.
inline gpuga::EngineParams islands_of(const TestConfig& c, std::uint32_t islands,
                                      std::uint32_t migration_interval = 0,
                                      std::uint32_t migrants = 0, std::uint32_t restart_after = 0,
                                      std::uint32_t keep_on_restart = 0) {
  gpuga::EngineParams p;
  p.ga = c.params;
  p.anneal = c.anneal;
  p.islands = islands;
  const bool ga = c.params.algorithm == gpuga::Algorithm::Ga;  // chains never migrate
  p.migration_interval = ga ? migration_interval : 0;
  p.migrants = ga ? migrants : 0;
  p.restart_after = restart_after;
  p.keep_on_restart = keep_on_restart;
  p.rank_pressure = c.rank_pressure;
  p.halt_interval = gpuga::halt_interval_for(p.ga);
  return p;
}
