#pragma once
// The launch policy's plain data (gpuga/launch_policy.hpp decides by them): what a system can do,
// a step's launch, and what one unit holds at once and a kernel takes, so that a target probed
// once carries them (gpuga/run_plan.hpp) without the device operators.
#include <algorithm>
#include <cstdint>

namespace gpuga {

// When a lone island (a run of one island) runs on the system's widest team: never, when it is
// too large to stage (a GPU that launches cooperative grids), or always (the CPU with several
// threads; the OpenMP twin, so that CI runs the grid's code).
enum class LoneIsland { Alone, GridWhenUnstaged, Grid };

struct DeviceLimits {
  std::uint64_t stage_limit = 0;   // the most bytes an island is staged in (a block's shared memory)
  std::uint32_t widest_team = 1;   // a block's most threads
  LoneIsland lone = LoneIsland::Alone;
  // Where two blocks may share a unit (a GPU's multiprocessor): the most shared bytes each may
  // take so that both fit (shared_each_of), and the units; 0 where a unit runs one island at a
  // time (a CPU thread, the OpenMP twin).
  std::uint64_t pair_limit = 0;
  std::uint64_t units = 1;
  // Whether a child's repair runs as waves of several lanes (a GPU's warp), which read its
  // candidates by the slots a puzzle lays out for the banks; a lane alone (a CPU thread) reads none.
  bool repair_waves = false;
};

enum class KernelKind {
  Staged,  // a block an island, staged in `staged_bytes` of shared memory
  Home,    // a block an island, from the islands' home (device memory)
  Grid,    // island 0 on every block of a cooperative grid, from its home
};

struct Launch {
  KernelKind kernel = KernelKind::Home;
  std::uint64_t blocks = 0;        // islands (Grid: the grid's, as the system sized it)
  std::uint32_t threads = 0;       // a block's (team_threads: whole warps its work can use)
  std::uint64_t staged_bytes = 0;  // Staged only
  std::uint64_t width = 0;         // Grid: the threads' worth of work (the island's sort keys)
  // The repaired GA's segment step: a block's scratch for its tiles of lanes (shared memory on
  // a GPU, before the staged island; a CPU thread's own).
  std::uint64_t scratch_bytes = 0;
};

// The segment steps (island_engine.hpp launches the one an island's parameters run).
enum class SegmentStep { Ga, RepairedGa, SearchedGa, Chains };

// What one unit holds at once (a GPU's multiprocessor, from its attributes; a CPU thread runs
// one island), and what a kernel takes (a thread's registers, a block's static shared memory):
// plain numbers a probe gathers once.
struct UnitLimits {
  std::uint64_t blocks = 1;
  std::uint64_t threads = UINT64_MAX;
  std::uint64_t registers = UINT64_MAX;        // 32-bit registers
  std::uint64_t register_partitions = 1;       // the register file's parts; a warp's lie in one
  std::uint64_t shared = UINT64_MAX;           // bytes
  std::uint64_t shared_reserved_per_block = 0;
  std::uint64_t shared_granularity = 1;        // a block's shared bytes are allocated in these
};
struct KernelFootprint {
  std::uint64_t registers = 0;  // a thread's
  std::uint64_t static_shared = 0;
};
// A segment step's kernels: its island staged, and from the home.
struct StepFootprint {
  KernelFootprint staged, home;
};
struct SegmentFootprints {
  StepFootprint step[4];
  StepFootprint& operator[](SegmentStep s) { return step[static_cast<int>(s)]; }
  const StepFootprint& operator[](SegmentStep s) const { return step[static_cast<int>(s)]; }
};

// Blocks of `threads` threads and `dynamic_shared` bytes of kernel `k` resident at once on `u`,
// by the rules of CUDA's occupancy calculator (cuda_occupancy.h): registers go to a warp 256 at a
// time, within one of the unit's partitions; shared memory in whole granules.
inline std::uint64_t resident_blocks(const UnitLimits& u, const KernelFootprint& k,
                                     std::uint64_t threads, std::uint64_t dynamic_shared) {
  constexpr std::uint64_t kWarp = 32, kRegisterUnit = 256;
  const std::uint64_t warps = std::max<std::uint64_t>((threads + kWarp - 1) / kWarp, 1);
  std::uint64_t blocks = std::min(u.blocks, u.threads / (warps * kWarp));
  const std::uint64_t per_warp = (k.registers * kWarp + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
  if (per_warp) {
    const std::uint64_t partition_warps = u.registers / u.register_partitions / per_warp;
    blocks = std::min(blocks, partition_warps * u.register_partitions / warps);
  }
  const std::uint64_t granule = u.shared_granularity;
  const std::uint64_t shared =
      (k.static_shared + dynamic_shared + u.shared_reserved_per_block + granule - 1) / granule * granule;
  if (shared) blocks = std::min(blocks, u.shared / shared);
  return blocks;
}

// The most dynamic shared bytes each of `blocks` blocks may take (no static shared memory) and
// still be resident together on `u`, by resident_blocks' rules.
inline std::uint64_t shared_each_of(const UnitLimits& u, std::uint64_t blocks) {
  const std::uint64_t each = u.shared / blocks / u.shared_granularity * u.shared_granularity;
  return each > u.shared_reserved_per_block ? each - u.shared_reserved_per_block : 0;
}

// A CUDA multiprocessor of compute capability `major` from its attributes, with the allocation
// rules of CUDA's occupancy calculator (cuda_occupancy.h, Volta and after): registers in four
// partitions, shared memory in granules of 128 bytes (256 before Ampere).
inline UnitLimits cuda_multiprocessor(int major, std::uint64_t blocks, std::uint64_t threads,
                                      std::uint64_t registers, std::uint64_t shared,
                                      std::uint64_t shared_reserved_per_block) {
  return {.blocks = blocks, .threads = threads, .registers = registers, .register_partitions = 4,
          .shared = shared, .shared_reserved_per_block = shared_reserved_per_block,
          .shared_granularity = major >= 8 ? 128u : 256u};
}

}  // namespace gpuga
