// The CUDA backend's entry points: the box size picks its translation unit (engine_cuda_box.hpp),
// one of those the build compiled (GPUGA_CUDA_SIZES: bit B of GPUGA_CUDA_BOX_MASK).
#include <string>

#include "engine_cuda_box.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {

namespace {

template <int B>
constexpr bool kBuilt = (GPUGA_CUDA_BOX_MASK >> B) & 1;

// f.template operator()<B>(), of type R, for box size `box`, one this build's CUDA backend has.
template <class R, class F>
R with_cuda_box_size(int box, F&& f) {
  return with_box_size(box, [&]<int B>() -> R {
    if constexpr (kBuilt<B>) {
      return f.template operator()<B>();
    } else {
      std::string built;
      for (int b = kMinBox; b <= kMaxBox; ++b)
        if ((GPUGA_CUDA_BOX_MASK >> b) & 1) built += (built.empty() ? "" : ", ") + std::to_string(b * b) + "x" + std::to_string(b * b);
      const std::string side = std::to_string(B * B);
      throw InputError("a " + side + "x" + side + " puzzle on --backend cuda, which this build compiled for " +
                       built + " (GPUGA_CUDA_SIZES); expected --backend cpu, or a build with " + side + "x" + side);
    }
  });
}

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const EngineParams& params,
                                         int device, std::uint32_t slots) {
  return with_cuda_box_size<std::unique_ptr<Engine>>(puzzle.box, [&]<int B>() {
    return make_cuda_engine_of<B>(puzzle, params, device, slots);
  });
}

CudaProbe probe_cuda(int box, int device) {
  return with_cuda_box_size<CudaProbe>(box, [&]<int B>() { return probe_cuda_of<B>(device); });
}

int cuda_islands_per_multiprocessor(const IslandParams& params, int box, int device) {
  return with_cuda_box_size<int>(box, [&]<int B>() {
    return cuda_islands_per_multiprocessor_of<B>(params, device);
  });
}

}  // namespace gpuga
