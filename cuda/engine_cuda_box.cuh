#pragma once
// The CUDA backend for box size B: the island engine (engine/island_engine.hpp) on the CUDA device
// system. Included by engine_cuda_<size>.cu only, each of which instantiates one size.
#include "device_system.hpp"
#include "engine_cuda_box.hpp"
#include "island_engine.hpp"

namespace gpuga {

template <int B>
std::unique_ptr<Engine> make_cuda_engine_of(const Grid& puzzle, const EngineParams& params,
                                            int device, std::uint32_t slots) {
  return std::make_unique<IslandEngine<device_system::System, B>>(
      puzzle, params, device_system::System(device), slots);
}

// Blocks of Step's kernel for `l` (one island each) resident at once per multiprocessor.
template <class Step>
int resident_islands(const Launch& l) {
  const auto kernel = device_system::block_kernel<Step>(l.kernel);
  if (l.staged_bytes)
    GPUGA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(l.staged_bytes)));
  int blocks = 0;
  GPUGA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, l.threads, l.staged_bytes));
  return blocks;
}

// Islands of these parameters resident at once per multiprocessor: the segment step's launch as
// the engine makes it (launch_policy.hpp), for islands side by side, each a block of its own
// (never a lone island's grid).
template <int B>
int cuda_islands_per_multiprocessor_of(const IslandParams& params, int device) {
  constexpr std::uint64_t kSideBySide = 2;
  const device_system::System sys(device);
  const device_system::DeviceScope on(device);
  const Launch l = launch_of<B>(true, make_layout<B>(params.ga), kSideBySide, sys.limits());
  if (params.ga.algorithm != Algorithm::Ga) return resident_islands<chain_segment_step<B>>(l);
  if (params.ga.repair == Repair::Propagate) return resident_islands<repaired_ga_segment_step<B>>(l);
  return resident_islands<ga_segment_step<B>>(l);
}

}  // namespace gpuga

#define GPUGA_INSTANTIATE_CUDA_ENGINE(B)                                                      \
  template std::unique_ptr<gpuga::Engine> gpuga::make_cuda_engine_of<B>(                     \
      const gpuga::Grid&, const gpuga::EngineParams&, int, std::uint32_t);            \
  template int gpuga::cuda_islands_per_multiprocessor_of<B>(const gpuga::IslandParams&, int);
