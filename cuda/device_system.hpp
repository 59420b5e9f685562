#pragma once
// The island engine's device system (engine/island_engine.hpp), for the system its translation
// unit is compiled for: CUDA in the product (engine_cuda_<size>.cu), Thrust's OpenMP system in
// the tests (tests/device_engine_omp.cpp). This is the only place where the two differ: memory
// is a thrust::device_vector on both; an island step runs as one thread block per island on the GPU,
// and as a team of OpenMP threads with real barriers on the host. A lone island too large for
// shared memory runs on a cooperative grid of blocks on the GPU, and on a team of several tiles
// of OpenMP threads on the host.
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

#include "gpuga/errors.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/device/steps.hpp"
#include "host_memory.hpp"
#include "gpuga/launch_policy.hpp"
#include "phase_ledger.hpp"
#include "stopwatch.hpp"

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <thrust/device_malloc_allocator.h>
#include <thrust/system_error.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "cuda_check.hpp"
#include "device_stream.hpp"
#else
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <vector>

#include "omp_lanes.hpp"
#endif

namespace gpuga::device_system {

// Each Thrust system's definitions under a name of its own (an inline namespace: code still
// says device_system::System), so that the CUDA backend and its OpenMP twin, which tests link
// side by side, never define one mangled name twice: with one name the linker kept one copy of
// each inline member and the CUDA engine ran the twin's constructor. CI checks it
// (tests/test_odr.sh).
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
inline namespace thrust_cuda {
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
inline namespace thrust_omp {
#else
#error "the device system is built for Thrust's CUDA or OpenMP system only"
#endif

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

// Device memory whose release never throws. After a device fault every CUDA call fails, cudaFree
// included, and Thrust's own allocator throws from it inside a vector's destructor while the
// first error unwinds: std::terminate, and the error is lost. The call that met the fault has
// reported it; the memory goes with the process.
template <class T>
struct DeviceAllocator : thrust::device_malloc_allocator<T> {
  using Base = thrust::device_malloc_allocator<T>;
  template <class U>
  struct rebind {
    using other = DeviceAllocator<U>;
  };
  DeviceAllocator() = default;
  template <class U>
  DeviceAllocator(const DeviceAllocator<U>&) {}
  typename Base::pointer allocate(std::size_t count) {
    void* p = nullptr;
    GPUGA_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    return typename Base::pointer(static_cast<T*>(p));
  }
  void deallocate(typename Base::pointer p, std::size_t) noexcept {
    cudaFree(thrust::raw_pointer_cast(p));
  }
};
template <class T>
using DeviceVector = thrust::device_vector<T, DeviceAllocator<T>>;

// Thrust reports a failed copy or fill as thrust::system_error: reported as every other CUDA
// error, with the last kernel launched (the likely culprit when a kernel faulted).
template <class F>
void thrust_call(const char* what, F&& f, std::source_location at = std::source_location::current()) {
  try {
    f();
  } catch (const thrust::system_error& e) {
    cuda_detail::throw_cuda_error(static_cast<cudaError_t>(e.code().value()), what,
                                  at.file_name(), static_cast<int>(at.line()));
  }
}

#else

template <class T>
using DeviceVector = thrust::device_vector<T>;
template <class F>
void thrust_call(const char*, F&& f) {
  f();
}

#endif

// Memory, the same on both systems.
struct Memory {
  template <class T>
  using vector = DeviceVector<T>;
  template <class T>
  static T* raw(vector<T>& buffer) { return thrust::raw_pointer_cast(buffer.data()); }
  template <class T>
  static void resize(vector<T>& buffer, std::size_t count) {
    thrust_call("an allocation of device memory", [&] { buffer.resize(count); });
  }
  template <class T>
  static void put(vector<T>& buffer, std::size_t at, const T* src, std::size_t count) {
    thrust_call("a copy to the device", [&] { thrust::copy_n(src, count, buffer.begin() + at); });
  }
  template <class T>
  static void get(T* dst, const vector<T>& buffer, std::size_t at, std::size_t count) {
    thrust_call("a copy from the device", [&] { thrust::copy_n(buffer.begin() + at, count, dst); });
  }
};

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA

// Threads per island at most: 256 covers an island of 512 in two children each and keeps two
// islands of 512 per multiprocessor within the register file; a narrower island's block is as
// wide as its work (team_threads, island.hpp).
inline constexpr unsigned kTeamThreads = 256;

// A tile of kWidth lanes of a warp (lanes.hpp), as cooperative groups partition a block:
// lanes() a thread's tile within its block, whose scratch is the block's shared memory from
// `bytes` on. Tile `index` of `count` in the team (a block, or a grid of them). Its collectives
// (ballot, reduce, shuffle) synchronise the tile's lanes but order no memory: each begins with
// the tile's barrier, which does.
template <std::uint32_t kWidth>
struct WarpLanes {
  static_assert(kWidth == 8 || kWidth == 16 || kWidth == 32, "a tile divides a warp");
  std::uint32_t index, count;
  std::uint8_t* bytes;
#if defined(__CUDA_ARCH__)
  __device__ static cooperative_groups::thread_block_tile<kWidth> group() {
    return cooperative_groups::tiled_partition<kWidth>(cooperative_groups::this_thread_block());
  }
#endif
  GPUGA_HD std::uint32_t lane() const {
#if defined(__CUDA_ARCH__)
    return threadIdx.x % kWidth;
#else
    return 0;
#endif
  }
  GPUGA_HD std::uint32_t width() const { return kWidth; }
  GPUGA_HD std::uint32_t tile() const { return index; }
  GPUGA_HD std::uint32_t tiles() const { return count; }
  GPUGA_HD void sync() const {
#if defined(__CUDA_ARCH__)
    group().sync();
#endif
  }
  GPUGA_HD std::uint32_t ballot(bool pred) const {
#if defined(__CUDA_ARCH__)
    group().sync();
    return group().ballot(pred);
#else
    return pred;
#endif
  }
  GPUGA_HD std::uint32_t reduce_min(std::uint32_t mine) const {
#if defined(__CUDA_ARCH__)
    group().sync();
    return cooperative_groups::reduce(group(), mine, cooperative_groups::less<std::uint32_t>());
#else
    return mine;
#endif
  }
  GPUGA_HD std::uint32_t broadcast(std::uint32_t mine, std::uint32_t from) const {
#if defined(__CUDA_ARCH__)
    group().sync();
    return group().shfl(mine, from);
#else
    static_cast<void>(from);
    return mine;
#endif
  }
  // A unit's mask: 32 bits up to 25x25, 64 from 36x36 (atomicOr of unsigned long long).
  template <class Word>
  GPUGA_HD Word fetch_or(Word* word, Word bits) const {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(Word) == 8)
      return atomicOr(reinterpret_cast<unsigned long long*>(word), static_cast<unsigned long long>(bits));
    else
      return atomicOr(word, bits);
#else
    const Word before = *word;
    *word |= bits;
    return before;
#endif
  }
  GPUGA_HD std::uint8_t* scratch() const { return bytes; }
};
static_assert(Tile<WarpLanes<32>>);

// A thread block: barriers are __syncthreads, the sort a bitonic network in the island's memory,
// the block one tile; its lanes tiles of a warp, their scratch at the start of its shared memory.
struct BlockTeam {
  static constexpr bool kContiguous = false;
  // Generation 0 runs whole: an unstarted island's summary would be another kernel branch, and
  // the GA's steps are at their register bounds.
  static constexpr bool kCutsGenerationZero = false;
  std::uint8_t* shared = nullptr;  // the block's dynamic shared memory: the tiles' scratch first
  template <std::uint32_t kWidth>
  GPUGA_HD WarpLanes<kWidth> lanes(std::uint32_t bytes) const {
    return {rank() / kWidth, size() / kWidth, shared + rank() / kWidth * bytes};
  }
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
  GPUGA_HD std::uint32_t tile() const { return 0; }
  GPUGA_HD std::uint32_t tiles() const { return 1; }
  GPUGA_HD std::uint32_t tile_rank() const { return rank(); }
  GPUGA_HD std::uint32_t tile_size() const { return size(); }
  GPUGA_HD void tile_sync() const { sync(); }
  GPUGA_HD std::uint32_t sort_chunk() const { return 0xFFFFFFFFu; }
  GPUGA_HD void sort(std::uint64_t* keys, std::uint32_t count) const { bitonic_sort(*this, keys, count); }
  // `deadline` on the GPU's global nanosecond timer (System::device_deadline put it there),
  // read by thread 0 for the block.
  GPUGA_HD bool past(std::int64_t deadline) const {
#if defined(__CUDA_ARCH__)
    return __syncthreads_or(threadIdx.x == 0 && deadline_passed(deadline));
#else
    static_cast<void>(deadline);
    return false;
#endif
  }
  GPUGA_HD void add(std::uint64_t* counter, std::uint64_t amount) const {
#if defined(__CUDA_ARCH__)
    atomicAdd(reinterpret_cast<unsigned long long*>(counter), static_cast<unsigned long long>(amount));
#else
    *counter += amount;
#endif
  }
  // A tile's tabu-search tables: the block's tiles after those of the blocks before it.
  template <class Lanes>
  GPUGA_HD std::uint64_t search_tile(const Lanes& lanes) const {
#if defined(__CUDA_ARCH__)
    return std::uint64_t(blockIdx.x) * lanes.tiles() + lanes.tile();
#else
    return lanes.tile();
#endif
  }
};
static_assert(Team<BlockTeam>);

// Keys a block sorts alone between grid barriers: 2048 keys, 16 KiB, stay in its L1.
inline constexpr std::uint32_t kGridSortChunk = 2048;

// Every block of a cooperative grid: one island across the GPU. Barriers are grid syncs (each
// also a memory fence for the whole grid); each block is a tile of the sort, so that only its
// wide stages cost a grid barrier.
struct GridTeam : BlockTeam {
  template <std::uint32_t kWidth>
  GPUGA_HD WarpLanes<kWidth> lanes(std::uint32_t bytes) const {
    return {rank() / kWidth, size() / kWidth, shared + BlockTeam::rank() / kWidth * bytes};
  }
  GPUGA_HD std::uint32_t rank() const {
#if defined(__CUDA_ARCH__)
    return blockIdx.x * blockDim.x + threadIdx.x;
#else
    return 0;
#endif
  }
  GPUGA_HD std::uint32_t size() const {
#if defined(__CUDA_ARCH__)
    return gridDim.x * blockDim.x;
#else
    return 1;
#endif
  }
  GPUGA_HD void sync() const {
#if defined(__CUDA_ARCH__)
    cooperative_groups::this_grid().sync();
#endif
  }
  GPUGA_HD std::uint32_t tile() const {
#if defined(__CUDA_ARCH__)
    return blockIdx.x;
#else
    return 0;
#endif
  }
  GPUGA_HD std::uint32_t tiles() const {
#if defined(__CUDA_ARCH__)
    return gridDim.x;
#else
    return 1;
#endif
  }
  GPUGA_HD std::uint32_t tile_rank() const { return BlockTeam::rank(); }
  GPUGA_HD std::uint32_t tile_size() const { return BlockTeam::size(); }
  GPUGA_HD void tile_sync() const { BlockTeam::sync(); }
  GPUGA_HD std::uint32_t sort_chunk() const { return kGridSortChunk; }
  GPUGA_HD void sort(std::uint64_t* keys, std::uint32_t count) const { bitonic_sort(*this, keys, count); }
  // Blocks that read the timer apart could disagree, and a grid barrier waits for all: a lone
  // island keeps its time limit where the driver's epochs end.
  GPUGA_HD bool past(std::int64_t) const { return false; }
  // The grid's tiles are numbered across it already (lanes above).
  template <class Lanes>
  GPUGA_HD std::uint64_t search_tile(const Lanes& lanes) const { return lanes.tile(); }
};
static_assert(Team<GridTeam>);

// The launch policy, a row a step and a column an architecture: how many blocks of 256 threads
// a multiprocessor should hold at once for each kernel of the step (from its home, staged, and
// a cooperative grid's), which bounds the kernel's registers: 65536 / (256 x that); narrower
// blocks fit more. Without a bound ptxas squeezed the boundary step into 32 registers, for an
// occupancy it does not need, by spilling. The GA's, the repaired GA's (up to 16x16) and the
// chains' segment steps are bounded to 64 registers with the island staged in shared memory,
// with no spills on sm_90 (bench/ptxas-table.sh); where 64 spilled, a step keeps 128 (two blocks
// of 256): the chains from device memory (islands too large to stage), on sm_80 (an A100) the
// chains staged and the 25x25 GA from device memory, the GA and the chains staged from 36x36,
// and the repaired GA at 25x25 and from device memory. Where 128 spilled too, one block: the
// GA's island at 49x49 from device memory. A cooperative grid's barriers spilled at 64
// registers, and a lone island that large has blocks enough: two; one from 49x49, where the GA's
// grid spilled at 128. From 36x36 one block of the repaired GA's tiles fills a multiprocessor's
// shared memory, and may take every register it needs, but for 36x36's from device memory on
// sm_90, where two blocks of fewer tiles share it. kernel_resources (ctest) fails on a spill
// or a lost block. The launch and the occupancy query both take the kernel compiled with these.
struct BlocksPerMultiprocessor {
  unsigned home, staged, grid;
};
template <class Step>
struct LaunchPolicy {  // the boundary and summary steps
  static constexpr BlocksPerMultiprocessor sm80{2, 2, 2}, sm90{2, 2, 2};
};
template <int B>
struct LaunchPolicy<ga_segment_step<B>> {
  static constexpr unsigned kHome = B == 7 ? 1u : B >= 6 ? 2u : 4u;
  static constexpr unsigned kStaged = B >= 6 ? 2u : 4u, kGrid = B >= 7 ? 1u : 2u;
  static constexpr BlocksPerMultiprocessor sm80{B == 5 ? 2u : kHome, kStaged, kGrid},
      sm90{kHome, kStaged, kGrid};
};
template <int B>
struct LaunchPolicy<chain_segment_step<B>> {
  static constexpr BlocksPerMultiprocessor sm80{2, 2, 2}, sm90{2, B >= 6 ? 2u : 4u, 2};
};
// The 36x36 islands from device memory hold two blocks (launch_policy.hpp's block_launch_of: on
// sm_90 two of eight tiles where a block with its island staged holds eight; on sm_80 two of
// five where a block alone holds eight).
template <int B>
struct LaunchPolicy<repaired_ga_segment_step<B>> {
  static constexpr unsigned kHome = B >= 6 ? 1u : 2u, kStaged = B <= 4 ? 4u : kHome;
  static constexpr BlocksPerMultiprocessor sm80{B == 6 ? 2u : kHome, kStaged, kHome},
      sm90{B == 6 ? 2u : kHome, kStaged, kHome};
};
// The searched GA's: two blocks (128 registers) up to 25x25; one from 36x36, where a block's
// repair tiles fill a multiprocessor's shared memory anyway, so that the search's keys and
// tables' addresses spill nothing (at two, the 36x36 grid kernel spilled 8 bytes); two for
// 36x36 from device memory, as the repaired GA's.
template <int B>
struct LaunchPolicy<searched_ga_segment_step<B>> {
  static constexpr unsigned kBlocks = B >= 6 ? 1u : 2u;
  static constexpr BlocksPerMultiprocessor sm80{B == 6 ? 2u : kBlocks, kBlocks, kBlocks},
      sm90{B == 6 ? 2u : kBlocks, kBlocks, kBlocks};
};
// The column of the architecture being compiled (sm_80 before sm_90; the host pass, which
// launches what the device passes compiled, reads sm_90's).
template <class Step>
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
inline constexpr BlocksPerMultiprocessor kBlocksPerMultiprocessor = LaunchPolicy<Step>::sm80;
#else
inline constexpr BlocksPerMultiprocessor kBlocksPerMultiprocessor = LaunchPolicy<Step>::sm90;
#endif

// After every launch: a launch error surfaces here, naming the step and where it was launched;
// with GPUGA_SYNC_CHECKS=1 a fault in the kernel too.
inline void check_launch(const char* step, std::source_location at = std::source_location::current()) {
  cuda_detail::last_launch = step;
  cudaError_t err = cudaPeekAtLastError();
  if (err == cudaSuccess && cuda_detail::sync_checks()) err = cudaDeviceSynchronize();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, std::string("the launch of ") + step, at.file_name(),
                                  static_cast<int>(at.line()));
}

// Each kernel below, then its launch and its occupancy.
//
// One thread block per island, as many threads as its children (the repaired GA's segment step:
// a warp a child; team_threads, at most 256): the island's threads share its shared-memory work
// area (staged_island_kernel) and the repair's scratch, so a generation never leaves the chip,
// and no thread is launched that has nothing to do.
// island_kernel: each island from device memory (the boundary and summary steps, and islands too
// large for shared memory).
template <class Step>
__global__ void __launch_bounds__(kTeamThreads, kBlocksPerMultiprocessor<Step>.home)
    island_kernel(Step step) {
  extern __shared__ __align__(16) std::uint8_t scratch[];
  step(BlockTeam{scratch}, blockIdx.x, static_cast<std::uint8_t*>(nullptr));
}

// The same with each island staged in its block's shared memory, a kernel of its own so that
// the step is compiled for the island there (StagedWork, island.hpp): shared-memory loads
// and stores with 32-bit addresses.
template <class Step>
__global__ void __launch_bounds__(kTeamThreads, kBlocksPerMultiprocessor<Step>.staged)
    staged_island_kernel(Step step) {
  extern __shared__ __align__(16) std::uint8_t shared[];
  step(BlockTeam{shared}, blockIdx.x, StagedWork{shared + step.scratch_bytes(blockDim.x)});
}

// The kernel of a block-an-island launch (launch_policy.hpp), for the launch and the occupancy
// query alike: a step that stages, staged, runs on staged_island_kernel; else island_kernel.
template <class Step>
auto block_kernel(KernelKind kind) -> void (*)(Step) {
  if constexpr (Step::kStages)
    if (kind == KernelKind::Staged) return staged_island_kernel<Step>;
  return island_kernel<Step>;
}

// A block-an-island launch's dynamic shared memory, its tiles' scratch (the repaired GA's) then
// its staged island; and its kernel, allowed that much (past the 48 KiB it has unasked).
inline std::uint64_t block_shared_bytes(const Launch& launch) {
  return launch.scratch_bytes + launch.staged_bytes;
}
template <class Step>
auto block_kernel_of(const Launch& launch) -> void (*)(Step) {
  const auto kernel = block_kernel<Step>(launch.kernel);
  if (const std::uint64_t shared = block_shared_bytes(launch))
    GPUGA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(shared)));
  return kernel;
}

// Launches launch.blocks islands, a block of launch.threads each, on `stream`.
template <class Step>
void launch_blocks(const char* name, const Launch& launch, const Step& step, cudaStream_t stream) {
  const auto kernel = block_kernel_of<Step>(launch);
  kernel<<<static_cast<unsigned>(launch.blocks), launch.threads, block_shared_bytes(launch), stream>>>(step);
  check_launch(name);
}

// The occupancy: blocks of that launch resident at once on a multiprocessor, CUDA's query (a
// plan counts the same from a probe's numbers: launch_policy.hpp's islands_at_once).
template <class Step>
int resident_blocks_of(const Launch& launch) {
  int blocks = 0;
  GPUGA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_kernel_of<Step>(launch),
                                                                 launch.threads, block_shared_bytes(launch)));
  return blocks;
}

// Island 0 on every block of a cooperative grid (at most the blocks that fit on the GPU at once,
// as a grid barrier needs), from device memory.
template <class Step>
__global__ void __launch_bounds__(kTeamThreads, kBlocksPerMultiprocessor<Step>.grid) grid_kernel(Step step) {
  extern __shared__ __align__(16) std::uint8_t scratch[];
  step(GridTeam{{scratch}}, 0, nullptr);
}

// The grid's kernel, allowed its tiles' scratch as dynamic shared memory (past the 48 KiB it has
// unasked: a lone repaired island's eight tiles take 60,032 bytes at 25x25), for the launch and
// the occupancy query alike, as block_kernel_of does for a block an island.
template <class Step>
auto grid_kernel_of(const Launch& launch) -> void (*)(Step) {
  if (launch.scratch_bytes)
    GPUGA_CUDA_CHECK(cudaFuncSetAttribute(grid_kernel<Step>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(launch.scratch_bytes)));
  return grid_kernel<Step>;
}

// The occupancy that bounds the grid: blocks of kTeamThreads, each with its tiles' scratch,
// resident at once on a multiprocessor (CUDA's query).
template <class Step>
int resident_grid_blocks(const Launch& launch) {
  int blocks = 0;
  GPUGA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, grid_kernel_of<Step>(launch),
                                                                 kTeamThreads, launch.scratch_bytes));
  return blocks;
}

// The launch: island 0 on a cooperative grid of launch.blocks (System::sized: at most those resident
// at once), on `stream`.
template <class Step>
void launch_grid(const char* name, const Launch& launch, const Step& step, cudaStream_t stream) {
  Step arg = step;
  void* args[] = {&arg};
  GPUGA_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_kernel_of<Step>(launch)),
                                               dim3(static_cast<unsigned>(launch.blocks)), dim3(kTeamThreads),
                                               args, launch.scratch_bytes, stream));
  check_launch(name);
}

// The GPU's global nanosecond timer, for System::device_deadline: one thread, once. A template,
// as every kernel here, so that each translation unit that includes this may define it.
template <class Word>
__global__ void global_timer_kernel(Word* now) {
  static_assert(sizeof(Word) == 8, "the timer is 64 bits");
  *now = static_cast<Word>(deadline_clock_ns());
}

class System : public Memory {
 public:
  explicit System(int device) : device_(device) {}
  System(System&&) = default;
  // Timers still pending belong to an engine that is going: their events go, their times do not.
  ~System() {
    if (pending_) PhaseTimer::discard(*pending_);
  }

  // The scope in which every CUDA call of an engine runs (the engine holds one while it works).
  DeviceScope scope() const { return DeviceScope(device_); }

  // The runs' tasks to the device on the engine's stream (an asynchronous copy: the host goes
  // on once the bytes are staged), so that uploading them waits for no other engine's kernels.
  template <class T>
  void upload(vector<T>& buffer, std::size_t at, const T* src, std::size_t count) const {
    GPUGA_CUDA_CHECK(cudaMemcpyAsync(raw(buffer) + at, src, count * sizeof(T), cudaMemcpyHostToDevice, stream()));
  }

  // A copy from the device on the engine's stream, waiting for that stream alone: the legacy
  // default stream's copies (Memory::get) wait for every engine's kernels, and a summary read
  // so took as long as the slowest engine's epoch.
  template <class T>
  void download(T* dst, const vector<T>& buffer, std::size_t at, std::size_t count) const {
    GPUGA_CUDA_CHECK(cudaMemcpyAsync(dst, thrust::raw_pointer_cast(buffer.data()) + at, count * sizeof(T),
                                     cudaMemcpyDeviceToHost, stream()));
    GPUGA_CUDA_CHECK(cudaStreamSynchronize(stream()));
  }

  // A phase's span of device time, from here to the end of the scope, counted on `ledger` when
  // the timers settle.
  PhaseTimer time(Phase phase, PhaseLedger& ledger) const {
    return PhaseTimer(phase, ledger, device_, stream(), *pending_);
  }
  // Every timed span counted: at each summary (which waits for the device anyway) and before
  // the totals are read.
  void settle_timers() const { PhaseTimer::settle(device_, *pending_); }

  // Refuses, before any allocation, what the device cannot hold (in the engine's scope).
  void prepare(std::uint64_t need, const std::string& what) const {
    std::size_t free_b = 0, total_b = 0;
    GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    GPUGA_INPUT_CHECK(need < free_b, what + " needs " + std::to_string(need >> 20) +
                                         " MiB of device memory; device " + std::to_string(device_) +
                                         " has " + std::to_string(free_b >> 20) + " MiB free of " +
                                         std::to_string(total_b >> 20) + " MiB; " + kLowerHint);
  }
  // An island stages in what a block may opt in to of shared memory; a lone island too large for
  // it runs on a cooperative grid where the device launches them; two blocks share a
  // multiprocessor in half its shared memory each.
  DeviceLimits limits() const {
    const std::uint64_t block = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    const bool cooperative = attribute(cudaDevAttrCooperativeLaunch) != 0;
    return {.stage_limit = block, .widest_team = kTeamThreads,
            .lone = cooperative ? LoneIsland::GridWhenUnstaged : LoneIsland::Alone,
            .pair_limit = std::min(block, shared_each_of(multiprocessor(), 2)), .units = multiprocessors(),
            .repair_waves = true};
  }
  // What one multiprocessor holds at once: blocks, threads, registers and shared memory.
  UnitLimits multiprocessor() const {
    return cuda_multiprocessor(static_cast<int>(attribute(cudaDevAttrComputeCapabilityMajor)),
                               attribute(cudaDevAttrMaxBlocksPerMultiprocessor),
                               attribute(cudaDevAttrMaxThreadsPerMultiProcessor),
                               attribute(cudaDevAttrMaxRegistersPerMultiprocessor),
                               attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
                               attribute(cudaDevAttrReservedSharedMemoryPerBlock));
  }
  std::uint32_t multiprocessors() const {
    return static_cast<std::uint32_t>(attribute(cudaDevAttrMultiProcessorCount));
  }
  std::string placement(const Launch& launch) const {
    return launch.kernel == KernelKind::Grid     ? "device memory, a cooperative grid"
           : launch.kernel == KernelKind::Staged ? "shared memory"
                                            : "device memory";
  }

  // A run's deadline (RunTask::deadline, on the host's steady clock) on the GPU's global timer,
  // which BlockTeam::past reads: the two clocks' offset, measured once by the engine, within
  // half the quickest of three probes' round trips (microseconds).
  std::int64_t device_deadline(std::int64_t host_deadline) const {
    if (host_deadline == kNoDeadline) return host_deadline;
    if (!clock_offset_) clock_offset_ = measure_clock_offset();
    return host_deadline + *clock_offset_;
  }

  // A grid's blocks (island 0 on each): as many as are resident at once, and no more than
  // `width` threads' worth; a block-an-island launch as the engine made it.
  template <class Step>
  Launch sized(Launch launch) const {
    if (launch.kernel != KernelKind::Grid) return launch;
    const int per_sm = resident_grid_blocks<Step>(launch);
    // A grid of no block would fail at its launch, saying less.
    GPUGA_INPUT_CHECK(per_sm > 0, "a lone island's grid: a block of " + std::to_string(kTeamThreads) +
                                      " threads with " + std::to_string(launch.scratch_bytes) +
                                      " bytes of scratch does not fit a multiprocessor of this GPU; "
                                      "expected several islands (--pop a multiple of --island-size), "
                                      "each then run on a block, or --backend cpu");
    const std::uint64_t wanted = std::max<std::uint64_t>((launch.width + kTeamThreads - 1) / kTeamThreads, 1);
    launch.blocks = std::min<std::uint64_t>(wanted, std::uint64_t(per_sm) * multiprocessors());
    return launch;
  }

  // A tabu search's tables for every tile of `lanes` threads of the launch's blocks (BlockTeam::
  // search_tile), in device memory: at 64x64 more than a megabyte each, past any shared memory.
  std::uint64_t search_tiles(const Launch& launch, std::uint32_t lanes) const {
    const std::uint64_t threads = launch.kernel == KernelKind::Grid ? kTeamThreads : launch.threads;
    return launch.blocks * (threads / lanes);
  }

  // A step as `launch` says (launch_policy.hpp): a block an island, or island 0 on a grid.
  template <class Step>
  void launch(const char* name, const Launch& launch, const Step& step) const {
    if (launch.kernel == KernelKind::Grid) return launch_grid(name, launch, step, stream());
    launch_blocks(name, launch, step, stream());
  }

 private:
  std::uint64_t attribute(cudaDeviceAttr which) const {
    int value = 0;
    GPUGA_CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device_));
    return static_cast<std::uint64_t>(value);
  }

  std::int64_t measure_clock_offset() const {
    DeviceVector<std::uint64_t> now(1);
    std::int64_t best_trip = INT64_MAX, offset = 0;
    for (int probe = 0; probe < 3; ++probe) {
      const std::int64_t before = deadline_clock_ns();
      global_timer_kernel<<<1, 1, 0, stream()>>>(raw(now));
      check_launch("global_timer_kernel");
      std::uint64_t device = 0;
      download(&device, now, 0, 1);
      const std::int64_t after = deadline_clock_ns();
      if (after - before < best_trip) {
        best_trip = after - before;
        offset = static_cast<std::int64_t>(device) - (before + after) / 2;
      }
    }
    return offset;
  }

  // Made at the first launch, in the engine's device scope (a stream belongs to the device
  // current when it is made); a System that never launches (an occupancy query) makes none.
  cudaStream_t stream() const {
    if (!stream_) {
      cudaStream_t s = nullptr;
      GPUGA_CUDA_CHECK(cudaStreamCreate(&s));
      stream_ = Stream(s, StreamDeleter{device_});
    }
    return stream_.get();
  }

  int device_;
  mutable Stream stream_;
  mutable std::optional<std::int64_t> clock_offset_;  // device_deadline
  // Timed scopes whose end the host has not waited for (PhaseTimer); behind a pointer, so that
  // a moved System's timers keep their list.
  std::unique_ptr<std::vector<PhaseTimer::Pending>> pending_ =
      std::make_unique<std::vector<PhaseTimer::Pending>>();
};

#else  // Thrust's OpenMP system: the engine's memory is the host's

// Threads per island: three, so that no loop's work divides evenly over the team.
inline constexpr int kOmpTeamThreads = 3;
// What a GPU's shared memory holds before a block writes it is undefined, and varies from launch
// to launch: the twin fills each island's staging area with a byte that changes with every launch
// in the process, so that a byte of it that reaches the islands' home (and so snapshots and
// checkpoints) makes two runs of one seed differ (test_engine_device: SnapshotsOfTwoRuns...).
inline std::uint8_t next_poison() {
  static std::atomic<unsigned> launches{0};
  return static_cast<std::uint8_t>(0xA5u + 97u * launches.fetch_add(1, std::memory_order_relaxed));
}
// The grid's twin: two tiles of three threads, sorting chunks of 8 keys alone, so that the tests'
// small islands take both the tile stages and the team stages of the sort.
inline constexpr int kOmpGridTiles = 2;
inline constexpr std::uint32_t kOmpSortChunk = 8;

// A team of OpenMP threads: barriers are real, so a missing one shows as a wrong result. It is
// one tile, or (the grid's twin) tiles of `tile_threads`; a tile barrier is the team's. For the
// repair each thread is a tile of one lane, with a scratch of its own, as a CPU thread is: the
// repair's collectives are a tile's, and a tile of the whole team would take a barrier of every
// thread for each, which made the twin's tests of large islands take hours. A lane alone runs
// LoneRepair in repair.hpp; the waves a warp runs are tested on lanes with real barriers, widths 2 to 32,
// apart (tests/test_repair.cpp) and in the engine (OmpTiledTeam below).
struct OmpTeam {
  static constexpr bool kContiguous = false;  // as the GPU splits work
  static constexpr bool kCutsGenerationZero = false;  // as BlockTeam
  std::uint32_t tile_threads = 0xFFFFFFFFu;
  std::uint32_t chunk = 0xFFFFFFFFu;
  bool* seen = nullptr;  // past(): shared by a block's twin; none on the grid's (GridTeam::past)
  std::uint8_t* scratch = nullptr;  // a tile's of `bytes` a thread
  std::uint64_t scratch_size = 0;   //   of this many in all: the launch's (launch.scratch_bytes)
  template <std::uint32_t kWidth>
  OneLane lanes(std::uint32_t bytes) const {
    return {rank(), size(), tile_scratch(rank(), bytes)};
  }
  // Tile `tile`'s scratch of `bytes`, which the launch sized to hold (the puzzle's free cells
  // decide a tile's bytes, launch_policy.hpp): one past it ends the process, naming it, so that
  // a launch sized for fewer free cells than its puzzles have fails the tests here.
  std::uint8_t* tile_scratch(std::uint32_t tile, std::uint32_t bytes) const {
    if (std::uint64_t(tile + 1) * bytes > scratch_size) {
      std::fprintf(stderr, "gpuga: tile %u's scratch of %u bytes is past the launch's %llu\n", tile, bytes,
                   static_cast<unsigned long long>(scratch_size));
      std::abort();
    }
    return scratch + std::uint64_t(tile) * bytes;
  }

  std::uint32_t rank() const { return static_cast<std::uint32_t>(omp_get_thread_num()); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(omp_get_num_threads()); }
  void sync() const {
#pragma omp barrier
  }
  std::uint32_t tile() const { return rank() / tile_threads; }
  std::uint32_t tiles() const { return (size() - 1) / tile_threads + 1; }
  std::uint32_t tile_rank() const { return rank() % tile_threads; }
  std::uint32_t tile_size() const { return std::min(tile_threads, size() - tile() * tile_threads); }
  void tile_sync() const { sync(); }

  std::uint32_t sort_chunk() const { return chunk; }
  void sort(std::uint64_t* keys, std::uint32_t count) const { bitonic_sort(*this, keys, count); }
  bool past(std::int64_t deadline) const { return seen && team_past(*this, seen, deadline); }
  void add(std::uint64_t* counter, std::uint64_t amount) const { __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED); }
  // Each thread a tile (lanes above); the twin runs one block at a time.
  template <class Lanes>
  std::uint64_t search_tile(const Lanes& lanes) const { return lanes.tile(); }
};
static_assert(Team<OmpTeam>);

// What the tiles of one launch of the twin share when a tile is several lanes: each tile's
// barrier and its words for the collectives (two a lane: OmpLanes).
struct OmpTileSync {
  OmpTileSync(std::uint32_t tiles, std::uint32_t width) : width(width), exchange(2 * tiles * width) {
    for (std::uint32_t t = 0; t < tiles; ++t) barriers.emplace_back(width);
  }
  std::uint32_t width;
  std::deque<std::barrier<>> barriers;  // a barrier does not move: a deque never moves its items
  std::vector<std::uint32_t> exchange;
};

// The twin's team with tiles of `sync->width` lanes, consecutive threads (as a warp's tiles are),
// with barriers and collectives of their own: the waves of the repair and the tabu search run
// inside the engine as a GPU runs them (tests/test_engine_device.cpp, widths 2 to 32).
struct OmpTiledTeam : OmpTeam {
  OmpTileSync* sync_of_tiles = nullptr;
  template <std::uint32_t kWidth>
  OmpLanes lanes(std::uint32_t bytes) const {
    const std::uint32_t width = sync_of_tiles->width, tile = rank() / width;
    return OmpLanes(sync_of_tiles->exchange.data() + 2 * tile * width,
                    tile_scratch(tile, bytes), sync_of_tiles->barriers[tile],
                    rank() % width, width, tile, size() / width);
  }
};
static_assert(Team<OmpTiledTeam>);

// No device to select: the engine's memory is the host's.
struct NoScope {};

class System : public Memory {
 public:
  // `stage_limit`: the most bytes an island is staged in; islands larger run from their home, as
  // a GPU's do when they outgrow its shared memory. Unlimited by default, so that the tests run
  // the staging code the GPU runs.
  // `lane_width`: the lanes of a tile (the repair's and the tabu search's); 1, each thread a tile
  // as a CPU thread is, or several, each of the team's threads then a tile of that many.
  explicit System(int, std::uint64_t stage_limit = std::numeric_limits<std::uint64_t>::max(),
                  std::uint32_t lane_width = 1)
      : stage_limit_(stage_limit), lane_width_(lane_width) {}
  NoScope scope() const { return {}; }
  // Host memory, with one island's staging area per launch.
  void prepare(std::uint64_t need, const std::string& what) const { check_host_memory(need, what); }
  // Every lone island runs on the grid's twin, so that CI runs the grid's code.
  DeviceLimits limits() const {
    return {.stage_limit = stage_limit_, .widest_team = static_cast<std::uint32_t>(kOmpTeamThreads),
            .lone = LoneIsland::Grid, .repair_waves = lane_width_ > 1};
  }
  std::string placement(const Launch& launch) const {
    return launch.kernel == KernelKind::Grid     ? "host memory, a grid's twin"
           : launch.kernel == KernelKind::Staged ? "host memory, staged per island"
                                            : "host memory";
  }
  template <class T>
  void upload(vector<T>& buffer, std::size_t at, const T* src, std::size_t count) const { put(buffer, at, src, count); }
  template <class T>
  void download(T* dst, const vector<T>& buffer, std::size_t at, std::size_t count) const { get(dst, buffer, at, count); }
  Stopwatch time(Phase phase, PhaseLedger& ledger) const { return Stopwatch(ledger, phase); }
  void settle_timers() const {}
  std::int64_t device_deadline(std::int64_t host_deadline) const { return host_deadline; }

  // A tabu search's tables for each tile of the widest team, the grid's twin (a tile a thread of
  // the one-lane twin's), since the blocks' twins run one at a time.
  std::uint64_t search_tiles(const Launch&, std::uint32_t) const { return kOmpGridTiles * kOmpTeamThreads; }
  // A step's launch as the engine made it: the grid's twin is always two tiles.
  template <class Step>
  Launch sized(const Launch& launch) const { return launch; }
  // Island 0 on two tiles of three threads (the grid's twin); or a team of kOmpTeamThreads an
  // island whatever its width (barriers and splits of work that divide unevenly are what the twin
  // is for), staged in a buffer of the island's bytes filled with poison. Each thread's repair
  // scratch (launch.scratch_bytes, a tile's) is poisoned alike: a repair reads none of it unwritten.
  // With tiles of several lanes, each of those threads is a tile of lane_width threads.
  template <class Step>
  void launch(const char*, const Launch& launch, const Step& step) const {
    if (launch.kernel == KernelKind::Grid) {
      constexpr std::uint32_t kTiles = kOmpGridTiles * kOmpTeamThreads;
      std::vector<std::uint8_t> scratch(kTiles * launch.scratch_bytes, next_poison());
      const OmpTeam team{kOmpTeamThreads * lane_width_, kOmpSortChunk, nullptr, scratch.data(), scratch.size()};
      run_team(kTiles, team, step, 0, nullptr);
      return;
    }
    std::vector<std::uint8_t> scratch(kOmpTeamThreads * launch.scratch_bytes);
    std::vector<std::uint8_t> work(launch.staged_bytes);
    bool seen = false;
    for (std::uint64_t i = 0; i < launch.blocks; ++i) {
      std::fill(work.begin(), work.end(), next_poison());
      std::fill(scratch.begin(), scratch.end(), next_poison());
      const OmpTeam team{0xFFFFFFFFu, 0xFFFFFFFFu, &seen, scratch.data(), scratch.size()};
      run_team(kOmpTeamThreads, team, step, static_cast<std::uint32_t>(i),
               launch.staged_bytes ? work.data() : nullptr);
    }
  }

 private:
  // `step` on a team of `tiles` tiles of lane_width_ threads each.
  template <class Step, class Work>
  void run_team(std::uint32_t tiles, const OmpTeam& team, const Step& step, std::uint32_t island,
                Work work) const {
    if (lane_width_ == 1) {
#pragma omp parallel num_threads(static_cast<int>(tiles))
      step(team, island, work);
      return;
    }
    OmpTileSync sync(tiles, lane_width_);
#pragma omp parallel num_threads(static_cast<int>(tiles * lane_width_))
    step(OmpTiledTeam{team, &sync}, island, work);
  }

  std::uint64_t stage_limit_;
  std::uint32_t lane_width_;
};

#endif

}  // inline namespace thrust_cuda or thrust_omp
}  // namespace gpuga::device_system
