// The CUDA backend. The population, fitness, order and every per-individual buffer live in
// device memory (thrust::device_vector, so nothing leaks) for the whole run. Each kernel runs a
// shared __host__ __device__ operator from include/gpuga/ (the CPU backend's loop bodies), so
// the two backends compute the same bytes; ordering and reductions are Thrust algorithms.
// Per generation the host copies back only the summary and, on request, the best individual.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include <algorithm>

#include "cuda_check.hpp"
#include "engine.hpp"

namespace gpuga {
namespace {

constexpr int kBlock = 256;

unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

template <class T>
T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }
template <class T>
const T* raw(const thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

// One thread per individual: each initialises its own 81 bytes from its own counter-keyed
// random stream, so no thread depends on another.
__global__ void init_population_kernel(std::uint32_t from, std::uint32_t n,
                                       std::uint32_t generation, GaParams p, PuzzleInfo info,
                                       std::uint8_t* pop) {
  const std::uint32_t i = from + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) init_slot(i, generation, p, info, pop);
}

// One thread per child: selection, crossover and mutation for one child read only the parents
// and write only that child's slot, so children are independent (as in the CPU loop).
__global__ void breed_kernel(std::uint32_t generation, GaParams p, PuzzleInfo info,
                             GenerationView view) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.children) breed_child(i, generation, p, info, view);
}

// One thread per individual: fitness reads 81 bytes and writes one integer.
__global__ void evaluate_kernel(std::uint32_t n, GaParams p, const std::uint8_t* pop,
                                Fitness* fit) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) evaluate_slot(i, p, pop, fit);
}

// One thread per destination slot: copies the individual that `order` names (an index into
// parents, or past `n_parents` into children) and its fitness. Used for (mu+lambda) survival
// and for the individuals kept on a restart.
__global__ void gather_kernel(std::uint32_t n, const std::uint32_t* order, std::uint32_t n_parents,
                              const std::uint8_t* parents, const std::uint8_t* children,
                              const Fitness* merged_fit, std::uint8_t* out, Fitness* out_fit) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t src = order[i];
  const std::uint8_t* from = src < n_parents ? parents + std::uint64_t(src) * kCells
                                             : children + std::uint64_t(src - n_parents) * kCells;
  copy_individual(out + std::uint64_t(i) * kCells, from);
  if (out_fit) out_fit[i] = merged_fit[src];
}

struct SampleDistance {
  const std::uint8_t* pop;
  const std::uint8_t* best;
  std::uint32_t n;
  __device__ std::uint64_t operator()(std::uint32_t s) const {
    return hamming(pop + std::uint64_t(sample_index(s, n)) * kCells, best);
  }
};

struct Widen {
  __device__ std::uint64_t operator()(Fitness f) const { return f; }
};

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

std::size_t bytes_needed(const GaParams& p) {
  const std::size_t pop = p.pop, kids = p.children;
  const bool trunc = p.selection == Selection::Truncation;
  const std::size_t merged = trunc ? pop + kids : 0;
  return (pop + kids + (trunc ? pop : 0)) * kCells          // population, children, survivors
         + (pop + kids + merged + pop) * sizeof(Fitness)     // fitness, sort keys
         + (pop + merged) * sizeof(std::uint32_t)            // orders
         + (p.selection == Selection::Rank ? pop * sizeof(std::uint64_t) : 0);
}

class CudaEngine final : public Engine {
 public:
  CudaEngine(const Grid& puzzle, const GaParams& p, double pressure, int device)
      : p_(p), info_(make_puzzle_info(puzzle, p.encoding)), device_(device) {
    GPUGA_CUDA_CHECK(cudaSetDevice(device));
    check_memory();
    pop_.resize(std::size_t(p.pop) * kCells);
    kids_.resize(std::size_t(p.children) * kCells);
    fit_.resize(p.pop);
    kid_fit_.resize(p.children);
    keys_.resize(p.pop);
    order_.resize(p.pop);
    if (p.selection == Selection::Rank) {
      const auto cdf = rank_cdf(p.pop, pressure);
      cdf_.assign(cdf.begin(), cdf.end());
    }
    if (p.selection == Selection::Truncation) {
      merged_fit_.resize(std::size_t(p.pop) + p.children);
      merged_order_.resize(merged_fit_.size());
      next_.resize(pop_.size());
    }
  }

  std::string name() const override { return "cuda"; }

  void initialize(std::uint32_t generation) override {
    init_range(0, generation);
    evaluate_and_order();
  }

  void restart(std::uint32_t generation, std::uint32_t keep) override {
    keep = std::min(keep, p_.pop);
    if (keep > 0) {
      PhaseTimer t(times_.init);
      thrust::device_vector<std::uint8_t> kept(std::size_t(keep) * kCells);
      gather_kernel<<<blocks_for(keep), kBlock>>>(keep, raw(order_), p_.pop, raw(pop_), nullptr,
                                                  nullptr, raw(kept), nullptr);
      GPUGA_CUDA_CHECK_LAUNCH(gather_kernel);
      thrust::copy(kept.begin(), kept.end(), pop_.begin());
    }
    init_range(keep, generation);
    evaluate_and_order();
  }

  void step(std::uint32_t generation) override {
    const GenerationView view{raw(pop_), raw(fit_), raw(order_),
                              cdf_.empty() ? nullptr : raw(cdf_), raw(kids_)};
    {
      PhaseTimer t(times_.breed);
      breed_kernel<<<blocks_for(p_.children), kBlock>>>(generation, p_, info_, view);
      GPUGA_CUDA_CHECK_LAUNCH(breed_kernel);
    }
    if (p_.selection == Selection::Truncation) {
      evaluate(kids_, kid_fit_, p_.children);
      survive();
      order();
      return;
    }
    pop_.swap(kids_);
    evaluate_and_order();
  }

  Summary summary() override {
    PhaseTimer t(times_.summary);
    Summary s;
    std::uint32_t ends[2];
    GPUGA_CUDA_CHECK(cudaMemcpy(&ends[0], raw(order_), sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    GPUGA_CUDA_CHECK(cudaMemcpy(&ends[1], raw(order_) + p_.pop - 1, sizeof(std::uint32_t),
                                cudaMemcpyDeviceToHost));
    s.best_index = ends[0];
    s.best = fit_[ends[0]];
    s.worst = fit_[ends[1]];
    const std::uint64_t sum = thrust::transform_reduce(fit_.begin(), fit_.end(), Widen{},
                                                       std::uint64_t{0}, thrust::plus<std::uint64_t>());
    s.mean = double(sum) / p_.pop;
    const std::uint32_t n = sample_size(p_.pop);
    const std::uint64_t dist = thrust::transform_reduce(
        thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(n),
        SampleDistance{raw(pop_), raw(pop_) + std::uint64_t(ends[0]) * kCells, p_.pop},
        std::uint64_t{0}, thrust::plus<std::uint64_t>());
    s.diversity = double(dist) / n;
    return s;
  }

  Grid best() override {
    std::uint32_t b = 0;
    GPUGA_CUDA_CHECK(cudaMemcpy(&b, raw(order_), sizeof b, cudaMemcpyDeviceToHost));
    Grid g;
    GPUGA_CUDA_CHECK(cudaMemcpy(g.cell, raw(pop_) + std::uint64_t(b) * kCells, kCells,
                                cudaMemcpyDeviceToHost));
    return g;
  }

  std::vector<std::uint8_t> population() override {
    std::vector<std::uint8_t> h(pop_.size());
    thrust::copy(pop_.begin(), pop_.end(), h.begin());
    return h;
  }
  std::vector<Fitness> fitness() override {
    std::vector<Fitness> h(fit_.size());
    thrust::copy(fit_.begin(), fit_.end(), h.begin());
    return h;
  }
  PhaseTimes phase_times() override { return times_; }

 private:
  void check_memory() const {
    std::size_t free_b = 0, total_b = 0;
    GPUGA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t need = bytes_needed(p_);
    GPUGA_INPUT_CHECK(need < free_b,
                      "--pop " + std::to_string(p_.pop) + " needs " +
                          std::to_string(need >> 20) + " MiB of device memory; device " +
                          std::to_string(device_) + " has " + std::to_string(free_b >> 20) +
                          " MiB free of " + std::to_string(total_b >> 20) + " MiB");
  }

  void init_range(std::uint32_t from, std::uint32_t generation) {
    if (from >= p_.pop) return;
    PhaseTimer t(times_.init);
    init_population_kernel<<<blocks_for(p_.pop - from), kBlock>>>(from, p_.pop, generation, p_,
                                                                  info_, raw(pop_));
    GPUGA_CUDA_CHECK_LAUNCH(init_population_kernel);
  }

  void evaluate(const thrust::device_vector<std::uint8_t>& pop, thrust::device_vector<Fitness>& fit,
                std::uint32_t n) {
    PhaseTimer t(times_.fitness);
    evaluate_kernel<<<blocks_for(n), kBlock>>>(n, p_, raw(pop), raw(fit));
    GPUGA_CUDA_CHECK_LAUNCH(evaluate_kernel);
  }

  // Indices sorted by (fitness, index): a stable sort of the fitness keys with the indices.
  void order() {
    PhaseTimer t(times_.order);
    thrust::copy(fit_.begin(), fit_.end(), keys_.begin());
    thrust::sequence(order_.begin(), order_.end());
    thrust::stable_sort_by_key(keys_.begin(), keys_.end(), order_.begin());
  }

  void evaluate_and_order() {
    evaluate(pop_, fit_, p_.pop);
    order();
  }

  // (mu+lambda): the best `pop` of parents and children survive, ties by combined index.
  void survive() {
    PhaseTimer t(times_.survival);
    thrust::copy(fit_.begin(), fit_.end(), merged_fit_.begin());
    thrust::copy(kid_fit_.begin(), kid_fit_.end(), merged_fit_.begin() + p_.pop);
    thrust::sequence(merged_order_.begin(), merged_order_.end());
    thrust::device_vector<Fitness> keys = merged_fit_;
    thrust::stable_sort_by_key(keys.begin(), keys.end(), merged_order_.begin());
    gather_kernel<<<blocks_for(p_.pop), kBlock>>>(p_.pop, raw(merged_order_), p_.pop, raw(pop_),
                                                  raw(kids_), raw(merged_fit_), raw(next_),
                                                  raw(fit_));
    GPUGA_CUDA_CHECK_LAUNCH(gather_kernel);
    pop_.swap(next_);
  }

  GaParams p_;
  PuzzleInfo info_;
  int device_;
  thrust::device_vector<std::uint8_t> pop_, kids_, next_;
  thrust::device_vector<Fitness> fit_, kid_fit_, keys_, merged_fit_;
  thrust::device_vector<std::uint32_t> order_, merged_order_;
  thrust::device_vector<std::uint64_t> cdf_;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const GaParams& params,
                                         double rank_pressure, int device) {
  return std::make_unique<CudaEngine>(puzzle, params, rank_pressure, device);
}

}  // namespace gpuga
