// The defaults table: what --island-size 0, --local-search auto and --pop 0 resolve to from a
// backend's shape, the puzzle's box size and whether the GA repairs its children (the repaired
// GA's rows at the defaults, the plain GA's with --repair none), checked with made-up shapes and
// targets (no GPU needed). That the GPU's choices compute the same bytes on the CPU backend is in
// test_engine_device.cpp.
#include <gtest/gtest.h>

#include "gpuga/defaults.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"
#include "plans.hpp"

namespace gpuga {
namespace {

// An H100: 132 multiprocessors, two islands of up to 512 at once on each (the segment step's
// registers); an A100 holds one island of 512 (shared memory).
constexpr BackendShape kH100{132, 2};
constexpr BackendShape kTwoCores{2, 1};
constexpr Repair kBothRows[] = {Repair::Propagate, Repair::None};

// Options that take the plain GA's rows.
RunOptions plain() {
  RunOptions o;
  o.repair = Repair::None;
  return o;
}

TEST(Defaults, TheIslandSizeDividesThePopulationGiven) {
  EXPECT_EQ(default_island_size(0, 128), 128u);       // --pop 0: the table's size
  EXPECT_EQ(default_island_size(33792, 128), 128u);   // a multiple
  EXPECT_EQ(default_island_size(100, 128), 100u);     // smaller: one panmictic population
  EXPECT_EQ(default_island_size(100000, 128), 125u);  // the largest divisor up to 128
  EXPECT_EQ(default_island_size(1500, 1000), 750u);
  // None from half the size up: the size, which the plan refuses with its hint.
  EXPECT_EQ(default_island_size(1009, 1000), 1000u);
  RunOptions o;
  o.pop = 1009;
  EXPECT_THROW(plan_on(o), InputError);
}

TEST(Defaults, PopZeroFillsTheBackendForOnePuzzle) {
  for (const Repair r : kBothRows) {
    const SizeDefaults& gpu9 = size_defaults(Backend::Cuda, 3, r);
    EXPECT_EQ(default_islands(gpu9, kH100), std::min(gpu9.islands_per_unit, 2u) * 132);
    // A device that holds one island per multiprocessor gets no more than it runs at once.
    EXPECT_EQ(default_islands(gpu9, BackendShape{108, 1}), 108u);
    // The CPU: one island per thread.
    EXPECT_EQ(default_islands(size_defaults(Backend::Cpu, 3, r), kTwoCores),
              size_defaults(Backend::Cpu, 3, r).islands_per_unit * 2);
  }
}

TEST(Defaults, ManyPuzzlesShareTheBackendInSmallerRuns) {
  // Two shapes of an H100: two islands a multiprocessor, and 28 (islands of 32 in shared memory).
  for (const BackendShape shape : {kH100, BackendShape{132, 28}})
    for (int box = 2; box <= 5; ++box)
      for (const Repair r : kBothRows) {
        const SizeDefaults& d = size_defaults(Backend::Cuda, box, r);
        const std::uint32_t per_run = default_islands_per_run(d, shape);
        EXPECT_LE(per_run, default_islands(d, shape)) << "box " << box;
        // The runs side by side hold as many islands as the device runs at once, or nearly.
        const std::uint32_t room = shape.units * shape.islands_at_once;
        const std::uint32_t runs = runs_that_fill(shape, per_run);
        EXPECT_LE(runs * per_run, room) << "box " << box;
        EXPECT_GT((runs + 1) * per_run, room) << "box " << box;
      }
  EXPECT_EQ(runs_that_fill(kTwoCores, 5), 1u);  // a run larger than the backend: one at a time
}

TEST(Defaults, RunsSizedForThroughputTakeTheirOwnIslandsAndGrowth) {
  // Many 9x9 puzzles on a GPU, the plain GA: smaller islands that grow sooner than one puzzle's,
  // at --pop 0 only; a --pop given keeps one puzzle's island size and, as ever, no growth unless
  // asked.
  const SizeDefaults& d = size_defaults(Backend::Cuda, 3, Repair::None);
  ASSERT_NE(d.many_island_size, d.island_size);
  // The sizes a row starts runs on, each once: 9x9 two, 16x16 (the same for many) one.
  EXPECT_EQ(table_island_sizes(d), (std::vector<std::uint32_t>{d.island_size, d.many_island_size}));
  const SizeDefaults& d16 = size_defaults(Backend::Cuda, 4, Repair::None);
  ASSERT_EQ(d16.many_island_size, d16.island_size);
  EXPECT_EQ(table_island_sizes(d16), std::vector<std::uint32_t>{d16.island_size});
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (int box = kMinBox; box <= kMaxBox; ++box)
      for (const Repair r : kBothRows) {
        const SizeDefaults& row = size_defaults(b, box, r);
        RunOptions o;
        o.repair = r;
        const RunConfig many = plan_on(o, b, box, /*many=*/true, 3).config;
        EXPECT_EQ(std::tie(many.engine.ga.individuals, many.grow_after),
                  std::tie(row.many_island_size, row.many_grow_after))
            << to_string(b) << " box " << box << " " << to_string(r);
        EXPECT_EQ(many.pop % many.engine.ga.individuals, 0u);
      }
  RunOptions given = plain();
  given.pop = 8192;
  const RunConfig sized = plan_on(given, Backend::Cuda, 3, true).config;
  EXPECT_EQ(std::tie(sized.engine.ga.individuals, sized.grow_after),
            std::make_tuple(d.island_size, 0u));
  const RunConfig alone = plan_on(plain(), Backend::Cuda, 3, false).config;
  EXPECT_EQ(std::tie(alone.engine.ga.individuals, alone.grow_after),
            std::tie(d.island_size, d.grow_after));
}

TEST(Defaults, ThePlanRecordsTheNumbersInEffect) {
  for (const Repair r : kBothRows) {
    RunOptions o;
    o.repair = r;
    const RunConfig c = plan_on(o, Backend::Cpu, 3, false, 3).config;
    const SizeDefaults& row = size_defaults(Backend::Cpu, 3, r);
    EXPECT_EQ(std::tie(c.engine.ga.individuals, c.engine.ga.local_search, c.engine.restart_after,
                       c.grow_after),
              std::tie(row.island_size, row.local_search, row.restart_after, row.grow_after))
        << to_string(r);
    EXPECT_EQ(c.pop, 3 * row.islands_per_unit * row.island_size);
  }
  // The defaults are the repaired GA's rows.
  const SizeDefaults& d = size_defaults(Backend::Cpu, 3, Repair::Propagate);
  EXPECT_EQ(plan_on({}, Backend::Cpu, 3, false, 3).config.engine.ga.individuals, d.island_size);
  // The table's restart is the GA's: climbers keep theirs, on every backend.
  RunOptions hc;
  hc.algorithm = Algorithm::Hc;
  const RunConfig climbers = plan_on(hc, Backend::Cuda, 3).config;
  EXPECT_EQ(climbers.engine.restart_after, kClimberRestartAfter);
  EXPECT_EQ(climbers.grow_after, 0u);  // islands grow in the GA only
  const RunConfig gpu = plan_on({}, Backend::Cuda, 3).config;
  const SizeDefaults& g = size_defaults(Backend::Cuda, 3, Repair::Propagate);
  EXPECT_EQ(std::tie(gpu.engine.ga.individuals, gpu.engine.ga.local_search,
                     gpu.engine.restart_after, gpu.grow_after),
            std::tie(g.island_size, g.local_search, g.restart_after, g.grow_after));
  // Islands the user sized do not grow unless asked: the table's growth is for its islands.
  RunOptions sized = plain();
  sized.pop = 256;
  EXPECT_EQ(plan_on(sized, Backend::Cuda, 3).config.grow_after, 0u);
  const RunConfig many = plan_on({}, Backend::Cpu, 3, /*many=*/true, 3).config;
  EXPECT_EQ(many.pop, std::min(d.islands_per_run, 3 * d.islands_per_unit) * d.many_island_size);
  // What was given stays.
  RunOptions given;
  given.pop = 600;
  given.island_size = 300;
  given.local_search = 7;
  given.grow_after = 0;
  const RunConfig kept = plan_on(given, Backend::Cpu, 5, true).config;
  EXPECT_EQ(
      std::tie(kept.pop, kept.engine.ga.individuals, kept.engine.ga.local_search, kept.grow_after),
      std::make_tuple(600u, 300u, 7u, 0u));
}

TEST(Defaults, EveryBackendHasARowForEverySizeAndNoneBeyond) {
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (const Repair r : kBothRows) {
      for (int box = kMinBox; box <= kMaxBox; ++box) EXPECT_NO_THROW(size_defaults(b, box, r));
      EXPECT_THROW(size_defaults(b, kMinBox - 1, r), InputError);
      EXPECT_THROW(size_defaults(b, kMaxBox + 1, r), InputError);
    }
  // From 36x36 the repaired GA restarts after more stagnant generations than below, as measured
  // on the CPU at each size (49x49 the most); the GPU's rows take the CPU's.
  for (const Backend b : {Backend::Cpu, Backend::Cuda}) {
    EXPECT_EQ(size_defaults(b, 5, Repair::Propagate).restart_after, 10u);
    EXPECT_EQ(size_defaults(b, 6, Repair::Propagate).restart_after, 100u);
    EXPECT_EQ(size_defaults(b, 7, Repair::Propagate).restart_after, 300u);
    EXPECT_EQ(size_defaults(b, 8, Repair::Propagate).restart_after, 100u);
  }
  // From 49x49 the CPU's searches are long and its islands small (a search of 36x36's length
  // ends still descending there); the GPU's keep 36x36's until a GPU has timed them.
  for (int box = 6; box <= kMaxBox; ++box) {
    const SizeDefaults& cpu = size_defaults(Backend::Cpu, box, Repair::Propagate);
    const SizeDefaults& gpu = size_defaults(Backend::Cuda, box, Repair::Propagate);
    EXPECT_EQ(std::tie(cpu.tabu, cpu.island_size, cpu.many_island_size),
              box == 6 ? std::make_tuple(200000u, 8u, 8u) : std::make_tuple(5000000u, 2u, 2u))
        << "box " << box;
    EXPECT_EQ(gpu.tabu, 200000u) << "box " << box;
  }
}

TEST(Defaults, EveryEntryIsARunTheEngineTakes) {
  // Each backend's islands, at every size, are valid islands. The GPU's fit an H100's block in
  // shared memory (227 KiB), as when their times were measured (25x25: one island of 128 on a
  // multiprocessor; its runs grow into islands of 256 that run from device memory).
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (int box = kMinBox; box <= kMaxBox; ++box)
      for (const Repair r : kBothRows) {
        const SizeDefaults& d = size_defaults(b, box, r);
        EXPECT_GE(d.islands_per_unit, 1u);
        EXPECT_GE(d.islands_per_run, 1u);
        for (const std::uint32_t size : table_island_sizes(d)) {
          RunOptions o;
          o.repair = r;
          o.pop = size * 2 * d.islands_per_unit;
          o.island_size = size;
          EXPECT_NO_THROW(plan_on(o, b, box)) << to_string(b) << " box " << box << ", islands of " << size;
          if (b != Backend::Cuda) continue;
          const GaParams ga = plan_on(o, b, box).engine_params().ga;
          const std::uint64_t staged = with_box_size(box, [&]<int B>() {
            return staged_bytes<B>(make_layout<B>(ga));
          });
          if (box <= 5)  // the sizes timed on a GPU; larger islands run from device memory
            EXPECT_LE(staged, 227u * 1024) << "box " << box << ", islands of " << size;
        }
      }
}

}  // namespace
}  // namespace gpuga
