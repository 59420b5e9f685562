// How an island step is launched (gpuga/launch_policy.hpp), on an A100's and an H100's limits
// (the shared memory a block may opt in to: 163 KiB and 227 KiB; both launch cooperative grids),
// the CPU's and the OpenMP twin's, with no GPU: staged where the island fits, a block as wide as
// its island's work, a lone island too large to stage on a grid, the boundary and summary steps
// from the home.
#include <gtest/gtest.h>

#include <tuple>

#include "gpuga/device/steps.hpp"
#include "gpuga/launch_policy.hpp"

using namespace gpuga;

namespace {

// Two blocks share a multiprocessor in half its shared memory each, less a block's 1 KiB
// (shared_each_of: 163 KiB of 164 and 227 of 228 a block alone): an A100's 108, an H100's 132.
constexpr DeviceLimits kAmpere{166912, 256, LoneIsland::GridWhenUnstaged, 82944, 108};
constexpr DeviceLimits kHopper{232448, 256, LoneIsland::GridWhenUnstaged, 115712, 132};

template <int B>
IslandLayout layout(std::uint32_t size, Algorithm algorithm = Algorithm::Ga) {
  GaParams p;
  p.algorithm = algorithm;
  p.individuals = p.children = size;
  p.crossover = Crossover::Bands;
  return make_layout<B>(p);
}

}  // namespace

TEST(LaunchPolicy, AnIslandThatFitsIsStagedOnABlockAsWideAsItsWork) {
  for (const DeviceLimits& d : {kAmpere, kHopper}) {
    const IslandLayout L = layout<3>(128);
    const Launch segment = launch_of<3>(true, L, 264, d);
    EXPECT_EQ(segment.kernel, KernelKind::Staged);
    EXPECT_EQ(segment.blocks, 264u);
    EXPECT_EQ(segment.threads, 128u);
    EXPECT_EQ(segment.staged_bytes, staged_bytes<3>(L));
    const Launch home = launch_of<3>(false, L, 264, d);  // boundary and summary steps
    EXPECT_EQ(home.kernel, KernelKind::Home);
    EXPECT_EQ(home.staged_bytes, 0u);
    EXPECT_EQ(home.threads, 128u);
    EXPECT_EQ(launch_of<3>(true, layout<3>(32), 512, d).threads, 32u);  // a warp
    EXPECT_EQ(launch_of<3>(true, layout<3>(1000), 8, d).threads, 256u);  // the widest block
  }
}

TEST(LaunchPolicy, WhatStagesDependsOnTheDevicesSharedMemory) {
  // 25x25 islands of 128: 171 KiB staged, more than an A100's block holds, less than an H100's.
  const IslandLayout L = layout<5>(128);
  ASSERT_GT(staged_bytes<5>(L), kAmpere.stage_limit);
  ASSERT_LE(staged_bytes<5>(L), kHopper.stage_limit);
  EXPECT_EQ(launch_of<5>(true, L, 132, kAmpere).kernel, KernelKind::Home);
  EXPECT_EQ(launch_of<5>(true, L, 132, kHopper).kernel, KernelKind::Staged);
  // 1,200 9x9 sa chains stage on neither.
  const IslandLayout chains = layout<3>(1200, Algorithm::Sa);
  EXPECT_EQ(launch_of<3>(true, chains, 2, kHopper).kernel, KernelKind::Home);
  EXPECT_EQ(launch_of<3>(true, chains, 2, kHopper).threads, 256u);
}

TEST(LaunchPolicy, ALoneIslandTooLargeToStageRunsOnEveryBlock) {
  const IslandLayout big = layout<5>(256), small = layout<3>(128);
  for (const bool stages : {true, false}) {  // every step of the engine on the grid
    const Launch launch = launch_of<5>(stages, big, 1, kHopper);
    EXPECT_EQ(launch.kernel, KernelKind::Grid);
    EXPECT_EQ(launch.width, big.sort_n);
    EXPECT_EQ(launch.threads, 256u);
    EXPECT_EQ(launch.staged_bytes, 0u);
  }
  EXPECT_EQ(launch_of<3>(true, small, 1, kHopper).kernel, KernelKind::Staged);  // it fits: a block
  EXPECT_EQ(launch_of<5>(true, big, 2, kHopper).kernel, KernelKind::Home);      // islands side by side
  const DeviceLimits no_grids{232448, 256, LoneIsland::Alone};
  EXPECT_EQ(launch_of<5>(true, big, 1, no_grids).kernel, KernelKind::Home);
}

TEST(LaunchPolicy, TheCpuStagesNothingAndTheTwinPutsEveryLoneIslandOnTheGrid) {
  const IslandLayout L = layout<3>(50);
  const DeviceLimits cpu{0, 1, LoneIsland::Grid}, one_thread{0, 1, LoneIsland::Alone};
  EXPECT_EQ(launch_of<3>(true, L, 4, cpu).kernel, KernelKind::Home);
  EXPECT_EQ(launch_of<3>(true, L, 1, cpu).kernel, KernelKind::Grid);
  EXPECT_EQ(launch_of<3>(true, L, 1, one_thread).kernel, KernelKind::Home);
  const DeviceLimits twin{~std::uint64_t(0), 3, LoneIsland::Grid};
  EXPECT_EQ(launch_of<3>(true, L, 1, twin).kernel, KernelKind::Grid);
  EXPECT_EQ(launch_of<3>(true, L, 3, twin).kernel, KernelKind::Staged);
}

// An H100's multiprocessor (its attributes): 32 blocks, 2048 threads, 64 Ki registers in 4
// partitions, 228 KiB of shared memory, 1 KiB of it reserved per block, allocated 128 B at a time.
const UnitLimits kHopperSm = cuda_multiprocessor(9, 32, 2048, 65536, 233472, 1024);

TEST(LaunchPolicy, TwoBlocksShareAUnitInHalfItsSharedMemoryEach) {
  EXPECT_EQ(shared_each_of(kHopperSm, 2), kHopper.pair_limit);
  EXPECT_EQ(shared_each_of(cuda_multiprocessor(8, 32, 2048, 65536, 167936, 1024), 2), kAmpere.pair_limit);
  // Two of that many bytes, and no more, are resident together.
  EXPECT_EQ(resident_blocks(kHopperSm, {}, 256, kHopper.pair_limit), 2u);
  EXPECT_EQ(resident_blocks(kHopperSm, {}, 256, kHopper.pair_limit + 1), 1u);
  EXPECT_EQ(shared_each_of(UnitLimits{.shared = 1000, .shared_reserved_per_block = 1024}, 2), 0u);
}

TEST(LaunchPolicy, AUnitHoldsTheBlocksItsRegistersThreadsAndSharedMemoryAllow) {
  // 64 registers on blocks of 128: 8192 a block, 8 by registers; 20,000 staged bytes: 11 by
  // shared memory.
  EXPECT_EQ(resident_blocks(kHopperSm, {64, 0}, 128, 20000), 8u);
  // 90 registers round up to 96 a thread (a warp's 2880 to 3072): 5 blocks of 128.
  EXPECT_EQ(resident_blocks(kHopperSm, {90, 0}, 128, 20000), 5u);
  // 60,000 staged bytes (and 1,000 of static shared memory): 233472 / 62080 (whole granules) = 3.
  EXPECT_EQ(resident_blocks(kHopperSm, {64, 1000}, 128, 60000), 3u);
  // A warp a block: the hardware's 32 blocks; whole warps: 100 threads take 4 warps' registers.
  EXPECT_EQ(resident_blocks(kHopperSm, {64, 0}, 32, 0), 32u);
  EXPECT_EQ(resident_blocks(kHopperSm, {64, 0}, 100, 0), resident_blocks(kHopperSm, {64, 0}, 128, 0));
  EXPECT_EQ(resident_blocks(kHopperSm, {32, 0}, 256, 0), 8u);  // by threads: 2048 / 256
  EXPECT_EQ(resident_blocks(UnitLimits{}, {}, 256, 0), 1u);   // a CPU thread: one island
  // 112 registers a thread, a warp a block: 3584 a warp, four warps in each partition's 16 Ki
  // (not 65536 / 3584 = 18): 16, as CUDA's query says.
  EXPECT_EQ(resident_blocks(kHopperSm, {112, 0}, 32, 0), 16u);
  // Shared memory in granules of 128 bytes: 57,300 staged + 1,024 reserved take 58,368; a unit
  // of 4 x 58,368 - 1 bytes holds 3 (by the bytes alone, 4).
  const UnitLimits tight{.blocks = 32, .threads = 2048, .shared = 4 * 58368 - 1,
                         .shared_reserved_per_block = 1024, .shared_granularity = 128};
  EXPECT_EQ(resident_blocks(tight, {}, 32, 57300), 3u);
}

TEST(LaunchPolicy, TheIslandsAtOnceAreTheirSegmentKernelsBlocksStagedWhereTheyFit) {
  SegmentFootprints f;
  f[SegmentStep::Ga] = {{64, 0}, {64, 0}};
  f[SegmentStep::RepairedGa] = {{128, 0}, {128, 0}};
  f[SegmentStep::Chains] = {{64, 0}, {128, 0}};
  GaParams ga;
  ga.individuals = ga.children = 128;
  ga.crossover = Crossover::Bands;
  const std::uint64_t staged = staged_bytes<3>(make_layout<3>(ga));
  const std::uint64_t by_shared = 233472 / (staged + 1024);
  EXPECT_EQ(islands_at_once<3>(ga, Shape<3>::kCells, kHopperSm, kHopper, f), std::min<std::uint64_t>(8, by_shared));
  ga.repair = Repair::Propagate;
  ga.encoding = Encoding::Cell;
  // A warp a child: blocks of the widest, 256 threads, with eight tiles' scratch before the
  // island; at 128 registers two of them.
  const Launch repaired = block_launch_of<3>(true, make_layout<3>(ga), 1, kHopper);
  EXPECT_EQ(repaired.threads, 256u);
  EXPECT_EQ(repaired.scratch_bytes, 8 * repair_tile_bytes<3>(Shape<3>::kCells));
  EXPECT_EQ(repaired.kernel, KernelKind::Staged);
  EXPECT_EQ(islands_at_once<3>(ga, Shape<3>::kCells, kHopperSm, kHopper, f), 2u);
  // The boundary and summary steps, which repair nothing, keep a thread a child and no scratch.
  const Launch home = block_launch_of<3>(false, make_layout<3>(ga), 1, kHopper);
  EXPECT_EQ(std::tie(home.threads, home.scratch_bytes), std::make_tuple(128u, std::uint64_t(0)));
  GaParams sa;
  sa.algorithm = Algorithm::Sa;
  sa.individuals = sa.children = 128;
  EXPECT_EQ(islands_at_once<3>(sa, Shape<3>::kCells, kHopperSm, kHopper, f),
            std::min<std::uint64_t>(8, 233472 / (staged_bytes<3>(make_layout<3>(sa)) + 1024)));
  // Too large to stage: from the home, the home kernel's registers (chains: 128 on 256 threads).
  sa.individuals = sa.children = 20000;
  EXPECT_EQ(islands_at_once<3>(sa, Shape<3>::kCells, kHopperSm, kHopper, f), 2u);
}

namespace {

// The repaired GA's islands of `size` at box size B: a warp a child, on puzzles of at most
// `free_cells` free cells (any puzzle by default).
template <int B>
IslandLayout repaired_layout(std::uint32_t size, std::uint32_t free_cells = Shape<B>::kCells) {
  GaParams ga;
  ga.individuals = ga.children = size;
  ga.repair = Repair::Propagate;
  ga.encoding = Encoding::Cell;
  return make_layout<B>(ga, free_cells);
}

// Free cells of a puzzle of box size B with `percent` of its cells given.
template <int B>
constexpr std::uint32_t free_at(std::uint32_t percent) {
  return Shape<B>::kCells - Shape<B>::kCells * percent / 100;
}

// A block's tiles' repair scratch fits its shared memory: as many tiles as fit, up to the team
// its children would take, at least one; a lone island's grid only where its widest blocks'
// scratch fits too.
template <int B>
void expect_repair_scratch_fits(const DeviceLimits& d) {
  const IslandLayout L = repaired_layout<B>(32);
  const std::uint64_t tile = repair_tile_bytes<B>(L.repair_cells);
  const Launch launch = block_launch_of<B>(true, L, 4, d);
  ASSERT_EQ(launch.threads % kRepairLanes<B>, 0u) << "box " << B;
  EXPECT_EQ(launch.scratch_bytes, launch.threads / kRepairLanes<B> * tile) << "box " << B;
  EXPECT_LE(launch.scratch_bytes, d.stage_limit) << "box " << B;
  const bool widest = launch.threads == team_threads(L, d.widest_team, true);
  EXPECT_TRUE(widest || launch.scratch_bytes + tile > d.stage_limit)
      << "box " << B << ": a tile more would fit";
  const Launch lone = launch_of<B>(true, L, 1, d);
  if (lone.kernel == KernelKind::Grid) EXPECT_LE(lone.scratch_bytes, d.stage_limit) << "box " << B;
  EXPECT_TRUE(repair_tile_fits<B>(L, d));
}

}  // namespace

TEST(LaunchPolicy, TheRepairsScratchFitsABlocksSharedMemoryAtEverySize) {
  for (const DeviceLimits& d : {kAmpere, kHopper}) {
    expect_repair_scratch_fits<3>(d);
    expect_repair_scratch_fits<5>(d);
    expect_repair_scratch_fits<6>(d);
    expect_repair_scratch_fits<7>(d);
    expect_repair_scratch_fits<8>(d);
  }
  // On an H100, whatever the puzzle, 9x9 to 49x49 eight tiles (the team of an island of 32:
  // 8 warps), and a lone 36x36 island staged in one block; 64x64 five, and eight where 35 % of
  // the cells or more are given, where a lone island runs on the grid.
  EXPECT_EQ(block_launch_of<3>(true, repaired_layout<3>(32), 1, kHopper).threads, 256u);
  EXPECT_EQ(block_launch_of<6>(true, repaired_layout<6>(32), 1, kHopper).threads, 256u);
  EXPECT_EQ(launch_of<6>(true, repaired_layout<6>(32), 1, kHopper).kernel, KernelKind::Staged);
  EXPECT_EQ(block_launch_of<7>(true, repaired_layout<7>(32), 1, kHopper).threads, 256u);
  EXPECT_EQ(block_launch_of<8>(true, repaired_layout<8>(32), 1, kHopper).threads, 160u);
  EXPECT_EQ(launch_of<8>(true, repaired_layout<8>(32), 1, kHopper).kernel, KernelKind::Home);
  EXPECT_EQ(block_launch_of<8>(true, repaired_layout<8>(32, free_at<8>(35)), 1, kHopper).threads, 256u);
  EXPECT_EQ(block_launch_of<8>(true, repaired_layout<8>(32, free_at<8>(30)), 1, kHopper).threads, 224u);
  EXPECT_EQ(launch_of<8>(true, repaired_layout<8>(32, free_at<8>(35)), 1, kHopper).kernel, KernelKind::Grid);
  // The CPU's thread holds its own tile, whatever its size.
  const DeviceLimits cpu{0, 1, LoneIsland::Grid};
  EXPECT_EQ(block_launch_of<8>(true, repaired_layout<8>(32), 4, cpu).threads, 1u);
  EXPECT_TRUE(repair_tile_fits<8>(repaired_layout<8>(32), cpu));
  // A block of 48 KiB (a Turing card's unasked) holds one 64x64 tile; one of 32 KiB none for
  // puzzles of every cell free, the engine refusing before it allocates (island_engine.hpp), and
  // one for a puzzle of 35 % given; 36x36's fits.
  const DeviceLimits turing{49152, 256, LoneIsland::GridWhenUnstaged};
  EXPECT_TRUE(repair_tile_fits<8>(repaired_layout<8>(32), turing));
  EXPECT_EQ(block_launch_of<8>(true, repaired_layout<8>(32), 1, turing).threads, 32u);
  const DeviceLimits small{32768, 256, LoneIsland::GridWhenUnstaged};
  EXPECT_FALSE(repair_tile_fits<8>(repaired_layout<8>(32), small));
  EXPECT_TRUE(repair_tile_fits<8>(repaired_layout<8>(32, free_at<8>(35)), small));
  EXPECT_TRUE(repair_tile_fits<6>(repaired_layout<6>(32), small));
  EXPECT_TRUE(repair_tile_fits<8>(layout<8>(32), small));  // the plain GA repairs nothing
}

TEST(LaunchPolicy, TwoBlocksOfFewerTilesShareAUnitWhereTheyRunMoreTiles) {
  const auto tiles_of = [](const Launch& launch) { return launch.threads / kRepairLanes<6>; };
  // 36x36 on an H100: a block of eight tiles and its island staged fills a unit; eight tiles
  // alone take at most half of it, whatever the puzzle. Once the islands outnumber the units,
  // two blocks of eight from the home share each: sixteen tiles a unit.
  const IslandLayout big = repaired_layout<6>(32);
  for (const std::uint64_t islands : {1ull, 132ull, 264ull, 1000ull}) {
    const Launch launch = block_launch_of<6>(true, big, islands, kHopper);
    EXPECT_EQ(tiles_of(launch), 8u) << islands;
    EXPECT_EQ(launch.scratch_bytes, 8 * repair_tile_bytes<6>(big.repair_cells));
    EXPECT_EQ(launch.kernel, islands > kHopper.units ? KernelKind::Home : KernelKind::Staged) << islands;
  }
  const Launch paired36 = block_launch_of<6>(true, big, 1000, kHopper);
  EXPECT_LE(paired36.scratch_bytes, kHopper.pair_limit);
  EXPECT_EQ(resident_blocks(kHopperSm, {128, 0}, paired36.threads, paired36.scratch_bytes), 2u);
  // On an A100 eight tiles take more than half a unit: two blocks of five, ten tiles.
  EXPECT_EQ(tiles_of(block_launch_of<6>(true, big, 1000, kAmpere)), 5u);
  EXPECT_EQ(tiles_of(block_launch_of<6>(true, big, 100, kAmpere)), 8u);
  // The boundary and summary steps repair nothing: unchanged.
  EXPECT_EQ(block_launch_of<6>(false, big, 1000, kHopper).threads, team_threads(big, 256, false));
  // An A100 at 25x25: a block of eight tiles and its island staged takes more than half the
  // unit; two blocks of eight from the home run twice the tiles.
  const IslandLayout mid = repaired_layout<5>(32);
  const Launch staged_alone = block_launch_of<5>(true, mid, 1, kAmpere);
  EXPECT_EQ(std::tie(staged_alone.threads, staged_alone.kernel), std::make_tuple(256u, KernelKind::Staged));
  const Launch paired = block_launch_of<5>(true, mid, 1000, kAmpere);
  EXPECT_EQ(std::tie(paired.threads, paired.kernel), std::make_tuple(256u, KernelKind::Home));
  EXPECT_EQ(block_launch_of<5>(true, mid, 1000, kHopper).kernel, KernelKind::Staged);  // two fit staged
  // From 49x49 a block alone stays, whose kernel holds one by its registers: an H100's at 64x64
  // on a puzzle of half its cells given, where two blocks of five would hold ten tiles.
  const IslandLayout half = repaired_layout<8>(32, free_at<8>(50));
  ASSERT_GE(kHopper.pair_limit / repair_tile_bytes<8>(half.repair_cells), 5u);
  EXPECT_EQ(tiles_of(block_launch_of<8>(true, half, 1000, kHopper)), 8u);
  const Launch nine = block_launch_of<3>(true, repaired_layout<3>(32), 1000, kHopper);
  EXPECT_EQ(std::tie(nine.threads, nine.kernel), std::make_tuple(256u, KernelKind::Staged));
  // A plan's islands a unit count them where they fill every unit: two of 36x36 at 128 registers.
  SegmentFootprints f;
  f[SegmentStep::RepairedGa] = {{160, 0}, {128, 0}};
  GaParams ga;
  ga.individuals = ga.children = 32;
  ga.repair = Repair::Propagate;
  ga.encoding = Encoding::Cell;
  ASSERT_EQ(make_layout<6>(ga).repair_lanes, kRepairLanes<6>);
  EXPECT_EQ(islands_at_once<6>(ga, Shape<6>::kCells, kHopperSm, kHopper, f), 2u);
}
