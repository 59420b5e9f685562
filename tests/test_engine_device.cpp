// The device engine (engine/island_engine.hpp on cuda/device_system.hpp) computes the same bytes
// as the CPU backend: for every encoding, selection, crossover and fitness option, with
// restarts, migration and halting, its islands, fitness, summaries and best grids equal the
// CPU's after every epoch, and run by run. Each test runs the engine twice over: compiled for
// Thrust's OpenMP system (always: each island a team of three OpenMP threads with real barriers,
// staged like shared memory, so CI checks the team code without a GPU) and compiled for CUDA,
// on the GPU (skipped, saying why, when no CUDA device is present).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <sstream>
#include <tuple>

#include "configs.hpp"
#include "paths.hpp"
#include "device_engine_omp.hpp"
#include "gpuga/bench.hpp"
#include "gpuga/defaults.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/engine_cuda.hpp"
#include "gpuga/launch_policy.hpp"
#include "gpuga/errors.hpp"
#include "grids.hpp"
#include "plans.hpp"
#include "limits.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/run_config.hpp"

using namespace gpuga;

namespace {

enum class System { Omp, Cuda };

std::string system_name(System s) { return s == System::Omp ? "omp" : "cuda"; }
void PrintTo(System s, std::ostream* os) { *os << system_name(s); }

// Why the engine cannot run on `s` here ("" when it can). GTEST_SKIP must be in the test body
// itself, so each test calls it on this.
std::string skip_reason(System s) {
  if (s == System::Omp) return "";
  const DeviceList list = list_devices();
  return list.devices.empty() ? "no GPU: " + list.reason : "";
}

// Whether `s` runs box size `box` in this build: CUDA compiles the sizes of GPUGA_CUDA_SIZES only
// (the suite's build takes 9x9 alone, scripts/test), and refuses the rest naming the option.
bool builds_size(System s, const Grid& puzzle) {
  if (s == System::Omp) return true;
  try {
    probe_cuda(puzzle.box, 0);
    return true;
  } catch (const InputError& e) {
    if (std::string(e.what()).find("GPUGA_CUDA_SIZES") == std::string::npos) throw;
    return false;
  }
}

// The puzzles of `all` whose sizes `s` runs in this build, saying on stdout which it leaves out
// (a test then skips where it leaves out every one: skip_built).
std::vector<Grid> built_only(System s, const std::vector<Grid>& all) {
  std::vector<Grid> out;
  for (const Grid& puzzle : all) {
    if (builds_size(s, puzzle)) out.push_back(puzzle);
    else std::cout << "left out: " << size_name(puzzle) << ", which this build's CUDA does not compile (GPUGA_CUDA_SIZES)\n";
  }
  return out;
}

std::unique_ptr<Engine> make_device(System s, const Grid& puzzle, const EngineParams& p,
                                    std::uint32_t runs = 1) {
  if (s == System::Omp) return make_device_engine_omp(puzzle, p, runs);
  return make_cuda_engine(puzzle, p, 0, runs);
}

// The GPU's plan for 9x9 islands of `size`, `islands` of them, growing after 2 generations (the
// plain GA, whose rows grow, at a CI-sized local search).
RunPlan growing_9x9_plan(std::uint32_t islands, std::uint32_t size, std::uint64_t seed) {
  RunOptions c;
  c.repair = Repair::None;
  c.pop = islands * size;
  c.island_size = size;
  c.seed = seed;
  c.local_search = 20;
  c.grow_after = 2;
  return plan_on(c, Backend::Cuda, 3);
}

// The most shared memory a block of an H100 or H200 may opt in to: islands whose staged bytes
// exceed it run from device memory there, and on the twin when it is given this limit.
constexpr std::uint64_t kHopperStageLimit = 227 * 1024;

// An engine whose islands run from their home when they are larger than a GPU stages: on the
// GPU, as it decides; on the twin, staged only within kHopperStageLimit.
std::unique_ptr<Engine> make_device_unstaged(System s, const Grid& puzzle, const EngineParams& p) {
  if (s == System::Omp) return make_device_engine_omp(puzzle, p, 1, kHopperStageLimit);
  return make_cuda_engine(puzzle, p, 0, 1);
}

void expect_same(Engine& cpu, Engine& dev, std::uint32_t run, const std::string& where) {
  ASSERT_EQ(cpu.population(run), dev.population(run)) << "population differs " << where;
  ASSERT_EQ(cpu.fitness(run), dev.fitness(run)) << "fitness differs " << where;
  const auto a = cpu.summaries(), b = dev.summaries();
  const std::uint32_t K = cpu.params().islands;
  for (std::uint32_t k = run * K; k < (run + 1) * K; ++k) {
    const IslandState &x = a[k].state, &y = b[k].state;
    EXPECT_EQ(std::tie(x.clock, x.evaluations, x.restarts, x.last_improvement, x.solved,
                       x.best_ever, x.halted, x.side),
              std::tie(y.clock, y.evaluations, y.restarts, y.last_improvement, y.solved,
                       y.best_ever, y.halted, y.side))
        << "island state " << k << " " << where;
    EXPECT_EQ(std::tie(a[k].best, a[k].worst, a[k].best_index, a[k].fitness_sum, a[k].distance_sum,
                       a[k].temperature_sum),
              std::tie(b[k].best, b[k].worst, b[k].best_index, b[k].fitness_sum, b[k].distance_sum,
                       b[k].temperature_sum))
        << "island summary " << k << " " << where;
    const Grid g = cpu.best(run, k - run * K), h = dev.best(run, k - run * K);
    EXPECT_EQ(g, h) << "best grid " << k << " " << where;
  }
}

// Both engines started at `init` and advanced to `target`, then compared.
void expect_same_after(System s, const Grid& puzzle, const EngineParams& p,
                       std::uint32_t init, std::uint32_t target, const std::string& where) {
  auto cpu = make_cpu_engine(puzzle, p, 2);
  auto dev = make_device(s, puzzle, p);
  cpu->initialize(init);
  dev->initialize(init);
  cpu->advance_to(target);
  dev->advance_to(target);
  expect_same(*cpu, *dev, 0, where);
}

class DeviceEqualsCpu : public ::testing::TestWithParam<std::tuple<System, TestConfig>> {};
class DeviceEngine : public ::testing::TestWithParam<System> {};

}  // namespace

TEST_P(DeviceEqualsCpu, SameIslandsEveryEpochWithRestartsAndMigration) {
  const auto& [system, config] = GetParam();
  if (const auto why = skip_reason(system); !why.empty()) GTEST_SKIP() << why;
  // Islands of 50 (no team size divides it), three on a ring; epochs of uneven length. The
  // hard puzzle runs to the end; islands solve the easy one and its run halts. The repaired GA
  // solves both soon: it runs to the end on a puzzle without a solution.
  std::vector<std::string> puzzles = {kHardPuzzle, kEasyPuzzle};
  if (config.params.repair == Repair::Propagate) puzzles.push_back(kUnsolvablePuzzle);
  for (const auto& puzzle : puzzles) {
    const EngineParams p = islands_of(config, 3, 4, 2, 5, 2);
    auto cpu = make_cpu_engine(grid_of(puzzle), p, 2);
    auto dev = make_device(system, grid_of(puzzle), p);
    cpu->initialize(0);
    dev->initialize(0);
    expect_same(*cpu, *dev, 0, "at initialisation");
    for (std::uint32_t target : {3u, 10u, 17u, 31u}) {
      cpu->advance_to(target);
      dev->advance_to(target);
      expect_same(*cpu, *dev, 0, "at generation " + std::to_string(target));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, DeviceEqualsCpu,
    ::testing::Combine(::testing::Values(System::Omp, System::Cuda),
                       ::testing::ValuesIn(all_test_configs(50))),
    [](const auto& info) {
      return system_name(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
    });

TEST_P(DeviceEngine, TabuSearchedIslandsEqualTheCpu) {
  // The repaired GA with a tabu search on every repaired grid (tabu.hpp), each on its tile's
  // tables in the engine's memory: islands on a ring (a block each), and a lone island (the
  // grid), at 9x9, with and without returns to a search's best (--tabu-return); and two
  // islands at 36x36, the smallest size whose defaults search, with returns. The search changes
  // the islands (the same engine without it differs).
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  auto c = all_test_configs(20).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  c.params.tabu = 30;
  const Grid nine = grid_of(kHardPuzzle);
  for (const std::uint32_t islands : {3u, 1u}) {
    const EngineParams p = islands_of(c, islands, 4, 2, 5, 2);
    expect_same_after(GetParam(), nine, p, 2, 9, std::to_string(islands) + " island(s) searched");
    EngineParams returning = p;
    returning.ga.tabu_return = 4;
    expect_same_after(GetParam(), nine, returning, 2, 9, std::to_string(islands) + " island(s) returning");
    EngineParams plain = p;
    plain.ga.tabu = 0;
    auto searched = make_device(GetParam(), nine, p), without = make_device(GetParam(), nine, plain);
    searched->initialize(3);
    without->initialize(3);
    EXPECT_NE(searched->population(0), without->population(0)) << islands << " island(s)";
  }
  const Grid big =
      read_puzzle_file(source_path("bench/instances/36x36/fill-0.50.txt"))[0].grid;
  if (!builds_size(GetParam(), big)) return;
  auto small = all_test_configs(4).back();
  small.params.tabu = 200;
  small.params.tabu_return = 20;
  expect_same_after(GetParam(), big, islands_of(small, 2, 2, 1, 2, 1), 1, 2, "36x36 searched");
}

TEST_P(DeviceEngine, EveryBoxSizeEqualsTheCpu) {
  // 4x4, 16x16 and 25x25 (the 9x9 tests are above) in every configuration: islands of 20, two
  // on a ring, with migration and restarts, in uneven epochs.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const std::string dir = source_path("puzzles/");
  std::istringstream four("1.3.3...2..3...1\n");
  const auto puzzles = built_only(GetParam(), {parse_puzzles(four, "4x4")[0].grid,
                                                read_puzzle_file(dir + "acs_16x16_fixed040_inst00-09.txt")[0].grid,
                                                read_puzzle_file(dir + "acs_25x25_fixed040_inst00-09.txt")[0].grid});
  if (puzzles.empty()) GTEST_SKIP() << "this build's CUDA compiles none of 4x4, 16x16, 25x25 (GPUGA_CUDA_SIZES)";
  for (const Grid& puzzle : puzzles)
    for (const auto& c : all_test_configs(20)) {
      const EngineParams p = islands_of(c, 2, 3, 2, 4, 1);
      const std::string where = c.name + " box size " + std::to_string(puzzle.box);
      auto cpu = make_cpu_engine(puzzle, p, 2);
      auto dev = make_device(GetParam(), puzzle, p);
      cpu->initialize(2);
      dev->initialize(2);
      expect_same(*cpu, *dev, 0, where);
      cpu->advance_to(9);
      dev->advance_to(9);
      expect_same(*cpu, *dev, 0, where);
    }
}

TEST_P(DeviceEngine, IslandsSmallerThanTheTeamEqualTheCpu) {
  // Islands of 2 and 3 against a team of 3 (a thread block of one warp, 32): threads with
  // nothing to do in every loop, sorts of 2 and 4 keys, one migrant each way.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  for (std::uint32_t n : {2u, 3u})
    for (auto c : all_test_configs(n)) {
      c.params.elite = std::min<std::uint32_t>(c.params.elite, 1);
      const EngineParams p = islands_of(c, 3, 2, 1, 3, 1);
      auto cpu = make_cpu_engine(grid_of(kHardPuzzle), p, 2);
      auto dev = make_device(GetParam(), grid_of(kHardPuzzle), p);
      cpu->initialize(7);
      dev->initialize(7);
      expect_same(*cpu, *dev, 0, c.name + " islands of " + std::to_string(n));
      cpu->advance_to(23);
      dev->advance_to(23);
      expect_same(*cpu, *dev, 0, c.name + " islands of " + std::to_string(n));
    }
}

TEST_P(DeviceEngine, ALoneIslandOnTheWidestTeamEqualsTheCpu) {
  // One run of one island runs on the widest team: on the GPU a cooperative grid, when it is too
  // large for shared memory (3000 is); on the OpenMP system two tiles of three threads whose
  // sort takes chunks of 8 keys alone (an island of 3: one chunk, a tile with nothing to sort).
  // It computes what the CPU's team of one does, restarts included, in uneven epochs.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const auto pops = GetParam() == System::Omp ? std::vector<std::uint32_t>{3, 50}
                                              : std::vector<std::uint32_t>{3000};
  for (std::uint32_t n : pops)
    for (auto c : all_test_configs(n)) {
      c.params.elite = std::min<std::uint32_t>(c.params.elite, 1);
      const EngineParams p = islands_of(c, 1, 0, 0, 4, 2);
      auto cpu = make_cpu_engine(grid_of(kHardPuzzle), p, 1);
      auto dev = make_device(GetParam(), grid_of(kHardPuzzle), p);
      EXPECT_NE(dev->placement().find("grid"), std::string::npos) << dev->placement();
      const std::string where = c.name + " alone, " + std::to_string(n);
      cpu->initialize(0);
      dev->initialize(0);
      expect_same(*cpu, *dev, 0, where + " at initialisation");
      for (std::uint32_t target : {3u, 10u, 17u, 31u}) {
        cpu->advance_to(target);
        dev->advance_to(target);
        expect_same(*cpu, *dev, 0, where + " at generation " + std::to_string(target));
      }
    }
}

TEST_P(DeviceEngine, PropagatedPuzzlesEqualTheCpu) {
  // --presolve singles hands the engines a puzzle with more givens (fewer free cells per box,
  // other legal swaps): the device computes what the CPU does on it, 9x9 and 16x16.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const auto puzzles = built_only(GetParam(), {
      propagate_singles(grid_of(kHardPuzzle)).grid,
      propagate_singles(read_puzzle_file(source_path("puzzles/acs_16x16_fixed045_inst00-09.txt"))[0].grid).grid});
  const auto configs = all_test_configs(20);
  for (const Grid& puzzle : puzzles)
    for (const auto& c : {configs.front(), configs[8], configs.back()}) {
      expect_same_after(GetParam(), puzzle, islands_of(c, 2, 3, 1, 4, 1), 2, 9,
                        c.name + " propagated, box size " + std::to_string(puzzle.box));
    }
}

TEST_P(DeviceEngine, RunsEqualTheCpuRuns) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  using A = RunAction;
  const std::vector<std::vector<RunTask>> epochs = {
      {{A::Init, 2}, {A::Init, 0}, {A::Idle, 0}},
      {{A::Advance, 9}, {A::Advance, 5}, {A::Init, 4}},
      {{A::Idle, 0}, {A::Advance, 12}, {A::Advance, 11}},
      {{A::Advance, 21}, {A::Advance, 13}, {A::Advance, 20}}};
  for (const auto& c : all_test_configs(30)) {
    const EngineParams p = islands_of(c, 2, 3, 1, 4, 1);
    auto cpu = make_cpu_engine(grid_of(kEasyPuzzle), p, 2, 3);
    auto dev = make_device(GetParam(), grid_of(kEasyPuzzle), p, 3);
    for (std::uint32_t r = 1; r < 3; ++r) {
      cpu->set_run(r, grid_of(r == 1 ? kHardPuzzle : kEasyPuzzle), c.params.seed ^ (r * 977));
      dev->set_run(r, grid_of(r == 1 ? kHardPuzzle : kEasyPuzzle), c.params.seed ^ (r * 977));
    }
    for (const auto& epoch : epochs) {
      cpu->advance(epoch);
      dev->advance(epoch);
    }
    for (std::uint32_t r = 0; r < 3; ++r) expect_same(*cpu, *dev, r, c.name + " run " + std::to_string(r));
  }
}

TEST_P(DeviceEngine, TheDefaultsTablesGpuIslandsEqualTheCpu) {
  // The CUDA defaults (gpuga/defaults.hpp) at every box size, a few islands of them: the CPU
  // backend computes the GPU's bytes, so CPU runs of the table's choices predict the GPU's
  // generations (docs/benchmarks.md, "The defaults, by backend and size").
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const std::string dir = source_path("puzzles/");
  std::istringstream four("1.3.3...2..3...1\n");
  const auto puzzles = built_only(GetParam(), {parse_puzzles(four, "4x4")[0].grid, grid_of(kHardPuzzle),
                                                read_puzzle_file(dir + "acs_16x16_fixed040_inst00-09.txt")[0].grid,
                                                read_puzzle_file(dir + "acs_25x25_fixed040_inst00-09.txt")[0].grid});
  for (const Grid& puzzle : puzzles)
    for (const Repair repair : {Repair::Propagate, Repair::None}) {
      const SizeDefaults& d = size_defaults(Backend::Cuda, puzzle.box, repair);
      // One puzzle's islands, and those of runs sized for throughput (many puzzles at once).
      for (const std::uint32_t size : table_island_sizes(d)) {
        RunOptions c;
        c.repair = repair;
        c.pop = 2 * size;
        c.island_size = size;
        c.seed = 11;
        if (puzzle.box == 5 && repair == Repair::None) c.local_search = 50;  // a CI-sized count of the moves
        expect_same_after(GetParam(), puzzle, plan_on(c, Backend::Cuda, puzzle.box).engine_params(), 0, 2,
                          "box size " + std::to_string(puzzle.box) + ", islands of " +
                              std::to_string(size) + ", repair " + to_string(repair));
      }
    }
}

TEST_P(DeviceEngine, RunsWhoseIslandsGrowEqualTheCpu) {
  // --grow-after at the table's GPU islands for 9x9, one puzzle's and those of many at once (a
  // CI-sized local search): each stage, and what the islands carry across (figures, best grids),
  // the same on both.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const Grid puzzle = grid_of(kHardPuzzle);
  for (const std::uint32_t size : table_island_sizes(size_defaults(Backend::Cuda, 3, Repair::None))) {
    const RunPlan plan = growing_9x9_plan(2, size, 13);
    const std::vector<EngineParams>& stages = plan.stages;
    const System system = GetParam();
    auto cpu = make_growing_engine([&](const EngineParams& p) { return make_cpu_engine(puzzle, p, 2); },
                                   stages, puzzle, plan.config.grow_after);
    auto dev = make_growing_engine([&](const EngineParams& p) { return make_device(system, puzzle, p); },
                                   stages, puzzle, plan.config.grow_after);
    cpu->initialize();
    dev->initialize();
    for (std::uint32_t target : {1u, 3u, 6u}) {
      cpu->advance_to(target);
      dev->advance_to(target);
      expect_same(*cpu, *dev, 0, "islands of " + std::to_string(size) + " growing, at generation " +
                                     std::to_string(target));
    }
    EXPECT_EQ(dev->run_params(0).ga.individuals, 4 * size);
  }
}

TEST_P(DeviceEngine, IslandsInDeviceMemoryEqualTheCpu) {
  // Islands too large for a block's shared memory run from device memory: two 25x25 islands of
  // 256 (a grown 25x25 island), and two islands of 1,200 9x9 sa chains. The twin runs that path
  // too, its staging limited to a Hopper GPU's.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const auto configs = all_test_configs(256);
  const Grid twenty_five =
      read_puzzle_file(source_path("puzzles/acs_25x25_fixed040_inst00-09.txt"))[0].grid;
  TestConfig sa = all_test_configs(1200)[27];
  ASSERT_EQ(sa.params.algorithm, Algorithm::Sa) << sa.name;
  const std::tuple<Grid, TestConfig, std::uint32_t> cases[] = {
      {twenty_five, configs[2], 3},  // box, tournament, band crossover, a little local search
      {twenty_five, configs[8], 3},  // box, (mu+lambda), band crossover: children staged too
      {grid_of(kHardPuzzle), sa, 2}};
  for (const auto& [puzzle, c, target] : cases) {
    if (built_only(GetParam(), {puzzle}).empty()) continue;
    const EngineParams p = islands_of(c, 2, 2, 1, 2, 1);
    const std::string where = c.name + ", box size " + std::to_string(puzzle.box);
    auto cpu = make_cpu_engine(puzzle, p, 2);
    auto dev = make_device_unstaged(GetParam(), puzzle, p);
    EXPECT_EQ(dev->placement(), GetParam() == System::Omp ? "host memory" : "device memory") << where;
    cpu->initialize(0);
    dev->initialize(0);
    expect_same(*cpu, *dev, 0, where + " at initialisation");
    cpu->advance_to(target);
    dev->advance_to(target);
    expect_same(*cpu, *dev, 0, where + " at generation " + std::to_string(target));
  }
}

TEST_P(DeviceEngine, SnapshotsOfTwoRunsOfOneSeedAreTheSameBytesAtOddIslandSizes) {
  // A staged island goes home with every byte of it written: at island sizes whose fitness and
  // band arrays end off a 32-bit word, a copy that rounded up carried bytes of shared memory no
  // thread wrote into the island's home, and so into snapshots and checkpoints. The twin fills
  // its staging area with a byte that changes at every launch, as a GPU's is undefined.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  for (const std::uint32_t n : {7u, 25u}) {
    const auto configs = all_test_configs(n);
    for (const auto& c : {configs[2], configs[8], configs[20], configs[27]}) {
      const EngineParams p = islands_of(c, 2, 3, 1, 4, 1);
      std::vector<std::uint8_t> snapshots[2];
      for (auto& bytes : snapshots) {
        auto dev = make_device(GetParam(), grid_of(kHardPuzzle), p);
        dev->initialize(0);
        dev->advance_to(7);
        bytes = dev->snapshot(0);
      }
      EXPECT_EQ(snapshots[0], snapshots[1]) << c.name << ", islands of " << n;
    }
  }
}

TEST_P(DeviceEngine, PhaseTimesOfAGrowingRunAddUpToNoMoreThanItsWallTime) {
  // Many runs at once at the table's GPU islands for 9x9 many at once, growing after 2: the runs
  // reach their stages at different times, and on the GPU the stages' engines run side by side
  // on streams of their own. Their phase times count each instant once.
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const Grid puzzle = grid_of(kHardPuzzle);
  const std::uint32_t size = size_defaults(Backend::Cuda, 3, Repair::None).many_island_size;
  const RunPlan plan = growing_9x9_plan(4, size, 17);
  const System system = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  auto dev = make_growing_engine([&](const EngineParams& p) { return make_device(system, puzzle, p, 4); },
                                 plan.stages, puzzle, plan.config.grow_after);
  using A = RunAction;
  for (std::uint32_t r = 1; r < 4; ++r) dev->set_run(r, puzzle, 100 + r);
  const std::vector<std::vector<RunTask>> epochs = {
      {{A::Init, 1}, {A::Idle, 0}, {A::Init, 3}, {A::Init, 0}},
      {{A::Advance, 5}, {A::Init, 2}, {A::Advance, 6}, {A::Advance, 1}},
      {{A::Advance, 7}, {A::Advance, 7}, {A::Advance, 7}, {A::Advance, 7}}};
  for (const auto& epoch : epochs) {
    dev->advance(epoch);
    dev->summaries();
  }
  const PhaseTimes t = dev->phase_times();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(t.advance, 0.0);
  EXPECT_GT(t.summary, 0.0);
  EXPECT_LE(t.advance + t.summary, wall);
  EXPECT_GT(dev->run_params(0).ga.individuals, size) << "no run grew";
}

// Time limits on the device's teams: a limit never reached changes no byte (on the GPU each block
// reads the host's deadline moved onto the GPU's timer; a wrong move would stop islands early),
// and a limit reached mid-run stops it within its tolerance (10 %, at least 0.25 s) with the
// best of what ran.
TEST_P(DeviceEngine, ATimeLimitStopsTheRunInTimeAndOneNotReachedChangesNothing) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const System system = GetParam();
  const Grid hard = grid_of(kHardPuzzle), none = grid_of(bench_puzzle());
  RunObserver quiet;
  const TestConfig c = all_test_configs(20).front();
  const EngineParams p = islands_of(c, 3, 4, 1, 6, 1);
  auto a = make_device(system, hard, p), b = make_device(system, hard, p);
  const RunResult x = run_many(*a, {{hard, 5}}, {24, 0}, quiet)[0];
  const RunResult y = run_many(*b, {{hard, 5}}, {24, 1000}, quiet)[0];
  EXPECT_EQ(std::tie(x.generations, x.evaluations, x.best_fitness, x.island, x.stop_reason),
            std::tie(y.generations, y.evaluations, y.best_fitness, y.island, y.stop_reason));
  EXPECT_EQ(x.best, y.best);

  // Many islands with a long local search: on the GPU, waves of blocks; on the twin, islands
  // one after another.
  EngineParams slow = p;
  slow.islands = system == System::Cuda ? 20000 : 40;
  slow.ga.local_search = 2000;
  slow.halt_interval = halt_interval_for(slow.ga);
  auto d = make_device(system, none, slow);
  const double limit = 0.5;
  const RunResult z = run_many(*d, {{none, 5}}, {0, limit}, quiet)[0];
  EXPECT_EQ(z.stop_reason, StopReason::TimeLimit);
  EXPECT_LE(z.seconds, limit + 0.25) << z.generations << " generations, " << z.evaluations
                                     << " evaluations";
  EXPECT_GT(z.best_fitness, 0u);
  EXPECT_EQ(z.best.cell.size(), none.cell.size());

  // Tabu searches of a billion steps, which only the deadline ends: generation 0, which a GPU
  // does not cut between islands, stops where each tile's search finds the deadline.
  auto repaired = all_test_configs(20).back();
  ASSERT_EQ(repaired.params.repair, Repair::Propagate);
  repaired.params.tabu = 1u << 30;
  auto searched = make_device(system, none, islands_of(repaired, system == System::Cuda ? 264 : 4, 4, 1, 6, 1));
  const RunResult t = run_many(*searched, {{none, 5}}, {0, limit}, quiet)[0];
  EXPECT_EQ(t.stop_reason, StopReason::TimeLimit);
  EXPECT_LE(t.seconds, limit + 0.25) << t.evaluations << " evaluations";
  EXPECT_EQ(t.generations, 0u);
}

TEST_P(DeviceEngine, ARunCountOutOfRangeIsRefused) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const TestConfig c = all_test_configs(10).front();
  EXPECT_THROW(make_device(GetParam(), grid_of(kEasyPuzzle), islands_of(c, 1), 0),
               InputError);
}

INSTANTIATE_TEST_SUITE_P(Systems, DeviceEngine, ::testing::Values(System::Omp, System::Cuda),
                         [](const auto& info) { return system_name(info.param); });

// A team of one thread in one tile, sorting chunks of `chunk` keys tile by tile: the bitonic
// network's pairing, apart from any team (the engines above run it on teams of three).
struct OneThreadTiles {
  static constexpr bool kContiguous = false;
  std::uint32_t chunk;
  std::uint32_t rank() const { return 0; }
  std::uint32_t size() const { return 1; }
  void sync() const {}
  std::uint32_t tile() const { return 0; }
  std::uint32_t tiles() const { return 1; }
  std::uint32_t tile_rank() const { return 0; }
  std::uint32_t tile_size() const { return 1; }
  void tile_sync() const {}
  std::uint32_t sort_chunk() const { return chunk; }
};

TEST(BitonicSort, SortsEveryPowerOfTwoWithAnyChunk) {
  std::uint64_t state = 12345;
  for (std::uint32_t n = 1; n <= 4096; n *= 2)
    for (const std::uint32_t chunk : {2u, 8u, 0xFFFFFFFFu}) {
      std::vector<std::uint64_t> keys(n);
      for (auto& k : keys) {  // fitness in the high word, with ties; any low word
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        k = (state >> 60) << 32 | (state >> 20 & 0xFFFFF);
      }
      std::vector<std::uint64_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      bitonic_sort(OneThreadTiles{chunk}, keys.data(), n);
      ASSERT_EQ(keys, expected) << n << " keys, chunks of " << chunk;
    }
}


TEST_P(DeviceEngine, ThirtySixToSixtyFourEqualTheCpu) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  // The OpenMP twin runs the GPU's code at every size; CUDA those its build compiled. 36x36
  // (sets of values in 64-bit words) in every configuration of the conflicts (squared passes a
  // Fitness there); 49x49 and 64x64 (64 values in 64 bits) the repaired GA's (test_operators
  // runs every operator at 64x64); puzzles at 45 % given, which no configuration solves in these
  // generations.
  const auto instance = [](int size) {
    const std::string side = std::to_string(size);
    return read_puzzle_file(source_path("bench/instances/" + side + "x" + side + "/fill-0.45.txt"))[0].grid;
  };
  std::vector<std::pair<std::string, Grid>> sizes;
  for (const int size : {36, 49, 64}) {
    const Grid puzzle = instance(size);
    if (builds_size(GetParam(), puzzle)) sizes.emplace_back(std::to_string(size) + "x" + std::to_string(size), puzzle);
  }
  if (sizes.empty()) GTEST_SKIP() << "this build's CUDA has none of 36x36 to 64x64 (GPUGA_CUDA_SIZES)";
  for (const auto& c : all_test_configs(8)) {
    if (c.params.fitness == FitnessKind::Squared) continue;
    const EngineParams p = islands_of(c, 2, 2, 1, 2, 1);
    for (const auto& [side, puzzle] : sizes) {
      if (puzzle.box > 6 && c.params.repair != Repair::Propagate) continue;
      expect_same_after(GetParam(), puzzle, p, 1, puzzle.box > 6 ? 3 : 4, c.name + " " + side);
    }
  }
}

TEST(OmpDeviceEngine, TilesOfSeveralLanesRepairAndSearchAsALaneAloneDoes) {
  // The twin with each of its threads a tile of 2, 8 or 32 lanes with barriers of their own (as
  // a GPU's warps): the waves of the repair and the tabu search run inside the engine, each tile
  // repairing several children on one scratch, and give the CPU's bytes (a lane alone). At 9x9
  // islands on a ring (blocks) and a lone island (the grid's twin: two blocks of tiles), with and
  // without the search; at 36x36, on tiles of a warp's 32 lanes as the GPU runs it, two searched
  // islands, whose units take 64-bit masks.
  auto c = all_test_configs(8).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  const Grid nine = grid_of(kHardPuzzle);
  const Grid big = read_puzzle_file(source_path("bench/instances/36x36/fill-0.50.txt"))[0].grid;
  const auto expect_width = [](const Grid& puzzle, const EngineParams& p, std::uint32_t width,
                               std::uint32_t target, const std::string& where) {
    auto cpu = make_cpu_engine(puzzle, p, 2);
    auto dev = make_device_engine_omp(puzzle, p, 1, std::numeric_limits<std::uint64_t>::max(), width);
    cpu->initialize(target - 1);
    dev->initialize(target - 1);
    cpu->advance_to(target);
    dev->advance_to(target);
    expect_same(*cpu, *dev, 0, where + ", tiles of " + std::to_string(width) + " lanes");
  };
  for (const std::uint32_t width : {2u, 8u, 32u}) {
    for (const std::uint32_t tabu : {0u, 30u}) {
      c.params.tabu = tabu;
      const std::string searched = tabu ? ", searched" : "";
      expect_width(nine, islands_of(c, 3, 2, 1, 3, 1), width, 5, "9x9 on a ring" + searched);
      expect_width(nine, islands_of(c, 1, 0, 0, 3, 1), width, 5, "9x9 alone" + searched);
    }
  }
  auto small = all_test_configs(3).back();
  small.params.tabu = 200;
  small.params.tabu_return = 20;
  expect_width(big, islands_of(small, 2, 1, 1, 2, 1), 32, 1, "36x36 searched");
}

TEST(OmpDeviceEngine, APuzzleWithMoreFreeCellsGivesEveryTileMoreScratch) {
  // A tile's repair scratch is sized by its puzzle's free cells: an engine made for an easy 9x9
  // puzzle, given a run of a hard one (more free cells), sizes its launches again, and both runs
  // give the CPU's bytes, with tiles of one lane and of two (the twin ends the process where a
  // tile's scratch would pass the launch's).
  auto c = all_test_configs(8).back();
  ASSERT_EQ(c.params.repair, Repair::Propagate);
  const Grid fewer = grid_of(kEasyPuzzle), more = grid_of(kHardPuzzle);
  ASSERT_GT(more.blanks(), fewer.blanks());
  const EngineParams p = islands_of(c, 2, 1, 1, 2, 1);
  using A = RunAction;
  const std::vector<std::vector<RunTask>> epochs = {{{A::Init, 1}, {A::Init, 1}}, {{A::Advance, 2}, {A::Advance, 2}}};
  for (const std::uint32_t width : {1u, 2u}) {
    auto cpu = make_cpu_engine(fewer, p, 2, 2);
    auto dev = make_device_engine_omp(fewer, p, 2, std::numeric_limits<std::uint64_t>::max(), width);
    cpu->set_run(1, more, c.params.seed ^ 977);
    dev->set_run(1, more, c.params.seed ^ 977);
    for (const auto& epoch : epochs) {
      cpu->advance(epoch);
      dev->advance(epoch);
    }
    for (std::uint32_t r = 0; r < 2; ++r)
      expect_same(*cpu, *dev, r, "run " + std::to_string(r) + ", tiles of " + std::to_string(width) + " lanes");
  }
}

TEST(OmpDeviceEngine, EveryAcceptedSizeRunsOrIsRefusedUpFront) {
  // The device engine's sizes and byte counts, on its OpenMP twin, whose memory is the host's.
  expect_every_limit_runs_or_is_refused(
      [](const Grid& puzzle, const EngineParams& p) {
        return make_device_engine_omp(puzzle, p);
      });
}

TEST(CudaEngine, ASizeTheBuildLeftOutIsRefusedNamingTheOption) {
  // 64x64, which the suite's build leaves out of GPUGA_CUDA_SIZES (scripts/test): refused before
  // any device is touched. A build with it needs a GPU to say more.
  const Grid puzzle = read_puzzle_file(source_path("puzzles/gpuga_64x64_fill075.txt"))[0].grid;
  try {
    make_cuda_engine(puzzle, EngineParams{}, 0);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.find("GPUGA_CUDA_SIZES") == std::string::npos) FAIL() << what;
    EXPECT_NE(what.find("a 64x64 puzzle on --backend cuda, which this build compiled for 9x9"), std::string::npos) << what;
    EXPECT_NE(what.find("expected --backend cpu"), std::string::npos) << what;
    return;
  } catch (const std::exception& e) {  // built for 64x64, and no GPU to run it
    if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << "64x64 built; " << why;
    FAIL() << e.what();
  }
}

TEST(CudaEngine, PopulationTooLargeIsRefusedBeforeAllocation) {
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  EngineParams p;
  p.ga.individuals = 1000;
  p.ga.children = 1000;
  p.islands = 2000000;
  try {
    make_cuda_engine(grid_of(kEasyPuzzle), p, 0);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("MiB of device memory"), std::string::npos) << e.what();
  }
}

TEST(TeamThreads, ABlockHasItsIslandsChildrenInWholeWarpsAtMostTheWidest) {
  const auto threads = [](std::uint32_t island, Selection sel = Selection::Tournament,
                          std::uint32_t children = 0, Algorithm alg = Algorithm::Ga) {
    GaParams p;
    p.algorithm = alg;
    p.selection = sel;
    p.individuals = island;
    p.children = children ? children : island;
    return team_threads(make_layout<3>(p), 256);
  };
  EXPECT_EQ(threads(128), 128u);  // the GPU's 9x9 default: no idle half
  EXPECT_EQ(threads(64), 64u);    // 16x16's
  EXPECT_EQ(threads(100), 128u);  // whole warps
  EXPECT_EQ(threads(2), 32u);
  EXPECT_EQ(threads(250), 256u);
  EXPECT_EQ(threads(1000), 256u);  // wider islands: children in turn on the widest block
  EXPECT_EQ(threads(50, Selection::Truncation, 100), 128u);  // (mu+lambda) breeds its children
  EXPECT_EQ(threads(96, Selection::Tournament, 0, Algorithm::Sa), 96u);  // a chain a thread
  // The repaired GA's segment step: a warp a child (kRepairLanes), its other steps a thread one.
  GaParams repaired;
  repaired.repair = Repair::Propagate;
  repaired.individuals = repaired.children = 4;
  const IslandLayout L = make_layout<3>(repaired);
  EXPECT_EQ(team_threads(L, 256, true), 4 * kRepairLanes<3>);
  EXPECT_EQ(team_threads(L, 256), 32u);
  repaired.individuals = repaired.children = 32;
  EXPECT_EQ(team_threads(make_layout<3>(repaired), 256, true), 256u);
}

// 9x9 islands of `size` (memetic, band crossover; or chains) run as many a multiprocessor as
// shared memory holds, at most `by_registers` (the segment step's registers on blocks as wide as
// the island).
void expect_9x9_islands_per_multiprocessor(std::uint32_t size, int by_registers,
                                           Algorithm algorithm = Algorithm::Ga) {
  EngineParams p;
  p.ga.algorithm = algorithm;
  p.ga.individuals = p.ga.children = size;
  p.ga.crossover = Crossover::Bands;
  p.ga.local_search = 200;
  p.islands = 4;
  const DeviceInfo d = list_devices().devices[0];
  const std::uint64_t staged = staged_bytes<3>(make_layout<3>(p.ga));
  const auto by_shared = static_cast<int>(d.shared_per_multiprocessor /
                                          (staged + d.shared_reserved_per_block));
  EXPECT_EQ(cuda_islands_per_multiprocessor(p, 3, 0), std::min(by_registers, by_shared))
      << d.name << ": " << d.shared_per_multiprocessor << " bytes of shared memory per SM, "
      << staged << " staged per island of " << size;
}

TEST(CudaEngine, IslandsOf128RunOnBlocksOf128AsManyPerMultiprocessorAsTheyFit) {
  // A block of 128 threads at the segment step's 64 registers: eight a multiprocessor by
  // registers, or fewer where shared memory holds fewer (an A100's 164 KiB).
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  expect_9x9_islands_per_multiprocessor(128, 8);
}

TEST(CudaEngine, ChainIslandsOf128RunAsManyPerMultiprocessorAsSharedMemoryHolds) {
  // sa's and hc's staged step: 64 registers on sm_90 (eight blocks of 128 by registers, seven
  // by an H100's shared memory), 80 before it (six by registers; an A100's shared memory holds
  // five); docs/benchmarks.md, "Kernel resources".
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  const int by_registers = list_devices().devices[0].cc_major >= 9 ? 8 : 6;
  expect_9x9_islands_per_multiprocessor(128, by_registers, Algorithm::Sa);
  expect_9x9_islands_per_multiprocessor(128, by_registers, Algorithm::Hc);
}

TEST(CudaEngine, IslandsOf32RunOnBlocksOfAWarpAsManyAsSharedMemoryHolds) {
  // Many 9x9 puzzles at once start on islands of 32 (the defaults table): a block of one warp,
  // at most 32 a multiprocessor by the hardware and by the step's 64 registers, fewer where
  // shared memory holds fewer (an H100: 28; docs/decisions.md).
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  expect_9x9_islands_per_multiprocessor(size_defaults(Backend::Cuda, 3, Repair::None).many_island_size, 32);
}

TEST(CudaEngine, APlanCountsTheIslandsAtOnceAsCudasOccupancyQueryDoes) {
  // plan() counts a multiprocessor's islands from the probe's plain data (launch_policy.hpp's
  // islands_at_once), never asking the device: for every box size, segment step and island size
  // (staged or too large to stage, a warp to the widest block), what CUDA's query says.
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  for (int box = 2; box <= 5; ++box) {
    const CudaProbe probe = probe_cuda(box, 0);
    for (const Algorithm algorithm : {Algorithm::Ga, Algorithm::Sa, Algorithm::Hc})
      for (const Repair repair : {Repair::None, Repair::Propagate})
        for (const std::uint32_t size : {8u, 32u, 100u, 128u, 256u, 512u, 2000u}) {
          if (algorithm != Algorithm::Ga && repair == Repair::Propagate) continue;
          EngineParams p;
          p.ga.algorithm = algorithm;
          p.ga.repair = repair;
          p.ga.encoding = repair == Repair::Propagate ? Encoding::Cell : Encoding::Box;
          p.ga.individuals = p.ga.children = size;
          p.islands = 4;
          const std::uint64_t planned = with_box_size(box, [&]<int B>() {
            return islands_at_once<B>(p.ga, Shape<B>::kCells, probe.multiprocessor, probe.launch, probe.segments);
          });
          EXPECT_EQ(planned, std::uint64_t(cuda_islands_per_multiprocessor(p, box, 0)))
              << "box " << box << ", " << to_string(algorithm) << ", repair " << to_string(repair)
              << ", islands of " << size;
        }
  }
}

TEST(CudaEngine, IslandsOf512RunInSharedMemoryAsManyPerMultiprocessorAsItHolds) {
  // The GA's segment step fits four blocks of 256 by registers (its launch bounds); shared
  // memory decides the rest: two islands of 512 on an H100 or H200 (228 KiB), one on an A100
  // (164 KiB).
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  EngineParams p;
  p.ga.individuals = 512;
  p.ga.children = 512;
  p.ga.crossover = Crossover::Bands;
  p.islands = 4;
  const DeviceInfo d = list_devices().devices[0];
  const std::uint64_t staged = staged_bytes<3>(make_layout<3>(p.ga));
  ASSERT_LE(staged, std::uint64_t(d.shared_per_block)) << "an island of 512 must fit in a block";
  EXPECT_EQ(make_cuda_engine(grid_of(kEasyPuzzle), p, 0)->placement(), "shared memory");
  const auto by_shared = static_cast<int>(d.shared_per_multiprocessor /
                                          (staged + d.shared_reserved_per_block));
  EXPECT_EQ(cuda_islands_per_multiprocessor(p, 3, 0), std::min(4, by_shared))
      << d.name << ": " << d.shared_per_multiprocessor << " bytes of shared memory per SM, "
      << staged << " staged per island";
}
