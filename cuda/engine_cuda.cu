// The CUDA backend: the island engine (host/island_engine.hpp) on the CUDA device system.
#include "device_system.hpp"
#include "island_engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const IslandParams& params,
                                         double rank_pressure, int device, std::uint32_t runs) {
  return make_island_engine(puzzle, params, rank_pressure, device_system::System(device), runs);
}

int cuda_islands_per_multiprocessor(const IslandParams& params, int box, int device) {
  GPUGA_CUDA_CHECK(cudaSetDevice(device));
  return with_box_size(box, [&]<int B>() {
    const std::uint64_t staged =
        staging_bytes<B>(device_system::System(device), make_layout<B>(params.ga));
    const auto kernel = device_system::island_kernel<segment_step<B>>;
    if (staged)
      GPUGA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(staged)));
    int blocks = 0;
    GPUGA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, kernel, device_system::kTeamThreads, staged));
    return blocks;
  });
}

}  // namespace gpuga
