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

// Islands of these parameters resident at once per multiprocessor, where they fill every one:
// their segment step's blocks, by CUDA's occupancy query (device_system::resident_blocks_of).
template <int B>
int cuda_islands_per_multiprocessor_of(const IslandParams& params, int device) {
  const device_system::System sys(device);
  const device_system::DeviceScope on(device);
  const Launch launch =
      block_launch_of<B>(true, make_layout<B>(params.ga), kIslandsFillingEveryUnit, sys.limits());
  return with_segment_step<B>(params.ga,
                              [&]<class Step>() { return device_system::resident_blocks_of<Step>(launch); });
}

// Step's kernels' registers and static shared memory, as the occupancy query reads them.
template <class Step>
StepFootprint footprint_of() {
  const auto of = [](KernelKind kind) {
    cudaFuncAttributes a{};
    GPUGA_CUDA_CHECK(cudaFuncGetAttributes(&a, device_system::block_kernel<Step>(kind)));
    return KernelFootprint{static_cast<std::uint64_t>(a.numRegs), a.sharedSizeBytes};
  };
  return {of(KernelKind::Staged), of(KernelKind::Home)};
}

template <int B>
CudaProbe probe_cuda_of(int device) {
  const device_system::System sys(device);
  const device_system::DeviceScope on(device);
  CudaProbe p;
  p.launch = sys.limits();
  p.multiprocessors = sys.multiprocessors();
  p.multiprocessor = sys.multiprocessor();
  p.segments[SegmentStep::Ga] = footprint_of<ga_segment_step<B>>();
  p.segments[SegmentStep::RepairedGa] = footprint_of<repaired_ga_segment_step<B>>();
  p.segments[SegmentStep::SearchedGa] = footprint_of<searched_ga_segment_step<B>>();
  p.segments[SegmentStep::Chains] = footprint_of<chain_segment_step<B>>();
  return p;
}

}  // namespace gpuga

#define GPUGA_INSTANTIATE_CUDA_ENGINE(B)                                                      \
  template std::unique_ptr<gpuga::Engine> gpuga::make_cuda_engine_of<B>(                     \
      const gpuga::Grid&, const gpuga::EngineParams&, int, std::uint32_t);            \
  template int gpuga::cuda_islands_per_multiprocessor_of<B>(const gpuga::IslandParams&, int); \
  template gpuga::CudaProbe gpuga::probe_cuda_of<B>(int);
