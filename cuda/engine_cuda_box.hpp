#pragma once
// The CUDA backend one box size at a time: declared here, defined in engine_cuda_box.cuh and
// instantiated once per size in engine_cuda_<size>.cu, so that the four sizes' kernels compile
// as four translation units, in parallel. engine_cuda.cpp picks the size at run time.
#include <cstdint>
#include <memory>

#include "gpuga/engine_cuda.hpp"

namespace gpuga {

template <int B>
std::unique_ptr<Engine> make_cuda_engine_of(const Grid& puzzle, const EngineParams& params,
                                            int device, std::uint32_t slots);

template <int B>
int cuda_islands_per_multiprocessor_of(const IslandParams& params, int device);

template <int B>
CudaProbe probe_cuda_of(int device);

}  // namespace gpuga
