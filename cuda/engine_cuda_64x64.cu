// The CUDA backend's kernels for 64x64 puzzles (box size 8), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(8)
