#pragma once
// One generation's work for one child: select two parents, cross over, mutate; then evaluate.
// Both backends run exactly these per child (CPU: an OpenMP loop, CUDA: one thread per child),
// reading the parents and writing only the child's own slot, so children are independent.
// Evaluation is a separate pass so that its time can be reported as a phase of its own.
#include <cstdint>

#include "gpuga/fitness.hpp"
#include "gpuga/operators.hpp"
#include "gpuga/selection_tables.hpp"

namespace gpuga {

using Fitness = std::uint16_t;

// Pointers into one backend's memory (host or device) for one generation.
struct GenerationView {
  const std::uint8_t* parents;   // pop x 81
  const Fitness* parent_fitness;
  const std::uint32_t* order;    // parent indices sorted by (fitness, index)
  const std::uint64_t* rank_cdf; // rank selection: cumulative integer weights by rank
  std::uint8_t* children;        // children x 81
  const std::uint8_t* parent_bands;  // band crossover: pop x kBandScores
};

GPUGA_HD_INLINE bool better(Fitness fa, std::uint32_t a, Fitness fb, std::uint32_t b) {
  return fa < fb || (fa == fb && a < b);  // ties broken by index
}

GPUGA_HD_INLINE std::uint32_t select_parent(const GaParams& p, const GenerationView& v, Rng& rng) {
  switch (p.selection) {
    case Selection::Tournament: {
      std::uint32_t best = rng.below(p.pop);
      for (std::uint32_t k = 1; k < p.tournament_size; ++k) {
        const std::uint32_t c = rng.below(p.pop);
        if (better(v.parent_fitness[c], c, v.parent_fitness[best], best)) best = c;
      }
      return best;
    }
    case Selection::Rank: {
      // Linear ranking: first rank whose cumulative weight exceeds a uniform draw below total.
      const std::uint64_t total = v.rank_cdf[p.pop - 1];
      const std::uint64_t r = mul_hi_64(rng.next64(), total);
      std::uint32_t lo = 0, hi = p.pop - 1;
      while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (v.rank_cdf[mid] > r) hi = mid; else lo = mid + 1;
      }
      return v.order[lo];
    }
    case Selection::Truncation:
    default:
      return rng.below(p.pop);  // (mu+lambda): parents uniform, survival decides
  }
}

// A child's breeding in two halves, so that the CPU can prefetch the parents between them:
// plan_child selects the parents (or the elite to copy), make_child does the rest with the same
// random stream. breed_child is the two in a row.
struct ChildPlan {
  std::uint32_t a, b;  // parents (lane-local); a alone for an elite copy
  bool elite;
  Rng rng;
};

GPUGA_HD_INLINE ChildPlan plan_child(std::uint32_t i, std::uint32_t generation, const GaParams& p,
                                     const GenerationView& v) {
  // One stream per child: a Philox block gives four draws, and a child needs only a few.
  ChildPlan plan{0, 0, false, Rng(p.seed, generation, i, kPurposeBreed)};
  if (p.selection != Selection::Truncation && i < p.elite) {
    plan.a = v.order[i];
    plan.elite = true;
    return plan;
  }
  plan.a = select_parent(p, v, plan.rng);
  plan.b = select_parent(p, v, plan.rng);
  return plan;
}

GPUGA_HD_INLINE void make_child(std::uint32_t i, ChildPlan& plan, const GaParams& p,
                                const PuzzleInfo& info, const GenerationView& v) {
  std::uint8_t* child = v.children + static_cast<std::uint64_t>(i) * kCells;
  const std::uint8_t* pa = v.parents + static_cast<std::uint64_t>(plan.a) * kCells;
  if (plan.elite) {
    copy_individual(child, pa);
    return;
  }
  const std::uint8_t* pb = v.parents + static_cast<std::uint64_t>(plan.b) * kCells;
  Rng& rng = plan.rng;
  if (!rng.chance(p.crossover_threshold))
    copy_individual(child, pa);
  else if (p.crossover == Crossover::Bands)
    band_crossover(child, pa, pb, v.parent_bands + std::uint64_t(plan.a) * kBandScores,
                   v.parent_bands + std::uint64_t(plan.b) * kBandScores, p.encoding, rng);
  else
    crossover(child, pa, pb, info, p.encoding, p.crossover, rng);
  if (rng.chance(p.mutation_threshold)) mutate(child, info, p.encoding, p.given_aware, rng);
}

GPUGA_HD_INLINE void breed_child(std::uint32_t i, std::uint32_t generation, const GaParams& p,
                                 const PuzzleInfo& info, const GenerationView& v) {
  ChildPlan plan = plan_child(i, generation, p, v);
  make_child(i, plan, p, info, v);
}

// Fitness of individual i, and its band scores when the band crossover will need them (`bands`
// null otherwise).
GPUGA_HD_INLINE void evaluate_slot(std::uint32_t i, const GaParams& p, const std::uint8_t* pop,
                                   Fitness* fit, std::uint8_t* bands) {
  const std::uint8_t* g = pop + static_cast<std::uint64_t>(i) * kCells;
  std::uint8_t* scores = bands ? bands + static_cast<std::uint64_t>(i) * kBandScores : nullptr;
  if (p.fitness == FitnessKind::Squared) {
    if (scores) band_scores(g, p.encoding, scores);
    fit[i] = static_cast<Fitness>(squared_fitness(g));
    return;
  }
  std::uint8_t unused[kBandScores];
  fit[i] = static_cast<Fitness>(band_scores(g, p.encoding, scores ? scores : unused));
}

// Initial (or restarted) individual i of the population at `generation`.
GPUGA_HD_INLINE void init_slot(std::uint32_t i, std::uint32_t generation, const GaParams& p,
                               const PuzzleInfo& info, std::uint8_t* pop) {
  Rng rng(p.seed, generation, i, kPurposeInit);
  init_individual(pop + static_cast<std::uint64_t>(i) * kCells, info, p.encoding, p.given_aware,
                  rng);
}

// The individuals the diversity figure samples: min(pop, kDiversitySample), evenly spaced.
inline constexpr std::uint32_t kDiversitySample = 1024;
GPUGA_HD_INLINE std::uint32_t sample_size(std::uint32_t pop) {
  return pop < kDiversitySample ? pop : kDiversitySample;
}
GPUGA_HD_INLINE std::uint32_t sample_index(std::uint32_t s, std::uint32_t pop) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(s) * pop / sample_size(pop));
}

GPUGA_HD_INLINE int hamming(const std::uint8_t* a, const std::uint8_t* b) {
  int d = 0;
  for (int c = 0; c < kCells; ++c) d += a[c] != b[c];
  return d;
}

}  // namespace gpuga
