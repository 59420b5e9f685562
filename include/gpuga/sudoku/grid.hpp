#pragma once
// A grid on the host, of any box size b in 2..8: a side of n = b * b cells, n * n cells row by
// row, 0 for a blank and 1..n for a value. Units 0..n-1 are rows, n..2n-1 columns, 2n..3n-1
// boxes. Parsing, verification, the exact checker and reports work on it; the engines take its
// cells as the bytes of an individual of their box size (include/gpuga/device/grid.hpp).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gpuga/errors.hpp"

namespace gpuga {

inline constexpr int kMinBox = 2, kMaxBox = 8;

// The host's sets of values (the exact search, propagation, verification, deduction): bit v - 1
// for value v, so that 64x64's 64 values fill a 64-bit word.
constexpr std::uint64_t value_bit(int v) { return std::uint64_t(1) << (v - 1); }
constexpr std::uint64_t all_values(int n) { return n == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1; }

struct Grid {
  int box = 3;
  std::vector<std::uint8_t> cell;

  explicit Grid(int b = 3) : box(b), cell(static_cast<std::size_t>(b * b * b * b), 0) {}

  int side() const { return box * box; }
  int cells() const { return side() * side(); }
  int units() const { return 3 * side(); }
  std::uint32_t blanks() const { return static_cast<std::uint32_t>(std::count(cell.begin(), cell.end(), 0)); }
  int row_of(int c) const { return c / side(); }
  int col_of(int c) const { return c % side(); }
  int box_of(int c) const { return row_of(c) / box * box + col_of(c) / box; }

  // Cell index of the k-th cell (0..n-1) of unit u.
  int unit_cell(int u, int k) const {
    const int n = side(), i = u % n;
    if (u < n) return i * n + k;
    if (u < 2 * n) return k * n + i;
    return (i / box * box + k / box) * n + i % box * box + k % box;
  }

  bool operator==(const Grid&) const = default;
};

// "r3c5": cell c of g in messages. Appended piece by piece, not "r" + to_string(...): GCC 12
// warns falsely (-Wrestrict) on a literal + std::string&&.
inline std::string cell_name(const Grid& g, int c) {
  std::string name = "r";
  name += std::to_string(g.row_of(c) + 1);
  name += 'c';
  name += std::to_string(g.col_of(c) + 1);
  return name;
}

// "row 3", "column 5", "box 9": unit u of g in messages.
inline std::string unit_name(const Grid& g, int u) {
  static const char* kKind[] = {"row ", "column ", "box "};
  std::string name = kKind[u / g.side()];
  name += std::to_string(u % g.side() + 1);
  return name;
}

// Two cells of one unit that hold the same value (blanks aside): the first such pair, unit by
// unit, or none. Contradictory givens are refused by the parser and have no solution.
struct Clash {
  int unit = -1, first = -1, second = -1;  // second > first, both in `unit`
};

inline std::optional<Clash> first_clash(const Grid& g) {
  for (int u = 0; u < g.units(); ++u) {
    int seen_at[kMaxBox * kMaxBox + 1];
    std::fill(std::begin(seen_at), std::end(seen_at), -1);
    for (int k = 0; k < g.side(); ++k) {
      const int c = g.unit_cell(u, k), v = g.cell[c];
      if (v == 0) continue;
      if (seen_at[v] >= 0) return Clash{u, seen_at[v], c};
      seen_at[v] = c;
    }
  }
  return std::nullopt;
}

// Calls f.template operator()<B>() with the box size B of `box` (2..8): the one place a run-time
// size picks the compiled one (CUDA's entry points then refuse the sizes a build left out:
// cuda/engine_cuda.cpp).
template <class F>
decltype(auto) with_box_size(int box, F&& f) {
  switch (box) {
    case 2: return f.template operator()<2>();
    case 3: return f.template operator()<3>();
    case 4: return f.template operator()<4>();
    case 5: return f.template operator()<5>();
    case 6: return f.template operator()<6>();
    case 7: return f.template operator()<7>();
    case 8: return f.template operator()<8>();
  }
  const std::string side = std::to_string(box * box);
  throw InputError("a " + side + "x" + side + " puzzle (box size " + std::to_string(box) +
                   "); expected 4x4 to 64x64 (box sizes 2 to 8)");
}

}  // namespace gpuga
