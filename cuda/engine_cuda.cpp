// The CUDA backend's entry points: the box size picks its translation unit (engine_cuda_box.hpp).
#include "engine_cuda_box.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const EngineParams& params,
                                         int device, std::uint32_t slots) {
  return with_box_size<kMaxCudaBox>(puzzle.box, [&]<int B>() {
    return make_cuda_engine_of<B>(puzzle, params, device, slots);
  });
}

CudaProbe probe_cuda(int box, int device) {
  return with_box_size<kMaxCudaBox>(box, [&]<int B>() { return probe_cuda_of<B>(device); });
}

int cuda_islands_per_multiprocessor(const IslandParams& params, int box, int device) {
  return with_box_size<kMaxCudaBox>(box, [&]<int B>() {
    return cuda_islands_per_multiprocessor_of<B>(params, device);
  });
}

}  // namespace gpuga
