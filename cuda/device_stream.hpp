#pragma once
// The CUDA system's host-side helpers (device_system.hpp): the device an engine's calls run on,
// the stream its work goes to, and the spans of device time of its phases. CUDA builds only.
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "cuda_check.hpp"
#include "phase_ledger.hpp"

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

// The moment this process first timed a phase on `device` (the current device): every span's
// start is measured from it, so that the spans of engines on different streams lie on one
// timeline (PhaseLedger).
inline cudaEvent_t phase_origin(int device) {
  static std::mutex guard;
  static std::map<int, cudaEvent_t> origins;
  const std::lock_guard<std::mutex> lock(guard);
  auto [at, made] = origins.try_emplace(device, nullptr);
  if (made) {
    GPUGA_CUDA_CHECK(cudaEventCreate(&at->second));
    GPUGA_CUDA_CHECK(cudaEventRecord(at->second, nullptr));
  }
  return at->second;
}

// A scope's span of device time on a stream, measured with CUDA events and counted on its
// ledger when the System settles its timers: waiting for the stop event here would hold the host
// until the stream drained, and the next engine's launches behind it.
class PhaseTimer {
 public:
  struct Pending {
    cudaEvent_t start, stop;
    Phase phase;
    PhaseLedger* ledger;
  };
  PhaseTimer(Phase phase, PhaseLedger& ledger, int device, cudaStream_t stream,
             std::vector<Pending>& pending)
      : phase_(phase), ledger_(ledger), stream_(stream), pending_(pending) {
    phase_origin(device);  // recorded before this span starts
    GPUGA_CUDA_CHECK(cudaEventCreate(&start_));
    GPUGA_CUDA_CHECK(cudaEventCreate(&stop_));
    GPUGA_CUDA_CHECK(cudaEventRecord(start_, stream_));
  }
  ~PhaseTimer() {
    if (cudaEventRecord(stop_, stream_) == cudaSuccess) {
      pending_.push_back({start_, stop_, phase_, &ledger_});
      return;
    }
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

  // Waits for every pending span's end and counts it on its ledger: its start from the device's
  // origin, its length from its own events (exact to the events' resolution however long the
  // process has run).
  static void settle(int device, std::vector<Pending>& pending) {
    for (const Pending& p : pending) {
      float from_origin = 0, length = 0;
      if (cudaEventSynchronize(p.stop) == cudaSuccess &&
          cudaEventElapsedTime(&from_origin, phase_origin(device), p.start) == cudaSuccess &&
          cudaEventElapsedTime(&length, p.start, p.stop) == cudaSuccess)
        p.ledger->add(p.phase, from_origin / 1e3, (double(from_origin) + length) / 1e3);
    }
    discard(pending);
  }
  // Frees every pending span's events without counting them.
  static void discard(std::vector<Pending>& pending) {
    for (const Pending& p : pending) {
      cudaEventDestroy(p.start);
      cudaEventDestroy(p.stop);
    }
    pending.clear();
  }

 private:
  Phase phase_;
  PhaseLedger& ledger_;
  cudaStream_t stream_;
  std::vector<Pending>& pending_;
  cudaEvent_t start_{}, stop_{};
};

}  // inline namespace thrust_cuda
}  // namespace gpuga::device_system
