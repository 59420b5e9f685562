#include "gpuga/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuga {
namespace {

constexpr double kZ95 = 1.959963984540054;  // the normal quantile of 97.5 %

// log C(n, k)
double log_choose(double n, double k) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

}  // namespace

Interval wilson_interval(std::size_t solved, std::size_t runs) {
  const double n = double(runs), p = double(solved) / n, z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double fisher_exact_p(std::size_t solved_a, std::size_t runs_a, std::size_t solved_b, std::size_t runs_b) {
  // The solved count of a, given both margins, is hypergeometric.
  const double n = double(runs_a + runs_b), solved = double(solved_a + solved_b);
  const auto log_p = [&](double k) {
    return log_choose(double(runs_a), k) + log_choose(double(runs_b), solved - k) - log_choose(n, solved);
  };
  const double observed = log_p(double(solved_a));
  const double low = std::max(0.0, solved - double(runs_b)), high = std::min(solved, double(runs_a));
  double p = 0;
  for (double k = low; k <= high; ++k)
    if (log_p(k) <= observed + 1e-7) p += std::exp(log_p(k));  // "no more likely", within rounding
  return std::min(1.0, p);
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return 1;
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  for (double v : a) pooled.push_back({v, true});
  for (double v : b) pooled.push_back({v, false});
  std::sort(pooled.begin(), pooled.end());
  const double n1 = double(a.size()), n2 = double(b.size()), n = n1 + n2;
  double rank_sum_a = 0, ties = 0;  // ties: the sum of t^3 - t over groups of t equal values
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = double(j - i), mid_rank = (double(i) + double(j) + 1) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_a += mid_rank;
    ties += t * t * t - t;
    i = j;
  }
  const double u = rank_sum_a - n1 * (n1 + 1) / 2, mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (variance <= 0) return 1;
  const double z = std::max(0.0, std::abs(u - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

RunPercentile percentile_over_runs(const std::vector<std::pair<bool, double>>& runs, double q) {
  constexpr double kUnsolved = std::numeric_limits<double>::infinity();
  std::vector<double> values;
  double least_unsolved = kUnsolved;
  for (const auto& [solved, figure] : runs) {
    values.push_back(solved ? figure : kUnsolved);
    if (!solved) least_unsolved = std::min(least_unsolved, figure);
  }
  std::sort(values.begin(), values.end());
  const double v = percentile(values, q);
  return std::isinf(v) ? RunPercentile{least_unsolved, true} : RunPercentile{v, false};
}

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * double(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace gpuga
