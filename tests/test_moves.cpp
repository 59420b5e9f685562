// The moves of annealing and hill climbing (include/gpuga/device/operators.hpp; their acceptance,
// chain.hpp): their fitness change equals the full fitness function's over many random moves in
// every encoding and fitness at every box size, computed from the grid and from unit counts kept
// along the walk; hand-built moves change what they should; the integer Metropolis test follows
// exp(-d / T).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <tuple>
#include <vector>

#include "gpuga/device/chain.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "grids.hpp"
#include "paths.hpp"

using namespace gpuga;

namespace {

std::string name_of(const std::tuple<Encoding, FitnessKind, bool>& p) {
  const char* encodings[] = {"box", "row", "cell"};
  return std::string(encodings[int(std::get<0>(p))]) +
         (std::get<1>(p) == FitnessKind::Squared ? "_squared" : "_conflicts") +
         (std::get<2>(p) ? "_aware" : "");
}

class DeltaEqualsFullFitness
    : public ::testing::TestWithParam<std::tuple<Encoding, FitnessKind, bool>> {};

// Random walks of `moves` moves on each puzzle of box size B: every move's change from the grid
// (move_delta) and from the counts kept along the walk (UnitCounts: a word a unit up to 9x9, a
// byte a value above) equals the full fitness's.
template <int B>
void expect_deltas_equal_fitness(const std::vector<Grid>& puzzles, Encoding e, FitnessKind kind,
                                 bool aware, std::uint32_t walks, int moves) {
  for (const Grid& puzzle : puzzles) {
    const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), e);
    for (std::uint32_t walk = 0; walk < walks; ++walk) {
      Rng rng(7, walk, 0, kPurposeMove);
      std::uint8_t g[Shape<B>::kCells] = {};
      init_individual<B>(g, info, e, aware, rng);
      int f = fitness<B>(g, e, kind);
      UnitCounts<B> counts;  // counted once, then kept with the grid by apply()
      counts.count(g, e, kind);
      for (int k = 0; k < moves; ++k) {
        const Move m = propose_move<B>(g, info, e, aware, rng);
        const int d = move_delta<B>(g, m, e, kind);
        ASSERT_EQ(counts.delta(g, m, e, kind), d) << B << " walk " << walk << " move " << k;
        counts.apply(g, m, e, kind);
        apply_move(g, m);
        f += d;
        ASSERT_EQ(f, fitness<B>(g, e, kind)) << B << " walk " << walk << " move " << k;
      }
    }
  }
}

Grid first_of(const std::string& file) { return read_puzzle_file(source_path(file))[0].grid; }

Grid four_by_four() {
  std::istringstream in("1.3.3...2..3...1\n");
  return parse_puzzles(in, "4x4")[0].grid;
}

}  // namespace

TEST_P(DeltaEqualsFullFitness, AfterEveryMoveAtEveryBoxSize) {
  const auto [e, kind, aware] = GetParam();
  expect_deltas_equal_fitness<2>({Grid(2), four_by_four()}, e, kind, aware, 20, 200);
  expect_deltas_equal_fitness<3>({grid_of(kEasyPuzzle), grid_of(kHardPuzzle), Grid(3)}, e, kind,
                                 aware, 20, 500);
  expect_deltas_equal_fitness<4>({Grid(4), first_of("puzzles/acs_16x16_fixed040_inst00-09.txt")},
                                 e, kind, aware, 4, 300);
  expect_deltas_equal_fitness<5>({Grid(5), first_of("puzzles/acs_25x25_fixed040_inst00-09.txt")},
                                 e, kind, aware, 2, 200);
}

INSTANTIATE_TEST_SUITE_P(
    All, DeltaEqualsFullFitness,
    ::testing::Combine(::testing::Values(Encoding::Box, Encoding::Row, Encoding::Cell),
                       ::testing::Values(FitnessKind::Conflicts, FitnessKind::Squared),
                       ::testing::Bool()),
    [](const auto& info) { return name_of(info.param); });

TEST(Moves, HandBuiltMovesOnASolvedGrid) {
  const Grid solved = grid_of(kEasySolution);
  // Cells 0 and 10 share box 0 but no row or column: each of rows 0, 1 and columns 0, 1 gets a
  // digit twice. The box encoding counts rows and columns: +4; squared counts them too: +4.
  const Move diagonal{0, 10, 0};
  EXPECT_EQ(move_delta<3>(solved.cell.data(), diagonal, Encoding::Box, FitnessKind::Conflicts), 4);
  EXPECT_EQ(move_delta<3>(solved.cell.data(), diagonal, Encoding::Box, FitnessKind::Squared), 4);
  // Cells 0 and 1 share row 0 and box 0: only columns 0 and 1 change.
  const Move in_row{0, 1, 0};
  EXPECT_EQ(move_delta<3>(solved.cell.data(), in_row, Encoding::Box, FitnessKind::Conflicts), 2);
  // The row encoding counts columns and boxes; cells 0 and 8 share row 0 only: columns 0 and 8,
  // boxes 0 and 2.
  EXPECT_EQ(move_delta<3>(solved.cell.data(), Move{0, 8, 0}, Encoding::Row, FitnessKind::Conflicts), 4);
  // Cell 0 (a 4) becomes a 9: its row, column and box each hold 9 twice and lose the 4.
  const Move change{0, -1, 9};
  EXPECT_EQ(move_delta<3>(solved.cell.data(), change, Encoding::Cell, FitnessKind::Conflicts), 3);
  EXPECT_EQ(move_delta<3>(solved.cell.data(), change, Encoding::Cell, FitnessKind::Squared), 3);
  // No move changes nothing; a move back undoes it.
  EXPECT_EQ(move_delta<3>(solved.cell.data(), Move{}, Encoding::Box, FitnessKind::Conflicts), 0);
  Grid g = solved;
  apply_move(g.cell.data(), diagonal);
  EXPECT_EQ(move_delta<3>(g.cell.data(), diagonal, Encoding::Box, FitnessKind::Conflicts), -4);
}

TEST(Moves, ExpNegFixedFollowsExp) {
  for (double x = 0; x < 24; x += 0.0137) {
    const auto fixed = static_cast<std::uint64_t>(x * 4294967296.0);
    const double want = std::exp(-double(fixed) / 4294967296.0);
    EXPECT_NEAR(double(exp_neg_fixed(fixed)) / 4294967296.0, want, 1e-9 + 1e-8 * want) << x;
  }
  EXPECT_EQ(exp_neg_fixed(0), std::uint64_t(1) << 32);
  EXPECT_EQ(exp_neg_fixed(std::uint64_t(30) << 32), 0u);
}

TEST(Moves, AcceptanceThresholdIsExpOfMinusDeltaOverT) {
  for (double t : {0.1, 0.5, 1.0, 2.5}) {
    const auto beta = static_cast<std::uint64_t>(4294967296.0 / t);
    const std::uint64_t a1 = exp_neg_fixed(beta);
    for (int d = 1; d <= 40; ++d) {
      const double want = std::exp(-d / t) * 4294967296.0;
      EXPECT_NEAR(double(accept_threshold(a1, d)), want, 2.0 * d + 1e-6 * want) << t << " " << d;
    }
  }
}

TEST(Moves, HandCheckedAcceptanceAtAKnownTemperature) {
  // T = 1 / ln 2: a worsening by 1 is accepted with probability 1/2, by 2 with 1/4; so with a
  // fixed stream of draws r, d = 1 accepts exactly the draws below 2^31 and d = 2 below 2^30.
  const auto beta = static_cast<std::uint64_t>(std::log(2.0) * 4294967296.0 + 0.5);
  const std::uint64_t a1 = exp_neg_fixed(beta);
  const std::uint64_t t1 = accept_threshold(a1, 1), t2 = accept_threshold(a1, 2);
  EXPECT_NEAR(double(t1), 2147483648.0, 2.0);
  EXPECT_NEAR(double(t2), 1073741824.0, 2.0);
  Rng rng(2024, 1, 2, kPurposeMove);
  int accepted = 0;
  for (int k = 0; k < 64; ++k) {
    const std::uint32_t r = rng.next();
    if (r > 2147483650u || r < 2147483646u) EXPECT_EQ(r < t1, (r >> 31) == 0);
    if (r > 1073741826u || r < 1073741822u) EXPECT_EQ(r < t2, (r >> 30) == 0);
    accepted += r < t1;
  }
  EXPECT_GT(accepted, 16);  // about half of 64
  EXPECT_LT(accepted, 48);
}

TEST(Moves, CoolingDividesTheTemperatureAndSaturates) {
  const std::uint64_t beta = std::uint64_t(3) << 32;
  for (double c : {0.5, 0.9, 0.99, 0.99999}) {
    const std::uint64_t next = cool(beta, cooling_step(c));
    EXPECT_NEAR(double(next) / double(beta), 1.0 / c, 1e-9) << c;
  }
  EXPECT_EQ(cool(kFrozenBeta - 1, cooling_step(0.5)), kFrozenBeta);
  EXPECT_EQ(exp_neg_fixed(kFrozenBeta), 0u);
}
