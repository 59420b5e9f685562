// Both fitness functions against values computed by hand, and the band scores two ways.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpuga/device/fitness.hpp"
#include "gpuga/device/rng.hpp"
#include "grids.hpp"

using namespace gpuga;

TEST(Fitness, SolvedGridScoresZeroEverywhere) {
  const Grid g = grid_of(kEasySolution);
  for (auto e : {Encoding::Box, Encoding::Row, Encoding::Cell}) {
    EXPECT_EQ(fitness<3>(g.cell.data(), e, FitnessKind::Conflicts), 0);
    EXPECT_EQ(fitness<3>(g.cell.data(), e, FitnessKind::Squared), 0);
  }
}

TEST(Fitness, SwapInARowBreaksTwoColumns) {
  // r1c1=4 and r1c2=8 swapped: row 1 and box 1 stay permutations; column 1 holds 8 twice and
  // no 4, column 2 holds 4 twice and no 8: 1 conflict each, squared (2-1)^2 each.
  std::string s = kEasySolution;
  std::swap(s[0], s[1]);
  const Grid g = grid_of(s);
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Box), 2);   // rows + columns
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Row), 2);   // columns + boxes
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Cell), 2);  // all 27
  EXPECT_EQ(squared_fitness<3>(g.cell.data()), 2);
}

TEST(Fitness, SwapAcrossBoxesInAColumn) {
  // r1c1=4 and r4c1=5 swapped: column 1 stays a permutation; rows 1 and 4 and boxes 1 and 4
  // each get one duplicate.
  std::string s = kEasySolution;
  std::swap(s[0], s[27]);
  const Grid g = grid_of(s);
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Box), 2);
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Row), 2);
  EXPECT_EQ(conflict_fitness<3>(g.cell.data(), Encoding::Cell), 4);
  EXPECT_EQ(squared_fitness<3>(g.cell.data()), 4);
}

TEST(Fitness, AllOnesAndAllBlank) {
  const Grid ones = grid_of(std::string(81, '1'));
  EXPECT_EQ(conflict_fitness<3>(ones.cell.data(), Encoding::Box), 18 * 8);
  EXPECT_EQ(conflict_fitness<3>(ones.cell.data(), Encoding::Cell), 27 * 8);
  EXPECT_EQ(squared_fitness<3>(ones.cell.data()), 27 * 64);
  EXPECT_EQ(squared_fitness<3>(ones.cell.data()), kMaxFitness<3>);
  const Grid blank{};
  EXPECT_EQ(conflict_fitness<3>(blank.cell.data(), Encoding::Row), 18 * 9);
  EXPECT_EQ(squared_fitness<3>(blank.cell.data()), 0);
}

TEST(Fitness, TripleInOneUnit) {
  // Row 1 = 1 1 1 4 5 6 7 8 9, everything else blank: row 1 and box 1 each hold 1 three times
  // (conflicts: row 9 - 7 = 2, box 9 - 1 = 8 as it has one distinct digit; squared: (3-1)^2
  // = 4 each);
  // columns hold one digit each.
  const Grid g = grid_of("111456789" + std::string(72, '.'));
  EXPECT_EQ(unit_conflicts<3>(g.cell.data(), 0), 2);
  EXPECT_EQ(unit_conflicts<3>(g.cell.data(), 18), 8);
  EXPECT_EQ(unit_squared<3>(g.cell.data(), 0), 4);
  EXPECT_EQ(unit_squared<3>(g.cell.data(), 18), 4);
  EXPECT_EQ(squared_fitness<3>(g.cell.data()), 8);
}

TEST(Fitness, HandBuiltSixteenBySixteen) {
  using S = Shape<4>;
  std::uint8_t g[S::kCells];
  for (int c = 0; c < S::kCells; ++c)  // the pattern solution
    g[c] = static_cast<std::uint8_t>((4 * (S::row_of(c) % 4) + S::row_of(c) / 4 + S::col_of(c)) % 16 + 1);
  EXPECT_EQ(conflict_fitness<4>(g, Encoding::Cell), 0);
  EXPECT_EQ(squared_fitness<4>(g), 0);
  g[0] = g[1];  // row 1 and box 1 hold that value twice and lack the old one; column 1 too
  EXPECT_EQ(conflict_fitness<4>(g, Encoding::Cell), 3);
  EXPECT_EQ(conflict_fitness<4>(g, Encoding::Box), 2);   // rows and columns
  EXPECT_EQ(conflict_fitness<4>(g, Encoding::Row), 2);   // columns and boxes
  EXPECT_EQ(squared_fitness<4>(g), 3);
  std::uint8_t ones[S::kCells];
  std::fill(std::begin(ones), std::end(ones), 1);  // every unit: 15 conflicts, 15^2 squared
  EXPECT_EQ(conflict_fitness<4>(ones, Encoding::Cell), 48 * 15);
  EXPECT_EQ(squared_fitness<4>(ones), 48 * 225);
  EXPECT_EQ(squared_fitness<4>(ones), kMaxFitness<4>);
}

// Cells drawn uniformly from 0 (blank) to values - 1.
template <int B>
void random_cells(Rng& rng, std::uint32_t values, std::uint8_t* g) {
  for (int c = 0; c < Shape<B>::kCells; ++c) g[c] = static_cast<std::uint8_t>(rng.below(values));
}

// The device's band scores (band by band) and the host's (one pass over the cells) against the
// units' conflicts counted one by one, on random grids with blanks, for every box size and
// encoding: the CPU == GPU tests run the host's only.
template <int B>
void expect_band_scores_agree() {
  using S = Shape<B>;
  Rng rng(7, 0, B, kPurposeInit);
  for (int trial = 0; trial < 50; ++trial) {
    std::uint8_t g[S::kCells];
    random_cells<B>(rng, trial % 2 ? S::kSide + 1 : 3, g);  // blanks among them; few: many clashes
    for (auto e : {Encoding::Box, Encoding::Row, Encoding::Cell}) {
      std::uint8_t by_band[kBandScores<B>], one_pass[kBandScores<B>];
      const int total = band_scores_by_band<B>(g, e, by_band);
      ASSERT_EQ(band_scores_one_pass<B>(g, e, one_pass), total);
      int expected = 0;
      for (int t = 0; t < B; ++t) {
        int rows = 0, cols = 0, boxes = 0;
        for (int k = B * t; k < B * t + B; ++k) {
          rows += unit_conflicts<B>(g, k);
          cols += unit_conflicts<B>(g, S::kSide + k);
          boxes += unit_conflicts<B>(g, 2 * S::kSide + k);
        }
        if (e == Encoding::Row) rows = 0;
        if (e == Encoding::Box) boxes = 0;
        expected += rows + cols + boxes;
        for (const std::uint8_t* s : {by_band, one_pass}) {  // a score stops at a byte's 255
          ASSERT_EQ(s[t], std::min(rows, 255)) << "B " << B << ", band " << t;
          ASSERT_EQ(s[B + t], std::min(cols, 255)) << "B " << B << ", stack " << t;
          ASSERT_EQ(s[2 * B + t], std::min(boxes, 255)) << "B " << B << ", band " << t;
        }
      }
      ASSERT_EQ(total, expected);
    }
  }
}

TEST(Fitness, BandScoresBandByBandEqualOnePassAndTheUnitsCounted) {
  // 36x36 up: masks of 64 bits; 49x49's scores past a byte; 64x64's values fill the mask.
  for (int box = kMinBox; box <= kMaxBox; ++box)
    with_box_size(box, []<int B>() { expect_band_scores_agree<B>(); });
}

// A unit's conflicts, n minus its distinct values (blanks are none), against the values counted
// one by one, on random grids with blanks and on the pattern solution, for every box size: the
// sets of values (Shape::value_bit) hold every value and no blank.
template <int B>
void expect_unit_conflicts_count_distinct_values() {
  using S = Shape<B>;
  Rng rng(5, 0, B, kPurposeInit);
  for (int trial = 0; trial < 20; ++trial) {
    std::uint8_t g[S::kCells];
    random_cells<B>(rng, S::kSide + 1, g);
    if (trial == 0)
      for (int c = 0; c < S::kCells; ++c)
        g[c] = static_cast<std::uint8_t>((B * (S::row_of(c) % B) + S::row_of(c) / B + S::col_of(c)) % S::kSide + 1);
    if (trial == 1) std::fill(g, g + S::kCells, static_cast<std::uint8_t>(0));
    for (int u = 0; u < S::kUnits; ++u) {
      std::vector<bool> held(S::kSide + 1, false);
      for (int k = 0; k < S::kSide; ++k) held[g[S::unit_cell(u, k)]] = true;
      const int distinct = static_cast<int>(std::count(held.begin() + 1, held.end(), true));
      ASSERT_EQ(unit_conflicts<B>(g, u), S::kSide - distinct) << "B " << B << ", unit " << u;
    }
    if (trial == 0) ASSERT_EQ(conflict_fitness<B>(g, Encoding::Cell), 0) << "B " << B;
  }
}

// holds() agrees with value_bit() for every value and the blank, at every box size; evaluated
// by the compiler, which refuses a shift out of range (64x64's blank shifted by -1 did).
template <int B>
constexpr bool holds_agrees_with_value_bit() {
  using S = Shape<B>;
  for (int v = 0; v <= S::kSide; ++v)
    if (S::holds(~typename S::Bits(0), v) != (S::value_bit(v) != 0) ||
        S::holds(S::value_bit(v), v) != (S::value_bit(v) != 0) || (v > 0 && S::holds(S::kValues, v) != 1))
      return false;
  return true;
}
static_assert(holds_agrees_with_value_bit<2>() && holds_agrees_with_value_bit<3>() &&
              holds_agrees_with_value_bit<4>() && holds_agrees_with_value_bit<5>() &&
              holds_agrees_with_value_bit<6>() && holds_agrees_with_value_bit<7>() &&
              holds_agrees_with_value_bit<8>());

TEST(Fitness, UnitConflictsCountDistinctValuesAtEveryBoxSize) {
  for (int box = kMinBox; box <= kMaxBox; ++box)
    with_box_size(box, []<int B>() { expect_unit_conflicts_count_distinct_values<B>(); });
}

// The squared metric against the counts taken value by value, on random grids with blanks and on
// grids of one value (every count at its largest), for every box size.
template <int B>
void expect_squared_counts_every_value() {
  using S = Shape<B>;
  Rng rng(11, 0, B, kPurposeInit);
  for (int trial = 0; trial < 30; ++trial) {
    std::uint8_t g[S::kCells];
    random_cells<B>(rng, trial % 3 ? S::kSide + 1 : 2, g);  // blanks among them
    if (trial == 0) std::fill(g, g + S::kCells, static_cast<std::uint8_t>(S::kSide));
    int expected = 0;
    for (int u = 0; u < S::kUnits; ++u)
      for (int v = 1; v <= S::kSide; ++v) {
        int count = 0;
        for (int k = 0; k < S::kSide; ++k) count += g[S::unit_cell(u, k)] == v;
        expected += count ? (count - 1) * (count - 1) : 0;
      }
    ASSERT_EQ(squared_fitness<B>(g), expected) << "B " << B << ", trial " << trial;
  }
}

TEST(Fitness, SquaredCountsEveryValueAtEveryBoxSize) {
  for (int box = kMinBox; box <= kMaxBox; ++box)
    with_box_size(box, []<int B>() { expect_squared_counts_every_value<B>(); });
}
