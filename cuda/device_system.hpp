#pragma once
// What the device engine needs beyond plain Thrust, for the device system its translation unit
// is compiled for: CUDA in the product (engine_cuda.cu), Thrust's OpenMP system in the tests
// (tests/device_engine_omp.cpp), which run the same engine on machines without a GPU. This is
// the only place where the two differ.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>

#include <cstddef>
#include <source_location>
#include <string>

#include "errors.hpp"

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include "cuda_check.hpp"
#else
#include "stopwatch.hpp"
#endif

namespace gpuga::device_system {

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

// Algorithms queue on the default stream without a synchronisation after each: the host waits
// only where it reads a result back (summaries, best) or where a phase timer stops.
inline auto policy() { return thrust::cuda::par_nosync; }

inline void select_device(int device) { GPUGA_CUDA_CHECK(cudaSetDevice(device)); }

// Refuses, before any allocation, what the device cannot hold.
inline void check_memory(std::size_t need, int device, const std::string& what) {
  std::size_t free_b = 0, total_b = 0;
  GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  GPUGA_INPUT_CHECK(need < free_b, what + " needs " + std::to_string(need >> 20) +
                                       " MiB of device memory; device " + std::to_string(device) +
                                       " has " + std::to_string(free_b >> 20) + " MiB free of " +
                                       std::to_string(total_b >> 20) + " MiB");
}

// After every launch: a launch error surfaces here, naming the kernel and where it was launched.
inline void check_launch(const char* kernel,
                         std::source_location at = std::source_location::current()) {
  const cudaError_t err = cudaPeekAtLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, (std::string("launch of ") + kernel).c_str(),
                                  at.file_name(), static_cast<int>(at.line()));
}

// Device time of one phase, measured with CUDA events, added to `into` (seconds).
class PhaseTimer {
 public:
  explicit PhaseTimer(double& into) : into_(into) {
    GPUGA_CUDA_CHECK(cudaEventCreate(&start_));
    GPUGA_CUDA_CHECK(cudaEventCreate(&stop_));
    GPUGA_CUDA_CHECK(cudaEventRecord(start_));
  }
  ~PhaseTimer() {
    float ms = 0;
    if (cudaEventRecord(stop_) == cudaSuccess && cudaEventSynchronize(stop_) == cudaSuccess &&
        cudaEventElapsedTime(&ms, start_, stop_) == cudaSuccess)
      into_ += ms / 1000.0;
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double& into_;
  cudaEvent_t start_{}, stop_{};
};

#else  // a host device system: the engine's memory is the host's

inline auto policy() { return thrust::device; }
inline void select_device(int) {}
inline void check_memory(std::size_t, int, const std::string&) {}  // std::bad_alloc says it
inline void check_launch(const char*) {}  // a host "launch" is a loop that cannot fail to start
using PhaseTimer = Stopwatch;

#endif

}  // namespace gpuga::device_system
