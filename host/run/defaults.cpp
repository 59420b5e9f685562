#include "gpuga/defaults.hpp"

#include <algorithm>
#include <iterator>

#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {

namespace {

// A run as large as one puzzle's: many puzzles then run one after another, each filling the
// backend (what was measured for them).
constexpr std::uint32_t kWholeBackend = 0xFFFFFFFFu;

// Rows by box size 2 to 8 (4x4 to 64x64) for the GA whose children are repaired
// (--repair propagate, the default): small islands that restart soon, as the sweeps of island
// size and restarts found fastest at every size on the CPU (docs/decisions.md); the GPU's rows
// islands of 32 (a block of eight warps an island, a warp a child's repair), sized by the same
// generations, not yet timed on a GPU.
constexpr SizeDefaults kCpuRepaired[] = {
    // island size, local search, restart after, grow after, islands per thread; many at once:
    // islands per run, island size, grow after; tabu-search steps per repaired grid
    {8, 0, 10, 0, 1, 2, 8, 0, 0},
    {8, 0, 10, 0, 1, 2, 8, 0, 0},
    {8, 0, 10, 0, 1, 2, 8, 0, 0},
    {8, 0, 10, 0, 1, 2, 8, 0, 0},
    // 36x36 to 64x64: an island restarted after 10 stagnant generations keeps losing what its
    // repairs built; each size takes the interval that solved most there (docs/decisions.md),
    // which test_defaults holds. Every repaired grid searched, by the steps that solved the hard
    // band at 36x36 (docs/decisions.md, "TabuCol"); from 49x49 a search of 200,000 steps ends
    // still descending, so islands of 2 search each grid for 5,000,000 (docs/decisions.md,
    // "Long searches in islands of 2 from 49x49"), each going back to its best after 100,000
    // steps that did not better it ("A long search goes back to its best").
    {8, 0, 100, 0, 1, 2, 8, 0, 200000},
    {2, 0, 300, 0, 1, 2, 2, 0, 5000000, 100000},
    {2, 0, 100, 0, 1, 2, 2, 0, 5000000, 100000},
};
constexpr SizeDefaults kCudaRepaired[] = {
    // island size, local search, restart after, grow after, islands per multiprocessor; many at
    // once: islands per run, island size, grow after; tabu-search steps per repaired grid
    {32, 0, 10, 0, 2, 2, 32, 0},
    {32, 0, 10, 0, 2, 2, 32, 0},
    {32, 0, 10, 0, 2, 2, 32, 0},
    {32, 0, 10, 0, 2, 2, 32, 0},
    // 36x36 to 64x64: the CPU's restarts, and 36x36's tabu-search steps at every size (measured
    // on the CPU: a generation makes the same bytes on either backend), not yet timed on a GPU:
    // a warp searches more slowly than a core, and the CPU's 5,000,000 steps a grid from 49x49
    // would hold a generation for minutes. One island a multiprocessor: a generation lasts as
    // long as a warp's searches one after another, four at 36x36 in a block of eight tiles, where
    // two islands (two blocks of six) would give each warp six (many puzzles at once fill the
    // device with blocks of six all the same).
    {32, 0, 100, 0, 1, 2, 32, 0, 200000},
    {32, 0, 300, 0, 1, 2, 32, 0, 200000},
    {32, 0, 100, 0, 1, 2, 32, 0, 200000},
};

// The plain GA's (--repair none: children as bred, a memetic local search): 4x4 takes 9x9's,
// unmeasured (any setting solves 4x4 at generation 0 or 1).
constexpr SizeDefaults kCpu[] = {
    // island size, local search, restart after, grow after, islands per thread; many at once:
    // islands per run, island size, grow after
    {250, 250, 10, 8, 1, 2, 250, 8},
    {250, 250, 10, 8, 1, 2, 250, 8},
    {250, 500, 30, 8, 1, 2, 250, 8},
    {1000, 20000, 30, 0, 1, 2, 1000, 0},
    {1000, 20000, 30, 0, 1, 2, 1000, 0},  // 36x36 to 64x64: 25x25's, not yet measured there
    {1000, 20000, 30, 0, 1, 2, 1000, 0},
    {1000, 20000, 30, 0, 1, 2, 1000, 0},
};
constexpr SizeDefaults kCuda[] = {
    // island size, local search, restart after, grow after, islands per multiprocessor; many at
    // once: islands per run, island size, grow after
    {128, 200, 10, 20, 2, 256, 32, 6},
    {128, 200, 10, 20, 2, 256, 32, 6},
    {64, 200, 30, 20, 2, kWholeBackend, 64, 20},
    {128, 20000, 30, 30, 2, kWholeBackend, 128, 30},
    {128, 20000, 30, 30, 2, kWholeBackend, 128, 30},  // 36x36 to 64x64: 25x25's, not yet measured
    {128, 20000, 30, 30, 2, kWholeBackend, 128, 30},
    {128, 20000, 30, 30, 2, kWholeBackend, 128, 30},
};

// A row for every box size, kMinBox to kMaxBox.
static_assert(std::size(kCpuRepaired) == kMaxBox - 1 && std::size(kCpu) == kMaxBox - 1);
static_assert(std::size(kCudaRepaired) == kMaxBox - 1 && std::size(kCuda) == kMaxBox - 1);

}  // namespace

const SizeDefaults& size_defaults(Backend backend, int box, Repair repair) {
  const bool cuda = backend == Backend::Cuda;
  const std::string size = std::to_string(box * box) + "x" + std::to_string(box * box);
  GPUGA_INPUT_CHECK(box >= kMinBox && box <= kMaxBox, "a " + size + " puzzle; expected 4x4 to 64x64");
  if (repair == Repair::Propagate) return (cuda ? kCudaRepaired : kCpuRepaired)[box - 2];
  return (cuda ? kCuda : kCpu)[box - 2];
}

std::vector<std::uint32_t> table_island_sizes(const SizeDefaults& d) {
  if (d.many_island_size == d.island_size) return {d.island_size};
  return {d.island_size, d.many_island_size};
}

std::uint32_t default_island_size(std::uint32_t pop, std::uint32_t size) {
  if (pop == 0 || pop % size == 0) return size;
  if (pop < size) return pop;
  for (std::uint32_t d = size; d >= std::max(size / 2, 2u); --d)
    if (pop % d == 0) return d;
  return size;
}

std::uint32_t default_islands(const SizeDefaults& d, const BackendShape& shape) {
  return std::max(std::min(d.islands_per_unit, shape.islands_at_once), 1u) * shape.units;
}

std::uint32_t default_islands_per_run(const SizeDefaults& d, const BackendShape& shape) {
  return std::min(d.islands_per_run, default_islands(d, shape));
}

std::uint32_t runs_that_fill(const BackendShape& shape, std::uint32_t islands) {
  const std::uint64_t room = std::uint64_t(shape.units) * std::max(shape.islands_at_once, 1u);
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(room / std::max(islands, 1u), 1));
}

std::uint32_t default_slots(Backend backend, bool many, const BackendShape& shape,
                            std::uint32_t islands, std::uint32_t pop) {
  if (many) return runs_that_fill(shape, islands);
  if (backend == Backend::Cuda) return std::clamp(1000000u / std::max(pop, 1u), 1u, 65535u);
  return 8;
}

}  // namespace gpuga
