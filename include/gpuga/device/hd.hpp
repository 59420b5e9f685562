#pragma once
#include <cstdint>
// The one host/device shim: operators in include/gpuga/ are written once and compiled by the
// host compiler for the CPU backend and by nvcc for the CUDA backend.
#if defined(__CUDACC__)
#define GPUGA_HD __host__ __device__
#define GPUGA_HD_INLINE __host__ __device__ __forceinline__
#else
#define GPUGA_HD
#define GPUGA_HD_INLINE inline
#endif

// Unroll the loop that follows, whose trip count is a constant up to 25 (a unit's cells): nvcc's
// device pass and g++ (the CPU backend) each have their pragma; nvcc's host pass knows neither.
#if defined(__CUDA_ARCH__)
#define GPUGA_UNROLL _Pragma("unroll")
#elif !defined(__CUDACC__)
#define GPUGA_UNROLL _Pragma("GCC unroll 25")
#else
#define GPUGA_UNROLL
#endif

// The index of the lowest set bit of a nonzero word (bsf, baseline x86-64, on the host).
#if defined(__CUDA_ARCH__)
#define GPUGA_LOWEST_BIT(x) (__ffs(x) - 1)
#else
#define GPUGA_LOWEST_BIT(x) __builtin_ctz(x)
#endif

// Bits set in a 32-bit word. On the host without the POPCNT instruction in the target (the
// default x86-64 baseline), __builtin_popcount is a call into libgcc; this stays inline.
#if defined(__CUDA_ARCH__)
#define GPUGA_POPCOUNT(x) __popc(x)
#elif defined(__POPCNT__)
#define GPUGA_POPCOUNT(x) __builtin_popcount(x)
#else
#define GPUGA_POPCOUNT(x) ::gpuga::popcount32(x)
namespace gpuga {
inline int popcount32(unsigned x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
}
}  // namespace gpuga
#endif

// The same for a 64-bit word: the masks of 36x36 and 49x49, whose values are bits 1..49.
namespace gpuga {
GPUGA_HD_INLINE int lowest_bit(std::uint32_t x) { return GPUGA_LOWEST_BIT(x); }
GPUGA_HD_INLINE int lowest_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}
GPUGA_HD_INLINE int bit_count(std::uint32_t x) { return GPUGA_POPCOUNT(x); }
GPUGA_HD_INLINE int bit_count(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return bit_count(static_cast<std::uint32_t>(x)) + bit_count(static_cast<std::uint32_t>(x >> 32));
#endif
}
}  // namespace gpuga
