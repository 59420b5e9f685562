// Runs whose islands grow (--grow-after, engine/growing_engine.cpp): each stage computes what its
// configuration does alone from the same seed, the run's figures add up over the stages, its best
// grid is the best of them all, and a snapshot taken in a later stage continues exactly, alone or
// beside other runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "gpuga/bench.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"
#include "gpuga/solve.hpp"
#include "grids.hpp"
#include "plans.hpp"

using namespace gpuga;

namespace {

// The bench's puzzle, which has no solution (test_bench proves it): every stage runs to its end.
const std::string kUnsolvable = bench_puzzle();

// Two islands of 4 at first, a little local search (so stages of exactly --grow-after).
RunOptions growing_config(std::uint32_t grow_after, std::uint32_t max_generations) {
  RunOptions c;
  c.backend = Backend::Cpu;
  c.threads = 2;
  c.pop = 8;
  c.island_size = 4;
  c.local_search = 5;
  c.restart_after = 4;
  c.migration_interval = 3;
  c.grow_after = grow_after;
  c.presolve = Propagation::None;  // the search does it all
  c.max_generations = max_generations;
  c.time_limit = 0;
  c.seed = 7;
  return c;
}

// Stage k of a run that grows: its islands 2^k times the size, as many of them, no growth.
RunOptions stage(RunOptions c, std::uint32_t k) {
  c.island_size = *c.island_size << k;
  c.pop = *c.pop << k;
  c.grow_after = 0;
  return c;
}

RunPlan plan_of(const RunOptions& c) { return plan_on(c, Backend::Cpu, 3, false, 2); }

RunResult solve_with(const std::string& puzzle, const RunOptions& c) {
  return solve(grid_of(puzzle), c).result;
}

std::unique_ptr<Engine> growing_engine(const RunOptions& c, const Grid& puzzle, std::uint32_t slots = 1) {
  const RunPlan p = plan_of(c);
  return make_growing_engine(
      [puzzle, slots](const EngineParams& p) { return make_cpu_engine(puzzle, p, 2, slots); },
      p.stages, puzzle, p.config.grow_after);
}

}  // namespace

TEST(Growth, AnUnsolvedRunIsItsStagesOneAfterAnother) {
  const RunOptions c = growing_config(3, 10);
  const RunResult grown = solve_with(kUnsolvable, c);
  EXPECT_EQ(grown.generations, 10u);
  EXPECT_EQ(grown.growths, kMaxGrowths);
  EXPECT_EQ(grown.stop_reason, StopReason::MaxGenerations);
  // Each stage alone: 3, 3 and the last 4 generations.
  std::vector<RunResult> alone;
  for (std::uint32_t k = 0; k <= kMaxGrowths; ++k) {
    RunOptions s = stage(c, k);
    s.max_generations = k < kMaxGrowths ? 3 : 4;
    alone.push_back(solve_with(kUnsolvable, s));
    EXPECT_EQ(alone.back().growths, 0u);
  }
  std::uint64_t evaluations = 0;
  std::uint32_t restarts = 0;
  Fitness best = alone[0].best_fitness;
  for (const RunResult& r : alone) {
    evaluations += r.evaluations;
    restarts += r.restarts;
    best = std::min(best, r.best_fitness);
  }
  EXPECT_EQ(grown.evaluations, evaluations);
  EXPECT_EQ(grown.restarts, restarts);
  EXPECT_EQ(grown.best_fitness, best);
  // The best grid: of the lowest island that held the best fitness in any stage, the earliest.
  const RunResult* holder = nullptr;
  for (const RunResult& r : alone)
    if (r.best_fitness == best && (!holder || r.island < holder->island)) holder = &r;
  EXPECT_EQ(grown.island, holder->island);
  EXPECT_EQ(grown.best, holder->best);
}

TEST(Growth, ASolvedRunIsTheStageThatSolvedItAfterTheOthers) {
  // Islands of 4 do not solve the easy puzzle in 2 generations; larger ones do, later.
  const RunOptions c = growing_config(2, 500);
  const RunResult grown = solve_with(kEasyPuzzle, c);
  ASSERT_TRUE(grown.solved);
  ASSERT_GE(grown.growths, 1u);
  RunOptions last = stage(c, grown.growths);
  const RunResult alone = solve_with(kEasyPuzzle, last);
  ASSERT_TRUE(alone.solved);
  EXPECT_EQ(grown.generations, grown.growths * 2 + alone.generations);
  EXPECT_EQ(grown.best, alone.best);
  EXPECT_EQ(grown.island, alone.island);
  std::uint64_t earlier = 0;
  for (std::uint32_t k = 0; k < grown.growths; ++k) {
    RunOptions s = stage(c, k);
    s.max_generations = 2;
    const RunResult r = solve_with(kEasyPuzzle, s);
    EXPECT_FALSE(r.solved);
    earlier += r.evaluations;
  }
  EXPECT_EQ(grown.evaluations, earlier + alone.evaluations);
}

TEST(Growth, TheLastStageHoldsThePopulationOfItsConfigurationAlone) {
  const RunOptions c = growing_config(3, 0);
  const Grid puzzle = grid_of(kUnsolvable);
  auto grown = growing_engine(c, puzzle);
  grown->initialize();
  grown->advance_to(2 * 3 + 5);
  EXPECT_EQ(grown->run_params(0).ga.individuals, 16u);
  auto alone = make_cpu_engine(puzzle, plan_of(stage(c, 2)).engine_params(), 2);
  alone->initialize();
  alone->advance_to(5);
  EXPECT_EQ(grown->population(0), alone->population(0));
  EXPECT_EQ(grown->fitness(0), alone->fitness(0));
}

TEST(Growth, ASnapshotInALaterStageContinuesExactly) {
  const RunOptions c = growing_config(3, 0);
  const Grid puzzle = grid_of(kUnsolvable);
  auto through = growing_engine(c, puzzle);
  through->initialize();
  through->advance_to(4);  // stage 1
  const std::vector<std::uint8_t> saved = through->snapshot(0);
  auto resumed = growing_engine(c, puzzle, 2);  // a second slot the driver has not given a run
  resumed->set_run(0, puzzle, *c.seed);
  resumed->restore(0, saved);
  EXPECT_EQ(resumed->summaries().size(), 2u * 2);  // what the driver reads on resuming
  EXPECT_EQ(resumed->snapshot(0), saved);
  EXPECT_EQ(resumed->run_params(0).ga.individuals, 8u);
  through->advance_to(9);  // across the next growth
  resumed->advance_to(9);
  EXPECT_EQ(resumed->snapshot(0), through->snapshot(0));
  EXPECT_EQ(resumed->population(0), through->population(0));
  // A state cut short, or of another stage count, is refused with a message.
  std::vector<std::uint8_t> cut(saved.begin(), saved.end() - 1);
  EXPECT_THROW(resumed->restore(0, cut), InputError);
  std::vector<std::uint8_t> far = saved;
  far[kRunSnapshotHeader] = 7;  // island 0's stage
  EXPECT_THROW(resumed->restore(0, far), InputError);
}

TEST(Growth, RunsSideBySideGrowAsEachAlone) {
  // Three runs on two slots: the third starts at stage 0 in a slot whose run had grown.
  const RunOptions c = growing_config(2, 30);
  const std::vector<RunRequest> requests = {
      {grid_of(kEasyPuzzle), 1}, {grid_of(kUnsolvable), 2}, {grid_of(kEasyPuzzle), 3}};
  RunObserver quiet;
  auto together = growing_engine(c, requests[0].puzzle, 2);
  const auto side_by_side = run_many(*together, requests, plan_of(c).limits(), quiet);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    auto one = growing_engine(c, requests[i].puzzle);
    const RunResult alone = run_many(*one, {requests[i]}, plan_of(c).limits(), quiet).front();
    EXPECT_EQ(side_by_side[i].solved, alone.solved) << i;
    EXPECT_EQ(side_by_side[i].generations, alone.generations) << i;
    EXPECT_EQ(side_by_side[i].growths, alone.growths) << i;
    EXPECT_EQ(side_by_side[i].evaluations, alone.evaluations) << i;
    EXPECT_EQ(side_by_side[i].best, alone.best) << i;
  }
  EXPECT_EQ(side_by_side[1].growths, kMaxGrowths);
}

TEST(Growth, TheOptionIsTheGasAndRecordedAsTheStageLength) {
  RunOptions c = growing_config(3, 10);
  EXPECT_EQ(plan_of(c).config.grow_after, 3u);
  c.local_search = 0;  // the plain GA looks for a solved island every 10 generations
  EXPECT_EQ(plan_of(c).config.grow_after, 10u);
  EXPECT_EQ(plan_of(c).stages[1].ga.individuals, 8u);
  EXPECT_EQ(plan_of(c).stages[1].islands, 2u);
  c.grow_after = 0;
  EXPECT_EQ(plan_of(c).config.grow_after, 0u);
  RunOptions sa = growing_config(3, 10);
  sa.algorithm = Algorithm::Sa;
  try {
    plan_of(sa);
    FAIL() << "sa with --grow-after 3 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--grow-after 3 with --algorithm sa"), std::string::npos) << e.what();
  }
  sa.grow_after = std::nullopt;  // auto
  EXPECT_EQ(plan_of(sa).config.grow_after, 0u);
}

TEST(Growth, PhaseTimesAddUpToNoMoreThanTheRunsWallTime) {
  // The stages' engines count their phases on one ledger (engine/phase_ledger.hpp).
  const RunOptions c = growing_config(3, 12);
  const Grid puzzle = grid_of(kUnsolvable);
  const auto t0 = std::chrono::steady_clock::now();
  auto e = growing_engine(c, puzzle);
  e->initialize(0);
  for (std::uint32_t target = 2; target <= 12; target += 2) {
    e->advance_to(target);
    e->summaries();
  }
  const PhaseTimes t = e->phase_times();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(e->run_params(0).ga.individuals, 4 * *c.island_size);
  EXPECT_GT(t.advance, 0.0);
  EXPECT_GT(t.summary, 0.0);
  EXPECT_LE(t.advance + t.summary, wall);
}
