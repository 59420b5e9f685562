#pragma once
// Spearman's rho, for the tests that compare a rating's order with Sudoku Explainer's.
#include <algorithm>
#include <cmath>
#include <vector>

// Average ranks (ties share their mean rank).
inline std::vector<double> ranks_of(const std::vector<double>& x) {
  std::vector<std::size_t> order(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&x](auto a, auto b) { return x[a] < x[b]; });
  std::vector<double> rank(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && x[order[j]] == x[order[i]]) ++j;
    for (std::size_t k = i; k < j; ++k) rank[order[k]] = (i + j - 1) / 2.0;
    i = j;
  }
  return rank;
}

inline double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const auto ra = ranks_of(a), rb = ranks_of(b);
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += ra[i] / n, mb += rb[i] / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}
