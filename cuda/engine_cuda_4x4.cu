// The CUDA backend's kernels for 4x4 puzzles (box size 2), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(2)
