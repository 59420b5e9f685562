// The CPU backend's island engine: reproducible from the seed whatever the thread count and
// wherever epochs end; populations keep their invariants; summaries, restarts and migration are
// what the policy says, checked by hand; isolated islands are independent runs; runs sharing
// the engine compute what they would alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "configs.hpp"
#include "gpuga/engine.hpp"
#include "grids.hpp"
#include "limits.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

using namespace gpuga;

namespace {

// AI Escargot: no island solves it within these tests' generations.
struct Snapshot {
  std::vector<std::uint8_t> pop;
  std::vector<Fitness> fit;
  std::vector<IslandSummary> summaries;
};

Snapshot snapshot(Engine& e) { return {e.population(0), e.fitness(0), e.summaries()}; }

constexpr int kCells = Shape<3>::kCells;  // these tests run 9x9 puzzles

// The Hamming distances of individuals first..first+n-1 of `pop` to individual `to`.
std::uint64_t distances(const std::vector<std::uint8_t>& pop, std::size_t first, std::size_t n,
                        std::size_t to) {
  std::uint64_t d = 0;
  for (std::size_t i = first; i < first + n; ++i) d += hamming<3>(&pop[i * kCells], &pop[to * kCells]);
  return d;
}

// Advances run 0 to `target` in epochs of `step` generations.
void run_in_epochs(Engine& e, std::uint32_t target, std::uint32_t step) {
  e.initialize(std::min(step, target));
  for (std::uint32_t g = std::min(step, target); g < target;) e.advance_to(g = std::min(g + step, target));
}

void expect_same_summaries(const std::vector<IslandSummary>& a, const std::vector<IslandSummary>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    const IslandState &x = a[k].state, &y = b[k].state;
    EXPECT_EQ(x.clock, y.clock) << "island " << k;
    EXPECT_EQ(x.evaluations, y.evaluations) << "island " << k;
    EXPECT_EQ(x.restarts, y.restarts) << "island " << k;
    EXPECT_EQ(x.last_improvement, y.last_improvement) << "island " << k;
    EXPECT_EQ(x.solved, y.solved) << "island " << k;
    EXPECT_EQ(x.best_ever, y.best_ever) << "island " << k;
    EXPECT_EQ(x.halted, y.halted) << "island " << k;
    EXPECT_EQ(a[k].best, b[k].best) << "island " << k;
    EXPECT_EQ(a[k].worst, b[k].worst) << "island " << k;
    EXPECT_EQ(a[k].best_index, b[k].best_index) << "island " << k;
    EXPECT_EQ(a[k].fitness_sum, b[k].fitness_sum) << "island " << k;
    EXPECT_EQ(a[k].distance_sum, b[k].distance_sum) << "island " << k;
    EXPECT_EQ(a[k].temperature_sum, b[k].temperature_sum) << "island " << k;
  }
}

// Indices 0..n-1 by (fitness, index).
std::vector<std::uint32_t> order_of(const Fitness* fit, std::uint32_t n) {
  std::vector<std::uint32_t> o(n);
  std::iota(o.begin(), o.end(), 0u);
  std::stable_sort(o.begin(), o.end(), [fit](auto a, auto b) { return fit[a] < fit[b]; });
  return o;
}

class CpuEngineConfigs : public ::testing::TestWithParam<TestConfig> {};

}  // namespace

TEST_P(CpuEngineConfigs, SameSeedSameIslandsWithOneAndTwoThreads) {
  const EngineParams p = islands_of(GetParam(), 4, 5, 2, 6, 1);
  auto one = make_cpu_engine(grid_of(kHardPuzzle), p, 1);
  auto two = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
  one->initialize(23);
  two->initialize(23);
  const auto a = snapshot(*one), b = snapshot(*two);
  EXPECT_EQ(a.pop, b.pop);
  EXPECT_EQ(a.fit, b.fit);
  expect_same_summaries(a.summaries, b.summaries);
  EngineParams other = p;
  other.ga.seed += 1000;
  auto c = make_cpu_engine(grid_of(kHardPuzzle), other, 2);
  c->initialize(0);
  two = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
  two->initialize(0);
  EXPECT_NE(c->population(0), two->population(0));
}

TEST_P(CpuEngineConfigs, ALoneIslandOnEveryThreadEqualsOneThread) {
  // With two threads a lone island is bred by both (a team of two with real barriers); with one,
  // by a team of one; with nine, by a team larger than the island's 6 members and its 8 sort
  // keys (an MPI rank of one island on a node's cores). The bytes are the same, restarts
  // included, wherever epochs end.
  const EngineParams p = islands_of(GetParam(), 1, 0, 0, 6, 1);
  auto one = make_cpu_engine(grid_of(kHardPuzzle), p, 1);
  EXPECT_EQ(one->placement(), "host memory");
  run_in_epochs(*one, 23, 23);
  const auto a = snapshot(*one);
  for (const int threads : {2, 9}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto team = make_cpu_engine(grid_of(kHardPuzzle), p, threads);
    EXPECT_EQ(team->placement(), "host memory, a team of every thread");
    run_in_epochs(*team, 23, 4);
    const auto b = snapshot(*team);
    EXPECT_EQ(a.pop, b.pop);
    EXPECT_EQ(a.fit, b.fit);
    expect_same_summaries(a.summaries, b.summaries);
  }
}

TEST_P(CpuEngineConfigs, PopulationKeepsGivensAndFitnessIsRecomputable) {
  const auto& c = GetParam();
  auto e = make_cpu_engine(grid_of(kEasyPuzzle), islands_of(c, 2, 3, 1, 4), 2);
  e->initialize(10);
  const auto pop = e->population(0);
  const auto fit = e->fitness(0);
  const Grid puzzle = grid_of(kEasyPuzzle);
  ASSERT_EQ(pop.size(), std::size_t(2) * c.params.individuals * kCells);
  for (std::size_t i = 0; i < fit.size(); ++i) {
    const std::uint8_t* g = &pop[i * kCells];
    for (int cell = 0; cell < kCells; ++cell)
      if (puzzle.cell[cell]) ASSERT_EQ(g[cell], puzzle.cell[cell]);
    ASSERT_EQ(fit[i], fitness<3>(g, c.params.encoding, c.params.fitness)) << "individual " << i;
  }
}

TEST_P(CpuEngineConfigs, ElitistSchemesNeverLoseAnIslandsBest) {
  // Every GA configuration here is elitist; chains keep each chain's best (their current grids
  // may get worse).
  const auto& c = GetParam();
  const bool ga = c.params.algorithm == Algorithm::Ga;
  auto e = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 3), 2);
  e->initialize(0);
  auto before = e->summaries();
  for (std::uint32_t g = 1; g <= 20; ++g) {
    e->advance_to(g);
    const auto now = e->summaries();
    for (std::size_t k = 0; k < now.size(); ++k)
      ASSERT_LE(ga ? now[k].best : now[k].state.best_ever,
                ga ? before[k].best : before[k].state.best_ever)
          << "generation " << g << " island " << k;
    before = now;
  }
}

TEST_P(CpuEngineConfigs, WhereEpochsEndChangesNothing) {
  // A hard puzzle with restarts and migration, and an easy one that islands solve (the run
  // halts at the next halt check, whatever the epochs).
  const auto& c = GetParam();
  for (const auto& puzzle : {kHardPuzzle, kEasyPuzzle}) {
    const EngineParams p = islands_of(c, 3, 7, 2, 4, 1);
    auto whole = make_cpu_engine(grid_of(puzzle), p, 2);
    run_in_epochs(*whole, 45, 45);
    const auto a = snapshot(*whole);
    for (std::uint32_t step : {1u, 4u, 13u}) {
      auto e = make_cpu_engine(grid_of(puzzle), p, 2);
      run_in_epochs(*e, 45, step);
      const auto b = snapshot(*e);
      ASSERT_EQ(a.pop, b.pop) << "epochs of " << step;
      ASSERT_EQ(a.fit, b.fit) << "epochs of " << step;
      expect_same_summaries(a.summaries, b.summaries);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CpuEngineConfigs, ::testing::ValuesIn(all_test_configs(60)),
                         [](const auto& info) { return info.param.name; });

TEST(CpuEngine, NoGridIsSearchedInAGenerationThatARepairSolved) {
  // Generation 0 of islands whose repairs solved some grids but not all: with the tabu search it
  // is byte for byte what the repairs alone made (the unsolved grids keep their blanks), where
  // one solved grid ends the run anyway.
  auto c = all_test_configs(24).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  int partly_solved = 0;
  for (std::uint64_t seed = 1; seed <= 40 && partly_solved < 2; ++seed) {
    c.params.seed = seed;
    EngineParams p = islands_of(c, 1);
    auto repaired = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
    repaired->initialize(0);
    const auto a = snapshot(*repaired);
    const auto solved = std::count(a.fit.begin(), a.fit.end(), Fitness(0));
    if (solved == 0 || solved == static_cast<long>(a.fit.size())) continue;
    ++partly_solved;
    p.ga.tabu = 1000;
    auto searched = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
    searched->initialize(0);
    const auto b = snapshot(*searched);
    EXPECT_EQ(a.pop, b.pop) << "seed " << seed;
    EXPECT_EQ(a.fit, b.fit) << "seed " << seed;
  }
  EXPECT_EQ(partly_solved, 2) << "no generation 0 with some grids solved and some not";
}

TEST(CpuEngine, TabuSearchedIslandsAreTheSameBytesOnAnyTeamAndEpochs) {
  // The repaired GA with a tabu search on every repaired grid (tabu.hpp), each going back to its
  // best after 8 steps that did not better it: a lone island on one thread in epochs of 23
  // generations, and on teams of 2 and 3 threads in epochs of 4, give the same bytes; the search
  // changes what the GA alone makes; every fitness is its grid's.
  auto c = all_test_configs(24).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  c.params.tabu = 30;
  c.params.tabu_return = 8;
  const EngineParams p = islands_of(c, 1, 0, 0, 6, 1);
  auto one = make_cpu_engine(grid_of(kHardPuzzle), p, 1);
  run_in_epochs(*one, 12, 12);
  const auto a = snapshot(*one);
  for (std::size_t i = 0; i < a.fit.size(); ++i)
    ASSERT_EQ(a.fit[i], fitness<3>(&a.pop[i * kCells], Encoding::Cell, FitnessKind::Conflicts)) << i;
  for (const int threads : {2, 3}) {
    auto team = make_cpu_engine(grid_of(kHardPuzzle), p, threads);
    run_in_epochs(*team, 12, 4);
    const auto b = snapshot(*team);
    EXPECT_EQ(a.pop, b.pop) << threads << " threads";
    EXPECT_EQ(a.fit, b.fit) << threads << " threads";
  }
  EngineParams plain = p;
  plain.ga.tabu = 0;
  auto without = make_cpu_engine(grid_of(kHardPuzzle), plain, 1);
  run_in_epochs(*without, 12, 12);
  EXPECT_NE(snapshot(*without).pop, a.pop);
}

TEST(CpuEngine, TabuMovesCountAsEvaluationsAlikeOnAnyTeam) {
  // Each search's moves count as evaluations (a local-search move does): generation 0 of an
  // island whose repairs solve no grid counts its individuals and between one and --tabu moves
  // for each (none made leaves a grid unsearched: its repair stalled it with a conflict); teams
  // of 1 to 3 threads count the same; the islands without the search count their individuals.
  auto c = all_test_configs(24).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  c.params.tabu = 30;
  EngineParams p = islands_of(c, 1);
  for (p.ga.seed = 1; p.ga.seed <= 40; ++p.ga.seed) {  // a seed whose repairs solve no grid
    auto e = make_cpu_engine(grid_of(kHardPuzzle), p, 1);
    e->initialize(0);
    const auto fit = e->fitness(0);
    if (std::count(fit.begin(), fit.end(), Fitness(0)) == 0) break;
  }
  ASSERT_LE(p.ga.seed, 40u) << "every seed's repairs solved a grid";
  std::uint64_t one = 0;
  for (const int threads : {1, 2, 3}) {
    auto e = make_cpu_engine(grid_of(kHardPuzzle), p, threads);
    e->initialize(0);
    const auto s = snapshot(*e);
    const std::uint64_t evaluations = s.summaries[0].state.evaluations, n = s.fit.size();
    EXPECT_GE(evaluations, 2 * n) << threads << " threads";
    EXPECT_LE(evaluations, n + n * c.params.tabu) << threads << " threads";
    if (threads == 1) one = evaluations;
    EXPECT_EQ(evaluations, one) << threads << " threads";
  }
  EngineParams plain = p;
  plain.ga.tabu = 0;
  auto without = make_cpu_engine(grid_of(kHardPuzzle), plain, 1);
  without->initialize(0);
  EXPECT_EQ(without->summaries()[0].state.evaluations, without->fitness(0).size());
}

TEST(CpuEngine, TabuMovesAreTheEvaluationsThatNoOtherStepCounts) {
  // tabu_moves_of takes what breeding, local search and restarts count from the evaluations:
  // without --tabu nothing is left, in every configuration (truncation's children, the elite
  // unsearched, hill-climbing moves, restarts keeping some); with it, the moves of its searches,
  // at least one for each of the grids of generation 0 and at most --tabu for each of all grids.
  std::uint32_t restarted = 0;
  for (auto c : all_test_configs(12)) {
    c.params.local_search = 3;
    EngineParams p = islands_of(c, 2, 3, 1, 2, 2);
    auto e = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
    e->initialize(9);
    for (const auto& island : e->summaries()) {
      EXPECT_EQ(tabu_moves_of(island.state, p), 0u) << c.name;
      restarted += island.state.restarts > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(restarted, 10u);  // restarts, counted apart, were taken
  auto c = all_test_configs(12).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  c.params.tabu = 30;
  const EngineParams p = islands_of(c, 2, 3, 1, 2, 2);
  auto e = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
  e->initialize(4);
  for (const auto& island : e->summaries()) {
    const std::uint64_t grids = island.state.evaluations - tabu_moves_of(island.state, p);
    EXPECT_GE(tabu_moves_of(island.state, p), c.params.individuals);
    EXPECT_LE(tabu_moves_of(island.state, p), grids * c.params.tabu);
  }
}

TEST(CpuEngine, SummariesMatchThePopulation) {
  const auto c = all_test_configs(100)[0];
  auto e = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 3), 2);
  e->initialize(4);
  const auto s = e->summaries();
  const auto fit = e->fitness(0);
  const auto pop = e->population(0);
  for (std::uint32_t k = 0; k < 3; ++k) {
    const Fitness* f = &fit[k * 100];
    const auto o = order_of(f, 100);
    EXPECT_EQ(s[k].best_index, o[0]);  // the lowest index among the best
    EXPECT_EQ(s[k].best, f[o[0]]);
    EXPECT_EQ(s[k].worst, f[o[99]]);
    EXPECT_EQ(s[k].fitness_sum, std::accumulate(f, f + 100, std::uint64_t(0)));
    const std::uint64_t dist = distances(pop, k * 100, 100, k * 100 + o[0]);
    EXPECT_EQ(s[k].distance_sum, dist);
    EXPECT_GT(dist, 0u);
    EXPECT_EQ(s[k].state.evaluations, 100u * 5);  // initial island and four generations
    const Grid g = e->best(0, k);
    EXPECT_EQ(fitness<3>(g.cell.data(), c.params.encoding, c.params.fitness), s[k].state.best_ever);
  }
}

TEST(CpuEngine, ChainSummariesMatchTheChains) {
  // sa and hc: best, worst and sum of the chains' current fitness, distances to the best chain,
  // a move per free cell per generation, and the island's best grid scoring its best so far.
  const Grid puzzle = grid_of(kHardPuzzle);
  const int free = static_cast<int>(puzzle.blanks());
  for (const auto& c : all_test_configs(50)) {
    if (c.params.algorithm == Algorithm::Ga) continue;
    auto e = make_cpu_engine(puzzle, islands_of(c, 2), 2);
    e->initialize(4);
    const auto s = e->summaries();
    const auto pop = e->population(0);
    const auto fit = e->fitness(0);
    for (std::uint32_t k = 0; k < 2; ++k) {
      const Fitness* f = &fit[k * 50];
      const auto low = std::min_element(f, f + 50), high = std::max_element(f, f + 50);
      EXPECT_EQ(s[k].best, *low) << c.name;
      EXPECT_EQ(s[k].worst, *high) << c.name;
      EXPECT_EQ(s[k].best_index, std::uint32_t(low - f)) << c.name;
      EXPECT_EQ(s[k].fitness_sum, std::accumulate(f, f + 50, std::uint64_t(0))) << c.name;
      EXPECT_EQ(s[k].distance_sum, distances(pop, k * 50, 50, k * 50 + s[k].best_index)) << c.name;
      EXPECT_EQ(s[k].state.evaluations, 50u + 50u * free * 4) << c.name;
      EXPECT_LE(s[k].state.best_ever, s[k].best) << c.name;
      const Grid g = e->best(0, k);
      EXPECT_EQ(fitness<3>(g.cell.data(), c.params.encoding, c.params.fitness), s[k].state.best_ever) << c.name;
      if (c.params.algorithm == Algorithm::Sa)
        EXPECT_GT(s[k].temperature_sum, 0u) << c.name;
      else
        EXPECT_EQ(s[k].temperature_sum, 0u) << c.name;
    }
  }
}

TEST(CpuEngine, LocalSearchMovesCountAsEvaluations) {
  // A memetic configuration (bands, 3 moves a child, elite 2): every child evaluated, every
  // child but the elite's makes 3 moves.
  const auto c = all_test_configs(40)[2];
  ASSERT_EQ(c.params.local_search, 3u);
  auto e = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 2), 2);
  e->initialize(6);
  for (const auto& s : e->summaries())
    EXPECT_EQ(s.state.evaluations, 40u + 6u * (40u + (40u - c.params.elite) * 3u));
}

TEST(CpuEngine, RestartsFallDueWhenThePolicySays) {
  // Generation by generation, the host's rule (restart at g when g - last improvement >
  // restart_after, which then counts as an improvement) predicts every restart the islands make.
  const auto c = all_test_configs(40)[1];
  const std::uint32_t after = 3;
  auto e = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 2, 0, 0, after, 1), 2);
  e->initialize(0);
  auto prev = e->summaries();
  std::uint32_t restarts = 0;
  for (std::uint32_t g = 1; g <= 80; ++g) {
    e->advance_to(g);
    const auto now = e->summaries();
    for (std::size_t k = 0; k < now.size(); ++k) {
      const bool due = g - prev[k].state.last_improvement > after;
      EXPECT_EQ(now[k].state.restarts, prev[k].state.restarts + (due ? 1 : 0)) << g << " " << k;
      if (due) {
        EXPECT_EQ(now[k].state.last_improvement, g);
        EXPECT_EQ(now[k].state.evaluations, prev[k].state.evaluations + 40 - 1);  // kept 1
        EXPECT_LE(now[k].best, prev[k].best);  // the kept best survives
      } else {
        EXPECT_EQ(now[k].state.last_improvement,
                  now[k].best < prev[k].state.best_ever ? g : prev[k].state.last_improvement);
      }
      restarts += now[k].state.restarts - prev[k].state.restarts;
    }
    prev = now;
  }
  EXPECT_GT(restarts, 4u);
}

TEST(CpuEngine, MigrationReplacesTheWorstWithTheNeighboursBest) {
  // Two islands of 12, two migrants every 5 generations, by hand: at generation 5 each island is
  // what it would be isolated, but for its worst two (by fitness, then index), replaced by its
  // ring neighbour's best two (best into the better of the two slots).
  auto c = all_test_configs(12)[0];
  c.params.elite = 0;
  const std::uint32_t n = 12, m = 2;
  auto isolated = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 2, 0, 0), 1);
  auto migrating = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 2, 5, m), 1);
  isolated->initialize(5);
  migrating->initialize(5);
  const auto ipop = isolated->population(0), mpop = migrating->population(0);
  const auto ifit = isolated->fitness(0), mfit = migrating->fitness(0);
  auto expect_pop = ipop;
  auto expect_fit = ifit;
  for (std::uint32_t k = 0; k < 2; ++k) {
    const std::uint32_t from = (k + 1) % 2;
    const auto mine = order_of(&ifit[k * n], n), theirs = order_of(&ifit[from * n], n);
    for (std::uint32_t j = 0; j < m; ++j) {
      const std::uint32_t to = k * n + mine[n - m + j], src = from * n + theirs[j];
      std::copy_n(&ipop[src * kCells], kCells, &expect_pop[to * kCells]);
      expect_fit[to] = ifit[src];
    }
  }
  EXPECT_EQ(mpop, expect_pop);
  EXPECT_EQ(mfit, expect_fit);
  EXPECT_NE(mpop, ipop);
}

TEST(CpuEngine, IsolatedIslandsAreIndependentRuns) {
  // Island k of a run with seed s, never migrating, is the one-island run with seed
  // derive_seed(s, k).
  const auto c = all_test_configs(50)[4];
  auto ring = make_cpu_engine(grid_of(kHardPuzzle), islands_of(c, 3, 0, 0, 5), 2);
  ring->initialize(30);
  const auto pop = ring->population(0);
  const auto fit = ring->fitness(0);
  for (std::uint32_t k = 0; k < 3; ++k) {
    TestConfig alone_config = c;
    alone_config.params.seed = derive_seed(c.params.seed, k);
    auto alone = make_cpu_engine(grid_of(kHardPuzzle), islands_of(alone_config, 1, 0, 0, 5),
                                 1);
    alone->initialize(30);
    const auto a = alone->population(0);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), pop.begin() + k * a.size())) << "island " << k;
    const auto f = alone->fitness(0);
    EXPECT_TRUE(std::equal(f.begin(), f.end(), fit.begin() + k * f.size())) << "island " << k;
  }
}

TEST(CpuEngine, EachRunComputesWhatItWouldAlone) {
  // Three runs on one engine with their own puzzles and seeds, started at different epochs;
  // run 2 idles for an epoch.
  const auto puzzles = std::vector<Grid>{grid_of(kEasyPuzzle), grid_of(kHardPuzzle),
                                         grid_of(std::string(kEasyPuzzle).replace(0, 1, "4"))};
  using A = RunAction;
  const std::vector<std::vector<RunTask>> epochs = {
      {{A::Init, 6}, {A::Idle, 0}, {A::Init, 3}},
      {{A::Advance, 12}, {A::Init, 8}, {A::Idle, 0}},
      {{A::Advance, 20}, {A::Advance, 15}, {A::Advance, 9}}};
  for (const auto& c : all_test_configs(40)) {
    const EngineParams p = islands_of(c, 2, 4, 1, 5);
    auto many = make_cpu_engine(puzzles[0], p, 2, 3);
    for (std::uint32_t r = 0; r < 3; ++r) many->set_run(r, puzzles[r], c.params.seed + 7 * r);
    for (const auto& epoch : epochs) many->advance(epoch);
    const auto summaries = many->summaries();
    for (std::uint32_t r = 0; r < 3; ++r) {
      EngineParams alone_params = p;
      alone_params.ga.seed = c.params.seed + 7 * r;
      auto alone = make_cpu_engine(puzzles[r], alone_params, 1);
      for (const auto& epoch : epochs)
        if (epoch[r].action != A::Idle) alone->advance({epoch[r]});
      ASSERT_EQ(alone->population(0), many->population(r)) << c.name << " run " << r;
      ASSERT_EQ(alone->fitness(0), many->fitness(r)) << c.name << " run " << r;
      const auto mine = alone->summaries();
      expect_same_summaries(mine, {summaries.begin() + 2 * r, summaries.begin() + 2 * r + 2});
    }
  }
}

TEST(CpuEngine, EveryAcceptedSizeRunsOrIsRefusedUpFront) {
  expect_every_limit_runs_or_is_refused(
      [](const Grid& puzzle, const EngineParams& p) {
        return make_cpu_engine(puzzle, p, 2);
      });
}
