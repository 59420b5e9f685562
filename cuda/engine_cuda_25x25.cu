// The CUDA backend's kernels for 25x25 puzzles (box size 5), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(5)
