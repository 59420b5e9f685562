// The CPU backend: reproducible from the seed whatever the thread count, populations keep their
// invariants, fitness and order are what they claim, elitism and restarts keep the best.
#include <gtest/gtest.h>

#include "configs.hpp"
#include "engine.hpp"
#include "grids.hpp"

using namespace gpuga;

namespace {

struct Snapshot {
  std::vector<std::uint8_t> pop;
  std::vector<Fitness> fit;
  std::vector<Fitness> best_per_generation;
};

Snapshot run(const TestConfig& c, int threads, int generations) {
  auto engine = make_cpu_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, threads);
  Snapshot s;
  engine->initialize(0);
  s.best_per_generation.push_back(engine->summary().best);
  for (int g = 1; g <= generations; ++g) {
    engine->step(g);
    s.best_per_generation.push_back(engine->summary().best);
  }
  s.pop = engine->population();
  s.fit = engine->fitness();
  return s;
}

class CpuEngineConfigs : public ::testing::TestWithParam<TestConfig> {};

}  // namespace

TEST_P(CpuEngineConfigs, SameSeedSamePopulationWithOneAndTwoThreads) {
  const auto a = run(GetParam(), 1, 12);
  const auto b = run(GetParam(), 2, 12);
  EXPECT_EQ(a.pop, b.pop);
  EXPECT_EQ(a.fit, b.fit);
  // Another seed, another run (compared early: strong settings solve this puzzle within 12
  // generations, after which every population is the solution).
  auto other = GetParam();
  other.params.seed += 1000;
  EXPECT_NE(run(other, 2, 1).pop, run(GetParam(), 2, 1).pop);
}

TEST_P(CpuEngineConfigs, PopulationKeepsGivensAndFitnessIsRecomputable) {
  const auto& c = GetParam();
  const auto s = run(c, 2, 10);
  const Grid puzzle = grid_of(kEasyPuzzle);
  ASSERT_EQ(s.pop.size(), std::size_t(c.params.pop) * kCells);
  for (std::uint32_t i = 0; i < c.params.pop; ++i) {
    const std::uint8_t* g = &s.pop[std::size_t(i) * kCells];
    for (int cell = 0; cell < kCells; ++cell)
      if (puzzle.cell[cell]) ASSERT_EQ(g[cell], puzzle.cell[cell]);
    ASSERT_EQ(s.fit[i], fitness(g, c.params.encoding, c.params.fitness)) << "individual " << i;
  }
}

TEST_P(CpuEngineConfigs, ElitistSchemesNeverLoseTheBest) {
  const auto s = run(GetParam(), 2, 20);
  for (std::size_t g = 1; g < s.best_per_generation.size(); ++g)
    ASSERT_LE(s.best_per_generation[g], s.best_per_generation[g - 1]) << "generation " << g;
}

INSTANTIATE_TEST_SUITE_P(All, CpuEngineConfigs, ::testing::ValuesIn(all_test_configs()),
                         [](const auto& info) { return info.param.name; });

TEST(CpuEngine, SummaryMatchesThePopulation) {
  const auto c = all_test_configs()[0];
  auto engine = make_cpu_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, 2);
  engine->initialize(0);
  engine->step(1);
  const auto s = engine->summary();
  const auto fit = engine->fitness();
  const auto pop = engine->population();
  Fitness best = fit[0], worst = fit[0];
  std::uint32_t best_i = 0;
  double sum = 0;
  for (std::uint32_t i = 0; i < fit.size(); ++i) {
    if (fit[i] < best) best = fit[i], best_i = i;
    worst = std::max(worst, fit[i]);
    sum += fit[i];
  }
  EXPECT_EQ(s.best, best);
  EXPECT_EQ(s.best_index, best_i);  // the lowest index among the best
  EXPECT_EQ(s.worst, worst);
  EXPECT_DOUBLE_EQ(s.mean, sum / fit.size());
  const Grid b = engine->best();
  EXPECT_EQ(std::vector<std::uint8_t>(b.cell, b.cell + kCells),
            std::vector<std::uint8_t>(pop.begin() + best_i * kCells,
                                      pop.begin() + (best_i + 1) * kCells));
  EXPECT_GT(s.diversity, 0);
}

TEST(CpuEngine, RestartKeepsTheBestAndRenewsTheRest) {
  const auto c = all_test_configs()[1];
  auto engine = make_cpu_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, 2);
  engine->initialize(0);
  for (std::uint32_t g = 1; g <= 5; ++g) engine->step(g);
  const Grid best = engine->best();
  const auto before = engine->population();
  engine->restart(6, 1);
  const auto after = engine->population();
  EXPECT_TRUE(std::equal(best.cell, best.cell + kCells, after.begin()));
  EXPECT_EQ(engine->summary().best, fitness(best.cell, c.params.encoding, c.params.fitness));
  EXPECT_NE(std::vector<std::uint8_t>(before.begin() + kCells, before.end()),
            std::vector<std::uint8_t>(after.begin() + kCells, after.end()));
}

namespace {

// Lanes 0-2: three runs with their own puzzles and seeds; lane 1 restarts while the others
// step, lane 2 idles for two rounds and then goes on.
struct LaneScript {
  std::vector<std::vector<LaneTask>> rounds;
  static LaneScript make() {
    using A = LaneAction;
    LaneScript s;
    s.rounds = {{{A::Init, 0}, {A::Init, 0}, {A::Init, 0}},
                {{A::Step, 1}, {A::Step, 1}, {A::Step, 1}},
                {{A::Step, 2}, {A::Restart, 2}, {A::Idle, 0}},
                {{A::Step, 3}, {A::Step, 3}, {A::Idle, 0}},
                {{A::Step, 4}, {A::Step, 4}, {A::Step, 2}},
                {{A::Step, 5}, {A::Step, 5}, {A::Step, 3}}};
    return s;
  }
};

}  // namespace

// Shared with the CUDA test through this function: runs the script on a many-lane engine and
// each lane alone on a one-lane engine, and demands the same bytes.
TEST(CpuEngine, EachLaneComputesWhatItWouldAlone) {
  const auto puzzles = std::vector<Grid>{grid_of(kEasyPuzzle), grid_of(kEasyPuzzle),
                                         grid_of(std::string(kEasyPuzzle).replace(0, 1, "4"))};
  for (const auto& c : all_test_configs(200)) {
    auto many = make_cpu_engine(puzzles[0], c.params, c.rank_pressure, 2, 3);
    for (std::uint32_t l = 0; l < 3; ++l) many->set_lane(l, puzzles[l], c.params.seed + 7 * l);
    const auto script = LaneScript::make();
    for (const auto& round : script.rounds) many->advance(round, 2);
    const auto summaries = many->summaries();
    for (std::uint32_t l = 0; l < 3; ++l) {
      GaParams alone_params = c.params;
      alone_params.seed = c.params.seed + 7 * l;
      auto alone = make_cpu_engine(puzzles[l], alone_params, c.rank_pressure, 1);
      for (const auto& round : script.rounds)
        if (round[l].action != LaneAction::Idle) alone->advance({round[l]}, 2);
      ASSERT_EQ(alone->population(), many->population(l)) << c.name << " lane " << l;
      ASSERT_EQ(alone->fitness(), many->fitness(l)) << c.name << " lane " << l;
      EXPECT_EQ(alone->summary().best_index, summaries[l].best_index) << c.name;
      EXPECT_EQ(alone->summary().diversity, summaries[l].diversity) << c.name;
    }
  }
}
