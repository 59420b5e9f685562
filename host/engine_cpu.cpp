// The CPU backend: the shared operators in OpenMP loops over individuals. It is the reference
// the CUDA backend must match byte for byte, so every loop body is a shared __host__ __device__
// function and the only host-specific code is the ordering (a counting sort by fitness, stable
// by index) and the bookkeeping.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "engine.hpp"

namespace gpuga {
namespace {

// Indices 0..n-1 sorted by (fitness, index): a counting sort, stable, O(n + kFitnessBound).
void order_by_fitness(const Fitness* fit, std::uint32_t n, std::uint32_t* out) {
  std::vector<std::uint32_t> start(kFitnessBound + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) ++start[fit[i] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  for (std::uint32_t i = 0; i < n; ++i) out[start[fit[i]]++] = i;
}

class Stopwatch {
 public:
  explicit Stopwatch(double& into) : into_(into), t0_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() {
    into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  double& into_;
  std::chrono::steady_clock::time_point t0_;
};

class CpuEngine final : public Engine {
 public:
  CpuEngine(const Grid& puzzle, const GaParams& p, double pressure, int threads)
      : p_(p), info_(make_puzzle_info(puzzle, p.encoding)), threads_(threads),
        pop_(std::size_t(p.pop) * kCells), kids_(std::size_t(p.children) * kCells),
        fit_(p.pop), kid_fit_(p.children), order_(p.pop) {
    if (p.selection == Selection::Rank) cdf_ = rank_cdf(p.pop, pressure);
    if (p.selection == Selection::Truncation) {
      merged_order_.resize(std::size_t(p.pop) + p.children);
      merged_fit_.resize(merged_order_.size());
      next_.resize(pop_.size());
      next_fit_.resize(fit_.size());
    }
  }

  std::string name() const override { return "cpu"; }

  void initialize(std::uint32_t generation) override {
    {
      Stopwatch w(times_.init);
      init_range(0, generation);
    }
    evaluate_and_order(pop_.data(), fit_.data(), p_.pop);
  }

  void restart(std::uint32_t generation, std::uint32_t keep) override {
    keep = std::min(keep, p_.pop);
    {
      Stopwatch w(times_.init);
      std::vector<std::uint8_t> kept(std::size_t(keep) * kCells);
      for (std::uint32_t k = 0; k < keep; ++k)
        copy_individual(&kept[std::size_t(k) * kCells], &pop_[std::size_t(order_[k]) * kCells]);
      std::copy(kept.begin(), kept.end(), pop_.begin());
      init_range(keep, generation);
    }
    evaluate_and_order(pop_.data(), fit_.data(), p_.pop);
  }

  void step(std::uint32_t generation) override {
    const GenerationView view{pop_.data(), fit_.data(), order_.data(), cdf_.data(), kids_.data()};
    {
      Stopwatch w(times_.breed);
      const auto n = static_cast<std::int64_t>(p_.children);
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t i = 0; i < n; ++i)
        breed_child(static_cast<std::uint32_t>(i), generation, p_, info_, view);
    }
    if (p_.selection == Selection::Truncation) {
      evaluate(kids_.data(), kid_fit_.data(), p_.children);
      survive();
      Stopwatch w(times_.order);
      order_by_fitness(fit_.data(), p_.pop, order_.data());
      return;
    }
    std::swap(pop_, kids_);
    evaluate_and_order(pop_.data(), fit_.data(), p_.pop);
  }

  Summary summary() override {
    Stopwatch w(times_.summary);
    Summary s;
    s.best_index = order_[0];
    s.best = fit_[order_[0]];
    s.worst = fit_[order_[p_.pop - 1]];
    std::uint64_t sum = 0;
    for (auto f : fit_) sum += f;
    s.mean = double(sum) / p_.pop;
    const std::uint8_t* best = &pop_[std::size_t(s.best_index) * kCells];
    std::uint64_t dist = 0;
    const std::uint32_t n = sample_size(p_.pop);
    for (std::uint32_t k = 0; k < n; ++k)
      dist += hamming(&pop_[std::size_t(sample_index(k, p_.pop)) * kCells], best);
    s.diversity = double(dist) / n;
    return s;
  }

  Grid best() override {
    Grid g;
    std::copy_n(&pop_[std::size_t(order_[0]) * kCells], kCells, g.cell);
    return g;
  }

  std::vector<std::uint8_t> population() override { return pop_; }
  std::vector<Fitness> fitness() override { return fit_; }
  PhaseTimes phase_times() override { return times_; }

 private:
  void init_range(std::uint32_t from, std::uint32_t generation) {
    const auto n = static_cast<std::int64_t>(p_.pop);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t i = from; i < n; ++i)
      init_slot(static_cast<std::uint32_t>(i), generation, p_, info_, pop_.data());
  }

  void evaluate(const std::uint8_t* pop, Fitness* fit, std::uint32_t count) {
    Stopwatch w(times_.fitness);
    const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t i = 0; i < n; ++i) evaluate_slot(static_cast<std::uint32_t>(i), p_, pop, fit);
  }

  void evaluate_and_order(const std::uint8_t* pop, Fitness* fit, std::uint32_t count) {
    evaluate(pop, fit, count);
    Stopwatch w(times_.order);
    order_by_fitness(fit, count, order_.data());
  }

  // (mu+lambda): the best `pop` of parents (indices 0..pop-1) and children (pop..) survive,
  // ties broken by that combined index.
  void survive() {
    Stopwatch w(times_.survival);
    std::copy(fit_.begin(), fit_.end(), merged_fit_.begin());
    std::copy(kid_fit_.begin(), kid_fit_.end(), merged_fit_.begin() + p_.pop);
    order_by_fitness(merged_fit_.data(), std::uint32_t(merged_fit_.size()), merged_order_.data());
    const auto n = static_cast<std::int64_t>(p_.pop);
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint32_t src = merged_order_[i];
      const std::uint8_t* from = src < p_.pop ? &pop_[std::size_t(src) * kCells]
                                              : &kids_[std::size_t(src - p_.pop) * kCells];
      copy_individual(&next_[std::size_t(i) * kCells], from);
      next_fit_[std::size_t(i)] = merged_fit_[src];
    }
    std::swap(pop_, next_);
    std::swap(fit_, next_fit_);
  }

  GaParams p_;
  PuzzleInfo info_;
  int threads_;
  std::vector<std::uint8_t> pop_, kids_, next_;
  std::vector<Fitness> fit_, kid_fit_, next_fit_, merged_fit_;
  std::vector<std::uint32_t> order_, merged_order_;
  std::vector<std::uint64_t> cdf_;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const GaParams& params,
                                        double rank_pressure, int threads) {
  return std::make_unique<CpuEngine>(puzzle, params, rank_pressure,
                                     threads > 0 ? threads : omp_get_max_threads());
}

}  // namespace gpuga
