#pragma once
// The CUDA backend for box size B: the island engine (engine/island_engine.hpp) on the CUDA device
// system. Included by engine_cuda_<size>.cu only, each of which instantiates one size.
#include "device_system.hpp"
#include "engine_cuda_box.hpp"
#include "island_engine.hpp"

namespace gpuga {

template <int B>
std::unique_ptr<Engine> make_cuda_engine_of(const Grid& puzzle, const EngineParams& params,
                                            int device, std::uint32_t runs) {
  return std::make_unique<IslandEngine<device_system::System, B>>(
      puzzle, params, device_system::System(device), runs);
}

// Blocks of `kernel` (one island each, of `threads`) resident at once per multiprocessor.
template <class Kernel>
int resident_islands(Kernel kernel, std::uint64_t staged, unsigned threads) {
  if (staged)
    GPUGA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(staged)));
  int blocks = 0;
  GPUGA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, staged));
  return blocks;
}

// Islands of Step resident at once per multiprocessor, on the kernel that runs them: staged in
// `staged` bytes of shared memory, or from device memory (0).
template <class Step>
int resident_step_islands(std::uint64_t staged, unsigned threads) {
  if (staged) return resident_islands(device_system::staged_island_kernel<Step>, staged, threads);
  return resident_islands(device_system::island_kernel<Step>, 0, threads);
}

template <int B>
int cuda_islands_per_multiprocessor_of(const IslandParams& params, int device) {
  const device_system::System sys(device);
  const device_system::DeviceScope on(device);
  const IslandLayout L = make_layout<B>(params.ga);
  const std::uint64_t staged = staging_bytes<B>(sys, L);
  const unsigned threads = team_threads(L, device_system::kTeamThreads);
  if (params.ga.algorithm != Algorithm::Ga)
    return resident_step_islands<chain_segment_step<B>>(staged, threads);
  return resident_step_islands<ga_segment_step<B>>(staged, threads);
}

}  // namespace gpuga

#define GPUGA_INSTANTIATE_CUDA_ENGINE(B)                                                      \
  template std::unique_ptr<gpuga::Engine> gpuga::make_cuda_engine_of<B>(                     \
      const gpuga::Grid&, const gpuga::EngineParams&, int, std::uint32_t);            \
  template int gpuga::cuda_islands_per_multiprocessor_of<B>(const gpuga::IslandParams&, int);
