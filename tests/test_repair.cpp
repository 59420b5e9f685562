// Propagation as a repair, at every box size. The serial reference (repair_reference.hpp): a
// repaired grid keeps the givens, holds no value twice in a unit and leaves blank only cells it
// could not fill, so its conflict fitness is three times its blanks; a child that is
// a solution comes out as it went in; one that is a solution but for some cells comes out that
// solution when the puzzle has one; and the same stream gives the same grid. The repair by a tile
// of lanes (repair.hpp), which the engine runs, gives the reference's bytes and takes its
// draws at every width: one lane (a CPU thread), and tiles of OpenMP threads with real barriers
// (tests/omp_lanes.hpp) as wide as a GPU's tiles and wider than a unit, or of widths that divide
// nothing evenly.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <tuple>
#include <vector>

#include "gpuga/device/breed.hpp"
#include "gpuga/device/repair.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "grids.hpp"
#include "omp_lanes.hpp"
#include "paths.hpp"
#include "repair_reference.hpp"

using namespace gpuga;

namespace {

template <int B>
std::vector<std::uint8_t> genome_of(const Grid& g) {
  std::vector<std::uint8_t> s(Shape<B>::kGenomeBytes, 0);
  for (int c = 0; c < Shape<B>::kCells; ++c) s[c] = g.cell[c];
  return s;
}

// No value twice in a unit, the givens in place, and a blank only where no value fits: every
// value of 1..n is held by one of the blank cell's units. Counted value by value, apart from the
// operators' sets of values.
template <int B>
void expect_repaired(const std::uint8_t* g, const PuzzleInfo<B>& info) {
  using S = Shape<B>;
  for (int c = 0; c < S::kCells; ++c)
    if (info.givens[c]) ASSERT_EQ(g[c], info.givens[c]) << "given moved at " << c;
  for (int u = 0; u < S::kUnits; ++u) {
    std::vector<bool> seen(S::kSide + 1, false);
    for (int k = 0; k < S::kSide; ++k) {
      const int v = g[S::unit_cell(u, k)];
      ASSERT_LE(v, S::kSide) << "cell " << S::unit_cell(u, k);
      if (v == 0) continue;
      ASSERT_FALSE(seen[v]) << "value " << v << " twice in unit " << u;
      seen[v] = true;
    }
  }
  int blanks = 0;
  for (int c = 0; c < S::kCells; ++c) {
    if (g[c] != 0) continue;
    ++blanks;
    std::vector<bool> held(S::kSide + 1, false);
    for (int u : {S::row_of(c), S::kSide + S::col_of(c), 2 * S::kSide + S::box_of(c)})
      for (int k = 0; k < S::kSide; ++k) held[g[S::unit_cell(u, k)]] = true;
    for (int v = 1; v <= S::kSide; ++v)
      EXPECT_TRUE(held[v]) << "cell " << c << " left blank with value " << v << " free";
  }
  EXPECT_EQ(conflict_fitness<B>(g, Encoding::Cell), 3 * blanks);
}

template <int B>
void check_box_size(const Grid& puzzle) {
  ASSERT_EQ(puzzle.box, B);
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  const ExactResult exact = solve_exact(puzzle);
  ASSERT_GE(exact.solutions, 1);
  // Random children, repaired. Each holds every value the library's singles place on the givens
  // (propagate_singles): the repair claims singles first, and on a solvable puzzle no claim
  // clashes before its first guess.
  const Grid singles = propagate_singles(puzzle).grid;
  ASSERT_NE(singles, puzzle) << "singles place nothing: no check";
  for (std::uint32_t i = 0; i < 40; ++i) {
    Rng draw(B * 1000 + 1, 0, i, kPurposeInit);
    std::vector<std::uint8_t> g(Shape<B>::kGenomeBytes, 0);
    init_individual<B>(g.data(), info, Encoding::Cell, false, draw);
    std::vector<std::uint8_t> again = g;
    Rng rng(B * 1000 + 2, 0, i, kPurposeBreed), same(B * 1000 + 2, 0, i, kPurposeBreed);
    repair_by_propagation<B>(g.data(), info, rng);
    expect_repaired<B>(g.data(), info);
    for (int c = 0; c < Shape<B>::kCells; ++c)
      if (!puzzle.cell[c] && singles.cell[c]) ASSERT_EQ(g[c], singles.cell[c]) << "cell " << c << ", child " << i;
    repair_by_propagation<B>(again.data(), info, same);
    EXPECT_EQ(g, again) << "one stream, two grids";
  }
  // A solution is kept whole.
  std::vector<std::uint8_t> solution = genome_of<B>(exact.solution);
  Rng rng(7, 0, 0, kPurposeBreed);
  std::vector<std::uint8_t> kept = solution;
  repair_by_propagation<B>(kept.data(), info, rng);
  EXPECT_EQ(kept, solution);
  // With a third of its free cells blanked, a unique solution is found again; with several,
  // some solution.
  std::vector<std::uint8_t> holed = solution;
  for (int i = 0; i < info.n_free; i += 3) holed[info.all_free[i]] = 0;
  repair_by_propagation<B>(holed.data(), info, rng);
  expect_repaired<B>(holed.data(), info);
  if (exact.solutions == 1) EXPECT_EQ(holed, solution);
}

}  // namespace

TEST(Repair, NineByNine) { check_box_size<3>(grid_of(kHardPuzzle)); }

TEST(Repair, FourByFour) {
  std::istringstream four("1.3.3...2..3...1\n");
  check_box_size<2>(parse_puzzles(four, "4x4")[0].grid);
}

TEST(Repair, SixteenBySixteen) { check_box_size<4>(corpus_puzzle("acs_16x16_fixed040_inst00-09.txt")); }

TEST(Repair, TwentyFiveByTwentyFive) {
  check_box_size<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt"));
}

namespace {

// 36x36 and 49x49 puzzles of the shipped sets (bench/instances), at a fill the exact check
// answers quickly: masks of 64 bits. 64x64's 60 % is past what it answers in minutes, so 64x64
// takes a puzzle of puzzles/ at 75 %; its 64 values fill the masks' bits.
Grid large_instance(int size) {
  if (size == 64) return read_puzzle_file(source_path("puzzles/gpuga_64x64_fill075.txt"))[0].grid;
  return read_puzzle_file(source_path("bench/instances/" + std::to_string(size) + "x" +
                                      std::to_string(size) + "/fill-0.60.txt"))[0].grid;
}

}  // namespace

// 49x49's serial repair is checked against the lanes' (TeamRepair below).
TEST(Repair, ThirtySixByThirtySix) { check_box_size<6>(large_instance(36)); }

TEST(Repair, SixtyFourBySixtyFour) { check_box_size<8>(large_instance(64)); }

TEST(Repair, AnEmptyGridIsFilledAndAFullOneLeftAlone) {
  // No givens: every cell free and the most constrained ties everywhere.
  const PuzzleInfo<3> empty = make_puzzle_info<3>(Grid(3).cell.data(), Encoding::Cell);
  std::vector<std::uint8_t> g(Shape<3>::kGenomeBytes, 0);
  Rng rng(3, 0, 0, kPurposeBreed);
  repair_by_propagation<3>(g.data(), empty, rng);
  expect_repaired<3>(g.data(), empty);
  // A grid of givens only: nothing to do, no draw taken.
  const Grid full = grid_of(kEasySolution);
  const PuzzleInfo<3> none_free = make_puzzle_info<3>(full.cell.data(), Encoding::Cell);
  std::vector<std::uint8_t> same = genome_of<3>(full);
  Rng untouched(3, 0, 0, kPurposeBreed), fresh(3, 0, 0, kPurposeBreed);
  repair_by_propagation<3>(same.data(), none_free, untouched);
  EXPECT_EQ(same, genome_of<3>(full));
  EXPECT_EQ(untouched.next(), fresh.next());
}

TEST(Repair, AChildsOwnValuesWinWhereTheyAreCandidates) {
  // The easy puzzle's solution but for one box whose free cells are blank: the repair keeps
  // every value outside that box (each is still a candidate when its cell is placed) and fills
  // the box with the solution's values, the only ones left there.
  const Grid puzzle = grid_of(kEasyPuzzle), solution = grid_of(kEasySolution);
  const PuzzleInfo<3> info = make_puzzle_info<3>(puzzle.cell.data(), Encoding::Cell);
  std::vector<std::uint8_t> g = genome_of<3>(solution);
  for (int k = 0; k < 9; ++k) {
    const int c = Shape<3>::box_cell(4, k);
    if (!puzzle.cell[c]) g[c] = 0;
  }
  Rng rng(5, 0, 0, kPurposeBreed);
  repair_by_propagation<3>(g.data(), info, rng);
  EXPECT_EQ(g, genome_of<3>(solution));
}

TEST(Repair, TheUnsolvableFixtureHasNoSolutionThatSinglesShow) {
  // The engine tests run repaired GAs on it so that they never solve.
  const Grid g = grid_of(kUnsolvablePuzzle);
  EXPECT_EQ(solve_exact(g).solutions, 0);
  EXPECT_FALSE(propagate_singles(g).contradiction);
  const PuzzleInfo<3> info = make_puzzle_info<3>(g.cell.data(), Encoding::Cell);
  for (std::uint32_t i = 0; i < 50; ++i) {
    std::vector<std::uint8_t> child(Shape<3>::kGenomeBytes, 0);
    Rng rng(11, 0, i, kPurposeBreed);
    init_individual<3>(child.data(), info, Encoding::Cell, false, rng);
    repair_by_propagation<3>(child.data(), info, rng);
    expect_repaired<3>(child.data(), info);
    EXPECT_GT(conflict_fitness<3>(child.data(), Encoding::Cell), 0);
  }
}

namespace {

// One lane; widths that divide no unit's cells evenly; tiles of a warp; a warp, wider than a
// unit but at 25x25.
constexpr std::uint32_t kWidths[] = {1, 2, 3, 5, 8, 16, 32};

// A child of the cell encoding whose free cells hold random preferences (0 for a few: none).
template <int B>
std::vector<std::uint8_t> random_child(const PuzzleInfo<B>& info, std::uint32_t i) {
  std::vector<std::uint8_t> g(Shape<B>::kGenomeBytes, 0);
  Rng draw(B * 100 + 7, 3, i, kPurposeInit);
  init_individual<B>(g.data(), info, Encoding::Cell, false, draw);
  for (int k = 0; k < info.n_free; k += 7 + static_cast<int>(i % 5)) g[info.all_free[k]] = 0;
  return g;
}

// `g` repaired on `width` lanes with the stream (9, 0, i, kPurposeRepair), and the stream's
// next draw after.
template <int B>
std::uint32_t repair_on(std::uint32_t width, std::vector<std::uint8_t>& g, const PuzzleInfo<B>& info,
                        std::uint32_t i) {
  std::vector<std::uint8_t> scratch(repair_tile_bytes<B>(info.n_free), 0xA5);
  auto& s = *reinterpret_cast<RepairScratch<B>*>(scratch.data());
  s.rng = Rng(9, 0, i, kPurposeRepair);
  if (width == 1) {
    const OneLane lane{0, 1, scratch.data()};
    repair_on_lanes<B>(lane, s, g.data(), info);
    return s.rng.next();
  }
  std::vector<std::uint32_t> exchange(2 * width);
#pragma omp parallel num_threads(static_cast<int>(width))
  {
    const OmpLanes lanes{exchange.data(), scratch.data()};
    repair_on_lanes<B>(lanes, s, g.data(), info);
  }
  return s.rng.next();
}

// Every width on the slots laid out for the banks, and a warp on the slots in cell order (a
// system of lone lanes lays out none): the reference's bytes and draws.
template <int B>
void expect_reference_bytes(const Grid& puzzle, std::uint32_t children) {
  ASSERT_EQ(puzzle.box, B);
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  const auto in_cell_order = std::make_unique<PuzzleInfo<B>>(
      make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell, SlotOrder::Cells));
  for (std::uint32_t i = 0; i < children; ++i) {
    std::vector<std::uint8_t> reference = random_child<B>(info, i);
    const std::vector<std::uint8_t> child = reference;
    Rng rng(9, 0, i, kPurposeRepair);
    repair_by_propagation<B>(reference.data(), info, rng);
    const std::uint32_t next = rng.next();
    for (const std::uint32_t width : kWidths) {
      std::vector<std::uint8_t> g = child;
      const std::uint32_t after = repair_on<B>(width, g, info, i);
      ASSERT_EQ(g, reference) << "child " << i << " on " << width << " lanes";
      EXPECT_EQ(after, next) << "child " << i << " on " << width << " lanes: another number of draws";
    }
    std::vector<std::uint8_t> g = child;
    const std::uint32_t after = repair_on<B>(32, g, *in_cell_order, i);
    ASSERT_EQ(g, reference) << "child " << i << " on a warp, slots in cell order";
    EXPECT_EQ(after, next) << "child " << i << " on a warp, slots in cell order: another number of draws";
  }
}

}  // namespace

TEST(TeamRepair, FourByFourAtEveryWidthIsTheReference) {
  std::istringstream four("1.3.3...2..3...1\n");
  expect_reference_bytes<2>(parse_puzzles(four, "4x4")[0].grid, 20);
}

TEST(TeamRepair, NineByNineAtEveryWidthIsTheReference) {
  expect_reference_bytes<3>(grid_of(kHardPuzzle), 20);
  expect_reference_bytes<3>(grid_of(kUnsolvablePuzzle), 10);
  expect_reference_bytes<3>(Grid(3), 3);  // no givens: every cell free
}

TEST(TeamRepair, SixteenBySixteenAtEveryWidthIsTheReference) {
  expect_reference_bytes<4>(corpus_puzzle("acs_16x16_fixed040_inst00-09.txt"), 4);
}

TEST(TeamRepair, TwentyFiveByTwentyFiveAtEveryWidthIsTheReference) {
  expect_reference_bytes<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt"), 2);
}

TEST(TeamRepair, ThirtySixAndFortyNineAtEveryWidthIsTheReference) {
  expect_reference_bytes<6>(large_instance(36), 2);
  expect_reference_bytes<7>(large_instance(49), 1);
}

TEST(TeamRepair, SixtyFourAtEveryWidthIsTheReference) { expect_reference_bytes<8>(large_instance(64), 1); }

// A lane alone keeps its state from repair to repair (LoneRepair): children of puzzles of
// one size in turn, from the hard band (many cells placed by choice) to a puzzle with no
// solution, each the reference's bytes and draws.
TEST(TeamRepair, ALaneAloneKeepsTheReferenceFromPuzzleToPuzzle) {
  const Grid nine[] = {grid_of(kHardPuzzle), grid_of(kUnsolvablePuzzle),
                       corpus_puzzle("royle_17clue_50.txt", 3)};
  const Grid thirty_six[] = {
      read_puzzle_file(source_path("bench/instances/36x36/fill-0.45.txt"))[0].grid,
      read_puzzle_file(source_path("bench/instances/36x36/fill-0.40.txt"))[1].grid};
  for (std::uint32_t i = 0; i < 60; ++i) {
    const Grid& puzzle = nine[i % 3];
    const PuzzleInfo<3> info = make_puzzle_info<3>(puzzle.cell.data(), Encoding::Cell);
    std::vector<std::uint8_t> reference = random_child<3>(info, i), alone = reference;
    Rng rng(9, 0, i, kPurposeRepair);
    repair_by_propagation<3>(reference.data(), info, rng);
    EXPECT_EQ(repair_on<3>(1, alone, info, i), rng.next()) << "9x9 child " << i << ": draws";
    ASSERT_EQ(alone, reference) << "9x9 child " << i;
  }
  for (std::uint32_t i = 0; i < 4; ++i) {
    const PuzzleInfo<6> info = make_puzzle_info<6>(thirty_six[i % 2].cell.data(), Encoding::Cell);
    std::vector<std::uint8_t> reference = random_child<6>(info, i), alone = reference;
    Rng rng(9, 0, i, kPurposeRepair);
    repair_by_propagation<6>(reference.data(), info, rng);
    EXPECT_EQ(repair_on<6>(1, alone, info, i), rng.next()) << "36x36 child " << i << ": draws";
    ASSERT_EQ(alone, reference) << "36x36 child " << i;
  }
}

TEST(TeamRepair, AGridOfGivensOnlyIsLeftAloneWithNoDraw) {
  const Grid full = grid_of(kEasySolution);
  const PuzzleInfo<3> info = make_puzzle_info<3>(full.cell.data(), Encoding::Cell);
  std::vector<std::uint8_t> g(Shape<3>::kGenomeBytes, 0);
  for (int c = 0; c < 81; ++c) g[c] = full.cell[c];
  const std::vector<std::uint8_t> before = g;
  for (const std::uint32_t width : kWidths) {
    Rng fresh(9, 0, 0, kPurposeRepair);
    EXPECT_EQ(repair_on<3>(width, g, info, 0), fresh.next()) << width << " lanes drew";
    EXPECT_EQ(g, before) << width << " lanes";
  }
}

namespace {

// What the waves read a cell's candidates by, at box size B on `puzzle`: unit_cells walks every
// unit's cells as Shape::unit_cell numbers them; free_slot takes the free cells one to one onto
// the slots 0 to n_free - 1 and a given to n_free (no slot); units_of[s] names slot s's cell,
// row, column and box.
template <int B>
void expect_slots_of(const Grid& puzzle) {
  using S = Shape<B>;
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  for (int u = 0; u < S::kUnits; ++u) {
    const UnitCells at = unit_cells<B>(u);
    for (int k = 0; k < S::kSide; ++k)
      ASSERT_EQ(at.first + k / B * at.across + k % B * at.along, S::unit_cell(u, k)) << "unit " << u << " cell " << k;
  }
  std::vector<int> cell_of_slot(info.n_free, -1);
  for (int c = 0; c < S::kCells; ++c) {
    if (puzzle.cell[c]) {
      EXPECT_EQ(info.free_slot[c], info.n_free) << "given " << c;
      continue;
    }
    const int slot = info.free_slot[c];
    ASSERT_LT(slot, info.n_free) << "free cell " << c;
    EXPECT_EQ(cell_of_slot[slot], -1) << "slot " << slot << " of two cells";
    cell_of_slot[slot] = c;
    const FreeCell<B> f(info.units_of[slot]);
    EXPECT_EQ(std::make_tuple(f.cell, f.row, f.col, f.box),
              std::make_tuple(c, S::row_of(c), S::kSide + S::col_of(c), 2 * S::kSide + S::box_of(c)))
        << "slot " << slot;
  }
}

// find_lone's requests on `puzzle` (a warp's lanes each on a unit, reading its k-th cell; a
// half-warp a request for 8-byte masks), and how many touch a bank in two words (served twice),
// with the slots as make_puzzle_info lays them and, for comparison, in cell order.
struct BankCount {
  int requests = 0, twice_laid = 0, twice_in_cell_order = 0;
};
template <int B>
BankCount count_banks(const Grid& puzzle) {
  using S = Shape<B>;
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), Encoding::Cell);
  constexpr int kMaskBytes = sizeof(typename S::Mask), kPerRequest = kMaskBytes == 8 ? 16 : 32;
  const auto served_twice = [&](const std::vector<int>& slots) {
    std::vector<std::vector<int>> words_of_bank(32);
    for (const int slot : slots)
      for (int byte = slot * kMaskBytes; byte < (slot + 1) * kMaskBytes; byte += 4)
        words_of_bank[byte / 4 % 32].push_back(byte / 4);
    for (auto& words : words_of_bank) {
      std::sort(words.begin(), words.end());
      if (std::unique(words.begin(), words.end()) - words.begin() > 1) return true;
    }
    return false;
  };
  BankCount count;
  for (int pass = 0; pass * 32 < S::kUnits; ++pass)
    for (int k = 0; k < S::kSide; ++k)
      for (int first = pass * 32; first < std::min(pass * 32 + 32, S::kUnits); first += kPerRequest) {
        std::vector<int> laid, in_cell_order;
        for (int u = first; u < std::min(first + kPerRequest, S::kUnits); ++u) {
          const int cell = S::unit_cell(u, k);
          if (puzzle.cell[cell]) continue;
          laid.push_back(info.free_slot[cell]);
          in_cell_order.push_back(static_cast<int>(std::find(info.all_free, info.all_free + info.n_free, cell) - info.all_free));
        }
        ++count.requests;
        count.twice_laid += served_twice(laid);
        count.twice_in_cell_order += served_twice(in_cell_order);
      }
  return count;
}

}  // namespace

TEST(TeamRepair, TheWavesFindEveryCellsCandidatesByItsSlot) {
  expect_slots_of<3>(grid_of(kHardPuzzle));
  expect_slots_of<3>(grid_of(kEasySolution));
  expect_slots_of<4>(corpus_puzzle("acs_16x16_fixed040_inst00-09.txt"));
  expect_slots_of<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt"));
  expect_slots_of<6>(large_instance(36));
  expect_slots_of<7>(large_instance(49));
  expect_slots_of<8>(large_instance(64));
  expect_slots_of<8>(Grid(8));  // every cell free
  const Grid nine = grid_of(kHardPuzzle);
  const PuzzleInfo<3> cells = make_puzzle_info<3>(nine.cell.data(), Encoding::Cell, SlotOrder::Cells);
  for (int i = 0; i < cells.n_free; ++i) EXPECT_EQ(cells.free_slot[cells.all_free[i]], i) << "free cell " << i;
}

// The slots keep find_lone's requests to one word a bank, where cell order served half or more
// of them twice or more: at most one request in a hundred is served twice (none at 16x16 to
// 36x36 on these puzzles), at 16x16 to 64x64 in the hard band's fills.
TEST(TeamRepair, TheLonePhaseReadsOneWordOfABankAtOnce) {
  const auto expect_few = [](const BankCount& count, int most, const std::string& what) {
    EXPECT_LE(count.twice_laid, most) << what << ": " << count.twice_laid << " of " << count.requests;
    EXPECT_GT(count.twice_in_cell_order, count.requests / 2) << what << ": the comparison no longer holds";
  };
  const auto hard_band = [](int size) {  // the first committed puzzle at 45 % given
    const std::string side = std::to_string(size) + "x" + std::to_string(size);
    return read_puzzle_file(source_path("bench/instances/" + side + "/fill-0.45.txt"))[0].grid;
  };
  expect_few(count_banks<4>(corpus_puzzle("acs_16x16_fixed040_inst00-09.txt")), 0, "16x16");
  expect_few(count_banks<5>(corpus_puzzle("acs_25x25_fixed045_inst00-09.txt")), 0, "25x25");
  expect_few(count_banks<6>(hard_band(36)), 0, "36x36");
  for (const BankCount& big : {count_banks<7>(hard_band(49)), count_banks<8>(hard_band(64))})
    expect_few(big, big.requests / 100, std::to_string(big.requests) + " requests");
}

// A tile's scratch holds the unit masks and a slot a free cell: at 64x64, eight warps' tiles
// fit a block's 227 KiB on puzzles of 35 % given and more, five on an empty grid.
TEST(TeamRepair, ATilesScratchGrowsWithThePuzzlesFreeCells) {
  constexpr std::uint32_t kBlock = 227 * 1024, kCells = Shape<8>::kCells;
  EXPECT_EQ(repair_tile_bytes<3>(0), tile_scratch_bytes(sizeof(RepairScratch<3>)));
  EXPECT_EQ(repair_tile_bytes<8>(2000) - repair_tile_bytes<8>(1998), 2 * sizeof(Shape<8>::Mask));
  EXPECT_EQ(kBlock / repair_tile_bytes<8>(kCells - kCells * 35 / 100), 8u);
  EXPECT_EQ(kBlock / repair_tile_bytes<8>(kCells), 5u);
}
