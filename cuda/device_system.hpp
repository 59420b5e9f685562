#pragma once
// The island engine's device system (host/island_engine.hpp), for the system its translation
// unit is compiled for: CUDA in the product (engine_cuda.cu), Thrust's OpenMP system in the tests
// (tests/device_engine_omp.cpp). This is the only place where the two differ: memory is a
// thrust::device_vector on both; an island step runs as one thread block per island on the GPU,
// and as a team of OpenMP threads with real barriers on the host.
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

#include "errors.hpp"
#include "gpuga/island.hpp"

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include "cuda_check.hpp"
#else
#include <omp.h>

#include <limits>
#include <vector>

#include "stopwatch.hpp"
#endif

namespace gpuga::device_system {

// Memory, the same on both systems.
struct Memory {
  template <class T>
  using vector = thrust::device_vector<T>;
  template <class T>
  static T* raw(vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }
  template <class T>
  static void put(vector<T>& v, std::size_t at, const T* src, std::size_t n) {
    thrust::copy_n(src, n, v.begin() + at);
  }
  template <class T>
  static void get(T* dst, const vector<T>& v, std::size_t at, std::size_t n) {
    thrust::copy_n(v.begin() + at, n, dst);
  }
};

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

// Threads per island: 256 covers an island of 512 in two children each and keeps two islands
// of 512 per multiprocessor within the register file (bench/README.md has the budget).
inline constexpr unsigned kTeamThreads = 256;

// A thread block: barriers are __syncthreads, the sort a bitonic network in the island's memory.
struct BlockTeam {
  GPUGA_HD std::uint32_t rank() const {
#if defined(__CUDA_ARCH__)
    return threadIdx.x;
#else
    return 0;
#endif
  }
  GPUGA_HD std::uint32_t size() const {
#if defined(__CUDA_ARCH__)
    return blockDim.x;
#else
    return 1;
#endif
  }
  GPUGA_HD void sync() const {
#if defined(__CUDA_ARCH__)
    __syncthreads();
#endif
  }
  GPUGA_HD void sort(std::uint64_t* keys, std::uint32_t n) const { bitonic_sort(*this, keys, n); }
  GPUGA_HD void add(std::uint64_t* p, std::uint64_t v) const {
#if defined(__CUDA_ARCH__)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#else
    *p += v;
#endif
  }
};

// One thread block per island: the island's threads share its shared-memory work area (when
// `staged`), so a generation never leaves the chip. At least two blocks per multiprocessor:
// the segment step fits 128 registers (two islands of 512 per SM), and without the bound ptxas
// squeezed the boundary step into 32 registers, for an occupancy it does not need, by spilling.
template <class Step>
__global__ void __launch_bounds__(kTeamThreads, 2) island_kernel(Step step, bool staged) {
  extern __shared__ __align__(16) std::uint8_t work[];
  step(BlockTeam{}, blockIdx.x, staged ? work : nullptr);
}

// After every launch: a launch error surfaces here, naming the step and where it was launched.
inline void check_launch(const char* step, std::source_location at = std::source_location::current()) {
  const cudaError_t err = cudaPeekAtLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, (std::string("launch of ") + step).c_str(),
                                  at.file_name(), static_cast<int>(at.line()));
}

// Device time of a scope, measured with CUDA events, added to `into` (seconds).
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

class System : public Memory {
 public:
  explicit System(int device) : device_(device) {}

  // Selects the device and refuses, before any allocation, what it cannot hold.
  void prepare(std::size_t need, const std::string& what) const {
    GPUGA_CUDA_CHECK(cudaSetDevice(device_));
    std::size_t free_b = 0, total_b = 0;
    GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    GPUGA_INPUT_CHECK(need < free_b, what + " needs " + std::to_string(need >> 20) +
                                         " MiB of device memory; device " + std::to_string(device_) +
                                         " has " + std::to_string(free_b >> 20) + " MiB free of " +
                                         std::to_string(total_b >> 20) + " MiB");
  }
  std::uint64_t stage_limit() const {
    int bytes = 0;
    GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_));
    return static_cast<std::uint64_t>(bytes);
  }
  std::string placement(std::uint64_t staged) const {
    return staged ? "shared memory" : "device memory";
  }
  using Timer = PhaseTimer;

  template <class Step>
  void launch(const char* name, std::uint64_t islands, std::uint64_t staged, const Step& step) const {
    if (staged)
      GPUGA_CUDA_CHECK(cudaFuncSetAttribute(island_kernel<Step>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(staged)));
    island_kernel<Step><<<static_cast<unsigned>(islands), kTeamThreads, staged>>>(step, staged != 0);
    check_launch(name);
  }

 private:
  int device_;
};

#else  // Thrust's OpenMP system: the engine's memory is the host's

// Threads per island: three, so that no loop's work divides evenly over the team.
inline constexpr int kOmpTeamThreads = 3;

// A team of OpenMP threads: barriers are real, so a missing one shows as a wrong result.
struct OmpTeam {
  std::uint32_t rank() const { return static_cast<std::uint32_t>(omp_get_thread_num()); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(omp_get_num_threads()); }
  void sync() const {
#pragma omp barrier
  }
  void sort(std::uint64_t* keys, std::uint32_t n) const { bitonic_sort(*this, keys, n); }
  void add(std::uint64_t* p, std::uint64_t v) const { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
};

class System : public Memory {
 public:
  explicit System(int) {}
  void prepare(std::size_t, const std::string&) const {}
  // Always staged, so that the tests run the staging code the GPU runs.
  std::uint64_t stage_limit() const { return std::numeric_limits<std::uint64_t>::max(); }
  std::string placement(std::uint64_t staged) const {
    return staged ? "host memory, staged per island" : "host memory";
  }
  using Timer = Stopwatch;

  template <class Step>
  void launch(const char*, std::uint64_t islands, std::uint64_t staged, const Step& step) const {
    std::vector<std::uint8_t> work(staged);
    for (std::uint64_t i = 0; i < islands; ++i) {
#pragma omp parallel num_threads(kOmpTeamThreads)
      step(OmpTeam{}, static_cast<std::uint32_t>(i), staged ? work.data() : nullptr);
    }
  }
};

#endif

}  // namespace gpuga::device_system
