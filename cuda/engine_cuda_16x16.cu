// The CUDA backend's kernels for 16x16 puzzles (box size 4), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(4)
