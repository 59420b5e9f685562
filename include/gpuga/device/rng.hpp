#pragma once
// Counter-based random numbers (Philox4x32-10 from Random123, identical on host and device).
// Every draw is keyed by (seed, generation, individual, purpose) and a draw counter, so a run
// does not depend on thread count, launch shape or backend.
#include <Random123/philox.h>

#include <cstdint>

#include "gpuga/device/hd.hpp"

namespace gpuga {

enum Purpose : std::uint32_t {
  kPurposeInit = 1,   // a new individual
  kPurposeBreed = 2,  // a child: parent selection, then crossover, then mutation, in that order
  kPurposeMove = 3,   // a chain's moves in one sweep (sa, hc)
  kPurposeTemperature = 4,  // the random walk that sets sa's initial temperature
  kPurposeGenerate = 5,     // a generated puzzle (gpuga generate): its grid and its givens
  kPurposeRepair = 6,       // a new individual's or a child's repair (the repaired GA): at most
                            // one of the two is made at a (generation, individual)
  kPurposeTabu = 7,         // the tabu search on that repaired grid (tabu.hpp): its hashes' word
};

GPUGA_HD_INLINE std::uint64_t mul_hi_64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// Seed of island or run k derived from a seed: k = 0 is the seed itself (SplitMix64 otherwise).
GPUGA_HD_INLINE std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t k) {
  if (k == 0) return seed;
  std::uint64_t z = seed + k * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// kConstantIndex: a draw is picked from the block with constant indices, so that on the GPU
// the generator stays in registers; otherwise by the draw's index, which puts it in local
// memory (RngFor below says which the operators take). The same draws either way.
template <bool kConstantIndex>
class RngOf {
 public:
  GPUGA_HD RngOf(std::uint64_t seed, std::uint32_t generation, std::uint32_t individual,
               std::uint32_t purpose)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        ctr_{{generation, individual, purpose, 0}} {}

  GPUGA_HD std::uint32_t next() {
    if (used_ == 4) {
      block_ = r123::Philox4x32()(ctr_, key_);
      ++ctr_.v[3];
      used_ = 0;
    }
    if constexpr (!kConstantIndex) {
      return block_.v[used_++];
    } else {
      const int u = used_++;
      return u == 0 ? block_.v[0] : u == 1 ? block_.v[1] : u == 2 ? block_.v[2] : block_.v[3];
    }
  }

  GPUGA_HD std::uint64_t next64() {
    const std::uint64_t hi = next();
    return (hi << 32) | next();
  }

  // Uniform in [0, n) by multiply-shift (Lemire, without rejection: bias below n / 2^32).
  GPUGA_HD std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(next()) * n) >> 32);
  }

  // True with probability threshold / 2^32.
  GPUGA_HD bool chance(std::uint64_t threshold) { return next() < threshold; }

 private:
  r123::Philox4x32::key_type key_;
  r123::Philox4x32::ctr_type ctr_;
  r123::Philox4x32::ctr_type block_{};
  int used_ = 4;
};

using Rng = RngOf<true>;

// The generator of the operators for box size B. In registers up to 16x16: local-search moves
// draw in their inner loop, and the generator in local memory was most of the segment step's
// stack frame (9x9: 104 bytes to 24; bench/ptxas-table.sh). 25x25's segment step has no
// registers to spare (it spilled 144 bytes on sm_90 with it), so there local memory is cheaper.
template <int B>
using RngFor = RngOf<(B <= 4)>;

// Several small uniform picks from one 32-bit draw: each is the high word of bits * n, and the
// low word, still near uniform, is the bits of the next (Lemire). The bias stays below the
// product of the ranges over 2^32. A move's picks from one draw: a draw is a quarter of a
// Philox block, which costs as much as the rest of a move.
class Picks {
 public:
  GPUGA_HD_INLINE explicit Picks(std::uint32_t bits) : bits_(bits) {}
  GPUGA_HD_INLINE std::uint32_t below(std::uint32_t n) {
    const std::uint64_t x = static_cast<std::uint64_t>(bits_) * n;
    bits_ = static_cast<std::uint32_t>(x);
    return static_cast<std::uint32_t>(x >> 32);
  }

 private:
  std::uint32_t bits_;
};

}  // namespace gpuga
