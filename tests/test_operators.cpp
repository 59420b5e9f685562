// The shared operators keep their invariants over many seeded random trials: givens never
// move, box/row blocks stay permutations, and each operator changes what it claims to.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "gpuga/device/breed.hpp"
#include "paths.hpp"
#include "grids.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

using namespace gpuga;

namespace {

bool block_is_permutation(const std::uint8_t* g, Encoding e, int b) {
  unsigned seen = 0;
  for (int k = 0; k < Shape<3>::kSide; ++k) seen |= 1u << g[block_cell<3>(e, b, k)];
  return seen == 0x3FEu;
}

void expect_valid(const std::uint8_t* g, const PuzzleInfo<3>& info, Encoding e) {
  for (int c = 0; c < Shape<3>::kCells; ++c) {
    ASSERT_GE(g[c], 1);
    ASSERT_LE(g[c], 9);
    if (info.givens[c]) ASSERT_EQ(g[c], info.givens[c]) << "given moved at " << c;
  }
  if (e != Encoding::Cell)
    for (int b = 0; b < Shape<3>::kSide; ++b) ASSERT_TRUE(block_is_permutation(g, e, b)) << "block " << b;
}

int changed_cells(const std::uint8_t* a, const std::uint8_t* b) { return hamming<3>(a, b); }

class Operators : public ::testing::TestWithParam<Encoding> {};

int illegal_cells(const std::uint8_t* g, const PuzzleInfo<3>& info) {
  int n = 0;
  for (int i = 0; i < info.n_free; ++i) {
    const int c = info.all_free[i];
    n += !((info.allowed[c] >> g[c]) & 1);
  }
  return n;
}

// propose_move's given-aware search, as a loop over the candidates: the first free cell from the
// random offset on, cyclically, whose swap leaves both digits legal.
template <int B>
Move first_legal_partner(const std::uint8_t* g, const PuzzleInfo<B>& info, Rng& rng) {
  for (int attempt = 0; attempt < kMutationTries; ++attempt) {
    Picks pick(rng.next());
    const int blk = info.swappable[pick.below(info.n_swappable)];
    const std::uint32_t n = info.free_count[blk];
    const std::uint32_t i = pick.below(n), start = pick.below(n - 1);
    for (std::uint32_t k = 0; k < n - 1; ++k) {
      const std::uint32_t j = (i + 1 + (start + k) % (n - 1)) % n;
      if (swap_is_legal<B>(g, info, info.free_cells[blk][i], info.free_cells[blk][j]))
        return Move{info.free_cells[blk][i], info.free_cells[blk][j], 0};
    }
  }
  return Move{};
}

// propose_move against first_legal_partner on random grids of a puzzle, given-aware; returns how
// many found a partner.
template <int B>
int given_aware_moves_match(const Grid& puzzle, Encoding e, std::uint32_t grids) {
  const PuzzleInfo<B> info = make_puzzle_info<B>(puzzle.cell.data(), e);
  int moves = 0;
  for (std::uint32_t i = 0; i < grids; ++i) {
    std::vector<std::uint8_t> g(Shape<B>::kCells);
    Rng ri(11, 0, i, kPurposeInit);
    init_individual<B>(g.data(), info, e, i % 2 == 0, ri);  // legal and illegal digits both
    Rng a(11, 1, i, kPurposeMove), b(11, 1, i, kPurposeMove);
    const Move m = propose_move<B>(g.data(), info, e, true, a);
    const Move want = first_legal_partner<B>(g.data(), info, b);
    const std::uint32_t next_a = a.next(), next_b = b.next();
    EXPECT_EQ(std::tie(m.a, m.b), std::tie(want.a, want.b)) << "grid " << i;
    EXPECT_EQ(next_a, next_b) << "the same draws used, grid " << i;
    if (m.a != want.a || m.b != want.b || next_a != next_b) break;  // one such grid says enough
    moves += m.a >= 0;
  }
  return moves;
}

}  // namespace

TEST_P(Operators, InitKeepsGivensAndPermutations) {
  const Encoding e = GetParam();
  const PuzzleInfo<3> info = make_puzzle_info<3>(grid_of(kEasyPuzzle).cell.data(), e);
  int illegal[2] = {0, 0};
  for (bool aware : {false, true}) {
    for (std::uint32_t i = 0; i < 2000; ++i) {
      Grid g;
      Rng rng(42, 0, i, kPurposeInit);
      init_individual<3>(g.cell.data(), info, e, aware, rng);
      expect_valid(g.cell.data(), info, e);
      illegal[aware] += illegal_cells(g.cell.data(), info);
    }
  }
  // Given-aware repair leaves far fewer digits where a given forbids them (cell: unaffected).
  if (e == Encoding::Cell)
    EXPECT_EQ(illegal[0], illegal[1]);
  else
    EXPECT_LT(illegal[1] * 4, illegal[0]) << illegal[1] << " vs " << illegal[0];
}

TEST_P(Operators, CrossoverTakesEachBlockOrCellFromAParent) {
  const Encoding e = GetParam();
  const PuzzleInfo<3> info = make_puzzle_info<3>(grid_of(kEasyPuzzle).cell.data(), e);
  for (auto kind : {Crossover::OnePoint, Crossover::Uniform}) {
    for (std::uint32_t i = 0; i < 1000; ++i) {
      Grid a, b, child;
      Rng ra(1, 0, 2 * i, kPurposeInit), rb(1, 0, 2 * i + 1, kPurposeInit);
      init_individual<3>(a.cell.data(), info, e, true, ra);
      init_individual<3>(b.cell.data(), info, e, true, rb);
      Rng rx(1, 1, i, kPurposeBreed);
      crossover<3>(child.cell.data(), a.cell.data(), b.cell.data(), info, e, kind, rx);
      expect_valid(child.cell.data(), info, e);
      for (int c = 0; c < Shape<3>::kCells; ++c)
        ASSERT_TRUE(child.cell[c] == a.cell[c] || child.cell[c] == b.cell[c]);
      if (e == Encoding::Cell) continue;
      int first_from_b = Shape<3>::kSide;
      for (int blk = 0; blk < Shape<3>::kSide; ++blk) {
        bool same_a = true, same_b = true;
        for (int k = 0; k < Shape<3>::kSide; ++k) {
          const int c = block_cell<3>(e, blk, k);
          same_a &= child.cell[c] == a.cell[c];
          same_b &= child.cell[c] == b.cell[c];
        }
        ASSERT_TRUE(same_a || same_b) << "block " << blk << " mixes parents";
        if (kind == Crossover::OnePoint && !same_a && first_from_b == Shape<3>::kSide) first_from_b = blk;
        if (kind == Crossover::OnePoint && blk > first_from_b)
          ASSERT_TRUE(same_b) << "one-point: block " << blk << " after the point is not from b";
      }
    }
  }
}

TEST_P(Operators, MutationChangesExactlyWhatItSays) {
  const Encoding e = GetParam();
  const PuzzleInfo<3> info = make_puzzle_info<3>(grid_of(kEasyPuzzle).cell.data(), e);
  int unchanged = 0;
  for (bool aware : {false, true}) {
    for (std::uint32_t i = 0; i < 2000; ++i) {
      Grid g, before;
      Rng ri(9, 0, i, kPurposeInit);
      init_individual<3>(g.cell.data(), info, e, false, ri);
      before = g;
      Rng rm(9, 1, i, kPurposeBreed);
      mutate<3>(g.cell.data(), info, e, aware, rm);
      expect_valid(g.cell.data(), info, e);
      const int changed = changed_cells(g.cell.data(), before.cell.data());
      if (e == Encoding::Cell) {
        ASSERT_EQ(changed, 1);
      } else if (!aware) {
        // A swap of two free cells of one block: both change, a permutation has no repeats.
        ASSERT_EQ(changed, 2);
      } else {
        // Given-aware: a swap that leaves both moved digits legal, or none at all.
        ASSERT_TRUE(changed == 0 || changed == 2);
        unchanged += changed == 0;
        for (int c = 0; c < Shape<3>::kCells; ++c)
          if (g.cell[c] != before.cell[c]) ASSERT_TRUE((info.allowed[c] >> g.cell[c]) & 1);
      }
    }
  }
  EXPECT_LT(unchanged, 1000);  // most mutations find a legal swap
}

TEST_P(Operators, LocalSearchNeverMakesAChildWorse) {
  // The same child bred with and without local search: the draws before it are the same, so
  // the child without is the one local search starts from; its moves only ever keep or lower
  // the fitness, and keep givens and blocks.
  const Encoding e = GetParam();
  const PuzzleInfo<3> info = make_puzzle_info<3>(grid_of(kEasyPuzzle).cell.data(), e);
  constexpr std::uint32_t n = 16;
  constexpr int kBytes = Shape<3>::kGenomeBytes;
  std::vector<std::uint8_t> parents(n * kBytes), plain(n * kBytes), searched(n * kBytes);
  std::vector<Fitness> fit(n);
  std::vector<std::uint32_t> order(n);
  GaParams p;
  p.encoding = e;
  p.individuals = p.children = n;
  p.crossover = Crossover::Uniform;
  p.tournament_size = 3;
  p.given_aware = true;
  p.crossover_threshold = rate_threshold(0.9);
  p.mutation_threshold = rate_threshold(1.0);
  for (std::uint32_t i = 0; i < n; ++i) {
    init_genome<3>(&parents[i * kBytes], i, 5, 0, p, info);
    fit[i] = evaluate<3>(&parents[i * kBytes], p, nullptr);
    order[i] = i;
  }
  int better = 0;
  for (std::uint32_t g = 1; g <= 20; ++g) {
    p.local_search = 0;
    breed_child<3>(g % n, 5, g, p, info, {parents.data(), fit.data(), order.data(), nullptr, plain.data(), nullptr});
    p.local_search = 30;
    breed_child<3>(g % n, 5, g, p, info, {parents.data(), fit.data(), order.data(), nullptr, searched.data(), nullptr});
    const std::uint8_t *a = &plain[(g % n) * kBytes], *b = &searched[(g % n) * kBytes];
    expect_valid(b, info, e);
    const int fa = fitness<3>(a, e, p.fitness), fb = fitness<3>(b, e, p.fitness);
    ASSERT_LE(fb, fa) << "generation " << g;
    better += fb < fa;
  }
  EXPECT_GT(better, 10);
}

TEST_P(Operators, BandCrossoverTakesEachBandFromTheParentWithFewerConflictsThere) {
  const Encoding e = GetParam();
  const PuzzleInfo<3> info = make_puzzle_info<3>(grid_of(kEasyPuzzle).cell.data(), e);
  int from_b = 0;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    Grid a, b, child;
    Rng ra(4, 0, 2 * i, kPurposeInit), rb(4, 0, 2 * i + 1, kPurposeInit);
    init_individual<3>(a.cell.data(), info, e, true, ra);
    init_individual<3>(b.cell.data(), info, e, true, rb);
    std::uint8_t sa[kBandScores<3>], sb[kBandScores<3>];
    band_scores<3>(a.cell.data(), e, sa);
    band_scores<3>(b.cell.data(), e, sb);
    for (int t = 0; t < 3; ++t) {  // the scores are the units' conflicts, summed per band
      int rows = 0, cols = 0, boxes = 0;
      for (int k = 3 * t; k < 3 * t + 3; ++k) {
        rows += unit_conflicts<3>(a.cell.data(), k);
        cols += unit_conflicts<3>(a.cell.data(), 9 + k);
        boxes += unit_conflicts<3>(a.cell.data(), 18 + k);
      }
      ASSERT_EQ(sa[3 + t], cols);
      ASSERT_EQ(sa[t], e == Encoding::Row ? 0 : rows);
      ASSERT_EQ(sa[6 + t], e == Encoding::Box ? 0 : boxes);
    }
    int sum = 0;
    for (auto v : sa) sum += v;
    ASSERT_EQ(sum, conflict_fitness<3>(a.cell.data(), e));  // the scores sum to the conflict fitness
    Rng rx(4, 1, i, kPurposeBreed);
    band_crossover<3>(child.cell.data(), a.cell.data(), b.cell.data(), sa, sb, e, rx);
    expect_valid(child.cell.data(), info, e);
    // Either every band (3 rows) or every stack (3 columns) comes whole from the parent whose
    // score there is lower (ties: a).
    const auto whole = [&](bool stacks, int t, const Grid& src) {
      for (int k = 0; k < 27; ++k) {
        const int c = stacks ? (k / 3) * 9 + 3 * t + k % 3 : 27 * t + k;
        if (child.cell[c] != src.cell[c]) return false;
      }
      return true;
    };
    bool fits_bands = true, fits_stacks = e != Encoding::Row;
    for (int t = 0; t < 3; ++t) {
      const int rb_ = e == Encoding::Row ? 6 + t : t;
      fits_bands &= whole(false, t, sb[rb_] < sa[rb_] ? b : a);
      fits_stacks = fits_stacks && whole(true, t, sb[3 + t] < sa[3 + t] ? b : a);
      from_b += sb[rb_] < sa[rb_];
    }
    ASSERT_TRUE(fits_bands || fits_stacks) << "trial " << i;
  }
  EXPECT_GT(from_b, 100);  // the test exercised both parents
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, Operators,
                         ::testing::Values(Encoding::Box, Encoding::Row, Encoding::Cell),
                         [](const auto& info) {
                           return std::string(info.param == Encoding::Box   ? "box"
                                              : info.param == Encoding::Row ? "row"
                                                                            : "cell");
                         });

TEST(Moves, GivenAwareSwapsTakeTheFirstLegalPartnerFromTheOffset) {
  const Grid big =
      read_puzzle_file(source_path("puzzles/acs_25x25_fixed040_inst00-09.txt"))[0].grid;
  for (auto e : {Encoding::Box, Encoding::Row}) {
    for (const auto& puzzle : {kEasyPuzzle, kHardPuzzle})
      EXPECT_GT(given_aware_moves_match<3>(grid_of(puzzle), e, 3000), 1500);  // most find one
    EXPECT_GT(given_aware_moves_match<5>(big, e, 300), 150);
  }
}

TEST(Rng, PicksFromOneDrawAreInRangeAndJointlyUniform) {
  // By hand: 2^31 * 9 = 4 * 2^32 + 2^31, so 4 and the same half-word again.
  Picks half(0x80000000u);
  EXPECT_EQ(half.below(9), 4u);
  EXPECT_EQ(half.below(9), 4u);
  // (block, cell, offset) of 9 x 9 x 8 from one draw each: every triple about equally often.
  Rng r(78, 0, 0, 1);
  std::vector<int> hits(9 * 9 * 8);
  for (int k = 0; k < 100 * 648; ++k) {
    Picks p(r.next());
    const std::uint32_t x = p.below(9), y = p.below(9), z = p.below(8);
    ASSERT_TRUE(x < 9 && y < 9 && z < 8);
    ++hits[(x * 9 + y) * 8 + z];
  }
  EXPECT_GT(*std::min_element(hits.begin(), hits.end()), 55);
  EXPECT_LT(*std::max_element(hits.begin(), hits.end()), 150);
}

TEST(Rng, SameKeySameStreamOtherKeyOtherStream) {
  Rng a(5, 1, 2, 3), b(5, 1, 2, 3), c(5, 1, 2, 4), d(6, 1, 2, 3);
  int same_c = 0, same_d = 0;
  for (int k = 0; k < 100; ++k) {
    const auto va = a.next();
    ASSERT_EQ(va, b.next());
    same_c += va == c.next();
    same_d += va == d.next();
  }
  EXPECT_LT(same_c, 3);
  EXPECT_LT(same_d, 3);
}

// The generator held in registers (block picked by constant indices) and in local memory
// (indexed) draw the same numbers: the chains' moves take the first at every size, their
// restarts and the GA's 25x25 step the second (rng.hpp, chain.hpp).
TEST(Rng, RegisterAndLocalMemoryGeneratorsDrawTheSameNumbers) {
  RngOf<true> held(9, 4, 7, kPurposeMove);
  RngOf<false> indexed(9, 4, 7, kPurposeMove);
  for (int k = 0; k < 1000; ++k) {
    ASSERT_EQ(held.below(25), indexed.below(25)) << "draw " << k;
    ASSERT_EQ(held.next(), indexed.next()) << "draw " << k;
    if (k % 7 == 0) ASSERT_EQ(held.next64(), indexed.next64()) << "draw " << k;
  }
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng r(77, 0, 0, 1);
  int hits[7] = {};
  for (int k = 0; k < 7000; ++k) {
    const auto v = r.below(7);
    ASSERT_LT(v, 7u);
    ++hits[v];
  }
  for (int h : hits) EXPECT_GT(h, 800);
  EXPECT_FALSE(r.chance(0));
  EXPECT_TRUE(r.chance(rate_threshold(1.0)));
}

TEST(Selection, RankCdfIsLinearWithTheGivenPressure) {
  const auto cdf = rank_cdf(5, 2.0);  // weights 2, 1.5, 1, 0.5, 0 (times 2^32)
  ASSERT_EQ(cdf.size(), 5u);
  const std::uint64_t unit = 1ull << 32;
  EXPECT_EQ(cdf[0], 2 * unit);
  EXPECT_EQ(cdf[1], 2 * unit + 3 * unit / 2);
  EXPECT_EQ(cdf[4], 5 * unit);  // mean weight 1
  EXPECT_EQ(cdf[3], cdf[4]);    // the worst rank is never chosen at pressure 2
}

TEST(Selection, TournamentPrefersTheFitterAndBreaksTiesByIndex) {
  const Fitness fit[4] = {5, 3, 3, 9};
  const std::uint32_t order[4] = {1, 2, 0, 3};
  GenerationView v{nullptr, fit, order, nullptr, nullptr, nullptr};
  GaParams p;
  p.individuals = 4;
  p.selection = Selection::Tournament;
  p.tournament_size = 64;  // with 64 draws from 4, the best (index 1, fitness 3, lower index
                           // than 2) is all but certainly drawn
  for (std::uint32_t i = 0; i < 50; ++i) {
    Rng r(3, 0, i, kPurposeBreed);
    EXPECT_EQ(select_parent(p, v, r), 1u);
  }
}

namespace {

// The pattern solution of box size B, (B (r % B) + r / B + c) mod n + 1, with every third cell
// blanked as the puzzle.
template <int B>
void check_operators_of_box_size() {
  using S = Shape<B>;
  std::uint8_t solved[S::kCells], givens[S::kCells];
  for (int c = 0; c < S::kCells; ++c) {
    const int r = S::row_of(c), col = S::col_of(c);
    solved[c] = static_cast<std::uint8_t>((B * (r % B) + r / B + col) % S::kSide + 1);
    givens[c] = c % 3 ? solved[c] : 0;
  }
  for (Encoding e : {Encoding::Box, Encoding::Row, Encoding::Cell})
    for (FitnessKind kind : {FitnessKind::Conflicts, FitnessKind::Squared}) {
      ASSERT_EQ(fitness<B>(solved, e, kind), 0);
      const PuzzleInfo<B> info = make_puzzle_info<B>(givens, e);
      Rng rng(B, 1, 2, 3);
      std::uint8_t a[S::kGenomeBytes] = {}, b[S::kGenomeBytes] = {}, child[S::kGenomeBytes] = {};
      init_individual<B>(a, info, e, true, rng);
      init_individual<B>(b, info, e, false, rng);
      for (int step = 0; step < 300; ++step) {
        crossover<B>(child, a, b, info, e, step % 2 ? Crossover::OnePoint : Crossover::Uniform, rng);
        const Move m = propose_move<B>(child, info, e, true, rng);
        const int before = fitness<B>(child, e, kind);
        const int delta = move_delta<B>(child, m, e, kind);
        apply_move(child, m);
        ASSERT_EQ(fitness<B>(child, e, kind), before + delta) << "box size " << B;
        for (int c = 0; c < S::kCells; ++c) {
          ASSERT_TRUE(child[c] >= 1 && child[c] <= S::kSide) << c;
          if (givens[c]) ASSERT_EQ(child[c], givens[c]) << "given moved at " << c;
        }
        if (e != Encoding::Cell)
          for (int blk = 0; blk < S::kSide; ++blk) {
            std::vector<int> values;
            for (int k = 0; k < S::kSide; ++k) values.push_back(child[block_cell<B>(e, blk, k)]);
            std::sort(values.begin(), values.end());
            for (int k = 0; k < S::kSide; ++k)
              ASSERT_EQ(values[k], k + 1) << "block " << blk << " box size " << B;
          }
        std::copy_n(child, S::kCells, step % 2 ? a : b);
      }
    }
}

}  // namespace

TEST(OperatorsEveryBoxSize, KeepGivensAndBlocksAndTheDeltaEqualsTheFitnessChange) {
  check_operators_of_box_size<2>();
  check_operators_of_box_size<3>();
  check_operators_of_box_size<4>();
  check_operators_of_box_size<5>();
  check_operators_of_box_size<6>();  // sets of values in 64-bit words
  check_operators_of_box_size<8>();  // and 64 values in 64 bits (grid.hpp's value_bit)
}
