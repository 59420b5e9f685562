// The statistics of gpuga report (gpuga/statistics.hpp) against the textbooks' figures: Wilson's
// interval, Fisher's exact test (the tea-tasting table and Wikipedia's dieting example), the
// Mann-Whitney U test's normal approximation, and percentiles over runs not all solved.
#include <gtest/gtest.h>

#include <limits>

#include "gpuga/statistics.hpp"

using namespace gpuga;

namespace {
constexpr double kUnsolved = std::numeric_limits<double>::infinity();
}

TEST(Statistics, WilsonsIntervalStaysWithinZeroAndOneAndIsNotEmptyAtTheEnds) {
  const Interval half = wilson_interval(5, 10), none = wilson_interval(0, 10), all = wilson_interval(10, 10);
  EXPECT_NEAR(half.low, 0.2366, 1e-4);
  EXPECT_NEAR(half.high, 0.7634, 1e-4);
  EXPECT_NEAR(none.low, 0.0, 1e-12);
  EXPECT_NEAR(none.high, 0.2775, 1e-4);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
  EXPECT_NEAR(all.high, 1.0, 1e-12);
  EXPECT_NEAR(wilson_interval(3, 4).low, 0.3006, 1e-4);
}

TEST(Statistics, FishersExactTestGivesTheTextbooksProbabilities) {
  EXPECT_NEAR(fisher_exact_p(3, 4, 1, 4), 0.4857, 1e-4);          // the lady tasting tea
  EXPECT_NEAR(fisher_exact_p(1, 12, 9, 12), 0.002759, 1e-6);      // dieting men and women
  EXPECT_NEAR(fisher_exact_p(10, 10, 0, 10), 2.0 / 184756, 1e-9);  // 2 / C(20, 10)
  EXPECT_DOUBLE_EQ(fisher_exact_p(7, 10, 7, 10), 1.0);
  EXPECT_DOUBLE_EQ(fisher_exact_p(2, 6, 5, 9), fisher_exact_p(5, 9, 2, 6));
}

TEST(Statistics, MannWhitneyRanksUnsolvedRunsLastAndTiedAmongThemselves) {
  // U = 0 of 5 and 5: z = (12.5 - 0.5) / sqrt(25 x 11 / 12), p = 0.0122.
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 0.01219, 1e-4);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2, 3}, {1, 2, 3}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({kUnsolved, kUnsolved}, {kUnsolved}), 1.0);  // every value ties
  // Runs not solved are slower than any solved: the same five times beat five unsolved runs as
  // the five later times do.
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2, 3, 4, 5}, {kUnsolved, kUnsolved, kUnsolved, kUnsolved, kUnsolved}),
                   mann_whitney_p({1, 2, 3, 4, 5}, {6, 6, 6, 6, 6}));
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 9, kUnsolved}, {2, 3, 4}), mann_whitney_p({2, 3, 4}, {1, 9, kUnsolved}));
}

TEST(Statistics, APercentileThatFallsOnAnUnsolvedRunIsOnlyABound) {
  EXPECT_EQ(percentile({1, 2, 3, 4}, 0.5), 2);
  EXPECT_EQ(percentile({1, 2, 3, 4}, 0.95), 4);
  EXPECT_EQ(percentile({1, 2, kUnsolved, kUnsolved}, 0.5), 2);
  EXPECT_EQ(percentile({1, kUnsolved, kUnsolved}, 0.5), kUnsolved);
  EXPECT_EQ(percentile({}, 0.5), 0);
  // Over runs: one that falls on an unsolved run is known only to exceed the least of theirs.
  const RunPercentile median = percentile_over_runs({{true, 1}, {false, 60}, {false, 30}}, 0.5);
  EXPECT_TRUE(median.at_least);
  EXPECT_EQ(median.value, 30);
  const RunPercentile first = percentile_over_runs({{true, 1}, {false, 60}, {true, 5}}, 0.5);
  EXPECT_FALSE(first.at_least);
  EXPECT_EQ(first.value, 5);
}
