// The CUDA backend's kernels for 36x36 puzzles (box size 6), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(6)
