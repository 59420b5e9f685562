// The CPU backend: the shared operators in OpenMP loops over (lane, individual). It is the
// reference the CUDA backend must match byte for byte, so every loop body is a shared
// __host__ __device__ function and the only host-specific code is the ordering (a counting sort
// by fitness, stable by index) and the bookkeeping.
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "engine.hpp"
#include "stopwatch.hpp"

namespace gpuga {
namespace {

// Indices 0..n-1 sorted by (fitness, index): a counting sort, stable, O(n + kFitnessBound).
void order_by_fitness(const Fitness* fit, std::uint32_t n, std::uint32_t* out) {
  std::vector<std::uint32_t> start(kFitnessBound + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) ++start[fit[i] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  for (std::uint32_t i = 0; i < n; ++i) out[start[fit[i]]++] = i;
}

class CpuEngine final : public Engine {
 public:
  CpuEngine(const Grid& puzzle, const GaParams& p, double pressure, int threads,
            std::uint32_t lanes)
      : p_(p), lanes_(lanes), threads_(threads), infos_(lanes), seeds_(lanes, p.seed),
        side_(lanes, 0), fit_(std::size_t(lanes) * p.pop), order_(fit_.size()) {
    infos_[0] = make_puzzle_info(puzzle, p.encoding);
    for (auto& buf : pop_) buf.resize(std::size_t(lanes) * p.pop * kCells);
    if (p.selection == Selection::Rank) cdf_ = rank_cdf(p.pop, pressure);
    if (p.crossover == Crossover::Bands) bands_.resize(fit_.size() * kBandScores);
    if (p.selection == Selection::Truncation) {
      kids_.resize(std::size_t(lanes) * p.children * kCells);
      kid_fit_.resize(std::size_t(lanes) * p.children);
    }
  }

  std::uint32_t lanes() const override { return lanes_; }

  void set_lane(std::uint32_t l, const Grid& puzzle, std::uint64_t seed) override {
    infos_[l] = make_puzzle_info(puzzle, p_.encoding);
    seeds_[l] = seed;
  }

  void advance(const std::vector<LaneTask>& tasks, std::uint32_t keep) override {
    std::vector<std::uint32_t> renew, breed, acted;
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      if (tasks[l].action == LaneAction::Idle) continue;
      acted.push_back(l);
      (tasks[l].action == LaneAction::Step ? breed : renew).push_back(l);
    }
    if (!renew.empty()) renew_lanes(tasks, renew, keep);
    if (!breed.empty()) {
      breed_lanes(tasks, breed);
      if (p_.selection == Selection::Truncation) survive(breed);
      for (std::uint32_t l : breed) side_[l] ^= 1;  // the new generation is on the other side
    }
    evaluate(acted);
    Stopwatch w(times_.order);
    const auto n = static_cast<std::int64_t>(acted.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads_) if (n > 1)
    for (std::int64_t k = 0; k < n; ++k) {
      const std::size_t base = std::size_t(acted[k]) * p_.pop;
      order_by_fitness(&fit_[base], p_.pop, &order_[base]);
    }
  }

  std::vector<Summary> summaries() override {
    Stopwatch w(times_.summary);
    std::vector<Summary> out(lanes_);
    for (std::uint32_t l = 0; l < lanes_; ++l) out[l] = summarize(l);
    return out;
  }

  Grid best(std::uint32_t lane) override {
    Grid g;
    std::copy_n(individual(lane, order_[std::size_t(lane) * p_.pop]), kCells, g.cell);
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t lane) override {
    const std::uint8_t* first = individual(lane, 0);
    return {first, first + std::size_t(p_.pop) * kCells};
  }
  std::vector<Fitness> fitness(std::uint32_t lane) override {
    const auto first = fit_.begin() + std::size_t(lane) * p_.pop;
    return {first, first + p_.pop};
  }
  PhaseTimes phase_times() override { return times_; }

 private:
  // Each lane's population lives on one side of two buffers, the next generation is written
  // to the other side and the lane flips: no copy, and idle lanes stay where they are.
  std::uint8_t* lane_base(std::uint32_t lane, int side) {
    return &pop_[side][std::size_t(lane) * p_.pop * kCells];
  }
  const std::uint8_t* lane_base(std::uint32_t lane, int side) const {
    return &pop_[side][std::size_t(lane) * p_.pop * kCells];
  }
  std::uint8_t* individual(std::uint32_t lane, std::uint32_t i) {
    return lane_base(lane, side_[lane]) + std::size_t(i) * kCells;
  }

  // A lane's band scores (band crossover only; null otherwise).
  std::uint8_t* lane_bands(std::uint32_t l) {
    return bands_.empty() ? nullptr : &bands_[std::size_t(l) * p_.pop * kBandScores];
  }

  GaParams lane_params(std::uint32_t l) const {
    GaParams lp = p_;
    lp.seed = seeds_[l];
    return lp;
  }

  // Init and Restart lanes: a restart first moves its `keep` best to slots 0..keep-1.
  void renew_lanes(const std::vector<LaneTask>& tasks, const std::vector<std::uint32_t>& lanes,
                   std::uint32_t keep) {
    Stopwatch w(times_.init);
    keep = std::min(keep, p_.pop);
    for (std::uint32_t l : lanes) {
      if (tasks[l].action != LaneAction::Restart || keep == 0) continue;
      std::vector<std::uint8_t> kept(std::size_t(keep) * kCells);
      for (std::uint32_t k = 0; k < keep; ++k)
        copy_individual(&kept[std::size_t(k) * kCells], individual(l, order_[std::size_t(l) * p_.pop + k]));
      std::copy(kept.begin(), kept.end(), individual(l, 0));
    }
    const std::int64_t per = p_.pop, n = per * static_cast<std::int64_t>(lanes.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t k = 0; k < n; ++k) {
      const std::uint32_t l = lanes[k / per], i = static_cast<std::uint32_t>(k % per);
      if (tasks[l].action == LaneAction::Restart && i < keep) continue;
      init_slot(i, tasks[l].generation, lane_params(l), infos_[l], lane_base(l, side_[l]));
    }
  }

  GenerationView lane_view(std::uint32_t l) {
    const std::size_t base = std::size_t(l) * p_.pop;
    std::uint8_t* children = p_.selection == Selection::Truncation
                                 ? &kids_[std::size_t(l) * p_.children * kCells]
                                 : lane_base(l, side_[l] ^ 1);
    return {lane_base(l, side_[l]), &fit_[base], &order_[base], cdf_.data(), children,
            lane_bands(l)};
  }

  // Children in blocks: plan a block (parents chosen), prefetch those parents, then make the
  // block, so that the random parent reads overlap instead of stalling one after another.
  void breed_lanes(const std::vector<LaneTask>& tasks, const std::vector<std::uint32_t>& lanes) {
    Stopwatch w(times_.breed);
    constexpr std::uint32_t kBlock = 16;
    const std::uint32_t blocks_per_lane = (p_.children + kBlock - 1) / kBlock;
    const auto n = static_cast<std::int64_t>(blocks_per_lane) * static_cast<std::int64_t>(lanes.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t k = 0; k < n; ++k) {
      const std::uint32_t l = lanes[k / blocks_per_lane];
      const std::uint32_t first = static_cast<std::uint32_t>(k % blocks_per_lane) * kBlock;
      const std::uint32_t count = std::min(kBlock, p_.children - first);
      const GaParams lp = lane_params(l);
      const GenerationView view = lane_view(l);
      ChildPlan plans[kBlock];
      for (std::uint32_t j = 0; j < count; ++j) {
        plans[j] = plan_child(first + j, tasks[l].generation, lp, view);
        for (std::uint32_t parent : {plans[j].a, plans[j].b})
          for (int line = 0; line < kCells; line += 64)
            __builtin_prefetch(view.parents + std::size_t(parent) * kCells + line);
      }
      for (std::uint32_t j = 0; j < count; ++j) make_child(first + j, plans[j], lp, infos_[l], view);
    }
  }

  // Fitness (and band scores) of `per` individuals in each listed lane; `at(l)` gives the lane's
  // individuals, fitness and band scores.
  template <class At>
  void evaluate_each(const std::vector<std::uint32_t>& lanes, std::uint32_t per, At at) {
    Stopwatch w(times_.fitness);
    const std::int64_t n = std::int64_t(per) * static_cast<std::int64_t>(lanes.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (std::int64_t k = 0; k < n; ++k) {
      const auto [pop, fit, bands] = at(lanes[k / per]);
      evaluate_slot(static_cast<std::uint32_t>(k % per), p_, pop, fit, bands);
    }
  }

  void evaluate(const std::vector<std::uint32_t>& lanes) {
    evaluate_each(lanes, p_.pop, [this](std::uint32_t l) {
      return std::tuple{lane_base(l, side_[l]), &fit_[std::size_t(l) * p_.pop], lane_bands(l)};
    });
  }

  // Truncation's children, in their own buffer; their band scores are never needed.
  void evaluate_children(const std::vector<std::uint32_t>& lanes) {
    evaluate_each(lanes, p_.children, [this](std::uint32_t l) {
      const std::size_t base = std::size_t(l) * p_.children;
      return std::tuple{&kids_[base * kCells], &kid_fit_[base], static_cast<std::uint8_t*>(nullptr)};
    });
  }

  // (mu+lambda) per lane: the best `pop` of parents (indices 0..pop-1) and children (pop..)
  // survive, ties broken by that combined index; they are written to the lane's other side.
  void survive(const std::vector<std::uint32_t>& lanes) {
    evaluate_children(lanes);
    Stopwatch w(times_.survival);
    const std::uint32_t merged = p_.pop + p_.children;
    const auto n = static_cast<std::int64_t>(lanes.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads_) if (n > 1)
    for (std::int64_t k = 0; k < n; ++k) {
      const std::uint32_t l = lanes[k];
      const std::size_t pb = std::size_t(l) * p_.pop, kb = std::size_t(l) * p_.children;
      std::vector<Fitness> mfit(merged);
      std::vector<std::uint32_t> morder(merged);
      std::copy_n(&fit_[pb], p_.pop, mfit.begin());
      std::copy_n(&kid_fit_[kb], p_.children, mfit.begin() + p_.pop);
      order_by_fitness(mfit.data(), merged, morder.data());
      const std::uint8_t* parents = lane_base(l, side_[l]);
      std::uint8_t* next = lane_base(l, side_[l] ^ 1);
      for (std::uint32_t i = 0; i < p_.pop; ++i) {
        const std::uint32_t src = morder[i];
        const std::uint8_t* from = src < p_.pop ? parents + std::size_t(src) * kCells
                                                : &kids_[(kb + src - p_.pop) * kCells];
        copy_individual(next + std::size_t(i) * kCells, from);
      }
    }
  }

  Summary summarize(std::uint32_t l) const {
    const std::size_t base = std::size_t(l) * p_.pop;
    Summary s;
    s.best_index = order_[base];
    s.best = fit_[base + s.best_index];
    s.worst = fit_[base + order_[base + p_.pop - 1]];
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0; i < p_.pop; ++i) sum += fit_[base + i];
    s.mean = double(sum) / p_.pop;
    const std::uint8_t* lane = lane_base(l, side_[l]);
    const std::uint8_t* best = lane + std::size_t(s.best_index) * kCells;
    std::uint64_t dist = 0;
    const std::uint32_t n = sample_size(p_.pop);
    for (std::uint32_t k = 0; k < n; ++k)
      dist += hamming(lane + std::size_t(sample_index(k, p_.pop)) * kCells, best);
    s.diversity = double(dist) / n;
    return s;
  }

  GaParams p_;
  std::uint32_t lanes_;
  int threads_;
  std::vector<PuzzleInfo> infos_;
  std::vector<std::uint64_t> seeds_;
  std::vector<std::uint8_t> side_;  // which of pop_[0], pop_[1] holds each lane's population
  std::vector<std::uint8_t> pop_[2], kids_;
  std::vector<Fitness> fit_, kid_fit_;
  std::vector<std::uint8_t> bands_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint64_t> cdf_;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const GaParams& params,
                                        double rank_pressure, int threads, std::uint32_t lanes) {
  return std::make_unique<CpuEngine>(puzzle, params, rank_pressure,
                                     threads > 0 ? threads : omp_get_max_threads(), lanes);
}

}  // namespace gpuga
