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

// The index of the lowest set bit of a nonzero word of a mask (32 bits up to 25x25, 64 from
// 36x36): bsf, baseline x86-64, on the host.
namespace gpuga {
GPUGA_HD_INLINE int lowest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}
GPUGA_HD_INLINE int lowest_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

// Bits set in a word. On the host without the POPCNT instruction in the target (the default
// x86-64 baseline), __builtin_popcount is a call into libgcc; the fallback stays inline.
GPUGA_HD_INLINE int bit_count(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#elif defined(__POPCNT__)
  return __builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}
GPUGA_HD_INLINE int bit_count(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return bit_count(static_cast<std::uint32_t>(x)) + bit_count(static_cast<std::uint32_t>(x >> 32));
#endif
}
}  // namespace gpuga
