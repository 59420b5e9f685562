#pragma once
// The statistics gpuga report gives of runs: a success rate's interval, the chance that two
// configurations' success counts or times differ as much as they do when they are alike, and
// percentiles. Each says what it assumes; none draws random numbers.
#include <cstddef>
#include <utility>
#include <vector>

namespace gpuga {

struct Interval {
  double low = 0, high = 0;
};

// Wilson's score interval of a success rate, `solved` of `runs` (runs >= 1), at 95 %: it stays
// within [0, 1] and is not empty at 0 or `runs` solved, where the normal approximation is.
Interval wilson_interval(std::size_t solved, std::size_t runs);

// Fisher's exact test, two-sided, of the 2x2 table (solved_a, runs_a - solved_a; solved_b,
// runs_b - solved_b): the probability, with the margins fixed and the two alike, of a table no
// more likely than this one.
double fisher_exact_p(std::size_t solved_a, std::size_t runs_a, std::size_t solved_b, std::size_t runs_b);

// The Mann-Whitney U test, two-sided, of two samples (normal approximation with the tie
// correction and a continuity correction; 1 where every value ties). Infinity is a value: runs
// not solved, ranked after every solved one and tied among themselves, as runs censored at a
// common limit are.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// The nearest-rank percentile (q in (0, 1]) of a sorted sample; 0 for an empty one. Runs not
// solved as infinity: a percentile that falls on one is infinite.
double percentile(const std::vector<double>& sorted, double q);

// A percentile of one figure over runs, the unsolved ranked after every solved run: where it
// falls on an unsolved run, it is only known to exceed the least figure of those runs, `value`.
struct RunPercentile {
  double value = 0;
  bool at_least = false;  // value is a lower bound: the percentile's run was not solved
};
// Over `runs`, each (solved, its figure), at least one.
RunPercentile percentile_over_runs(const std::vector<std::pair<bool, double>>& runs, double q);

}  // namespace gpuga
