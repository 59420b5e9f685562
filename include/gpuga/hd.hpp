#pragma once
// The one host/device shim: operators in include/gpuga/ are written once and compiled by the
// host compiler for the CPU backend and by nvcc for the CUDA backend.
#if defined(__CUDACC__)
#define GPUGA_HD __host__ __device__
#define GPUGA_HD_INLINE __host__ __device__ __forceinline__
#else
#define GPUGA_HD
#define GPUGA_HD_INLINE inline
#endif

#if defined(__CUDA_ARCH__)
#define GPUGA_POPCOUNT(x) __popc(x)
#else
#define GPUGA_POPCOUNT(x) __builtin_popcount(x)
#endif
