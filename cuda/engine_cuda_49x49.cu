// The CUDA backend's kernels for 49x49 puzzles (box size 7), a translation unit of their own.
#include "engine_cuda_box.cuh"

GPUGA_INSTANTIATE_CUDA_ENGINE(7)
