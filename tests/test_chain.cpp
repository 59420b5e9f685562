// Annealing and hill-climbing chains (include/gpuga/device/chain.hpp), sweep by sweep on one island with
// a team of one: hill climbing never accepts a worsening move; annealing accepts fewer moves as
// it cools; restarts and reheats happen exactly when due; every chain's bookkeeping (current
// fitness, best grid and fitness) matches the full fitness function.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "gpuga/device/chain.hpp"
#include "grids.hpp"
#include "host_system.hpp"

using namespace gpuga;

namespace {

// One island of chains in host memory, stepped by hand.
struct OneIsland {
  IslandParams p;
  IslandLayout L;
  RunInfo<3> run;
  std::vector<std::uint64_t> memory;  // 8-byte aligned record
  std::uint8_t best[Shape<3>::kGenomeBytes] = {};
  SerialTeam team;
  IslandState state;
  std::uint64_t seed = 99;

  OneIsland(Algorithm a, Encoding e, std::uint32_t n, const std::string& puzzle,
            std::uint32_t restart_after = 0, std::uint32_t reheat_after = 0) {
    p.ga.algorithm = a;
    p.ga.encoding = e;
    p.ga.individuals = p.ga.children = n;
    p.ga.given_aware = true;
    p.restart_after = restart_after;
    p.anneal.cooling_step = cooling_step(0.9);
    p.anneal.reheat_after = reheat_after;
    L = make_layout<3>(p.ga);
    run = make_run_info<3>(grid_of(puzzle).cell.data(), p, seed);
    run.chain_length = run.sweep;  // one temperature per sweep: levels end between sweeps
    memory.assign(L.bytes / 8 + 1, 0);
    chains().init(state, seed, best);
  }
  Chains<SerialTeam, 3> chains() {
    return {{team, p, L, run.info, nullptr, reinterpret_cast<std::uint8_t*>(memory.data())}, run};
  }
  ChainState at(std::uint32_t i) { return chains().chain_states()[i]; }
  int current(std::uint32_t i) { return chains().isl.fit(0)[i]; }
};

void expect_bookkeeping(OneIsland& isl, std::uint32_t i) {
  auto c = isl.chains();
  const GaParams& g = isl.p.ga;
  ASSERT_EQ(c.isl.fit(0)[i], fitness<3>(c.isl.genome(0, i), g.encoding, g.fitness)) << "chain " << i;
  ASSERT_EQ(c.isl.fit(1)[i], fitness<3>(c.isl.genome(1, i), g.encoding, g.fitness)) << "chain " << i;
  ASSERT_LE(c.isl.fit(1)[i], c.isl.fit(0)[i]);
}

}  // namespace

TEST(Chains, HillClimbingNeverAcceptsAWorseningMove) {
  for (Encoding e : {Encoding::Box, Encoding::Row, Encoding::Cell}) {
    OneIsland isl(Algorithm::Hc, e, 8, kHardPuzzle);
    for (std::uint32_t g = 1; g <= 40; ++g)
      for (std::uint32_t i = 0; i < 8; ++i) {
        const int before = isl.current(i);
        const std::uint32_t accepted = isl.at(i).accepted;
        isl.chains().sweep(i, isl.seed, g);
        ASSERT_LE(isl.current(i), before) << "chain " << i << " sweep " << g;
        if (g == 1) EXPECT_GT(isl.at(i).accepted, accepted);  // plateau and better moves happen
        expect_bookkeeping(isl, i);
      }
  }
}

TEST(Chains, AnnealingAcceptsFewerMovesAsItCools) {
  OneIsland isl(Algorithm::Sa, Encoding::Box, 16, kHardPuzzle);
  ASSERT_GT(isl.run.beta0, 0u);
  std::uint64_t early = 0, late = 0;
  for (std::uint32_t g = 1; g <= 60; ++g)
    for (std::uint32_t i = 0; i < 16; ++i) {
      const std::uint32_t before = isl.at(i).accepted;
      isl.chains().sweep(i, isl.seed, g);
      expect_bookkeeping(isl, i);
      if (g <= 5) early += isl.at(i).accepted - before;
      if (g > 55) late += isl.at(i).accepted - before;
    }
  // Sixty temperatures at 0.9 each: the last are 500 times colder than the first.
  EXPECT_GT(early, 2 * late) << early << " vs " << late;
  EXPECT_EQ(isl.at(0).beta, [&] {
    std::uint64_t b = isl.run.beta0;
    for (int k = 0; k < 60; ++k) b = cool(b, isl.p.anneal.cooling_step);
    return b;
  }());
}

TEST(Chains, HillClimbersRestartExactlyWhenDue) {
  const std::uint32_t R = 3;
  OneIsland isl(Algorithm::Hc, Encoding::Box, 8, kHardPuzzle, R);
  int restarts = 0;
  for (std::uint32_t g = 1; g <= 120; ++g)
    for (std::uint32_t i = 0; i < 8; ++i) {
      const ChainState before = isl.at(i);
      const bool due = g - before.last_improvement > R;
      isl.chains().sweep(i, isl.seed, g);
      ASSERT_EQ(isl.at(i).restarts, before.restarts + (due ? 1 : 0)) << "chain " << i << " sweep " << g;
      if (due) ASSERT_GE(isl.at(i).last_improvement, g);
      restarts += due;
      expect_bookkeeping(isl, i);
    }
  EXPECT_GT(restarts, 8);  // stuck climbers do restart
}

TEST(Chains, AnnealersReheatExactlyWhenDue) {
  const std::uint32_t R = 4;
  OneIsland isl(Algorithm::Sa, Encoding::Row, 8, kHardPuzzle, 0, R);
  int reheats = 0;
  for (std::uint32_t g = 1; g <= 150; ++g)
    for (std::uint32_t i = 0; i < 8; ++i) {
      const ChainState before = isl.at(i);
      isl.chains().sweep(i, isl.seed, g);
      const ChainState after = isl.at(i);
      // One temperature per sweep: its end counts a stalled temperature, or one with a new best.
      const std::uint32_t stalled = (after.best_sweep == g ? 0 : before.stalled) + 1;
      if (stalled > R) {
        ASSERT_EQ(after.restarts, before.restarts + 1) << "chain " << i << " sweep " << g;
        ASSERT_EQ(after.beta, isl.run.beta0);
        ASSERT_EQ(after.stalled, 0u);
        ++reheats;
      } else {
        ASSERT_EQ(after.restarts, before.restarts) << "chain " << i << " sweep " << g;
        ASSERT_EQ(after.beta, cool(before.beta, isl.p.anneal.cooling_step));
        ASSERT_EQ(after.stalled, stalled);
      }
    }
  EXPECT_GT(reheats, 8);
}

TEST(Chains, TheIslandsBestIsTheFirstChainToReachTheLowestFitness) {
  OneIsland isl(Algorithm::Hc, Encoding::Box, 12, kHardPuzzle);
  for (std::uint32_t g = 1; g <= 30; ++g)
    for (std::uint32_t i = 0; i < 12; ++i) isl.chains().sweep(i, isl.seed, g);
  isl.state.clock = 30;
  isl.chains().note(isl.state, false, isl.best);
  std::uint32_t first = 0;
  for (std::uint32_t i = 1; i < 12; ++i) {
    const auto c = isl.chains();
    const auto key = [&](std::uint32_t k) {
      return std::make_tuple(c.isl.fit(1)[k], c.chain_states()[k].best_sweep, k);
    };
    if (key(i) < key(first)) first = i;
  }
  EXPECT_EQ(isl.state.best_ever, isl.chains().isl.fit(1)[first]);
  EXPECT_EQ(isl.state.last_improvement, isl.at(first).best_sweep);
  EXPECT_TRUE(std::equal(isl.best, isl.best + Shape<3>::kGenomeBytes, isl.chains().isl.genome(1, first)));
}

TEST(Chains, InitialTemperatureIsTheSpreadOfRandomMoves) {
  GaParams p;
  p.given_aware = true;
  const PuzzleInfo<3> hard = make_puzzle_info<3>(grid_of(kHardPuzzle).cell.data(), Encoding::Box);
  const double t = initial_temperature<3>(hard, p, 1);
  EXPECT_GT(t, 0.5);  // conflicts move by up to 4 per swap
  EXPECT_LT(t, 10.0);
  EXPECT_EQ(t, initial_temperature<3>(hard, p, 1));
  // A puzzle with a single free cell has no move: the floor.
  std::string one = kEasySolution;
  one[0] = '.';
  EXPECT_EQ(initial_temperature<3>(make_puzzle_info<3>(grid_of(one).cell.data(), Encoding::Box), p, 1), 1.0 / 16);
}

namespace {
// A team of `size` threads seen from one rank, contiguous like the CPU's (share's block split).
struct ContiguousRank {
  static constexpr bool kContiguous = true;
  std::uint32_t r, n;
  std::uint32_t rank() const { return r; }
  std::uint32_t size() const { return n; }
};
}  // namespace

TEST(Chain, ATeamsSharesCoverTheIndicesOnceAndALargeTeamsOwnersAreItsFirstRanks) {
  // team_reduce reads the ranks below the island's sort keys alone (sort_n >= n): a team larger
  // than n must hold its n indices at ranks 0..n-1 (an MPI rank's lone island of 2 chains on 5
  // threads had them at ranks 2 and 4, and its best grid was read from past the island).
  for (std::uint32_t size = 1; size <= 12; ++size)
    for (std::uint32_t n = 0; n <= 12; ++n) {
      std::vector<int> owner(n, -1);
      for (std::uint32_t r = 0; r < size; ++r)
        for (const std::uint32_t i : share(ContiguousRank{r, size}, n)) {
          ASSERT_LT(i, n);
          EXPECT_EQ(owner[i], -1) << "index " << i << " owned twice";
          owner[i] = static_cast<int>(r);
        }
      for (std::uint32_t i = 0; i < n; ++i) {
        ASSERT_NE(owner[i], -1) << "index " << i << " of " << n << " unowned on " << size;
        if (size >= n) EXPECT_EQ(owner[i], static_cast<int>(i)) << n << " on " << size;
      }
    }
}
