// The repair's waves a child (repair.hpp): how many a child takes, how many of them place one
// cell by a draw (nothing claimed by singles), and the cells placed a wave, on the first puzzle
// of each file. A GPU's warp runs the same waves as one lane does (the repair's bytes do not
// depend on its width, tests/test_repair.cpp), so a tile of one lane that takes the waves' path
// counts them on the CPU. Each wave rescans every open cell: the waves a child are what a warp's
// repair time grows with. Usage: gpuga_repair_waves FILE... (64 children a puzzle, each drawn
// within its cells' candidates as an island's first individuals are).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gpuga/device/breed.hpp"
#include "gpuga/device/repair.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace {

using namespace gpuga;

// A lane alone that runs the waves (OneLane itself takes LoneRepair's path), counting them:
// each wave asks once whether any lane claimed a cell (ballot).
struct CountingLane : OneLane {
  struct Counts {
    std::uint64_t waves = 0, decided = 0;
  };
  Counts* counts = nullptr;
  std::uint32_t ballot(bool claimed) const {
    ++counts->waves;
    counts->decided += !claimed;
    return claimed ? 1u : 0u;
  }
};
static_assert(Tile<CountingLane>);

constexpr std::uint32_t kChildren = 64;

template <int B>
void count_waves(const char* file, const Grid& puzzle) {
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  std::vector<std::uint8_t> scratch(repair_tile_bytes<B>(info.n_free), 0);
  auto& state = *reinterpret_cast<RepairScratch<B>*>(scratch.data());
  CountingLane::Counts counts;
  CountingLane lane;
  lane.bytes = scratch.data();
  lane.counts = &counts;
  std::uint64_t placed = 0;
  for (std::uint32_t child = 0; child < kChildren; ++child) {
    std::vector<std::uint8_t> grid(Shape<B>::kGenomeBytes, 0);
    Rng draw(B * 100 + 7, 3, child, kPurposeInit);
    init_individual<B>(grid.data(), info, Encoding::Cell, false, draw);
    state.rng = Rng(9, 0, child, kPurposeRepair);
    repair_on_lanes<B>(lane, state, grid.data(), info);
    for (int i = 0; i < info.n_free; ++i) placed += grid[info.all_free[i]] != 0;
  }
  const double waves = double(counts.waves) / kChildren;
  std::printf("| %s | %dx%d | %d | %.0f | %.0f | %.1f | %.2f |\n", file, B * B, B * B, info.n_free, waves,
              double(counts.decided) / kChildren, double(placed) / kChildren,
              double(placed) / double(counts.waves));
}

template <int B>
bool count_if_box(const char* file, const Grid& puzzle) {
  if (puzzle.box != B) return false;
  count_waves<B>(file, puzzle);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: gpuga_repair_waves FILE... (puzzle files; the first puzzle of each)\n");
    return 2;
  }
  std::printf("| file | size | free cells | waves a child | of them a draw's (one cell) | cells placed | cells a wave |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  try {
    for (int i = 1; i < argc; ++i) {
      const Grid puzzle = read_puzzle_file(argv[i]).at(0).grid;
      count_if_box<2>(argv[i], puzzle) || count_if_box<3>(argv[i], puzzle) || count_if_box<4>(argv[i], puzzle) ||
          count_if_box<5>(argv[i], puzzle) || count_if_box<6>(argv[i], puzzle) ||
          count_if_box<7>(argv[i], puzzle) || count_if_box<8>(argv[i], puzzle);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gpuga_repair_waves: %s\n", error.what());
    return 2;
  }
  return 0;
}
