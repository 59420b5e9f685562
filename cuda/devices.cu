#include <algorithm>

#include "cuda_check.hpp"
#include "devices.hpp"

namespace gpuga {

bool cuda_backend_built() { return true; }

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
  for (int d = 0; d < count; ++d) {
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
    GPUGA_CUDA_CHECK(cudaSetDevice(d));
    std::size_t free_b = 0, total_b = 0;
    GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    info.free_bytes = free_b;
    out.devices.push_back(info);
  }
  return out;
}

}  // namespace gpuga

namespace gpuga {

double measure_device_copy_bandwidth(int device) {
  GPUGA_CUDA_CHECK(cudaSetDevice(device));
  const std::size_t bytes = std::size_t(1) << 30;
  void *src = nullptr, *dst = nullptr;
  GPUGA_CUDA_CHECK(cudaMalloc(&src, bytes));
  const cudaError_t err = cudaMalloc(&dst, bytes);
  if (err != cudaSuccess) cudaFree(src);
  GPUGA_CUDA_CHECK(err);
  cudaEvent_t start, stop;
  GPUGA_CUDA_CHECK(cudaEventCreate(&start));
  GPUGA_CUDA_CHECK(cudaEventCreate(&stop));
  float best_ms = 1e30f;
  for (int rep = 0; rep < 6; ++rep) {  // the first copy warms up; the best of the rest counts
    GPUGA_CUDA_CHECK(cudaEventRecord(start));
    GPUGA_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    GPUGA_CUDA_CHECK(cudaEventRecord(stop));
    GPUGA_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    GPUGA_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (rep > 0) best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * bytes / (best_ms / 1000.0) / 1e9;
}

}  // namespace gpuga
