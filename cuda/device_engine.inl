// The device engine. Populations, fitness, orders and every per-individual buffer live in device
// memory (thrust::device_vector, so nothing leaks) for the whole run. Each kernel is a functor
// that thrust::for_each_n runs over (lane, individual) and that calls a shared
// __host__ __device__ operator from include/gpuga/ (the CPU backend's loop bodies), so both
// backends compute the same bytes; ordering is a Thrust stable sort and the summaries are
// Thrust reductions. Per round the host uploads one small state record per lane (and a lane list
// when it changed) and copies back one summary per lane, and a best individual only on request:
// never the population.
//
// The text is written once against Thrust's device system and included by one translation unit
// per system: engine_cuda.cu (CUDA, the product's backend) and tests/device_engine_omp.cpp
// (Thrust's OpenMP system), so that machines without a GPU run every line of it but the
// device_system.hpp shim and compare it byte for byte with the CPU backend. Hence the anonymous
// namespace: each system's copy is its own.
#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>

#include "device_system.hpp"
#include "engine.hpp"

namespace gpuga {
namespace {

namespace ds = device_system;
using Index = std::uint64_t;  // a thread's index over (lane, individual): lanes x pop can pass 2^32

constexpr std::uint32_t kMaxLanes = 65535;  // sort keys pack (lane position << 16 | fitness)
static_assert(kFitnessBound < (1u << 16), "fitness must fit the low 16 bits of a sort key");

template <class T>
T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

// Runs `kernel(k)` for k in [0, n): one thread per k on the GPU, an OpenMP loop on the host.
template <class Kernel>
void launch(const char* name, Index n, const Kernel& kernel) {
  if (n == 0) return;
  thrust::for_each_n(ds::policy(), thrust::counting_iterator<Index>(0), n, kernel);
  ds::check_launch(name);
}

// What a kernel needs to know of each lane this round.
struct LaneState {
  std::uint64_t seed;
  std::uint32_t generation;
  LaneAction action;
  std::uint8_t side;  // which population buffer held the lane's generation before this round
};

// The device buffers, as plain pointers for kernels.
struct Buffers {
  std::uint8_t* sides[2];  // lanes x pop x 81 each; a lane lives on one side
  std::uint8_t* kids;      // truncation: lanes x children x 81
  Fitness* fit;            // lanes x pop
  Fitness* kid_fit;        // lanes x children
  std::uint32_t* order;    // lanes x pop, lane-local indices by (fitness, index)
  std::uint8_t* bands;     // band crossover: lanes x pop x kBandScores; null otherwise
  const std::uint64_t* cdf;
  const PuzzleInfo* infos;
  const LaneState* lanes;
  std::uint32_t pop, children;

  // A select, not sides[side]: indexing the array by a runtime value would put the whole
  // functor in local memory on the GPU.
  GPUGA_HD std::uint8_t* lane_pop(std::uint32_t l, int side) const {
    return (side ? sides[1] : sides[0]) + Index(l) * pop * kCells;
  }
  // Parents: the lane's generation before this round.
  GPUGA_HD std::uint8_t* parents(std::uint32_t l) const { return lane_pop(l, lanes[l].side); }
  // The lane's generation after this round: a Step writes the other side. Derived here rather
  // than uploaded, so that a round needs one state upload, not one more after breeding.
  GPUGA_HD int next_side(std::uint32_t l) const {
    return lanes[l].side ^ (lanes[l].action == LaneAction::Step ? 1 : 0);
  }
  GPUGA_HD std::uint8_t* current(std::uint32_t l) const { return lane_pop(l, next_side(l)); }
  GPUGA_HD std::uint8_t* lane_bands(std::uint32_t l) const {
    return bands ? bands + Index(l) * pop * kBandScores : nullptr;
  }
};

GPUGA_HD inline GaParams lane_params(const GaParams& p, const LaneState& s) {
  GaParams lp = p;
  lp.seed = s.seed;
  return lp;
}

// One thread per (listed lane, individual): each fills its own 81 bytes from its own
// counter-keyed stream, independent of every other thread. Restart lanes skip their kept slots.
struct init_lanes_kernel {
  const std::uint32_t* list;
  std::uint32_t keep;
  GaParams p;
  Buffers b;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t l = list[k / b.pop], i = static_cast<std::uint32_t>(k % b.pop);
    const LaneState& s = b.lanes[l];
    if (s.action == LaneAction::Restart && i < keep) return;
    init_slot(i, s.generation, lane_params(p, s), b.infos[l], b.current(l));
  }
};

// One thread per (listed lane, child): selection, crossover and mutation read only the lane's
// parents and write only this child's slot, as in the CPU loop. Children go to the lane's other
// side (truncation: to the children buffer).
struct breed_kernel {
  const std::uint32_t* list;
  GaParams p;
  Buffers b;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t l = list[k / b.children], i = static_cast<std::uint32_t>(k % b.children);
    const LaneState& s = b.lanes[l];
    const Index base = Index(l) * b.pop;
    std::uint8_t* children = p.selection == Selection::Truncation
                                 ? b.kids + Index(l) * b.children * kCells
                                 : b.current(l);
    const GenerationView view{b.parents(l), b.fit + base, b.order + base, b.cdf, children,
                              b.lane_bands(l)};
    breed_child(i, s.generation, lane_params(p, s), b.infos[l], view);
  }
};

// One thread per (listed lane, individual): fitness reads 81 bytes and writes one integer (and
// the band scores). `children` selects truncation's children buffer instead of the populations.
struct evaluate_kernel {
  const std::uint32_t* list;
  bool children;
  GaParams p;
  Buffers b;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t per = children ? b.children : b.pop;
    const std::uint32_t l = list[k / per], i = static_cast<std::uint32_t>(k % per);
    if (children)
      evaluate_slot(i, p, b.kids + Index(l) * per * kCells, b.kid_fit + Index(l) * per, nullptr);
    else
      evaluate_slot(i, p, b.current(l), b.fit + Index(l) * per, b.lane_bands(l));
  }
};

// One thread per (listed lane, position): the sort key (position in the list, fitness) and the
// lane-local index, so that one stable sort orders every listed lane by (fitness, index).
// Positions past `pop` name children (truncation's merged parents + children).
struct order_keys_kernel {
  const std::uint32_t* list;
  std::uint32_t per;
  Buffers b;
  std::uint32_t* keys;
  std::uint32_t* values;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t pos = static_cast<std::uint32_t>(k / per);
    const std::uint32_t i = static_cast<std::uint32_t>(k % per), l = list[pos];
    const Fitness f = i < b.pop ? b.fit[Index(l) * b.pop + i]
                                : b.kid_fit[Index(l) * b.children + (i - b.pop)];
    keys[k] = (pos << 16) | f;
    values[k] = i;
  }
};

// One thread per (listed lane, rank): the sorted lane-local indices into the lane's order.
struct scatter_order_kernel {
  const std::uint32_t* list;
  const std::uint32_t* values;
  Buffers b;
  GPUGA_HD void operator()(Index k) const {
    b.order[Index(list[k / b.pop]) * b.pop + k % b.pop] = values[k];
  }
};

// One thread per (listed lane, survivor slot) of (mu+lambda): copies the parent or child that
// ranks at this slot of the lane's merged order to the lane's other side.
struct survive_kernel {
  const std::uint32_t* list;
  const std::uint32_t* merged;
  Buffers b;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t pos = static_cast<std::uint32_t>(k / b.pop);
    const std::uint32_t i = static_cast<std::uint32_t>(k % b.pop), l = list[pos];
    const std::uint32_t src = merged[Index(pos) * (b.pop + b.children) + i];
    const std::uint8_t* from = src < b.pop
                                   ? b.parents(l) + Index(src) * kCells
                                   : b.kids + (Index(l) * b.children + src - b.pop) * kCells;
    copy_individual(b.current(l) + Index(i) * kCells, from);
  }
};

// One thread per (listed lane, kept slot): copies the lane's `keep` best to scratch (to_scratch)
// or from scratch back to slots 0..keep-1, in two passes since slots may overlap their sources.
struct keep_best_kernel {
  const std::uint32_t* list;
  std::uint32_t keep;
  bool to_scratch;
  Buffers b;
  std::uint8_t* scratch;
  GPUGA_HD void operator()(Index k) const {
    const std::uint32_t l = list[k / keep], j = static_cast<std::uint32_t>(k % keep);
    std::uint8_t* lane = b.current(l);
    std::uint8_t* kept = scratch + k * kCells;
    if (to_scratch)
      copy_individual(kept, lane + Index(b.order[Index(l) * b.pop + j]) * kCells);
    else
      copy_individual(lane + Index(j) * kCells, kept);
  }
};

struct RawSummary {
  std::uint64_t sum, dist;
  std::uint32_t best_index;
  Fitness best, worst;
};

// Reduction inputs for the summaries, one element per (lane, individual) or (lane, sample).
struct lane_of {
  Index per;
  GPUGA_HD std::uint32_t operator()(Index k) const { return static_cast<std::uint32_t>(k / per); }
};
struct widened_fitness {
  const Fitness* fit;
  GPUGA_HD std::uint64_t operator()(Index k) const { return fit[k]; }
};
// The diversity sample: Hamming distance of the lane's s-th sampled individual to its best.
struct distance_to_best {
  Buffers b;
  std::uint32_t samples;
  GPUGA_HD std::uint64_t operator()(Index k) const {
    const std::uint32_t l = static_cast<std::uint32_t>(k / samples);
    const std::uint32_t s = static_cast<std::uint32_t>(k % samples);
    const std::uint8_t* lane = b.current(l);
    return hamming(lane + Index(sample_index(s, b.pop)) * kCells,
                   lane + Index(b.order[Index(l) * b.pop]) * kCells);
  }
};

// One thread per lane: gathers the lane's sums, best and worst into its summary.
struct summary_kernel {
  Buffers b;
  const std::uint64_t* sums;
  const std::uint64_t* dists;
  RawSummary* out;
  GPUGA_HD void operator()(Index l) const {
    const Index base = l * b.pop;
    const std::uint32_t best = b.order[base];
    out[l] = {sums[l], dists[l], best, b.fit[base + best], b.fit[base + b.order[base + b.pop - 1]]};
  }
};

std::size_t bytes_needed(const GaParams& p, std::uint32_t lanes) {
  const std::size_t L = lanes, pop = p.pop,
                    kids = p.selection == Selection::Truncation ? p.children : 0;
  return L * (2 * pop + kids) * kCells                       // two population sides, children
         + L * (pop + kids) * sizeof(Fitness)                // fitness
         + L * pop * sizeof(std::uint32_t)                   // orders
         + (p.crossover == Crossover::Bands ? L * pop * kBandScores : 0)
         + 2 * L * (pop + kids) * 2 * sizeof(std::uint32_t)  // sort keys and values (+ Thrust's)
         + (p.selection == Selection::Rank ? pop * sizeof(std::uint64_t) : 0)
         + L * (sizeof(PuzzleInfo) + sizeof(LaneState) + sizeof(RawSummary) + 16);
}

// A list of lanes on the device, one per role in a round (so that lists used in the same round
// never share a buffer), copied again only when it changes: most rounds repeat the last.
struct LaneList {
  std::vector<std::uint32_t> host;
  thrust::device_vector<std::uint32_t> dev;
  const std::uint32_t* upload(const std::vector<std::uint32_t>& list) {
    if (list != host) {
      host = list;
      dev.assign(list.begin(), list.end());
    }
    return raw(dev);
  }
};

class DeviceEngine final : public Engine {
 public:
  DeviceEngine(const Grid& puzzle, const GaParams& p, double pressure, int device,
               std::uint32_t lanes)
      : p_(p), lanes_(lanes), infos_(lanes), states_(lanes) {
    GPUGA_INPUT_CHECK(lanes >= 1 && lanes <= kMaxLanes,
                      std::to_string(lanes) + " lanes; expected 1 to " + std::to_string(kMaxLanes));
    ds::select_device(device);
    ds::check_memory(bytes_needed(p, lanes), device,
                     "--pop " + std::to_string(p.pop) + " x " + std::to_string(lanes) + " lane(s)");
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
    dev_infos_.assign(infos_.begin(), infos_.end());
    dev_states_.resize(lanes);
    sums_.resize(lanes);
    dists_.resize(lanes);
    dev_summaries_.resize(lanes);
  }

  std::uint32_t lanes() const override { return lanes_; }

  void set_lane(std::uint32_t l, const Grid& puzzle, std::uint64_t seed) override {
    infos_[l] = make_puzzle_info(puzzle, p_.encoding);
    states_[l].seed = seed;
    thrust::copy_n(&infos_[l], 1, dev_infos_.begin() + l);
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
    if (!renew.empty()) renew_lanes(renew, restarted, std::min(keep, p_.pop));
    if (!breed.empty()) {
      breed_lanes(breed);
      // The host's record of where the new generation is; the device derives it (next_side).
      for (std::uint32_t l : breed) states_[l].side ^= 1;
    }
    const auto list = acted_list_.upload(acted);
    {
      ds::PhaseTimer t(times_.fitness);
      launch("evaluate_kernel", acted.size() * Index(p_.pop),
             evaluate_kernel{list, false, p_, buffers()});
    }
    ds::PhaseTimer t(times_.order);
    order_lanes(list, acted.size());
  }

  std::vector<Summary> summaries() override {
    ds::PhaseTimer t(times_.summary);
    summarize();
    std::vector<RawSummary> raw_out(lanes_);
    thrust::copy(dev_summaries_.begin(), dev_summaries_.end(), raw_out.begin());
    std::vector<Summary> out(lanes_);
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      out[l].best = raw_out[l].best;
      out[l].worst = raw_out[l].worst;
      out[l].best_index = raw_out[l].best_index;
      out[l].mean = double(raw_out[l].sum) / p_.pop;
      out[l].diversity = double(raw_out[l].dist) / sample_size(p_.pop);
    }
    return out;
  }

  Grid best(std::uint32_t lane) override {
    std::uint32_t b = 0;  // the lane's best index, first in its order
    thrust::copy_n(order_.begin() + std::size_t(lane) * p_.pop, 1, &b);
    Grid g;
    const auto first = pop_[states_[lane].side].begin() + (std::size_t(lane) * p_.pop + b) * kCells;
    thrust::copy(first, first + kCells, g.cell);
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t lane) override {
    std::vector<std::uint8_t> h(std::size_t(p_.pop) * kCells);
    const auto first = pop_[states_[lane].side].begin() + std::size_t(lane) * h.size();
    thrust::copy(first, first + h.size(), h.begin());
    return h;
  }

  std::vector<Fitness> fitness(std::uint32_t lane) override {
    std::vector<Fitness> h(p_.pop);
    const auto first = fit_.begin() + std::size_t(lane) * p_.pop;
    thrust::copy(first, first + p_.pop, h.begin());
    return h;
  }

  PhaseTimes phase_times() override { return times_; }

 private:
  Buffers buffers() {
    return {{raw(pop_[0]), raw(pop_[1])}, kids_.empty() ? nullptr : raw(kids_), raw(fit_),
            kid_fit_.empty() ? nullptr : raw(kid_fit_), raw(order_),
            bands_.empty() ? nullptr : raw(bands_), cdf_.empty() ? nullptr : raw(cdf_),
            raw(dev_infos_), raw(dev_states_), p_.pop, p_.children};
  }

  void upload_states() { thrust::copy(states_.begin(), states_.end(), dev_states_.begin()); }

  // Init and Restart lanes: a restart first moves its `keep` best to slots 0..keep-1.
  void renew_lanes(const std::vector<std::uint32_t>& renew,
                   const std::vector<std::uint32_t>& restarted, std::uint32_t keep) {
    ds::PhaseTimer t(times_.init);
    if (keep > 0 && !restarted.empty()) {
      const auto list = restarted_list_.upload(restarted);
      const Index n = restarted.size() * Index(keep);
      thrust::device_vector<std::uint8_t> scratch(n * kCells);
      launch("keep_best_kernel", n, keep_best_kernel{list, keep, true, buffers(), raw(scratch)});
      launch("keep_best_kernel", n, keep_best_kernel{list, keep, false, buffers(), raw(scratch)});
    }
    launch("init_lanes_kernel", renew.size() * Index(p_.pop),
           init_lanes_kernel{renew_list_.upload(renew), keep, p_, buffers()});
  }

  void breed_lanes(const std::vector<std::uint32_t>& breed) {
    const auto list = breed_list_.upload(breed);
    {
      ds::PhaseTimer t(times_.breed);
      launch("breed_kernel", breed.size() * Index(p_.children), breed_kernel{list, p_, buffers()});
    }
    if (p_.selection == Selection::Truncation) survive(list, breed.size());
  }

  // Sorts keys (position in the list, fitness) with lane-local indices, stably.
  void sort_listed(const std::uint32_t* list, std::size_t count, std::uint32_t per) {
    const Index n = count * Index(per);
    keys_.resize(n);
    values_.resize(n);
    launch("order_keys_kernel", n, order_keys_kernel{list, per, buffers(), raw(keys_), raw(values_)});
    thrust::stable_sort_by_key(ds::policy(), keys_.begin(), keys_.begin() + n, values_.begin());
  }

  void order_lanes(const std::uint32_t* list, std::size_t count) {
    sort_listed(list, count, p_.pop);
    launch("scatter_order_kernel", count * Index(p_.pop),
           scatter_order_kernel{list, raw(values_), buffers()});
  }

  // (mu+lambda) per lane: the best `pop` of parents and children, ties by combined index.
  void survive(const std::uint32_t* list, std::size_t count) {
    {
      ds::PhaseTimer t(times_.fitness);
      launch("evaluate_kernel", count * Index(p_.children), evaluate_kernel{list, true, p_, buffers()});
    }
    ds::PhaseTimer t(times_.survival);
    sort_listed(list, count, p_.pop + p_.children);
    launch("survive_kernel", count * Index(p_.pop), survive_kernel{list, raw(values_), buffers()});
  }

  // Every lane's fitness sum and diversity sample, reduced by lane, then gathered with its best
  // and worst. Integer sums, so the figures equal the CPU's exactly.
  void summarize() {
    const Buffers b = buffers();
    const Index n = lanes_ * Index(p_.pop);
    const std::uint32_t samples = sample_size(p_.pop);
    const auto index = thrust::counting_iterator<Index>(0);
    thrust::reduce_by_key(ds::policy(), thrust::make_transform_iterator(index, lane_of{p_.pop}),
                          thrust::make_transform_iterator(index + n, lane_of{p_.pop}),
                          thrust::make_transform_iterator(index, widened_fitness{b.fit}),
                          thrust::make_discard_iterator(), sums_.begin());
    thrust::reduce_by_key(ds::policy(), thrust::make_transform_iterator(index, lane_of{samples}),
                          thrust::make_transform_iterator(index + lanes_ * Index(samples),
                                                          lane_of{samples}),
                          thrust::make_transform_iterator(index, distance_to_best{b, samples}),
                          thrust::make_discard_iterator(), dists_.begin());
    launch("summary_kernel", lanes_, summary_kernel{b, raw(sums_), raw(dists_), raw(dev_summaries_)});
  }

  GaParams p_;
  std::uint32_t lanes_;
  std::vector<PuzzleInfo> infos_;
  std::vector<LaneState> states_;
  thrust::device_vector<std::uint8_t> pop_[2], kids_, bands_;
  thrust::device_vector<Fitness> fit_, kid_fit_;
  thrust::device_vector<std::uint32_t> order_, keys_, values_;
  thrust::device_vector<std::uint64_t> cdf_, sums_, dists_;
  thrust::device_vector<PuzzleInfo> dev_infos_;
  thrust::device_vector<LaneState> dev_states_;
  thrust::device_vector<RawSummary> dev_summaries_;
  LaneList restarted_list_, renew_list_, breed_list_, acted_list_;
  PhaseTimes times_;
};

}  // namespace
}  // namespace gpuga
