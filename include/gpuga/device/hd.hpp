#pragma once
#include <chrono>
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
// Keep the loop that follows a loop on the device, where unrolled it would hold more registers
// than its kernel's bound (nvcc unrolls loops of a constant trip count unasked).
#if defined(__CUDA_ARCH__)
#define GPUGA_ROLLED _Pragma("unroll 1")
#else
#define GPUGA_ROLLED
#endif

namespace gpuga {

// The clock of a run's deadline (RunTask::deadline), in nanoseconds: the host's steady clock on a
// CPU, the global timer on a GPU (System::device_deadline moves a deadline from one to the other).
GPUGA_HD_INLINE std::int64_t deadline_clock_ns() {
#if defined(__CUDA_ARCH__)
  std::uint64_t now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return static_cast<std::int64_t>(now);
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

// Whether `deadline` has gone by, as this thread reads that clock; never for kNoDeadline, the
// largest value.
GPUGA_HD_INLINE bool deadline_passed(std::int64_t deadline) { return deadline_clock_ns() >= deadline; }

// The index of the lowest set bit of a nonzero word of a mask (32 bits up to 25x25, 64 from
// 36x36): bsf, baseline x86-64, on the host.
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
