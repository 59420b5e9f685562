#pragma once
// The CUDA system's host-side helpers (device_system.hpp): the device an engine's calls run on,
// the stream its work goes to, and the device time of its phases. CUDA builds only.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "cuda_check.hpp"

namespace gpuga::device_system {
// The CUDA system's own names (device_system.hpp: the OpenMP twin has none of these).
inline namespace thrust_cuda {

// Makes `device` current for a scope and restores the device that was current before, so that
// an engine's calls run on its own device whatever another engine or a device listing did.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    GPUGA_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) GPUGA_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// An engine's own stream: its launches and its upload of the runs' tasks go there, so that the
// engines of a run whose islands grow (engine/growing_engine.cpp: one engine a stage) run their
// kernels side by side rather than one after another. A blocking stream (cudaStreamCreate's
// default): every copy through Memory, on the legacy default stream, still waits for the
// stream's work before it, and the stream's later work for the copy.
struct StreamDeleter {
  int device;
  void operator()(CUstream_st* s) const noexcept {
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) return;
    cudaSetDevice(device);
    cudaStreamDestroy(s);
    cudaSetDevice(previous);
  }
};
using Stream = std::unique_ptr<CUstream_st, StreamDeleter>;

// Device time of a scope on a stream, measured with CUDA events and added to its phase's total
// when the System settles its timers: waiting for the stop event here would hold the host until
// the stream drained, and the next engine's launches behind it.
class PhaseTimer {
 public:
  struct Pending {
    cudaEvent_t start, stop;
    double* into;
  };
  PhaseTimer(double& into, cudaStream_t stream, std::vector<Pending>& pending)
      : into_(into), stream_(stream), pending_(pending) {
    GPUGA_CUDA_CHECK(cudaEventCreate(&start_));
    GPUGA_CUDA_CHECK(cudaEventCreate(&stop_));
    GPUGA_CUDA_CHECK(cudaEventRecord(start_, stream_));
  }
  ~PhaseTimer() {
    if (cudaEventRecord(stop_, stream_) == cudaSuccess) {
      pending_.push_back({start_, stop_, &into_});
      return;
    }
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

  // Waits for every pending scope's end and adds its time to its phase.
  static void settle(std::vector<Pending>& pending) {
    for (const Pending& p : pending) {
      float ms = 0;
      if (cudaEventSynchronize(p.stop) == cudaSuccess &&
          cudaEventElapsedTime(&ms, p.start, p.stop) == cudaSuccess)
        *p.into += ms / 1000.0;
    }
    discard(pending);
  }
  // Frees every pending scope's events without reading them.
  static void discard(std::vector<Pending>& pending) {
    for (const Pending& p : pending) {
      cudaEventDestroy(p.start);
      cudaEventDestroy(p.stop);
    }
    pending.clear();
  }

 private:
  double& into_;
  cudaStream_t stream_;
  std::vector<Pending>& pending_;
  cudaEvent_t start_{}, stop_{};
};

}  // inline namespace thrust_cuda
}  // namespace gpuga::device_system
