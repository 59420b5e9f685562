// A run's plan (include/gpuga/run_plan.hpp): options resolved once for a target, every setting in
// effect, checked against each other with a message naming the setting; each puzzle size its own
// defaults; the stages of a run that grows; every rank's default population.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>

#include "gpuga/backend.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/launch_policy.hpp"
#include "gpuga/run_plan.hpp"
#include "plans.hpp"

using namespace gpuga;

TEST(RunPlan, TheOptionsAreCheckedAgainstEachOtherNamingTheSetting) {
  const std::uint32_t n = size_defaults(Backend::Cpu, 3, Repair::Propagate).island_size;  // --island-size 0's
  RunOptions o;
  o.pop = 2 * n;
  o.migrants = 600;
  try {
    plan_on(o);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--migrants 600: expected at most half the island size"),
              std::string::npos) << e.what();
  }
  o.migrants = 1;
  const EngineParams p = plan_on(o).engine_params();
  EXPECT_EQ(p.islands, 2u);
  EXPECT_EQ(p.ga.individuals, n);
  o.algorithm = Algorithm::Sa;
  o.grow_after = 5;
  EXPECT_THROW(plan_on(o), InputError);  // islands grow in the GA only
  RunOptions unseeded;
  EXPECT_THROW(plan(unseeded, made_target(Backend::Cpu)), std::logic_error);
}

TEST(RunPlan, TheTabuSearchIsTheRepairedGasFrom36x36OnEitherBackend) {
  // The table's steps where the GA repairs, from 36x36 on either backend; none below, none for
  // the plain GA; refused, naming why, without the repair.
  for (const Backend b : {Backend::Cpu, Backend::Cuda}) {
    EXPECT_EQ(plan_on({}, b, 6).config.engine.ga.tabu, size_defaults(b, 6, Repair::Propagate).tabu);
    EXPECT_GT(plan_on({}, b, 6).config.engine.ga.tabu, 0u);
    EXPECT_EQ(plan_on({}, b, 5).config.engine.ga.tabu, 0u);
  }
  RunOptions plain;
  plain.repair = Repair::None;
  EXPECT_EQ(plan_on(plain, Backend::Cpu, 6).config.engine.ga.tabu, 0u);
  const auto refusal = [](RunOptions o, Backend b) {
    try {
      plan_on(o, b, 6);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  plain.tabu = 5;
  EXPECT_NE(refusal(plain, Backend::Cpu).find("--tabu 5 without --repair propagate"), std::string::npos)
      << refusal(plain, Backend::Cpu);
  RunOptions on_gpu;
  on_gpu.tabu = 7;
  EXPECT_EQ(refusal(on_gpu, Backend::Cuda), "no error");
}

TEST(RunPlan, ASearchGoesBackToItsBestByTheTable) {
  // --tabu-return from the table where the GA searches (the CPU's long searches from 49x49, none
  // at 36x36 or on a GPU), none without a search, and as given.
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (const int box : {5, 6, 7, 8})
      EXPECT_EQ(plan_on({}, b, box).config.engine.ga.tabu_return,
                size_defaults(b, box, Repair::Propagate).tabu_return)
          << to_string(b) << " " << box;
  EXPECT_GT(plan_on({}, Backend::Cpu, 7).config.engine.ga.tabu_return, 0u);
  EXPECT_EQ(plan_on({}, Backend::Cpu, 6).config.engine.ga.tabu_return, 0u);
  EXPECT_EQ(plan_on({}, Backend::Cuda, 8).config.engine.ga.tabu_return, 0u);
  RunOptions unsearched;
  unsearched.tabu = 0;
  EXPECT_EQ(plan_on(unsearched, Backend::Cpu, 8).config.engine.ga.tabu_return, 0u);
  RunOptions given;
  given.tabu_return = 1234;
  EXPECT_EQ(plan_on(given, Backend::Cuda, 6).config.engine.ga.tabu_return, 1234u);
}

TEST(RunPlan, EachPuzzleSizeGetsItsOwnDefaults) {
  // One set of options, three sizes: each plan takes its row of the table (the repaired GA's
  // rows, or the plain GA's).
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (int box = 2; box <= 5; ++box)
      for (const Repair r : {Repair::Propagate, Repair::None}) {
        RunOptions o;
        o.repair = r;
        const RunConfig c = plan_on(o, b, box).config;
        const SizeDefaults& d = size_defaults(b, box, r);
        EXPECT_EQ(
            std::tie(c.engine.ga.individuals, c.engine.ga.local_search, c.engine.restart_after),
            std::tie(d.island_size, d.local_search, d.restart_after))
            << to_string(b) << " box " << box << " " << to_string(r);
        EXPECT_EQ(c.backend, b);
      }
  // What is given holds at every size.
  RunOptions given;
  given.local_search = 9;
  EXPECT_EQ(plan_on(given, Backend::Cpu, 4).config.engine.ga.local_search, 9u);
  EXPECT_EQ(plan_on(given, Backend::Cpu, 3).config.engine.ga.local_search, 9u);
}

TEST(RunPlan, ARunThatGrowsHasEveryStagesIslands) {
  RunOptions o;
  o.pop = 8;
  o.island_size = 4;
  o.grow_after = 3;
  o.repair = Repair::None;
  o.local_search = 0;  // the plain GA: stages end on its halt interval
  const RunPlan p = plan_on(o);
  ASSERT_TRUE(p.grows());
  ASSERT_EQ(p.stages.size(), kMaxGrowths + 1);
  EXPECT_EQ(p.config.grow_after, 10u);  // 3 rounded up to the plain GA's halt interval
  for (std::uint32_t k = 0; k <= kMaxGrowths; ++k) {
    EXPECT_EQ(p.stages[k].islands, 2u);
    EXPECT_EQ(p.stages[k].halt_interval, kHaltInterval);
    EXPECT_EQ(p.stages[k].ga.individuals, 4u << k);
    EXPECT_EQ(p.stages[k].ga.children, 4u << k);
  }
  o.selection = Selection::Truncation;  // children left at 10 x each stage's islands
  EXPECT_EQ(plan_on(o).stages[2].ga.children, 160u);
  o.children = 12;                      // or as given, at every stage
  EXPECT_EQ(plan_on(o).stages[2].ga.children, 12u);
  const EngineParams here = [&] {
    EngineParams half = plan_on(o).engine_params();
    half.islands = 1;
    return half;
  }();
  for (const EngineParams& s : stages_of(plan_on(o), here)) EXPECT_EQ(s.islands, 1u);
  o.grow_after = 0;
  EXPECT_FALSE(plan_on(o).grows());
  // A repaired GA's generations are costly: it looks every generation, and a stage ends where asked.
  o.repair = Repair::Propagate;
  o.encoding = Encoding::Cell;
  o.grow_after = 3;
  EXPECT_EQ(plan_on(o).config.grow_after, 3u);
  EXPECT_EQ(plan_on(o).config.engine.halt_interval, 1u);
}

TEST(RunPlan, TheGaRepairsItsChildrenUnlessTheOperatorsItChangesAreChosen) {
  // The defaults: the repaired GA on the cell encoding, with no local search (its own rows).
  const RunConfig d = plan_on({}).config;
  EXPECT_EQ(std::tie(d.engine.ga.repair, d.engine.ga.encoding, d.engine.ga.local_search),
            std::make_tuple(Repair::Propagate, Encoding::Cell, 0u));
  EXPECT_EQ(plan_on({}).engine_params().ga.repair, Repair::Propagate);
  // An encoding, --presolve none, the squared fitness, sa or hc: the plain operators, as before
  // the repair existed (the plain GA's rows).
  auto with = [](auto field, auto value) {
    RunOptions o;
    o.*field = value;
    return plan_on(o).config;
  };
  for (const RunConfig& c :
       {with(&RunOptions::encoding, Encoding::Cell), with(&RunOptions::encoding, Encoding::Box),
        with(&RunOptions::presolve, Propagation::None),
        with(&RunOptions::fitness, FitnessKind::Squared),
        with(&RunOptions::algorithm, Algorithm::Sa), with(&RunOptions::algorithm, Algorithm::Hc),
        with(&RunOptions::repair, Repair::None)})
    EXPECT_EQ(c.engine.ga.repair, Repair::None)
        << to_string(c.engine.ga.encoding) << " " << to_string(c.engine.ga.algorithm);
  const RunConfig none = with(&RunOptions::repair, Repair::None);
  EXPECT_EQ(
      std::tie(none.engine.ga.encoding, none.engine.ga.local_search),
      std::make_tuple(Encoding::Box, size_defaults(Backend::Cpu, 3, Repair::None).local_search));
  // The repair asked for with what it cannot work with: refused, naming both.
  const std::pair<void (*)(RunOptions&), std::string> refused[] = {
      {[](RunOptions& o) { o.encoding = Encoding::Box; }, "--repair propagate with --encoding box"},
      {[](RunOptions& o) { o.algorithm = Algorithm::Hc; }, "--repair propagate with --algorithm hc"},
      {[](RunOptions& o) { o.fitness = FitnessKind::Squared; }, "--repair propagate with --fitness squared"}};
  for (const auto& [set, message] : refused) {
    RunOptions o;
    o.repair = Repair::Propagate;
    set(o);
    try {
      plan_on(o);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(RunPlan, EveryRankOfARunAddsItsDefaultPopulation) {
  Target t = made_target(Backend::Cpu, 3, false, 2);
  RunOptions o;
  o.seed = 3;
  const std::uint32_t alone = plan(o, t).config.pop;
  t.ranks = 4;
  EXPECT_EQ(plan(o, t).config.pop, 4 * alone);
  o.pop = 1000;  // a population given is the whole run's
  EXPECT_EQ(plan(o, t).config.pop, 1000u);
}

TEST(RunPlan, RanksOnOneNodeShareItsCoresAndRecordHowTheyTookTheirDevices) {
  // One of several ranks on a node (the command line's node_place): the node's cores divided
  // among its ranks unless --threads is given; a --device given is the ranks' recorded rule, and
  // the plan's device. A lone process takes every thread and records no rule.
  RunOptions o;
  o.seed = 1;
  o.backend = Backend::Cpu;
  const Target two = probe_target(o, 3, false, 2, {true, 1, 2});
  EXPECT_EQ(two.units, static_cast<std::uint32_t>(std::max(1, omp_get_num_procs() / 2)));
  EXPECT_EQ(two.rank_devices, "");
  EXPECT_EQ(plan(o, two).shape.units, two.units);
  EXPECT_EQ(plan(o, two).config.threads, static_cast<int>(two.units));  // the CPU engine's
  EXPECT_EQ(probe_target(o, 3).units, static_cast<std::uint32_t>(omp_get_max_threads()));
  o.threads = 3;
  EXPECT_EQ(probe_target(o, 3, false, 2, {true, 0, 2}).units, 3u);
  o.device = 1;
  const Target given = probe_target(o, 3, false, 2, {true, 0, 2});
  EXPECT_EQ(given.rank_devices, "--device 1");
  EXPECT_EQ(given.shared_devices, 0);
  const RunPlan p = plan(o, given);
  EXPECT_EQ(p.config.rank_devices, "--device 1");
  EXPECT_EQ(p.config.device, 1);
  EXPECT_EQ(probe_target(o, 3).rank_devices, "");
}

TEST(RunPlan, TheDefaultPopulationFillsTheTargetsUnits) {
  // A made-up GPU of 10 multiprocessors, 3 islands at once on each.
  const RunPlan p = plan_on({}, Backend::Cuda, 3, false, 10, 3);
  const SizeDefaults& d = size_defaults(Backend::Cuda, 3, Repair::Propagate);
  EXPECT_EQ(p.config.pop, std::min(d.islands_per_unit, 3u) * 10 * d.island_size);
  EXPECT_EQ(p.shape.units, 10u);
  EXPECT_EQ(p.shape.islands_at_once, 3u);
  EXPECT_EQ(p.engine_params().islands * p.config.engine.ga.individuals, p.config.pop);
}

TEST(RunPlan, TheRunsAtOnceAreThePlans) {
  // Runs sized for throughput (many puzzles at once): as many as fill the units; runs sized as
  // one puzzle's (a batch's): 8 on the CPU, a million individuals on a GPU.
  const RunPlan many = plan_on({}, Backend::Cuda, 3, true, 10, 3);
  EXPECT_EQ(many.slots, 30 / many.engine_params().islands);
  EXPECT_EQ(many.slots, runs_that_fill(many.shape, many.engine_params().islands));
  EXPECT_EQ(plan_on({}, Backend::Cpu).slots, 8u);
  RunOptions o;
  o.pop = 2000;
  EXPECT_EQ(plan_on(o, Backend::Cuda).slots, 500u);
  o.pop = 20;
  EXPECT_EQ(plan_on(o, Backend::Cuda).slots, 50000u);
}

TEST(RunPlan, AGpusPlanIsMadeFromItsProbedDataWithNoDevice) {
  // An H100's multiprocessor and segment kernels as a probe gives them: plain numbers.
  Target t;
  t.backend = Backend::Cuda;
  t.units = 132;
  t.unit = cuda_multiprocessor(9, 32, 2048, 65536, 233472, 1024);
  t.launch = {232448, 256, LoneIsland::GridWhenUnstaged};
  for (auto& step : t.segments.step) step = {{64, 0}, {64, 0}};
  t.segments[SegmentStep::RepairedGa] = {{128, 0}, {128, 0}};
  RunOptions o;
  o.seed = 1;
  const RunPlan p = plan(o, t);
  const GaParams& ga = p.engine_params().ga;
  ASSERT_EQ(ga.repair, Repair::Propagate);
  EXPECT_EQ(p.shape.islands_at_once, islands_at_once<3>(ga, Shape<3>::kCells, t.unit, t.launch, t.segments));
  const IslandLayout L = make_layout<3>(ga);
  const std::uint32_t threads = team_threads(L, 256, true);  // a tile of lanes a child
  EXPECT_EQ(p.shape.islands_at_once,
            resident_blocks(t.unit, {128, 0}, threads, staged_bytes<3>(L) + repair_scratch_bytes<3>(threads, Shape<3>::kCells)));
  const SizeDefaults& d = size_defaults(Backend::Cuda, 3, Repair::Propagate);
  EXPECT_EQ(p.config.pop, std::min(d.islands_per_unit, p.shape.islands_at_once) * 132 * d.island_size);
}

TEST(RunPlan, AGpusPlanCountsTheRepairsTilesForItsPuzzlesFreeCells) {
  // A tile's repair scratch follows the puzzle's free cells: 36x36 islands of 8 (a block of eight
  // tiles) on an H100 at 64 registers, where shared memory decides, for any puzzle and for
  // puzzles of half the cells given.
  Target t;
  t.backend = Backend::Cuda;
  t.box = 6;
  t.units = 132;
  t.unit = cuda_multiprocessor(9, 32, 2048, 65536, 233472, 1024);
  t.launch = {232448, 256, LoneIsland::GridWhenUnstaged, 115712, 132};
  for (auto& step : t.segments.step) step = {{64, 0}, {64, 0}};
  RunOptions o;
  o.seed = 1;
  o.pop = 8 * 132;
  o.island_size = 8;
  const RunPlan any = plan(o, t);
  t.free_cells = Shape<6>::kCells / 2;
  const RunPlan half = plan(o, t);
  const GaParams& ga = half.engine_params().ga;
  ASSERT_EQ(ga.repair, Repair::Propagate);
  EXPECT_EQ(any.shape.islands_at_once, islands_at_once<6>(ga, Shape<6>::kCells, t.unit, t.launch, t.segments));
  EXPECT_EQ(half.shape.islands_at_once, islands_at_once<6>(ga, t.free_cells, t.unit, t.launch, t.segments));
  EXPECT_GT(half.shape.islands_at_once, any.shape.islands_at_once);
}
