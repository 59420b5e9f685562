#pragma once
// How an island step is launched, decided in one place for every system (engine/island_engine.hpp
// launches by it; a plan counts the islands a unit runs at once by it, host/run/run_plan.cpp):
// from the step (a segment of generations, which may stage its island; the boundary and summary
// steps, which work on the islands' home), the island's layout, how many islands there are, and
// what the system can do. Pure: tests/test_launch_policy.cpp checks it on an A100's and an
// H100's limits with no GPU.
#include <algorithm>
#include <cstdint>

#include "gpuga/device/island.hpp"
#include "gpuga/launch_limits.hpp"

namespace gpuga {

// A block of `threads` whose tiles' repair scratch (for puzzles of `free_cells` free cells) fits
// `limit` bytes of shared memory: as many tiles as fit, at least one. A team of one tile (a CPU
// thread, whose scratch is its own) keeps its threads. A block of fewer tiles repairs the same
// children in more turns, with the same bytes (tests/test_engine_device.cpp runs 64x64 on a
// GPU's limits on the twin).
template <int B>
std::uint32_t threads_whose_scratch_fits(std::uint32_t threads, std::uint64_t limit, std::uint32_t free_cells) {
  const std::uint64_t tiles = limit / repair_tile_bytes<B>(free_cells);
  if (threads <= kRepairLanes<B> || tiles * kRepairLanes<B> >= threads) return threads;
  return static_cast<std::uint32_t>(tiles > 1 ? tiles : 1) * kRepairLanes<B>;
}

// Whether a tile's repair scratch fits a block of the system (no tile of B's: always).
template <int B>
bool repair_tile_fits(const IslandLayout& layout, const DeviceLimits& d) {
  return !layout.repair_lanes || d.widest_team <= kRepairLanes<B> ||
         repair_tile_bytes<B>(layout.repair_cells) <= d.stage_limit;
}

// A step over islands of `layout`, a block an island, whose shared memory takes at most `limit`
// bytes; `stages`: the step can stage its island (the segment steps), the others run from the
// home.
template <int B>
Launch block_launch_within(bool stages, const IslandLayout& layout, std::uint64_t islands, std::uint64_t limit,
                           const DeviceLimits& d) {
  const std::uint64_t bytes = staged_bytes<B>(layout);
  Launch launch;
  launch.blocks = islands;
  launch.threads = team_threads(layout, d.widest_team, stages);
  if (stages && layout.repair_lanes) {
    launch.threads = threads_whose_scratch_fits<B>(launch.threads, limit, layout.repair_cells);
    launch.scratch_bytes = repair_scratch_bytes<B>(launch.threads, layout.repair_cells);
  }
  if (stages && bytes + launch.scratch_bytes <= limit) {
    launch.kernel = KernelKind::Staged;
    launch.staged_bytes = bytes;
  }
  return launch;
}

// A step over `islands` islands of `layout`, a block an island. A block of the repaired GA's
// tiles takes as many as its shared memory holds, unless two blocks, of fewer tiles or unstaged,
// share a unit and so run more tiles over the device once the islands outnumber the units: on an
// H100 at 36x36 two blocks of eight tiles from the home where one holds eight with its island
// staged; on an A100 two of five where one holds eight. Up to 36x36 the repaired steps' kernels
// from the home hold two blocks by their registers (cuda/device_system.hpp's LaunchPolicy; the
// kernel_resources test checks the islands a multiprocessor that a plan counts); from 49x49 one
// block takes the registers it needs, and stays alone.
template <int B>
Launch block_launch_of(bool stages, const IslandLayout& layout, std::uint64_t islands, const DeviceLimits& d) {
  const Launch alone = block_launch_within<B>(stages, layout, islands, d.stage_limit, d);
  if (!stages || !layout.repair_lanes || !d.pair_limit || B > 6) return alone;
  const Launch pair = block_launch_within<B>(stages, layout, islands, d.pair_limit, d);
  const auto tiles_running = [&](const Launch& launch, std::uint64_t blocks_a_unit) {
    return std::min(islands, blocks_a_unit * d.units) * repair_tiles<B>(launch.threads);
  };
  const bool pair_fits = pair.scratch_bytes + pair.staged_bytes <= d.pair_limit;
  const bool alone_pairs = alone.scratch_bytes + alone.staged_bytes <= d.pair_limit;
  return pair_fits && !alone_pairs && tiles_running(pair, 2) > tiles_running(alone, 1) ? pair : alone;
}

// Islands enough to fill every unit: what a plan's room for islands (islands_at_once) and the
// kernels' occupancy are counted at.
inline constexpr std::uint64_t kIslandsFillingEveryUnit = UINT64_MAX;

// The launch of a step over `islands` islands of `layout`: a block an island, or a lone island
// on a grid where the system says so. A grid's blocks are the widest: on a GPU, one whose tiles'
// repair scratch does not fit its shared memory (the largest sizes on puzzles of many free cells:
// 64x64 below 35 % given on an H100) runs a block instead.
template <int B>
Launch launch_of(bool stages, const IslandLayout& layout, std::uint64_t islands, const DeviceLimits& d) {
  const bool fits = block_launch_of<B>(true, layout, 1, d).kernel == KernelKind::Staged;
  const bool grid_scratch_fits =
      !layout.repair_lanes || repair_scratch_bytes<B>(d.widest_team, layout.repair_cells) <= d.stage_limit;
  const bool grid = islands == 1 && (d.lone == LoneIsland::Grid ||
                                     (d.lone == LoneIsland::GridWhenUnstaged && !fits && grid_scratch_fits));
  if (!grid) return block_launch_of<B>(stages, layout, islands, d);
  Launch launch;
  launch.kernel = KernelKind::Grid;
  launch.threads = d.widest_team;
  launch.width = layout.sort_n;
  if (stages && layout.repair_lanes) launch.scratch_bytes = repair_scratch_bytes<B>(launch.threads, layout.repair_cells);
  return launch;
}

// The segment step an island's parameters run.
inline SegmentStep segment_step_of(const GaParams& ga) {
  if (ga.algorithm != Algorithm::Ga) return SegmentStep::Chains;
  if (ga.repair != Repair::Propagate) return SegmentStep::Ga;
  return ga.tabu ? SegmentStep::SearchedGa : SegmentStep::RepairedGa;
}

// Islands of these parameters side by side (a block each, never a lone island's grid), on
// puzzles of at most `free_cells` free cells, that one unit runs at once, where they fill every
// unit: the segment step's blocks, staged where the
// island fits. A plan counts them from a probe's numbers, as CUDA's occupancy calculator does
// (tests/test_engine_device.cpp checks every segment kernel against
// cudaOccupancyMaxActiveBlocksPerMultiprocessor).
template <int B>
std::uint64_t islands_at_once(const GaParams& ga, std::uint32_t free_cells, const UnitLimits& u,
                              const DeviceLimits& d, const SegmentFootprints& f) {
  const Launch launch = block_launch_of<B>(true, make_layout<B>(ga, free_cells), kIslandsFillingEveryUnit, d);
  const StepFootprint& step = f[segment_step_of(ga)];
  return resident_blocks(u, launch.kernel == KernelKind::Staged ? step.staged : step.home, launch.threads,
                         launch.staged_bytes + launch.scratch_bytes);
}

}  // namespace gpuga
