#pragma once
// The CUDA backend's entry points (cuda/, in builds with GPUGA_WITH_CUDA): its engine, and what a
// plan needs of a device, probed once as plain data. The backends' registry (host/run/backend.cpp)
// calls them where the build has the backend.
#include <cstdint>
#include <memory>

#include "gpuga/engine.hpp"
#include "gpuga/launch_limits.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const EngineParams& params,
                                         int device, std::uint32_t slots = 1);

// How steps launch on `device` and what one multiprocessor holds (its attributes), and the
// footprints of box size `box`'s segment kernels (their registers and static shared memory).
struct CudaProbe {
  DeviceLimits launch;
  std::uint32_t multiprocessors = 0;
  UnitLimits multiprocessor;
  SegmentFootprints segments;
};
CudaProbe probe_cuda(int box, int device);

// CUDA's own occupancy query for islands of `params` side by side: the segment step's blocks
// resident at once on one multiprocessor of `device`. The reference that islands_at_once()
// (launch_policy.hpp), which plans use, is checked against.
int cuda_islands_per_multiprocessor(const IslandParams& params, int box, int device);

}  // namespace gpuga
