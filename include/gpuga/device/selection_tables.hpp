#pragma once
// Tables computed once on the host and handed to either backend, so that selection is exact
// integer work on both.
#include <cmath>
#include <cstdint>
#include <vector>

namespace gpuga {

// Linear ranking with pressure s in [1, 2]: rank r (0 = best) of n has weight
// s - (2s - 2) r / (n - 1), mean 1. Weights are scaled by 2^32 and accumulated, so a 64-bit
// uniform draw below the total picks a rank exactly (n up to 2^31 fits in 64 bits).
inline std::vector<std::uint64_t> rank_cdf(std::uint32_t n, double pressure) {
  std::vector<std::uint64_t> cdf(n);
  std::uint64_t total = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    const double w = n == 1 ? 1.0 : pressure - (2.0 * pressure - 2.0) * r / (n - 1.0);
    total += static_cast<std::uint64_t>(std::llround(w * 4294967296.0));
    cdf[r] = total;
  }
  return cdf;
}

}  // namespace gpuga
