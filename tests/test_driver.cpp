// The driver's stop rules (run_many), on a small CPU engine: a run ends solved, at its
// generation limit, at its time limit, on Ctrl-C or when an observer says stop, for the reason
// it reports; many runs share the engine's run slots and each computes what it would alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "gpuga/bench.hpp"
#include "gpuga/device/fitness.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "grids.hpp"
#include "gpuga/sudoku/verify.hpp"

using namespace gpuga;

namespace {

// The bench's puzzle, Platinum Blonde with a wrong clue: no grid fits it (test_bench proves it),
// so a run on it never solves, however long it runs.
const std::string kNoSolution = bench_puzzle();

// Two islands of 20 on a ring, a little local search: the easy puzzle solves in a few
// generations, the hard one never within these tests.
EngineParams small_params(std::uint64_t seed = 17) {
  EngineParams p;
  p.ga.individuals = p.ga.children = 20;
  p.ga.crossover = Crossover::Uniform;
  p.ga.tournament_size = 3;
  p.ga.given_aware = true;
  p.ga.local_search = 20;
  p.ga.seed = seed;
  p.islands = 2;
  p.migration_interval = 5;
  p.migrants = 1;
  p.restart_after = 15;
  p.halt_interval = halt_interval_for(p.ga);
  return p;
}

// small_params as the repaired GA: islands of 8, children repaired by propagation.
EngineParams repaired_params() {
  EngineParams p = small_params();
  p.ga.individuals = p.ga.children = 8;
  p.ga.repair = Repair::Propagate;
  p.ga.encoding = Encoding::Cell;  // the repaired GA's, as plan() makes it
  p.ga.fitness = FitnessKind::Conflicts;
  return p;
}

// Records what the driver shows; stops every run when `stop_at` is reached (by returning false,
// or by raising the Ctrl-C flag).
class Recorder : public RunObserver {
 public:
  std::uint32_t stop_at = kNever;
  bool by_interrupt = false;
  std::uint32_t every = 0;
  std::vector<GenerationReport> reports;
  std::vector<std::size_t> finished;

  bool on_round(const std::vector<GenerationReport>& round, Engine&) override {
    reports.insert(reports.end(), round.begin(), round.end());
    const bool reached = std::any_of(round.begin(), round.end(),
                                     [&](const auto& r) { return r.generation >= stop_at; });
    if (reached && by_interrupt) g_interrupted.store(true);
    return !reached || by_interrupt;
  }
  void on_result(std::size_t run, const RunResult&) override { finished.push_back(run); }
  std::uint32_t cadence() const override { return every; }
};

std::vector<RunResult> run(const std::vector<RunRequest>& requests, const RunLimits& limits,
                           Recorder& observer, std::uint32_t slots = 1,
                           const EngineParams& p = small_params()) {
  auto engine = make_cpu_engine(requests[0].puzzle, p, 2, slots);
  return run_many(*engine, requests, limits, observer);
}

// Three runs of the hard puzzle, for two slots: the third waits for a free one.
std::vector<RunRequest> three_hard_runs() {
  return {{grid_of(kHardPuzzle), 1}, {grid_of(kHardPuzzle), 2}, {grid_of(kHardPuzzle), 3}};
}

// An engine that plays a script instead of a GA: island k of its one run reaches fitness 0 at
// generation solve_at[k] (kNever: never) and holds a solution only it has, under island.hpp's
// rules (an island stops at its solving generation; the run halts at the next halt check that
// finds one solved); every island costs `children` evaluations a generation.
class ScriptedEngine : public Engine {
 public:
  ScriptedEngine(IslandParams p, std::vector<std::uint32_t> solve_at)
      : p_(p), solve_at_(std::move(solve_at)), states_(solve_at_.size()) {
    p_.islands = static_cast<std::uint32_t>(solve_at_.size());
    p_.halt_interval = halt_interval_for(p_.ga);
  }
  std::uint32_t slots() const override { return 1; }
  const IslandParams& params() const override { return p_; }
  void set_run(std::uint32_t, const Grid&, std::uint64_t) override {}
  void advance(const std::vector<RunTask>& tasks) override {
    const RunTask task = tasks[0];
    if (task.action == RunAction::Init)
      for (auto& s : states_) s = IslandState{}, s.evaluations = p_.ga.individuals;
    std::uint32_t& clock = states_[0].clock;
    while (clock < task.target && !states_[0].halted) {
      const std::uint32_t to = next_stop(clock, task.target, p_.migration_interval, p_.halt_interval);
      bool any_solved = false;
      for (std::size_t k = 0; k < states_.size(); ++k) {
        IslandState& s = states_[k];
        for (std::uint32_t g = s.clock + 1; g <= to && s.solved == kNever; ++g) {
          s.evaluations += p_.ga.children;
          if (g == solve_at_[k]) s.solved = g;
        }
        s.clock = to;
        any_solved = any_solved || s.solved != kNever;
      }
      if (to % p_.halt_interval == 0 && any_solved)
        for (auto& s : states_) s.halted = 1;
    }
  }
  std::vector<IslandSummary> summaries() override {
    std::vector<IslandSummary> out(states_.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
      out[k].state = states_[k];
      out[k].best = out[k].worst = out[k].state.best_ever = states_[k].solved == kNever ? 4 : 0;
    }
    return out;
  }
  // Island k's solution: the easy puzzle's, its digits shifted by k.
  Grid best(std::uint32_t, std::uint32_t island) override {
    Grid g = grid_of(kEasySolution);
    for (auto& v : g.cell) v = static_cast<std::uint8_t>((v - 1 + island) % 9 + 1);
    return g;
  }
  std::vector<std::uint8_t> population(std::uint32_t) override { return {}; }
  std::vector<Fitness> fitness(std::uint32_t) override { return {}; }
  PhaseTimes phase_times() override { return {}; }
  std::string placement() const override { return "a script"; }
  void link_ring(RingLink*, std::uint32_t, std::uint32_t) override { ADD_FAILURE() << "no ring here"; }
  std::vector<std::uint8_t> snapshot(std::uint32_t) override {
    ADD_FAILURE() << "no checkpoints here";
    return {};
  }
  void restore(std::uint32_t, const std::vector<std::uint8_t>&) override {
    ADD_FAILURE() << "no checkpoints here";
  }

 private:
  IslandParams p_;
  std::vector<std::uint32_t> solve_at_;
  std::vector<IslandState> states_;
};

class Driver : public ::testing::Test {
 protected:
  void TearDown() override { g_interrupted.store(false); }
};

}  // namespace

TEST_F(Driver, ASolvedRunEndsAtTheGenerationItsSolutionAppearedWithAVerifiedGrid) {
  Recorder obs;
  const auto r = run({{grid_of(kEasyPuzzle), 17}}, {200, 0}, obs)[0];
  EXPECT_TRUE(r.solved);
  EXPECT_EQ(r.stop_reason, StopReason::Solved);
  EXPECT_EQ(r.best_fitness, 0u);
  EXPECT_TRUE(verify_solution(grid_of(kEasyPuzzle), r.best).ok);
  EXPECT_EQ(r.best, grid_of(kEasySolution));
  ASSERT_FALSE(obs.reports.empty());
  // The solution appeared at r.generations: the report before it had none, the last one has it.
  EXPECT_LT(r.generations, 200u);
  EXPECT_LE(r.generations, obs.reports.back().generation);
  for (const auto& rep : obs.reports)
    if (rep.generation < r.generations) EXPECT_GT(rep.summary.best, 0u) << rep.generation;
  EXPECT_EQ(obs.reports.back().summary.best, 0u);
  EXPECT_EQ(obs.finished, std::vector<std::size_t>{0});
}

TEST_F(Driver, ASolvedRunEndsAtItsHaltCheck) {
  // With local search a generation is costly and every generation is a halt check: the run's
  // last generation is its solving one, and its evaluations end there. The plain GA checks every
  // kHaltInterval generations: the run ends at the next multiple.
  for (const std::uint32_t local_search : {20u, 0u}) {
    EngineParams p = small_params(5);
    p.ga.local_search = local_search;
    if (!local_search) {  // the plain GA: enough individuals, crossover and mutation to solve it
      p.ga.individuals = p.ga.children = 500;
      p.ga.crossover = Crossover::Bands;
      p.ga.crossover_threshold = p.ga.mutation_threshold = rate_threshold(1.0);
    }
    p.halt_interval = halt_interval_for(p.ga);
    EXPECT_EQ(p.halt_interval, local_search ? 1u : kHaltInterval);
    Recorder obs;
    const auto r = run({{grid_of(kEasyPuzzle), 5}}, {2000, 0}, obs, 1, p)[0];
    ASSERT_TRUE(r.solved) << "local search " << local_search;
    const GenerationReport& last = obs.reports.back();
    if (local_search) {
      EXPECT_EQ(last.generation, r.generations);
    } else {
      EXPECT_EQ(last.generation % kHaltInterval, 0u);
      EXPECT_LT(last.generation - r.generations, kHaltInterval);
    }
    EXPECT_EQ(r.evaluations, last.evaluations);
  }
}

TEST_F(Driver, AnEngineRefusesIslandsThatHaltOtherwiseThanTheirConfiguration) {
  EngineParams p = small_params();  // local search: a halt check every generation
  p.halt_interval = kHaltInterval;
  EXPECT_THROW(make_cpu_engine(grid_of(kEasyPuzzle), p, 1), std::logic_error);
  p.halt_interval = 1;
  EXPECT_NO_THROW(make_cpu_engine(grid_of(kEasyPuzzle), p, 1));
}

TEST_F(Driver, ARunReportsItsEarliestSolvingGenerationAndOnATieItsLowestIsland) {
  // Islands 2 and 3 solve at generation 3, island 1 at 6, island 0 at 8: the run's solution is
  // island 2's, at generation 3, whatever the halt interval and however often the host looks.
  const std::vector<std::uint32_t> solve_at = {8, 6, 3, 3};
  const Grid blank(3);  // every island's grid completes it
  for (const std::uint32_t local_search : {20u, 0u})
    for (const std::uint32_t every : {0u, 1u, 7u}) {
      EngineParams p = small_params();
      p.ga.local_search = local_search;
      ScriptedEngine engine(p, solve_at);
      Recorder obs;
      obs.every = every;
      const RunResult r = run_many(engine, {{blank, 1}}, {100, 0}, obs)[0];
      SCOPED_TRACE("local search " + std::to_string(local_search) + ", every " + std::to_string(every));
      ASSERT_TRUE(r.solved);
      EXPECT_EQ(r.generations, 3u);
      EXPECT_EQ(r.island, 2u);
      EXPECT_EQ(r.best, engine.best(0, 2));
      // Every island runs to the halt check or its own solving generation, whichever is first.
      const std::uint32_t halt = local_search ? 3 : kHaltInterval;
      std::uint64_t generations = 0;
      for (const std::uint32_t g : solve_at) generations += std::min(g, halt);
      EXPECT_EQ(r.evaluations, solve_at.size() * p.ga.individuals + generations * p.ga.children);
      EXPECT_EQ(obs.reports.back().generation, halt);
    }
}

TEST_F(Driver, AGenerationLimitEndsARunExactlyThere) {
  Recorder obs;
  const auto r = run({{grid_of(kHardPuzzle), 17}}, {23, 0}, obs)[0];
  EXPECT_FALSE(r.solved);
  EXPECT_EQ(r.stop_reason, StopReason::MaxGenerations);
  EXPECT_EQ(r.generations, 23u);
  EXPECT_EQ(obs.reports.back().generation, 23u);
  EXPECT_GT(r.best_fitness, 0u);
  EXPECT_EQ(r.evaluations, obs.reports.back().evaluations);
}

TEST_F(Driver, ATimeLimitEndsARunAfterItsSeconds) {
  Recorder obs;
  const auto r = run({{grid_of(kNoSolution), 17}}, {0, 0.2}, obs)[0];
  EXPECT_EQ(r.stop_reason, StopReason::TimeLimit);
  EXPECT_GE(r.seconds, 0.2);
  EXPECT_GT(r.generations, 0u);
  EXPECT_EQ(r.generations, obs.reports.back().generation);
}

// Whether a run's best is an individual of the puzzle with the fitness the run reports: cells
// 1..9 (or blank, 0, where a repair left one), the givens kept, the conflicts counted as the
// engine counts them.
void expect_a_real_best(const RunResult& r, const std::string& puzzle, const GaParams& ga) {
  const Grid given = grid_of(puzzle);
  ASSERT_EQ(r.best.cell.size(), given.cell.size());
  std::vector<std::uint8_t> genome(Shape<3>::kGenomeBytes, 0);
  for (std::size_t c = 0; c < given.cell.size(); ++c) {
    ASSERT_LE(r.best.cell[c], 9) << "cell " << c;
    if (given.cell[c]) ASSERT_EQ(r.best.cell[c], given.cell[c]) << "given " << c;
    genome[c] = r.best.cell[c];
  }
  EXPECT_EQ(evaluate<3>(genome.data(), ga, nullptr), r.best_fitness);
}

// The time limit's tolerance (--time-limit): 10 %, at least 0.25 s.
double tolerance(double limit) { return std::max(0.1 * limit, 0.25); }

// A run of the puzzle without a solution under a limit of `limit` seconds, on one thread: it stops
// for the time limit, after the limit and within its tolerance.
RunResult run_to_time_limit(const EngineParams& p, double limit) {
  Recorder obs;
  const RunResult r = run({{grid_of(kNoSolution), 17}}, {0, limit}, obs, 1, p)[0];
  EXPECT_EQ(r.stop_reason, StopReason::TimeLimit);
  EXPECT_GE(r.seconds, limit);
  EXPECT_LE(r.seconds, limit + tolerance(limit));
  return r;
}

// A generation of seconds (400 islands, 20,000 local-search moves a child, on two threads): the
// limit still holds, since each island stops where the deadline finds it; its evaluations show
// the first generation cut short (not every island reached the run's clock). Migrating every
// generation: an island that reached it takes no emigrants from one cut short (none yet).
TEST_F(Driver, ATimeLimitHoldsInsideAGenerationThatTakesSeconds) {
  EngineParams p = small_params();
  p.islands = 400;
  p.ga.local_search = 20000;
  p.migration_interval = 1;
  const RunResult r = run_to_time_limit(p, 0.5);
  const std::uint64_t made = std::uint64_t(p.islands) * p.ga.individuals;
  const std::uint64_t generation =
      std::uint64_t(p.islands) * (p.ga.children + (p.ga.children - p.ga.elite) * p.ga.local_search);
  EXPECT_NE((r.evaluations - made) % generation, 0u) << r.evaluations << " evaluations";
  expect_a_real_best(r, kNoSolution, p.ga);
}

// Generation 0 of seconds (20,000 islands, each individual repaired): the islands the deadline
// finds unmade stay so, island 0 always made; the figures are the made islands'.
TEST_F(Driver, ATimeLimitHoldsWhileTheIslandsAreMade) {
  EngineParams p = repaired_params();
  p.islands = 20000;
  Recorder obs;
  const double limit = 0.3;
  const auto r = run({{grid_of(kNoSolution), 17}}, {0, limit}, obs, 1, p)[0];
  EXPECT_EQ(r.stop_reason, StopReason::TimeLimit);
  EXPECT_LE(r.seconds, limit + tolerance(limit));
  EXPECT_EQ(r.generations, 0u);
  EXPECT_LT(r.evaluations, std::uint64_t(p.islands) * p.ga.individuals);
  EXPECT_GE(r.evaluations, p.ga.individuals);
  const Summary& s = obs.reports.back().summary;
  EXPECT_LE(s.best, s.mean);
  EXPECT_LE(s.mean, s.worst);
  EXPECT_LT(s.worst, kNoFitness);
  expect_a_real_best(r, kNoSolution, p.ga);
}

// Tabu searches of a billion steps on a puzzle without a solution, which only the deadline ends
// (tabu.hpp: a search looks at the run's deadline every kDeadlineSteps steps): generation 0
// stops in time, and its best is a real grid.
TEST_F(Driver, ATimeLimitHoldsInsideTabuSearchesThatWouldTakeHours) {
  EngineParams p = repaired_params();
  p.ga.local_search = 0;
  p.ga.tabu = 1u << 30;
  p.halt_interval = halt_interval_for(p.ga);
  const RunResult r = run_to_time_limit(p, 0.3);
  EXPECT_EQ(r.generations, 0u);
  EXPECT_LT(r.evaluations, std::uint64_t(p.islands) * p.ga.individuals * p.ga.tabu);
  expect_a_real_best(r, kNoSolution, p.ga);
}

// A deadline that does not come changes nothing: the same run with and without one.
TEST_F(Driver, ATimeLimitNotReachedChangesNoResult) {
  Recorder a, b;
  const auto x = run({{grid_of(kHardPuzzle), 5}}, {40, 0}, a)[0];
  const auto y = run({{grid_of(kHardPuzzle), 5}}, {40, 1000}, b)[0];
  EXPECT_EQ(std::tie(x.generations, x.evaluations, x.best_fitness, x.island, x.stop_reason),
            std::tie(y.generations, y.evaluations, y.best_fitness, y.island, y.stop_reason));
  EXPECT_EQ(x.best, y.best);
}

// What other processes would say (host/mpi): the clock of rank 0, a Ctrl-C elsewhere.
class Say : public Consensus {
 public:
  double elapsed = -1;      // every run's elapsed seconds, when >= 0
  int interrupt_at = -1;    // the round (0: before the first run) at which Ctrl-C comes
  int rounds = 0;
  void agree(RoundFacts& f) override {
    if (elapsed >= 0) std::fill(f.elapsed.begin(), f.elapsed.end(), elapsed);
    if (rounds++ == interrupt_at) f.interrupted = true;
  }
};

TEST_F(Driver, TheConsensusClockDecidesTimeLimits) {
  Recorder obs;
  Say say;
  say.elapsed = 100;  // this process has run for milliseconds, the consensus says 100 s
  auto engine = make_cpu_engine(grid_of(kNoSolution), small_params(), 2, 1);
  const auto r = run_many(*engine, {{grid_of(kNoSolution), 17}}, {0, 60}, obs, &say)[0];
  EXPECT_EQ(r.stop_reason, StopReason::TimeLimit);
  EXPECT_EQ(r.generations, 0u);  // after the first epoch, which makes the islands
  EXPECT_LT(r.seconds, 60);
}

TEST_F(Driver, ACtrlCElsewhereStopsTheRunsAndStartsNoMore) {
  for (const int at : {0, 2}) {
    Recorder obs;
    Say say;
    say.interrupt_at = at;
    auto engine = make_cpu_engine(grid_of(kHardPuzzle), small_params(), 2, 2);
    const auto results = run_many(*engine, three_hard_runs(), {100, 0}, obs, &say);
    EXPECT_TRUE(g_interrupted.load()) << at;
    g_interrupted.store(false);
    EXPECT_EQ(results[2].stop_reason, StopReason::None) << "the third run never started";
    for (std::size_t k : {0, 1}) {
      EXPECT_EQ(results[k].stop_reason, at ? StopReason::Interrupted : StopReason::None) << at;
      EXPECT_LT(results[k].generations, 100u);
    }
  }
}

TEST_F(Driver, CtrlCEndsTheRunningRunsAndStartsNoMore) {
  Recorder obs;
  obs.stop_at = 6;
  obs.by_interrupt = true;
  obs.every = 3;
  const auto results = run(three_hard_runs(), {1000, 0}, obs, 2);
  EXPECT_EQ(results[0].stop_reason, StopReason::Interrupted);
  EXPECT_EQ(results[1].stop_reason, StopReason::Interrupted);
  EXPECT_EQ(results[0].generations, 6u);
  EXPECT_EQ(results[2].stop_reason, StopReason::None) << "a run was started after Ctrl-C";
  EXPECT_EQ(obs.finished.size(), 2u);
}

TEST_F(Driver, AnObserverThatSaysStopEndsEveryRun) {
  Recorder obs;
  obs.stop_at = 4;
  obs.every = 2;
  const auto results = run(three_hard_runs(), {1000, 0}, obs, 2);
  EXPECT_EQ(results[0].stop_reason, StopReason::Stopped);
  EXPECT_EQ(results[1].stop_reason, StopReason::Stopped);
  EXPECT_EQ(results[0].generations, 4u);
  EXPECT_EQ(results[2].stop_reason, StopReason::None) << "a run was started after the stop";
}

TEST_F(Driver, AnEpochEndsAtEveryMultipleOfTheObserversCadence) {
  Recorder obs;
  obs.every = 7;
  run({{grid_of(kHardPuzzle), 17}}, {30, 0}, obs);
  std::set<std::uint32_t> seen;
  for (const auto& rep : obs.reports) seen.insert(rep.generation);
  for (std::uint32_t g : {0u, 7u, 14u, 21u, 28u, 30u}) EXPECT_TRUE(seen.count(g)) << g;
  EXPECT_EQ(*seen.rbegin(), 30u);
}

TEST_F(Driver, ManyRunsShareTheSlotsAndEachComputesWhatItWouldAlone) {
  // Five runs (easy and hard puzzles, each its own seed) on two slots, against each alone.
  std::vector<RunRequest> requests;
  for (std::uint64_t i = 0; i < 5; ++i)
    requests.push_back({grid_of(i % 2 ? kHardPuzzle : kEasyPuzzle), 100 + i});
  const RunLimits limits{40, 0};
  Recorder shared;
  const auto together = run(requests, limits, shared, 2);
  std::set<std::uint32_t> slots;
  for (const auto& rep : shared.reports) slots.insert(rep.slot);
  EXPECT_EQ(slots, (std::set<std::uint32_t>{0, 1}));
  EXPECT_EQ(shared.finished.size(), 5u);
  EXPECT_TRUE(std::any_of(together.begin(), together.end(), [](const auto& r) { return r.solved; }))
      << "no run solved: the test would not see a solved run end in a shared slot";
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Recorder alone_obs;
    const auto alone = run({requests[i]}, limits, alone_obs)[0];
    const RunResult& t = together[i];
    EXPECT_EQ(t.stop_reason, alone.stop_reason) << "run " << i;
    EXPECT_EQ(t.solved, alone.solved) << "run " << i;
    if (i % 2) EXPECT_FALSE(t.solved) << "run " << i;
    EXPECT_EQ(t.generations, alone.generations) << "run " << i;
    EXPECT_EQ(t.evaluations, alone.evaluations) << "run " << i;
    EXPECT_EQ(t.best, alone.best) << "run " << i;
    EXPECT_EQ(t.island, alone.island) << "run " << i;
    EXPECT_EQ(t.seed, requests[i].seed) << "run " << i;
  }
}

TEST_F(Driver, EpochsStayShortWhileSlotsStandIdleWithRunsWaiting) {
  // A slot takes its next run only between epochs, so an epoch far longer than the runs leaves
  // slots idle (on a GPU, idle multiprocessors). One run that never solves shares two slots with
  // a queue of easy runs that solve in 2 to 140 generations: once the first has ended, the epochs
  // (the steps between the endless run's reports) stay as short as the first free slot needed
  // while runs wait. Generations this cheap would otherwise double the epoch towards its 0.1 s,
  // hundreds of generations here.
  std::vector<RunRequest> requests{{grid_of(kNoSolution), 1}};
  for (std::uint64_t i = 0; i < 12; ++i) requests.push_back({grid_of(kEasyPuzzle), 10 + i});
  Recorder obs;
  const auto results = run(requests, {3000, 0}, obs, 2);
  const auto last_easy = std::find_if(obs.reports.rbegin(), obs.reports.rend(),
                                      [](const auto& r) { return r.run != 0; });
  ASSERT_NE(last_easy, obs.reports.rend());
  // From the second easy run's start (the first ended: a slot stood idle) to the last's end.
  const auto second = std::find_if(obs.reports.begin(), obs.reports.end(),
                                   [](const auto& r) { return r.run == 2; });
  std::uint32_t before = 0, widest = 0;
  for (auto it = obs.reports.begin(); it != last_easy.base(); ++it)
    if (it->run == 0) {
      const std::uint32_t step = it->generation - std::exchange(before, it->generation);
      if (it > second) widest = std::max(widest, step);
    }
  EXPECT_LE(widest, 16u) << "the endless run went on in epochs of up to " << widest
                         << " generations while easy runs waited";
  EXPECT_GT(before, 30u) << "too few generations to see the epochs grow";
  EXPECT_EQ(std::count_if(results.begin(), results.end(), [](const auto& r) { return r.solved; }), 12)
      << "the easy runs must solve, each within an epoch";
  // With no run waiting the epochs grow again: the endless run reaches its limit.
  EXPECT_EQ(results[0].stop_reason, StopReason::MaxGenerations);
}

TEST(LimitText, ABarOfTheNearerLimitWithTheTimeItLeaves) {
  GenerationReport r;
  r.generation = 25;
  r.elapsed = 24;
  EXPECT_EQ(limit_text(r, {}, 20), "");  // no limit: no bar
  EXPECT_EQ(limit_text(r, {0, 60}, 20), "[########............] 40 % of the time limit (60 s), 36 s left");
  // 25 of 200 generations in 24 s: the 175 to go at that pace take 168 s.
  EXPECT_EQ(limit_text(r, {200, 0}, 20), "[##..................] 12 % of --max-generations 200, 168 s left");
  // Both: the nearer, the time limit here (40 % against 12 %), then the generations (50 % against 40 %).
  EXPECT_EQ(limit_text(r, {200, 60}, 20), limit_text(r, {0, 60}, 20));
  EXPECT_NE(limit_text(r, {50, 60}, 20).find("50 % of --max-generations 50, 24 s left"), std::string::npos);
  r.generation = 0;
  EXPECT_NE(limit_text(r, {50, 0}, 20).find("time left unknown"), std::string::npos);
  r.elapsed = 90;  // past the limit (a generation overran it): full, none left
  EXPECT_EQ(limit_text(r, {0, 60}, 10), "[##########] 100 % of the time limit (60 s), 0 s left");
}
