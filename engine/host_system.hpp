#pragma once
// The CPU backend's system for the island engine (island_engine.hpp): host memory, and one
// OpenMP thread per island with a team of one, the island in its cache while it runs a segment;
// a lone island on a team of every thread.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuga/device/island.hpp"
#include "host_memory.hpp"
#include "gpuga/launch_policy.hpp"
#include "stopwatch.hpp"

namespace gpuga {

// Sorts `count` keys (fitness << 32 | index, the indices ascending, then ~0 padding) by a counting
// sort by fitness, stable, so the indices stay ascending within a fitness: the order the GPU's
// bitonic network gives. Few data-dependent branches, which on the CPU cost more than the
// arithmetic.
inline void count_sort(std::uint64_t* keys, std::uint32_t count) {
  std::uint32_t real = count;  // real keys; the ~0 padding stays at the end
  while (real > 0 && keys[real - 1] == ~std::uint64_t(0)) --real;
  thread_local std::vector<std::uint32_t> start;
  thread_local std::vector<std::uint64_t> sorted;
  std::uint64_t top = 0;  // the highest fitness: the counts' range, whatever the grid's size
  for (std::uint32_t i = 0; i < real; ++i) top = std::max(top, keys[i] >> 32);
  start.assign(top + 2, 0);
  sorted.resize(real);
  for (std::uint32_t i = 0; i < real; ++i) ++start[(keys[i] >> 32) + 1];
  for (std::uint64_t f = 0; f <= top; ++f) start[f + 1] += start[f];
  for (std::uint32_t i = 0; i < real; ++i) sorted[start[keys[i] >> 32]++] = keys[i];
  std::copy_n(sorted.begin(), real, keys);
}

// A team of one: no barrier needed, and the clock its own to read; a tile of one lane, its
// scratch the thread's.
struct SerialTeam {
  static constexpr bool kContiguous = true;
  static constexpr bool kCutsGenerationZero = true;
  std::uint8_t* scratch = nullptr;
  template <std::uint32_t kWidth>
  OneLane lanes(std::uint32_t) const { return {0, 1, scratch}; }
  std::uint32_t rank() const { return 0; }
  std::uint32_t size() const { return 1; }
  void sync() const {}
  bool past(std::int64_t deadline) const { return deadline_passed(deadline); }
  // The thread's tables, as its scratch: a thread runs one island at a time.
  template <class Lanes>
  std::uint64_t search_tile(const Lanes&) const { return static_cast<std::uint64_t>(omp_get_thread_num()); }
  void sort(std::uint64_t* keys, std::uint32_t count) const { count_sort(keys, count); }
  // Atomic: islands of one run add to the same counter from different threads.
  void add(std::uint64_t* counter, std::uint64_t amount) const { __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED); }
};
static_assert(Team<SerialTeam>);

// Every OpenMP thread on one island, for a lone island: breeding is split over the threads and
// the sort, a small part of a generation, is rank 0's.
struct HostTeam {
  static constexpr bool kContiguous = true;
  static constexpr bool kCutsGenerationZero = false;  // a lone island: island 0, which always starts
  bool* seen;  // past(): shared by the team
  std::uint8_t* scratch;  // a tile's of `bytes` a thread: each thread is a tile of one lane
  template <std::uint32_t kWidth>
  OneLane lanes(std::uint32_t bytes) const { return {rank(), size(), scratch + std::uint64_t(rank()) * bytes}; }
  std::uint32_t rank() const { return static_cast<std::uint32_t>(omp_get_thread_num()); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(omp_get_num_threads()); }
  bool past(std::int64_t deadline) const { return team_past(*this, seen, deadline); }
  template <class Lanes>
  std::uint64_t search_tile(const Lanes& lanes) const { return lanes.tile(); }
  void sync() const {
#pragma omp barrier
  }
  void sort(std::uint64_t* keys, std::uint32_t count) const {
    if (rank() == 0) count_sort(keys, count);
    sync();
  }
  void add(std::uint64_t* counter, std::uint64_t amount) const { __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED); }
};
static_assert(Team<HostTeam>);

class HostSystem {
 public:
  explicit HostSystem(int threads) : threads_(threads) {}

  template <class T>
  using vector = std::vector<T>;
  template <class T>
  static T* raw(vector<T>& buffer) { return buffer.data(); }
  template <class T>
  static void resize(vector<T>& buffer, std::size_t count) { buffer.resize(count); }
  template <class T>
  static void put(vector<T>& buffer, std::size_t at, const T* src, std::size_t count) {
    std::copy_n(src, count, buffer.begin() + at);
  }
  template <class T>
  static void get(T* dst, const vector<T>& buffer, std::size_t at, std::size_t count) {
    std::copy_n(buffer.begin() + at, count, dst);
  }

  struct Scope {};
  Scope scope() const { return {}; }
  void prepare(std::uint64_t need, const std::string& what) const { check_host_memory(need, what); }
  // Nothing staged (the cache does the staging); a lone island on a team of every thread.
  DeviceLimits limits() const {
    return {0, 1, threads_ > 1 ? LoneIsland::Grid : LoneIsland::Alone};
  }
  std::string placement(const Launch& launch) const {
    return launch.kernel == KernelKind::Grid ? "host memory, a team of every thread" : "host memory";
  }
  template <class T>
  void upload(vector<T>& buffer, std::size_t at, const T* src, std::size_t count) const { put(buffer, at, src, count); }
  template <class T>
  void download(T* dst, const vector<T>& buffer, std::size_t at, std::size_t count) const { get(dst, buffer, at, count); }
  Stopwatch time(Phase phase, PhaseLedger& ledger) const { return Stopwatch(ledger, phase); }
  void settle_timers() const {}
  std::int64_t device_deadline(std::int64_t host_deadline) const { return host_deadline; }

  // A tabu search's tables a thread: each thread is a tile of one lane, on one island at a time.
  std::uint64_t search_tiles(const Launch&, std::uint32_t) const { return static_cast<std::uint64_t>(threads_); }
  // A step's launch as the engine made it: a grid is every thread, whatever its blocks.
  template <class Step>
  Launch sized(const Launch& launch) const { return launch; }
  // One OpenMP thread an island (a serial team), or island 0 on a team of every thread; each
  // thread with a scratch of its own (launch.scratch_bytes).
  template <class Step>
  void launch(const char*, const Launch& launch, const Step& step) const {
    scratch_.resize(std::size_t(threads_) * launch.scratch_bytes);
    std::uint8_t* const scratch = scratch_.data();
    if (launch.kernel == KernelKind::Grid) {
      bool seen = false;
#pragma omp parallel num_threads(threads_)
      step(HostTeam{&seen, scratch}, 0, nullptr);
      return;
    }
    const auto n = static_cast<std::int64_t>(launch.blocks);
#pragma omp parallel for schedule(dynamic) num_threads(threads_) if (n > 1)
    for (std::int64_t i = 0; i < n; ++i)
      step(SerialTeam{scratch + std::uint64_t(omp_get_thread_num()) * launch.scratch_bytes},
           static_cast<std::uint32_t>(i), nullptr);
  }

 private:
  int threads_;
  mutable std::vector<std::uint8_t> scratch_;  // the launches' (one at a time)
};

}  // namespace gpuga
