#pragma once
// What a move (operators.hpp: propose_move) does to the fitness, computed from the units it
// touches rather than the whole grid, and the Metropolis acceptance of simulated annealing in
// integer arithmetic. Written once for host and device; the full fitness (fitness.hpp) stays the
// reference that the tests hold these to.
#include <cstdint>

#include "gpuga/operators.hpp"

namespace gpuga {

// Whether a fitness counts unit u (0-8 rows, 9-17 columns, 18-26 boxes): the squared metric and
// the cell encoding count all 27; conflicts leave out the units the encoding keeps permutations.
GPUGA_HD_INLINE bool counts_unit(int u, Encoding e, FitnessKind kind) {
  if (kind == FitnessKind::Squared || e == Encoding::Cell) return true;
  return e == Encoding::Box ? u < 18 : u >= 9;
}

// Unit t (0 row, 1 column, 2 box) of cell c.
GPUGA_HD_INLINE int unit_of(int c, int t) {
  return t == 0 ? row_of(c) : (t == 1 ? 9 + col_of(c) : 18 + box_of(c));
}

// The change of unit u's cost when its cell `at` goes from digit x to digit y. With nx, ny the
// counts of x and y among the unit's other 8 cells: conflicts (9 - distinct digits) change by
// [ny > 0] - [nx > 0]; the squared metric (sum of (count - 1)^2) by s(ny) - s(nx), where
// s(0) = 0 and s(n) = 2n - 1.
GPUGA_HD_INLINE int unit_change(const std::uint8_t* g, int u, int at, int x, int y,
                                FitnessKind kind) {
  int nx = 0, ny = 0;
  for (int k = 0; k < kSide; ++k) {
    const int c = unit_cell(u, k);
    if (c == at) continue;
    nx += g[c] == x;
    ny += g[c] == y;
  }
  if (kind == FitnessKind::Conflicts) return (ny > 0) - (nx > 0);
  return (ny ? 2 * ny - 1 : 0) - (nx ? 2 * nx - 1 : 0);
}

// fitness(g after m) - fitness(g), with g before the move. A swap leaves a unit that holds both
// cells as it was, so only the units of one cell and not the other change: at most four.
GPUGA_HD_INLINE int move_delta(const std::uint8_t* g, const Move& m, Encoding e,
                               FitnessKind kind) {
  if (m.a < 0) return 0;
  int d = 0;
  for (int t = 0; t < 3; ++t) {
    const int ua = unit_of(m.a, t);
    if (m.b < 0) {
      if (counts_unit(ua, e, kind)) d += unit_change(g, ua, m.a, g[m.a], m.value, kind);
      continue;
    }
    const int ub = unit_of(m.b, t);
    if (ua == ub) continue;
    if (counts_unit(ua, e, kind)) d += unit_change(g, ua, m.a, g[m.a], g[m.b], kind);
    if (counts_unit(ub, e, kind)) d += unit_change(g, ub, m.b, g[m.b], g[m.a], kind);
  }
  return d;
}

// exp(-x) for x >= 0 in 32.32 fixed point, as a 32.32 fixed-point number: exp(-x / 4096) by its
// Taylor series to the fourth power (error below 1e-16), squared twelve times, all in 2.62
// fixed point. Integers only, so host and device compute the same bits.
GPUGA_HD_INLINE std::uint64_t exp_neg_fixed(std::uint64_t x) {
  constexpr std::uint64_t kOne = std::uint64_t(1) << 62;
  if (x >= std::uint64_t(23) << 32) return 0;  // exp(-23) * 2^32 < 1
  const std::uint64_t z = x << 18;             // x / 4096 in 2.62 (x < 2^37)
  auto mul = [](std::uint64_t a, std::uint64_t b) { return mul_hi_64(a, b) << 2; };
  const std::uint64_t z2 = mul(z, z), z3 = mul(z2, z), z4 = mul(z3, z);
  std::uint64_t y = kOne - z + z2 / 2 - z3 / 6 + z4 / 24;
  for (int k = 0; k < 12; ++k) y = mul(y, y);
  return y >> 30;
}

// The acceptance threshold of a worsening by d >= 1 at inverse temperature beta (32.32): a 32-bit
// draw below it accepts, which happens with probability exp(-d * beta). `accept1` is
// exp_neg_fixed(beta), that of d = 1; exp(-d beta) = exp(-beta)^d.
GPUGA_HD_INLINE std::uint64_t accept_threshold(std::uint64_t accept1, int d) {
  std::uint64_t t = accept1;
  for (int k = 1; k < d && t; ++k) t = (t * accept1) >> 32;
  return t;
}

// beta after one cooling step (temperature times `cooling`), saturated where no worsening is
// accepted any more (exp(-2^8) = 0 in 32 bits).
inline constexpr std::uint64_t kFrozenBeta = std::uint64_t(1) << 40;

GPUGA_HD_INLINE std::uint64_t cool(std::uint64_t beta, std::uint64_t cooling_step) {
  const std::uint64_t next = beta + (mul_hi_64(beta, cooling_step) << 1);
  return next < kFrozenBeta ? next : kFrozenBeta;
}

}  // namespace gpuga
