#pragma once
// How an island step is launched, decided in one place for every system (engine/island_engine.hpp
// launches by it; the CUDA occupancy query, cuda/engine_cuda_box.cuh, asks it which kernel): from
// the step (a segment of generations, which may stage its island; the boundary and summary steps,
// which work on the islands' home), the island's layout, how many islands there are, and what
// the system can do. Pure: tests/test_launch_policy.cpp checks it on an A100's and an H100's
// limits with no GPU.
#include <cstdint>

#include "gpuga/device/island.hpp"

namespace gpuga {

// When a lone island (a run of one island) runs on the system's widest team: never, when it is
// too large to stage (a GPU that launches cooperative grids), or always (the CPU with several
// threads; the OpenMP twin, so that CI runs the grid's code).
enum class LoneIsland { Alone, GridWhenUnstaged, Grid };

struct DeviceLimits {
  std::uint64_t stage_limit = 0;   // the most bytes an island is staged in (a block's shared memory)
  std::uint32_t widest_team = 1;   // a block's most threads
  LoneIsland lone = LoneIsland::Alone;
};

enum class KernelKind {
  Staged,  // a block an island, staged in `staged_bytes` of shared memory
  Home,    // a block an island, from the islands' home (device memory)
  Grid,    // island 0 on every block of a cooperative grid, from its home
};

struct Launch {
  KernelKind kernel = KernelKind::Home;
  std::uint64_t blocks = 0;        // islands (Grid: as many as the system runs at once)
  std::uint32_t threads = 0;       // a block's (team_threads: whole warps its work can use)
  std::uint64_t staged_bytes = 0;  // Staged only
  std::uint64_t width = 0;         // Grid: the threads' worth of work (the island's sort keys)
};

// The launch of a step over `islands` islands of layout L; `stages`: the step can stage its
// island (the segment steps), the others run from the home.
template <int B>
Launch launch_of(bool stages, const IslandLayout& L, std::uint64_t islands, const DeviceLimits& d) {
  const std::uint64_t bytes = staged_bytes<B>(L);
  const bool fits = bytes <= d.stage_limit;
  const bool grid = islands == 1 && (d.lone == LoneIsland::Grid ||
                                     (d.lone == LoneIsland::GridWhenUnstaged && !fits));
  Launch l;
  if (grid) {
    l.kernel = KernelKind::Grid;
    l.threads = d.widest_team;
    l.width = L.sort_n;
    return l;
  }
  l.blocks = islands;
  l.threads = team_threads(L, d.widest_team);
  if (stages && fits) {
    l.kernel = KernelKind::Staged;
    l.staged_bytes = bytes;
  }
  return l;
}

}  // namespace gpuga
