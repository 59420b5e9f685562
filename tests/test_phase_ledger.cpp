// Phase times on one timeline (engine/phase_ledger.hpp): overlapping spans, as a growing run's
// stages make on the GPU, count each instant once, for the span that started first, so that the
// phases never add up to more than the time they span; disjoint spans add up exactly.
#include <gtest/gtest.h>

#include "phase_ledger.hpp"

using namespace gpuga;

TEST(PhaseLedger, DisjointSpansAddUpExactly) {
  PhaseLedger ledger;
  ledger.add(Phase::Advance, 1.0, 1.5);
  ledger.add(Phase::Summary, 1.5, 1.75);
  ledger.add(Phase::Advance, 2.0, 3.0);
  const PhaseTimes t = ledger.totals();
  EXPECT_DOUBLE_EQ(t.advance, 1.5);
  EXPECT_DOUBLE_EQ(t.summary, 0.25);
  EXPECT_DOUBLE_EQ(t.ring, 0.0);
}

TEST(PhaseLedger, OverlappingSpansCountEachInstantOnceInTheOrderTheyStarted) {
  PhaseLedger ledger;
  // Two stages' advances on streams of their own, then a summary that waited for both; added in
  // the order their engines settle, not the order they ran.
  ledger.add(Phase::Advance, 2.0, 5.0);
  ledger.add(Phase::Summary, 4.0, 6.0);
  ledger.add(Phase::Advance, 1.0, 4.0);
  ledger.add(Phase::Advance, 2.5, 3.0);  // inside what is counted already
  const PhaseTimes t = ledger.totals();
  EXPECT_DOUBLE_EQ(t.advance, 4.0);  // 1 to 5
  EXPECT_DOUBLE_EQ(t.summary, 1.0);  // 5 to 6
  EXPECT_LE(t.advance + t.summary, 6.0 - 1.0);
}

TEST(PhaseLedger, TotalsReadBetweenSpansGoOnFromWhereTheyStood) {
  PhaseLedger ledger;
  ledger.add(Phase::Advance, 0.0, 2.0);
  EXPECT_DOUBLE_EQ(ledger.totals().advance, 2.0);
  ledger.add(Phase::Summary, 1.0, 3.0);  // its first second was counted as advance
  ledger.add(Phase::Advance, 3.0, 3.5);
  const PhaseTimes t = ledger.totals();
  EXPECT_DOUBLE_EQ(t.advance, 2.5);
  EXPECT_DOUBLE_EQ(t.summary, 1.0);
}

TEST(PhaseLedger, ALongRunsManySpansStayExact) {
  // More spans than the ledger holds before it counts a batch: each of 10,000 epochs' advance
  // and summary, one after another.
  PhaseLedger ledger;
  for (int e = 0; e < 10000; ++e) {
    ledger.add(Phase::Advance, e, e + 0.75);
    ledger.add(Phase::Summary, e + 0.75, e + 1.0);
  }
  const PhaseTimes t = ledger.totals();
  EXPECT_NEAR(t.advance, 7500.0, 1e-6);
  EXPECT_NEAR(t.summary, 2500.0, 1e-6);
}
