#include <algorithm>

#include "cuda_check.hpp"
#include "gpuga/devices.hpp"

namespace gpuga {

bool cuda_backend_built() { return true; }

namespace {

// Device d's properties, and its free memory when a context can be made on it: a device in
// exclusive-process mode that another process holds is listed as busy, not an error.
DeviceInfo describe_device(int d) {
  cudaDeviceProp prop{};
  GPUGA_CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
  DeviceInfo info;
  info.index = d;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.memory_bytes = prop.totalGlobalMem;
  info.memory_bus_bits = prop.memoryBusWidth;
  int khz = 0;
  GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d));
  info.clock_mhz = khz / 1000;
  GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d));
  info.memory_clock_mhz = khz / 1000;
  GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&info.shared_per_multiprocessor,
                                          cudaDevAttrMaxSharedMemoryPerMultiprocessor, d));
  GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&info.shared_per_block,
                                          cudaDevAttrMaxSharedMemoryPerBlockOptin, d));
  GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&info.shared_reserved_per_block,
                                          cudaDevAttrReservedSharedMemoryPerBlock, d));
  std::size_t free_b = 0, total_b = 0;
  if (cudaSetDevice(d) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
    info.free_bytes = free_b;
  } else {
    info.busy = true;
    cudaGetLastError();  // not sticky: clear it so that later calls start clean
  }
  return info;
}

}  // namespace

DeviceList list_devices() {
  DeviceList out;
  cudaDriverGetVersion(&out.driver_version);
  cudaRuntimeGetVersion(&out.runtime_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    // Without an NVIDIA driver the runtime says its version is "insufficient"; say what it means.
    const bool absent = err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || count == 0;
    out.reason = absent ? std::string("no NVIDIA GPU or driver found")
                        : std::string("no usable CUDA device");
    if (err != cudaSuccess) out.reason += std::string(" (") + cudaGetErrorName(err) + ")";
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return out;
  }
  // Listing touches every device: the current one is restored after, so that an engine made
  // later (or running now on this thread) stays on its own.
  int current = 0;
  GPUGA_CUDA_CHECK(cudaGetDevice(&current));
  for (int d = 0; d < count; ++d) out.devices.push_back(describe_device(d));
  GPUGA_CUDA_CHECK(cudaSetDevice(current));
  return out;
}

}  // namespace gpuga
