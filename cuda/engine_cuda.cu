// The CUDA backend. Populations, fitness, orders and every per-individual buffer live in device
// memory (thrust::device_vector, so nothing leaks) for the whole run. Each kernel runs a shared
// __host__ __device__ operator from include/gpuga/ (the CPU backend's loop bodies) over
// (lane, individual), so both backends compute the same bytes; ordering is a Thrust stable radix
// sort. Per round the host uploads one small state record per lane and copies back one summary
// per lane, and a best individual only on request: never the population.
#include <cub/block/block_reduce.cuh>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <algorithm>

#include "cuda_check.hpp"
#include "engine.hpp"

namespace gpuga {
namespace {

constexpr int kBlock = 256;
constexpr std::uint32_t kMaxLanes = 65535;

unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

template <class T>
T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

// What a kernel needs to know of each lane this round.
struct LaneState {
  std::uint64_t seed;
  std::uint32_t generation;
  LaneAction action;
  std::uint8_t side;  // which population buffer holds the lane's current generation
};

// The device buffers, as plain pointers for kernels.
struct Buffers {
  std::uint8_t* sides[2];  // lanes x pop x 81 each; a lane lives on one side
  std::uint8_t* kids;    // truncation: lanes x children x 81
  Fitness* fit;          // lanes x pop
  Fitness* kid_fit;      // lanes x children
  std::uint32_t* order;  // lanes x pop, lane-local indices by (fitness, index)
  std::uint8_t* bands;   // band crossover: lanes x pop x kBandScores; null otherwise
  const std::uint64_t* cdf;
  const PuzzleInfo* infos;
  const LaneState* lanes;
  std::uint32_t pop, children;

  __device__ std::uint8_t* lane_pop(std::uint32_t l, int side) const {
    return sides[side] + std::uint64_t(l) * pop * kCells;
  }
  __device__ std::uint8_t* current(std::uint32_t l) const { return lane_pop(l, lanes[l].side); }
  __device__ std::uint8_t* lane_bands(std::uint32_t l) const {
    return bands ? bands + std::uint64_t(l) * pop * kBandScores : nullptr;
  }
};

__device__ GaParams lane_params(const GaParams& p, const LaneState& s) {
  GaParams lp = p;
  lp.seed = s.seed;
  return lp;
}

// One thread per (listed lane, individual): each fills its own 81 bytes from its own
// counter-keyed stream, independent of every other thread. Restart lanes skip their kept slots.
__global__ void init_lanes_kernel(const std::uint32_t* list, std::uint64_t n, std::uint32_t keep,
                                  GaParams p, Buffers b) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t l = list[k / b.pop], i = static_cast<std::uint32_t>(k % b.pop);
  const LaneState& s = b.lanes[l];
  if (s.action == LaneAction::Restart && i < keep) return;
  init_slot(i, s.generation, lane_params(p, s), b.infos[l], b.current(l));
}

// One thread per (listed lane, child): selection, crossover and mutation read only the lane's
// parents and write only this child's slot, as in the CPU loop. Children go to the lane's other
// side (truncation: to the children buffer).
__global__ void breed_kernel(const std::uint32_t* list, std::uint64_t n, GaParams p, Buffers b) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t l = list[k / b.children], i = static_cast<std::uint32_t>(k % b.children);
  const LaneState& s = b.lanes[l];
  const std::uint64_t base = std::uint64_t(l) * b.pop;
  std::uint8_t* children = p.selection == Selection::Truncation
                               ? b.kids + std::uint64_t(l) * b.children * kCells
                               : b.lane_pop(l, s.side ^ 1);
  const GenerationView view{b.current(l), b.fit + base, b.order + base, b.cdf, children,
                            b.lane_bands(l)};
  breed_child(i, s.generation, lane_params(p, s), b.infos[l], view);
}

// One thread per (listed lane, individual): fitness reads 81 bytes and writes one integer.
// `children` selects the truncation children buffer instead of the lanes' populations.
__global__ void evaluate_kernel(const std::uint32_t* list, std::uint64_t n, bool children,
                                GaParams p, Buffers b) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t per = children ? b.children : b.pop;
  const std::uint32_t l = list[k / per], i = static_cast<std::uint32_t>(k % per);
  if (children)
    evaluate_slot(i, p, b.kids + std::uint64_t(l) * per * kCells, b.kid_fit + std::uint64_t(l) * per,
                  nullptr);
  else
    evaluate_slot(i, p, b.current(l), b.fit + std::uint64_t(l) * per, b.lane_bands(l));
}

// One thread per (listed lane, position): the sort key (position in the list, fitness) and the
// lane-local index, so that one stable sort orders every listed lane by (fitness, index).
// Positions past `pop` name children (truncation's merged parents + children).
__global__ void order_keys_kernel(const std::uint32_t* list, std::uint64_t n, std::uint32_t per,
                                  Buffers b, std::uint32_t* keys, std::uint32_t* values) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t pos = static_cast<std::uint32_t>(k / per), i = static_cast<std::uint32_t>(k % per);
  const std::uint32_t l = list[pos];
  const Fitness f = i < b.pop ? b.fit[std::uint64_t(l) * b.pop + i]
                              : b.kid_fit[std::uint64_t(l) * b.children + (i - b.pop)];
  keys[k] = (pos << 16) | f;
  values[k] = i;
}

// One thread per (listed lane, rank): the sorted lane-local indices into the lane's order.
__global__ void scatter_order_kernel(const std::uint32_t* list, std::uint64_t n,
                                     const std::uint32_t* values, Buffers b) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n) b.order[std::uint64_t(list[k / b.pop]) * b.pop + k % b.pop] = values[k];
}

// One thread per (listed lane, survivor slot) of (mu+lambda): copies the parent or child that
// ranks at this slot of the lane's merged order to the lane's other side.
__global__ void survive_kernel(const std::uint32_t* list, std::uint64_t n,
                               const std::uint32_t* merged_values, Buffers b) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t pos = static_cast<std::uint32_t>(k / b.pop), i = static_cast<std::uint32_t>(k % b.pop);
  const std::uint32_t l = list[pos];
  const std::uint32_t src = merged_values[std::uint64_t(pos) * (b.pop + b.children) + i];
  const std::uint8_t* from = src < b.pop ? b.current(l) + std::uint64_t(src) * kCells
                                         : b.kids + (std::uint64_t(l) * b.children + src - b.pop) * kCells;
  copy_individual(b.lane_pop(l, b.lanes[l].side ^ 1) + std::uint64_t(i) * kCells, from);
}

// One thread per (listed lane, kept slot): the lane's `keep` best, to a scratch buffer and
// back to slots 0..keep-1 by keep_back_kernel (slots may overlap their sources).
__global__ void keep_best_kernel(const std::uint32_t* list, std::uint64_t n, std::uint32_t keep,
                                 Buffers b, std::uint8_t* scratch) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t l = list[k / keep], j = static_cast<std::uint32_t>(k % keep);
  copy_individual(scratch + k * kCells,
                  b.current(l) + std::uint64_t(b.order[std::uint64_t(l) * b.pop + j]) * kCells);
}
__global__ void keep_back_kernel(const std::uint32_t* list, std::uint64_t n, std::uint32_t keep,
                                 Buffers b, const std::uint8_t* scratch) {
  const std::uint64_t k = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t l = list[k / keep], j = static_cast<std::uint32_t>(k % keep);
  copy_individual(b.current(l) + std::uint64_t(j) * kCells, scratch + k * kCells);
}

struct RawSummary {
  std::uint64_t sum, dist;
  std::uint32_t best_index;
  Fitness best, worst;
};

// One block per lane: the threads stride over the lane's fitness (sum) and its diversity sample
// (Hamming distance to the best), reduced with cub::BlockReduce. Integer sums, so the figures
// equal the CPU's exactly.
__global__ void summarize_kernel(Buffers b, RawSummary* out) {
  using Reduce = cub::BlockReduce<std::uint64_t, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  const std::uint32_t l = blockIdx.x;
  const std::uint64_t base = std::uint64_t(l) * b.pop;
  const std::uint32_t best_i = b.order[base];
  const std::uint8_t* lane = b.current(l);
  std::uint64_t sum = 0, dist = 0;
  for (std::uint32_t i = threadIdx.x; i < b.pop; i += kBlock) sum += b.fit[base + i];
  const std::uint32_t n = sample_size(b.pop);
  for (std::uint32_t s = threadIdx.x; s < n; s += kBlock)
    dist += hamming(lane + std::uint64_t(sample_index(s, b.pop)) * kCells,
                    lane + std::uint64_t(best_i) * kCells);
  sum = Reduce(temp).Sum(sum);
  __syncthreads();
  dist = Reduce(temp).Sum(dist);
  if (threadIdx.x == 0)
    out[l] = {sum, dist, best_i, b.fit[base + best_i], b.fit[base + b.order[base + b.pop - 1]]};
}

#define GPUGA_LAUNCH(kernel, n, ...)                                        \
  do {                                                                      \
    if ((n) > 0) {                                                          \
      kernel<<<blocks_for(n), kBlock>>>(__VA_ARGS__);                       \
      GPUGA_CUDA_CHECK_LAUNCH(kernel);                                      \
    }                                                                       \
  } while (0)

// Measures the device time of one phase with CUDA events, added to `into` (seconds).
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

 private:
  double& into_;
  cudaEvent_t start_{}, stop_{};
};

std::size_t bytes_needed(const GaParams& p, std::uint32_t lanes) {
  const std::size_t L = lanes, pop = p.pop, kids = p.selection == Selection::Truncation ? p.children : 0;
  return L * (2 * pop + kids) * kCells                      // two population sides, children
         + L * (pop + kids) * sizeof(Fitness)               // fitness
         + L * pop * sizeof(std::uint32_t)                  // orders
         + (p.crossover == Crossover::Bands ? L * pop * kBandScores : 0)
         + 2 * L * (pop + kids) * 2 * sizeof(std::uint32_t) // sort keys and values (+ Thrust's)
         + (p.selection == Selection::Rank ? pop * sizeof(std::uint64_t) : 0)
         + L * (sizeof(PuzzleInfo) + sizeof(LaneState) + sizeof(RawSummary));
}

class CudaEngine final : public Engine {
 public:
  CudaEngine(const Grid& puzzle, const GaParams& p, double pressure, int device, std::uint32_t lanes)
      : p_(p), lanes_(lanes), device_(device), infos_(lanes), states_(lanes) {
    // Sort keys pack (lane position << 16 | fitness) into 32 bits.
    GPUGA_INPUT_CHECK(lanes >= 1 && lanes <= kMaxLanes,
                      std::to_string(lanes) + " lanes; expected 1 to " + std::to_string(kMaxLanes));
    GPUGA_CUDA_CHECK(cudaSetDevice(device));
    check_memory();
    for (auto& side : pop_) side.resize(std::size_t(lanes) * p.pop * kCells);
    fit_.resize(std::size_t(lanes) * p.pop);
    order_.resize(fit_.size());
    if (p.selection == Selection::Truncation) {
      kids_.resize(std::size_t(lanes) * p.children * kCells);
      kid_fit_.resize(std::size_t(lanes) * p.children);
    }
    if (p.crossover == Crossover::Bands) bands_.resize(fit_.size() * kBandScores);
    if (p.selection == Selection::Rank) {
      const auto cdf = rank_cdf(p.pop, pressure);
      cdf_.assign(cdf.begin(), cdf.end());
    }
    for (auto& s : states_) s = {p.seed, 0, LaneAction::Idle, 0};
    infos_[0] = make_puzzle_info(puzzle, p.encoding);
    dev_infos_.resize(lanes);
    GPUGA_CUDA_CHECK(cudaMemcpy(raw(dev_infos_), infos_.data(), lanes * sizeof(PuzzleInfo),
                                cudaMemcpyHostToDevice));
    dev_states_.resize(lanes * sizeof(LaneState));
    dev_summaries_.resize(lanes * sizeof(RawSummary));
  }

  std::uint32_t lanes() const override { return lanes_; }

  void set_lane(std::uint32_t l, const Grid& puzzle, std::uint64_t seed) override {
    infos_[l] = make_puzzle_info(puzzle, p_.encoding);
    states_[l].seed = seed;
    GPUGA_CUDA_CHECK(cudaMemcpy(raw(dev_infos_) + l, &infos_[l], sizeof(PuzzleInfo),
                                cudaMemcpyHostToDevice));
  }

  void advance(const std::vector<LaneTask>& tasks, std::uint32_t keep) override {
    std::vector<std::uint32_t> renew, breed, acted, restarted;
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      states_[l].action = tasks[l].action;
      states_[l].generation = tasks[l].generation;
      if (tasks[l].action == LaneAction::Idle) continue;
      acted.push_back(l);
      (tasks[l].action == LaneAction::Step ? breed : renew).push_back(l);
      if (tasks[l].action == LaneAction::Restart) restarted.push_back(l);
    }
    if (acted.empty()) return;
    upload_states();
    keep = std::min(keep, p_.pop);
    if (!renew.empty()) {
      PhaseTimer t(times_.init);
      if (keep > 0 && !restarted.empty()) keep_best(restarted, keep);
      const auto list = upload(renew);
      GPUGA_LAUNCH(init_lanes_kernel, renew.size() * std::uint64_t(p_.pop), list, renew.size() * std::uint64_t(p_.pop), keep, p_, buffers());
    }
    if (!breed.empty()) {
      const auto list = upload(breed);
      {
        PhaseTimer t(times_.breed);
        const std::uint64_t n = breed.size() * std::uint64_t(p_.children);
        GPUGA_LAUNCH(breed_kernel, n, list, n, p_, buffers());
      }
      if (p_.selection == Selection::Truncation) survive(breed, list);
      for (std::uint32_t l : breed) states_[l].side ^= 1;
      upload_states();
    }
    const auto list = upload(acted);
    {
      PhaseTimer t(times_.fitness);
      const std::uint64_t n = acted.size() * std::uint64_t(p_.pop);
      GPUGA_LAUNCH(evaluate_kernel, n, list, n, false, p_, buffers());
    }
    PhaseTimer t(times_.order);
    order_lanes(list, acted.size());
  }

  std::vector<Summary> summaries() override {
    PhaseTimer t(times_.summary);
    auto* raw_out = reinterpret_cast<RawSummary*>(raw(dev_summaries_));
    summarize_kernel<<<lanes_, kBlock>>>(buffers(), raw_out);
    GPUGA_CUDA_CHECK_LAUNCH(summarize_kernel);
    std::vector<RawSummary> host(lanes_);
    GPUGA_CUDA_CHECK(cudaMemcpy(host.data(), raw_out, lanes_ * sizeof(RawSummary),
                                cudaMemcpyDeviceToHost));
    std::vector<Summary> out(lanes_);
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      out[l].best = host[l].best;
      out[l].worst = host[l].worst;
      out[l].best_index = host[l].best_index;
      out[l].mean = double(host[l].sum) / p_.pop;
      out[l].diversity = double(host[l].dist) / sample_size(p_.pop);
    }
    return out;
  }

  Grid best(std::uint32_t lane) override {
    std::uint32_t b = 0;
    GPUGA_CUDA_CHECK(cudaMemcpy(&b, raw(order_) + std::size_t(lane) * p_.pop, sizeof b,
                                cudaMemcpyDeviceToHost));
    Grid g;
    GPUGA_CUDA_CHECK(cudaMemcpy(g.cell, lane_pop(lane) + std::size_t(b) * kCells, kCells,
                                cudaMemcpyDeviceToHost));
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t lane) override {
    std::vector<std::uint8_t> h(std::size_t(p_.pop) * kCells);
    GPUGA_CUDA_CHECK(cudaMemcpy(h.data(), lane_pop(lane), h.size(), cudaMemcpyDeviceToHost));
    return h;
  }
  std::vector<Fitness> fitness(std::uint32_t lane) override {
    std::vector<Fitness> h(p_.pop);
    GPUGA_CUDA_CHECK(cudaMemcpy(h.data(), raw(fit_) + std::size_t(lane) * p_.pop,
                                h.size() * sizeof(Fitness), cudaMemcpyDeviceToHost));
    return h;
  }
  PhaseTimes phase_times() override { return times_; }

 private:
  void check_memory() const {
    std::size_t free_b = 0, total_b = 0;
    GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t need = bytes_needed(p_, lanes_);
    GPUGA_INPUT_CHECK(need < free_b,
                      "--pop " + std::to_string(p_.pop) + " x " + std::to_string(lanes_) +
                          " lane(s) needs " + std::to_string(need >> 20) +
                          " MiB of device memory; device " + std::to_string(device_) + " has " +
                          std::to_string(free_b >> 20) + " MiB free of " +
                          std::to_string(total_b >> 20) + " MiB");
  }

  std::uint8_t* lane_pop(std::uint32_t l) {
    return raw(pop_[states_[l].side]) + std::size_t(l) * p_.pop * kCells;
  }

  Buffers buffers() {
    return {{raw(pop_[0]), raw(pop_[1])}, kids_.empty() ? nullptr : raw(kids_), raw(fit_),
            kid_fit_.empty() ? nullptr : raw(kid_fit_), raw(order_),
            bands_.empty() ? nullptr : raw(bands_),
            cdf_.empty() ? nullptr : raw(cdf_), raw(dev_infos_),
            reinterpret_cast<const LaneState*>(raw(dev_states_)), p_.pop, p_.children};
  }

  void upload_states() {
    GPUGA_CUDA_CHECK(cudaMemcpy(raw(dev_states_), states_.data(), lanes_ * sizeof(LaneState),
                                cudaMemcpyHostToDevice));
  }

  // A lane list on the device (lists differ within a round, so each gets its own buffer).
  const std::uint32_t* upload(const std::vector<std::uint32_t>& list) {
    auto& buf = lists_[next_list_++ % 4];
    buf.assign(list.begin(), list.end());
    return raw(buf);
  }

  void keep_best(const std::vector<std::uint32_t>& lanes, std::uint32_t keep) {
    const auto list = upload(lanes);
    const std::uint64_t n = lanes.size() * std::uint64_t(keep);
    thrust::device_vector<std::uint8_t> scratch(n * kCells);
    GPUGA_LAUNCH(keep_best_kernel, n, list, n, keep, buffers(), raw(scratch));
    GPUGA_LAUNCH(keep_back_kernel, n, list, n, keep, buffers(), raw(scratch));
  }

  // Sorts keys (position in the list, fitness) with lane-local indices, stably.
  void sort_listed(const std::uint32_t* list, std::size_t count, std::uint32_t per) {
    const std::uint64_t n = count * std::uint64_t(per);
    keys_.resize(n);
    values_.resize(n);
    GPUGA_LAUNCH(order_keys_kernel, n, list, n, per, buffers(), raw(keys_), raw(values_));
    thrust::stable_sort_by_key(keys_.begin(), keys_.end(), values_.begin());
  }

  void order_lanes(const std::uint32_t* list, std::size_t count) {
    sort_listed(list, count, p_.pop);
    const std::uint64_t n = count * std::uint64_t(p_.pop);
    GPUGA_LAUNCH(scatter_order_kernel, n, list, n, raw(values_), buffers());
  }

  // (mu+lambda) per lane: the best `pop` of parents and children, ties by combined index.
  void survive(const std::vector<std::uint32_t>& lanes, const std::uint32_t* list) {
    {
      PhaseTimer t(times_.fitness);
      const std::uint64_t n = lanes.size() * std::uint64_t(p_.children);
      GPUGA_LAUNCH(evaluate_kernel, n, list, n, true, p_, buffers());
    }
    PhaseTimer t(times_.survival);
    sort_listed(list, lanes.size(), p_.pop + p_.children);
    const std::uint64_t n = lanes.size() * std::uint64_t(p_.pop);
    GPUGA_LAUNCH(survive_kernel, n, list, n, raw(values_), buffers());
  }

  GaParams p_;
  std::uint32_t lanes_;
  int device_;
  std::vector<PuzzleInfo> infos_;
  std::vector<LaneState> states_;
  thrust::device_vector<std::uint8_t> pop_[2], kids_, bands_;
  thrust::device_vector<Fitness> fit_, kid_fit_;
  thrust::device_vector<std::uint32_t> order_, keys_, values_, lists_[4];
  thrust::device_vector<std::uint64_t> cdf_;
  thrust::device_vector<PuzzleInfo> dev_infos_;
  thrust::device_vector<std::uint8_t> dev_states_, dev_summaries_;
  unsigned next_list_ = 0;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const GaParams& params,
                                         double rank_pressure, int device, std::uint32_t lanes) {
  return std::make_unique<CudaEngine>(puzzle, params, rank_pressure, device, lanes);
}

}  // namespace gpuga
