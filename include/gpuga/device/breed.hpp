#pragma once
// One generation's work for one child: select two parents, cross over, mutate; then evaluate.
// Every island runs exactly these per child (include/gpuga/device/island.hpp), reading the parents and
// writing only the child's own genome, so children are independent of each other.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpuga/device/fitness.hpp"
#include "gpuga/device/island_params.hpp"
#include "gpuga/device/operators.hpp"

namespace gpuga {

// Every fitness up to 25x25 fits a Fitness; from 36x36 the conflicts' (3n (n - 1) at most) do, and
// the engine refuses the squared metric (island_engine.hpp).
static_assert(kMaxFitness<5> <= 0xFFFF && 3 * 64 * 63 <= 0xFFFF, "a fitness fits a Fitness");

// Host only: a table computed once and handed to either backend, so that rank selection is exact
// integer work on both. Linear ranking with pressure s in [1, 2]: rank r (0 = best) of n
// individuals has weight s - (2s - 2) r / (n - 1), mean 1. Weights are scaled by 2^32 and
// accumulated, so a 64-bit uniform draw below the total picks a rank exactly (n up to 2^31 fits
// in 64 bits).
inline std::vector<std::uint64_t> rank_cdf(std::uint32_t individuals, double pressure) {
  std::vector<std::uint64_t> cdf(individuals);
  std::uint64_t total = 0;
  for (std::uint32_t rank = 0; rank < individuals; ++rank) {
    const double weight =
        individuals == 1 ? 1.0 : pressure - (2.0 * pressure - 2.0) * rank / (individuals - 1.0);
    total += static_cast<std::uint64_t>(std::llround(weight * 4294967296.0));
    cdf[rank] = total;
  }
  return cdf;
}

// Pointers into one island's memory (host, device or shared) for one generation.
struct GenerationView {
  const std::uint8_t* parents;   // pop x Shape<B>::kGenomeBytes
  const Fitness* parent_fitness;
  const std::uint32_t* order;    // parent indices sorted by (fitness, index)
  const std::uint64_t* rank_cdf; // rank selection: cumulative integer weights by rank
  std::uint8_t* children;        // children x Shape<B>::kGenomeBytes
  const std::uint8_t* parent_bands;  // band crossover: pop x kBandScores<B>
};

GPUGA_HD_INLINE bool better(Fitness fa, std::uint32_t a, Fitness fb, std::uint32_t b) {
  return fa < fb || (fa == fb && a < b);  // ties broken by index
}

template <class R>
GPUGA_HD_INLINE std::uint32_t select_parent(const GaParams& ga, const GenerationView& view, R& rng) {
  switch (ga.selection) {
    case Selection::Tournament: {
      std::uint32_t best = rng.below(ga.individuals);
      for (std::uint32_t k = 1; k < ga.tournament_size; ++k) {
        const std::uint32_t c = rng.below(ga.individuals);
        if (better(view.parent_fitness[c], c, view.parent_fitness[best], best)) best = c;
      }
      return best;
    }
    case Selection::Rank: {
      // Linear ranking: first rank whose cumulative weight exceeds a uniform draw below total.
      const std::uint64_t total = view.rank_cdf[ga.individuals - 1];
      const std::uint64_t r = mul_hi_64(rng.next64(), total);
      std::uint32_t lo = 0, hi = ga.individuals - 1;
      while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (view.rank_cdf[mid] > r) hi = mid; else lo = mid + 1;
      }
      return view.order[lo];
    }
    case Selection::Truncation:
    default:
      return rng.below(ga.individuals);  // (mu+lambda): parents uniform, survival decides
  }
}

// Individuals are stored as genomes of Shape<B>::kGenomeBytes bytes: the cells and a few bytes of
// padding (kept zero), so that whole individuals move as aligned 32-bit words (9x9: 21).
template <int B>
GPUGA_HD_INLINE void copy_genome(std::uint8_t* out, const std::uint8_t* in) {
  auto* o = reinterpret_cast<std::uint32_t*>(out);
  const auto* s = reinterpret_cast<const std::uint32_t*>(in);
  for (int w = 0; w < Shape<B>::kGenomeBytes / 4; ++w) o[w] = s[w];
}

// ga.local_search hill-climbing moves on a child, each made when it does not make it worse.
// Scored by UnitCounts (operators.hpp): on the CPU up to 9x9 the counted units' values are counted
// once and a move reads four words instead of counting 36 cells; elsewhere it is move_delta.
// Either way the same moves are made.
template <int B, class R>
GPUGA_HD_INLINE void local_search(std::uint8_t* child, const PuzzleInfo<B>& info,
                                  const GaParams& ga, R& rng) {
  if (ga.local_search == 0) return;
  // The settings in locals, as the chains' sweep has them: a store to the child (bytes) may alias
  // anything, so the compiler would otherwise reload them after every move. On the CPU that was
  // 11 % of a move (docs/decisions.md).
  const Encoding encoding = ga.encoding;
  const FitnessKind kind = ga.fitness;
  const bool aware = ga.given_aware;
  const std::uint32_t moves = ga.local_search;
  UnitCounts<B> counts;
  counts.count(child, encoding, kind);
  for (std::uint32_t k = 0; k < moves; ++k) {
    const Move move = propose_move<B>(child, info, encoding, aware, rng);
    if (counts.delta(child, move, encoding, kind) > 0) continue;
    counts.apply(child, move, encoding, kind);
    apply_move(child, move);
  }
}

// One child: select two parents (or the elite to copy), cross over, mutate, then try
// ga.local_search hill-climbing moves (each made when it does not make the child worse), from one
// stream keyed by (island seed, generation, child). Parents and child are genomes. The repaired
// GA (--repair propagate) then rebuilds the child on a tile of lanes (island.hpp: Island::repair).
template <int B>
GPUGA_HD_INLINE void breed_child(std::uint32_t i, std::uint64_t seed, std::uint32_t generation,
                                 const GaParams& ga, const PuzzleInfo<B>& info,
                                 const GenerationView& view) {
  constexpr int kGenomeBytes = Shape<B>::kGenomeBytes;
  std::uint8_t* child = view.children + static_cast<std::uint64_t>(i) * kGenomeBytes;
  if (ga.selection != Selection::Truncation && i < ga.elite) {
    copy_genome<B>(child, view.parents + static_cast<std::uint64_t>(view.order[i]) * kGenomeBytes);
    return;
  }
  // One stream per child: a Philox block gives four draws, and a child needs only a few.
  RngFor<B> rng(seed, generation, i, kPurposeBreed);
  const std::uint32_t a = select_parent(ga, view, rng), b = select_parent(ga, view, rng);
  const std::uint8_t* pa = view.parents + static_cast<std::uint64_t>(a) * kGenomeBytes;
  const std::uint8_t* pb = view.parents + static_cast<std::uint64_t>(b) * kGenomeBytes;
  if (!rng.chance(ga.crossover_threshold))
    copy_genome<B>(child, pa);
  else if (ga.crossover == Crossover::Bands)
    band_crossover<B>(child, pa, pb, view.parent_bands + std::uint64_t(a) * kBandScores<B>,
                      view.parent_bands + std::uint64_t(b) * kBandScores<B>, ga.encoding, rng);
  else
    crossover<B>(child, pa, pb, info, ga.encoding, ga.crossover, rng);
  for (int c = Shape<B>::kCells; c < kGenomeBytes; ++c) child[c] = 0;  // crossovers write cells only
  if (rng.chance(ga.mutation_threshold)) mutate<B>(child, info, ga.encoding, ga.given_aware, rng);
  local_search<B>(child, info, ga, rng);
}

// Fitness of one individual, and its band scores when the band crossover will need them
// (`bands` null otherwise).
template <int B>
GPUGA_HD_INLINE Fitness evaluate(const std::uint8_t* genome, const GaParams& ga, std::uint8_t* bands) {
  if (ga.fitness == FitnessKind::Squared) {
    if (bands) band_scores<B>(genome, ga.encoding, bands);
    return static_cast<Fitness>(squared_fitness<B>(genome));
  }
  return static_cast<Fitness>(band_scores<B>(genome, ga.encoding, bands));
}

// Fitness of a repaired individual: the cell encoding's conflicts, which is all the repaired GA
// runs (plan() refuses another encoding or fitness with the repair, and the engine another
// record of them), and band scores where the band crossover needs them. Not evaluate(): the
// repaired step would hold the squared metric's counts it never takes in local memory.
template <int B>
GPUGA_HD_INLINE Fitness evaluate_repaired(const std::uint8_t* genome, std::uint8_t* bands) {
  return static_cast<Fitness>(band_scores<B>(genome, Encoding::Cell, bands));
}

// A new individual i at `generation` (initial or restarted), its padding zeroed. kRepaired: the
// repaired GA's, of the cell encoding (as evaluate_repaired says), which it then rebuilds as a
// child; the encoding known, the step holds no block's digits in local memory.
template <int B, bool kRepaired = false>
GPUGA_HD_INLINE void init_genome(std::uint8_t* genome, std::uint32_t i, std::uint64_t seed,
                                 std::uint32_t generation, const GaParams& ga,
                                 const PuzzleInfo<B>& info) {
  RngFor<B> rng(seed, generation, i, kPurposeInit);
  init_individual<B>(genome, info, kRepaired ? Encoding::Cell : ga.encoding, ga.given_aware, rng);
  for (int c = Shape<B>::kCells; c < Shape<B>::kGenomeBytes; ++c) genome[c] = 0;
}

// The s-th of the individuals the diversity figure samples (sample_size, island_params.hpp),
// evenly spaced.
GPUGA_HD_INLINE std::uint32_t sample_index(std::uint32_t s, std::uint32_t pop) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(s) * pop / sample_size(pop));
}

template <int B>
GPUGA_HD_INLINE int hamming(const std::uint8_t* a, const std::uint8_t* b) {
  int d = 0;
  for (int c = 0; c < Shape<B>::kCells; ++c) d += a[c] != b[c];
  return d;
}

}  // namespace gpuga
