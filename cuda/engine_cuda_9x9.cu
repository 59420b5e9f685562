// The CUDA backend's kernels for 9x9 puzzles (box size 3), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(3)
