#pragma once
// The island, the unit of work: one population of `pop` individuals that a team advances for a
// segment of many generations with no host in the loop. A run is a ring of islands on one
// puzzle; many runs share an engine.
//
// Every function here is written once over a Team: rank(), size(), sync() (a barrier of the
// whole team), sort(keys, n), add(counter, value) (an atomic 64-bit add), past(deadline) (whether
// a RunTask's deadline has passed, the same answer for every thread of the team; false where the
// team cannot read a clock) and lanes<kWidth>(bytes) (the thread's tile of lanes for a child's
// repair, lanes.hpp: a GPU's tiles of kWidth, a CPU thread's one lane; `bytes` of scratch each)
// and search_tile(lanes) (that tile's place among the launch's, for its tabu-search tables),
// with kCutsGenerationZero (whether a deadline may leave an island unstarted: the CPU's islands,
// whose states and summaries then say so). sort orders n keys (n a power of two) ascending; every
// key is (fitness << 32 | index) with the indices ascending from 0, then ~0 padding, which lets a
// team of one count-sort them by fitness.
// Work is split as `for (i : share(team, n))`, each i written by its owner only, with a barrier
// wherever a thread reads what another wrote; so the bytes computed are the same for any team
// size and any split (kContiguous says which). The CPU backend runs one island per OpenMP
// thread with a team of one; the CUDA backend one thread block per island, the island in shared
// memory when it fits, and a lone island that does not fit on a team of every block of the GPU
// (a cooperative grid).
//
// Control state (generation, restarts, best so far) is computed by every thread of the team from
// the same data, so all agree without a broadcast; rank 0 alone writes it back.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuga/device/breed.hpp"
#include "gpuga/device/island_params.hpp"
#include "gpuga/device/repair.hpp"

namespace gpuga {

// The indices a thread owns of a loop over from..n-1: a range of every `stride`-th index.
struct Share {
  std::uint32_t first, last, stride;
  struct Iter {
    std::uint32_t i, stride;
    GPUGA_HD std::uint32_t operator*() const { return i; }
    GPUGA_HD Iter& operator++() {
      i += stride;
      return *this;
    }
    GPUGA_HD bool operator!=(const Iter& end) const { return i < end.i; }
  };
  GPUGA_HD Iter begin() const { return {first, stride}; }
  GPUGA_HD Iter end() const { return {last, stride}; }
};

// A team's share of from..end-1. GPU threads take every size-th index from their rank, so that
// neighbouring threads touch neighbouring words together (coalesced); CPU threads
// (Team::kContiguous) a contiguous block each, so that no two write the same cache line but at
// the block edges. Either way a team larger than the indices has its owners at the first ranks,
// those taking the blocks' remainder: the chains' team_reduce (chain.hpp) reads the ranks below
// the count alone (tests/test_mpi.sh: hc on ranks of one island, more threads than chains).
template <class Team>
GPUGA_HD Share share(const Team& team, std::uint32_t from, std::uint32_t end) {
  if constexpr (!Team::kContiguous) return {from + team.rank(), end, team.size()};
  const std::uint32_t len = end > from ? end - from : 0, rank = team.rank();
  const std::uint32_t base = len / team.size(), extra = len % team.size();
  const std::uint32_t start = from + rank * base + (rank < extra ? rank : extra);
  return {start, start + base + (rank < extra ? 1u : 0u), 1};
}
template <class Team>
GPUGA_HD Share share(const Team& team, std::uint32_t count) {
  return share(team, 0, count);
}

// What one chain of simulated annealing or hill climbing carries (include/gpuga/device/chain.hpp).
struct ChainState {
  std::uint64_t beta = 0;              // sa: inverse temperature, 32.32 fixed point
  std::uint32_t accept1 = 0;           // sa: exp(-beta) * 2^32, the threshold of a worsening by 1
  std::uint32_t level_moves = 0;       // sa: moves made at this temperature
  std::uint32_t stalled = 0;           // sa: temperatures ended since the chain's last new best
  std::uint32_t last_improvement = 0;  // hc: the sweep its climb last got better
  std::uint32_t best_sweep = 0;        // the sweep it found its best
  std::uint32_t restarts = 0;          // hc: restarts; sa: reheats
  std::uint32_t accepted = 0;          // moves accepted
  // The struct's last word, named so that it holds no padding: a chain's state is written member
  // by member into the island's staging area, and every byte of it goes home (team_copy).
  std::uint32_t unused = 0;
};
static_assert(std::has_unique_object_representations_v<ChainState>, "a chain's state has padding");

template <int B>
struct RunInfo {
  PuzzleInfo<B> info;
  std::uint64_t seed = 0;  // island k's seed is derive_seed(seed, first_island + k)
  std::uint64_t beta0 = 0;          // sa: the initial inverse temperature (32.32)
  std::uint32_t chain_length = 0;   // sa: moves per temperature
  std::uint32_t sweep = 0;          // sa, hc: moves a chain makes per generation
  std::uint32_t first_island = 0;   // the number of island 0 in the run's ring (Engine::link_ring)
  std::uint32_t ring_islands = 1;   // islands on the run's ring: IslandParams::islands, or more
};

// The end of the segment that starts at `clock`: the next halt check, migration or the target.
GPUGA_HD_INLINE std::uint32_t next_stop(std::uint32_t clock, std::uint32_t target,
                                        std::uint32_t migration_interval,
                                        std::uint32_t halt_interval) {
  std::uint32_t stop = (clock / halt_interval + 1) * halt_interval;
  if (migration_interval) {
    const std::uint32_t migration = (clock / migration_interval + 1) * migration_interval;
    stop = migration < stop ? migration : stop;
  }
  return target < stop ? target : stop;
}

GPUGA_HD_INLINE std::uint64_t align16(std::uint64_t x) { return (x + 15) & ~std::uint64_t(15); }

// Byte offsets of an island's buffers in its record, the same in device, host and shared
// memory. Fixed-index members only: a run-time index into an array member would move the
// whole structure to local memory on the GPU.
// Chains (sa, hc) hold their current grids and fitness on side 0 and their bests on side 1.
struct IslandLayout {
  std::uint32_t individuals = 0, children = 0;  // an island's, and the children it breeds a generation
  std::uint32_t sort_n = 0;         // sort keys: a power of two >= individuals (truncation: + children)
  bool bands = false, truncation = false, chains = false;
  std::uint32_t repair_lanes = 0;   // the repaired GA: a child's lanes on a GPU (repair.hpp)
  std::uint32_t repair_cells = 0;   //   and the most free cells of its puzzles, which size a
                                    //   tile's scratch (repair_tile_bytes)
  std::uint64_t genomes0 = 0, genomes1 = 0, kids = 0;
  std::uint64_t fit0 = 0, fit1 = 0, kid_fit = 0;
  std::uint64_t band0 = 0, band1 = 0, kid_band = 0;
  std::uint64_t order = 0, keys = 0, chain_states = 0, bytes = 0;
};

// The threads of a team that an island's work can use: one a child (a chain for sa and hc), or
// where the step repairs (the repaired GA's segment step) a tile of lanes a child, in whole warps
// of 32, at most `most` (the GPU's widest block). An island of 128 on a block of 256 left half
// its threads idle through the children's local search, the most of a generation; a block of its
// width holds the same busy threads in half the registers, so twice as many islands fit on a
// multiprocessor. Which thread does which child changes no result (island.hpp's steps are written
// over any team: the OpenMP twin runs them on three threads).
inline std::uint32_t team_threads(const IslandLayout& layout, std::uint32_t most, bool repairs = false) {
  const std::uint64_t lanes = repairs && layout.repair_lanes ? layout.repair_lanes : 1;
  const std::uint64_t children = std::uint64_t(layout.children) * lanes;
  const std::uint64_t width = layout.individuals > children ? layout.individuals : children;
  const std::uint64_t threads = width <= 32 ? 32 : (width + 31) / 32 * 32;  // whole warps
  return static_cast<std::uint32_t>(threads < most ? threads : most);
}

// The most keys an island may sort: the sort's indices, its stage counter and the keys' low
// words are 32-bit. An engine refuses larger islands (engine/island_engine.hpp).
inline constexpr std::uint64_t kMaxSortKeys = std::uint64_t(1) << 30;

// The keys an island of `ga` sorts: a power of two >= its individuals (truncation: individuals
// and children together), counted in 64 bits so that no accepted size can wrap it.
inline std::uint64_t sort_length(const GaParams& ga) {
  const bool truncation = ga.algorithm == Algorithm::Ga && ga.selection == Selection::Truncation;
  const std::uint64_t sorted = std::uint64_t(ga.individuals) + (truncation ? ga.children : 0);
  std::uint64_t keys = 1;
  while (keys < sorted) keys <<= 1;
  return keys;
}

// Islands of `ga` on puzzles of at most `free_cells` free cells (any puzzle by default).
template <int B>
inline IslandLayout make_layout(const GaParams& ga, std::uint32_t free_cells = Shape<B>::kCells) {
  constexpr int kGenomeBytes = Shape<B>::kGenomeBytes, kBands = kBandScores<B>;
  IslandLayout layout;
  layout.individuals = ga.individuals;
  layout.chains = ga.algorithm != Algorithm::Ga;
  layout.truncation = !layout.chains && ga.selection == Selection::Truncation;
  layout.children = children_of(ga);
  layout.bands = !layout.chains && ga.crossover == Crossover::Bands;
  layout.repair_lanes = !layout.chains && ga.repair == Repair::Propagate ? kRepairLanes<B> : 0;
  layout.repair_cells = layout.repair_lanes ? free_cells : 0;
  const std::uint64_t keys = sort_length(ga);  // beyond kMaxSortKeys the engine refuses it
  layout.sort_n = static_cast<std::uint32_t>(keys < kMaxSortKeys ? keys : kMaxSortKeys);
  std::uint64_t at = 0;
  auto take = [&at](std::uint64_t bytes) {
    const std::uint64_t here = at;
    at = align16(at + bytes);
    return here;
  };
  layout.genomes0 = take(std::uint64_t(layout.individuals) * kGenomeBytes);
  layout.genomes1 = take(std::uint64_t(layout.individuals) * kGenomeBytes);
  layout.kids = layout.truncation ? take(std::uint64_t(layout.children) * kGenomeBytes) : 0;
  layout.fit0 = take(std::uint64_t(layout.individuals) * sizeof(Fitness));
  layout.fit1 = take(std::uint64_t(layout.individuals) * sizeof(Fitness));
  layout.kid_fit = layout.truncation ? take(std::uint64_t(layout.children) * sizeof(Fitness)) : 0;
  layout.band0 = layout.bands ? take(std::uint64_t(layout.individuals) * kBands) : 0;
  layout.band1 = layout.bands ? take(std::uint64_t(layout.individuals) * kBands) : 0;
  layout.kid_band = layout.bands && layout.truncation ? take(std::uint64_t(layout.children) * kBands) : 0;
  // Chains are not sorted: no order.
  layout.order = layout.chains ? 0 : take(std::uint64_t(layout.individuals) * sizeof(std::uint32_t));
  layout.keys = take(std::uint64_t(layout.sort_n) * sizeof(std::uint64_t));
  layout.chain_states = layout.chains ? take(std::uint64_t(layout.individuals) * sizeof(ChainState)) : 0;
  layout.bytes = at;
  return layout;
}

// A staged island's work area (shared memory on the GPU): its run's puzzle, then its record.
// (Its state stays in each thread's registers: every thread computes it alike.) A step that
// repairs no child stages the puzzle without the repair's table (units_of, its last member), so
// that the table costs the plain GA and the chains no islands a multiprocessor.
template <int B>
inline constexpr std::uint64_t staged_puzzle_bytes(bool repairs) {
  return repairs ? sizeof(PuzzleInfo<B>) : offsetof(PuzzleInfo<B>, units_of);
}
template <int B>
inline constexpr std::uint64_t work_header(bool repairs) {
  return (staged_puzzle_bytes<B>(repairs) + 15) / 16 * 16;
}
template <int B>
inline std::uint64_t staged_bytes(const IslandLayout& layout) {
  return work_header<B>(layout.repair_lanes != 0) + layout.bytes;
}

// A staging area that is there for certain: the GPU's staged island kernel passes its shared
// memory as one, so that the step is compiled for the island in shared memory alone. With a
// pointer that might be null, every access to the island went through a 64-bit generic address
// that could be shared or device memory, and the chains' step spilled at 64 registers
// (docs/decisions.md).
struct StagedWork {
  std::uint8_t* bytes;
};
GPUGA_HD_INLINE std::uint8_t* work_bytes(std::uint8_t* work) { return work; }
GPUGA_HD_INLINE std::uint8_t* work_bytes(StagedWork work) { return work.bytes; }

// `bytes` from src to dst (both 4-byte aligned), split over the team: 32-bit words, then the
// last bytes one by one. Exactly `bytes`: rounded up to a word, a copy home from shared memory
// carried up to 3 bytes that no thread wrote (undefined on a GPU) into the islands' home and
// their snapshots (test_engine_device: SnapshotsOfTwoRunsOfOneSeedAreTheSameBytesAtOddIslandSizes).
template <class Team>
GPUGA_HD void team_copy(const Team& team, void* dst, const void* src, std::uint64_t bytes) {
  auto* to_words = static_cast<std::uint32_t*>(dst);
  const auto* from_words = static_cast<const std::uint32_t*>(src);
  const std::uint64_t words = bytes / 4;
  for (std::uint64_t w = team.rank(); w < words; w += team.size())
    to_words[w] = from_words[w];
  for (std::uint64_t b = 4 * words + team.rank(); b < bytes; b += team.size())
    static_cast<std::uint8_t*>(dst)[b] = static_cast<const std::uint8_t*>(src)[b];
}

// Pair `pair` of a stage of a bitonic network that pairs keys j apart (j a power of two): its
// lower index, i with bit j clear; the other is i + j.
GPUGA_HD_INLINE std::uint32_t pair_low(std::uint32_t pair, std::uint32_t j) {
  return ((pair & ~(j - 1)) << 1) | (pair & (j - 1));
}

// Keys i and i + j (pair_low) in the order stage k of a bitonic network wants.
GPUGA_HD_INLINE void compare_exchange(std::uint64_t* keys, std::uint32_t i, std::uint32_t j,
                                      std::uint32_t k) {
  const std::uint32_t l = i + j;
  const std::uint64_t a = keys[i], b = keys[l];
  if ((a > b) == ((i & k) == 0)) {
    keys[i] = b;
    keys[l] = a;
  }
}

// Sorts n 64-bit keys (n a power of two) by a bitonic network: data-independent, the n / 2 pairs
// of each stage split over the team, a thread a pair (a thread an index would leave the thread of
// each pair's higher index idle: half the team, and under 32 apart half of every warp). A sorting
// team is made of tiles: tile(), tiles(), tile_rank(), tile_size(), tile_sync() (a barrier of the
// tile) and sort_chunk() (a power of two). The stages whose pairs lie within aligned chunks of
// sort_chunk() keys run tile by tile, each tile on its own chunks' pairs with tile barriers; only
// the stages that pair keys of different chunks take a barrier of the whole team. A thread block
// is one tile whose chunk is the whole array; a grid of blocks needs a grid barrier only for the
// wide stages.
template <class Team>
GPUGA_HD void bitonic_sort(const Team& team, std::uint64_t* keys, std::uint32_t count) {
  const std::uint32_t chunk = team.sort_chunk() < count ? team.sort_chunk() : count;
  for (std::uint32_t k = 2; k != 0 && k <= count; k <<= 1) {  // k != 0: 2^31 keys end, not wrap
    std::uint32_t j = k >> 1;
    for (; j >= chunk; j >>= 1) {
      for (const std::uint32_t pair : share(team, count / 2))
        compare_exchange(keys, pair_low(pair, j), j, k);
      team.sync();
    }
    if (j == 0) continue;
    // Every tile takes as many tile barriers, chunk or not, so a team may implement them as its
    // own barrier. A chunk's pairs are pairs c * chunk / 2 on (chunk a multiple of 2 jj).
    for (std::uint32_t round = 0; round < count / chunk; round += team.tiles()) {
      const std::uint32_t c = round + team.tile();
      for (std::uint32_t jj = j; jj > 0; jj >>= 1) {
        if (c < count / chunk)
          for (std::uint32_t pair = c * (chunk / 2) + team.tile_rank(); pair < (c + 1) * (chunk / 2);
               pair += team.tile_size())
            compare_exchange(keys, pair_low(pair, jj), jj, k);
        team.tile_sync();
      }
    }
    if (team.tiles() > 1) team.sync();
  }
}

// What a generation's searches work with (Island::repair): the segment launch's tables (the
// searched step's, searched_step.hpp; none for the other steps) and the island's run's deadline
// (RunTask::deadline), at which a search stops where it is.
struct SearchArea {
  std::uint8_t* tables = nullptr;
  std::int64_t deadline = kNoDeadline;
};

// What improves the repaired GA's grids after their repair (Island::repair): nothing, for the
// repaired GA's step; the searched step's tabu search (searched_step.hpp) is the other. Returns
// the moves it made, which count as evaluations.
struct NoSearch {
  template <class Island, class Lanes>
  GPUGA_HD_INLINE static std::uint64_t after_repair(const Island&, const Lanes&, std::uint8_t*,
                                                    std::uint32_t, std::uint32_t, std::uint64_t,
                                                    std::uint32_t, SearchArea) {
    return 0;
  }
};

// One island's buffers in one record (work or home) and the operators over them.
template <class Team, int B>
struct Island {
  static constexpr int kGenomeBytes = Shape<B>::kGenomeBytes, kBands = kBandScores<B>;
  const Team& team;
  const IslandParams& params;
  const IslandLayout& layout;
  const PuzzleInfo<B>& info;
  const std::uint64_t* cdf;  // rank selection
  std::uint8_t* rec;

  GPUGA_HD std::uint8_t* genome(int side, std::uint32_t i) const {
    return rec + (side ? layout.genomes1 : layout.genomes0) + std::uint64_t(i) * kGenomeBytes;
  }
  GPUGA_HD Fitness* fit(int side) const {
    return reinterpret_cast<Fitness*>(rec + (side ? layout.fit1 : layout.fit0));
  }
  GPUGA_HD std::uint8_t* band(int side, std::uint32_t i) const {
    return layout.bands ? rec + (side ? layout.band1 : layout.band0) + std::uint64_t(i) * kBands : nullptr;
  }
  GPUGA_HD std::uint8_t* kid(std::uint32_t i) const {
    return rec + layout.kids + std::uint64_t(i) * kGenomeBytes;
  }
  GPUGA_HD Fitness* kid_fit() const { return reinterpret_cast<Fitness*>(rec + layout.kid_fit); }
  GPUGA_HD std::uint8_t* kid_band(std::uint32_t i) const {
    return layout.bands ? rec + layout.kid_band + std::uint64_t(i) * kBands : nullptr;
  }
  GPUGA_HD std::uint32_t* order() const { return reinterpret_cast<std::uint32_t*>(rec + layout.order); }
  GPUGA_HD std::uint64_t* keys() const { return reinterpret_cast<std::uint64_t*>(rec + layout.keys); }

  // The live part of an island (its current side, fitness, band scores and order; chains: both
  // sides and their states) to another record: staging into shared memory and back.
  GPUGA_HD void copy_live_to(const Island& to, int side) const {
    const std::uint64_t individuals = layout.individuals;
    if (layout.chains) {
      team_copy(team, to.genome(0, 0), genome(0, 0), individuals * kGenomeBytes);
      team_copy(team, to.genome(1, 0), genome(1, 0), individuals * kGenomeBytes);
      team_copy(team, to.fit(0), fit(0), individuals * sizeof(Fitness));
      team_copy(team, to.fit(1), fit(1), individuals * sizeof(Fitness));
      team_copy(team, to.rec + layout.chain_states, rec + layout.chain_states,
                individuals * sizeof(ChainState));
      return;
    }
    team_copy(team, to.genome(side, 0), genome(side, 0), individuals * kGenomeBytes);
    team_copy(team, to.fit(side), fit(side), individuals * sizeof(Fitness));
    if (layout.bands) team_copy(team, to.band(side, 0), band(side, 0), individuals * kBands);
    team_copy(team, to.order(), order(), individuals * sizeof(std::uint32_t));
  }

  // Sorts (fitness_of(i) << 32 | i) for i < count, padded with ~0 to sort_n, into keys().
  template <class FitnessOf>
  GPUGA_HD const std::uint64_t* sort_keys(std::uint32_t count, const FitnessOf& fitness_of) const {
    std::uint64_t* sorted = keys();
    for (const std::uint32_t i : share(team, layout.sort_n))
      sorted[i] = i < count ? (std::uint64_t(fitness_of(i)) << 32 | i) : ~std::uint64_t(0);
    team.sync();
    team.sort(sorted, layout.sort_n);
    return sorted;
  }

  // Orders `side` by (fitness, index) into order().
  GPUGA_HD void sort_side(int side) const {
    const Fitness* fitness = fit(side);
    const std::uint64_t* sorted =
        sort_keys(layout.individuals, [fitness](std::uint32_t i) { return fitness[i]; });
    for (const std::uint32_t i : share(team, layout.individuals))
      order()[i] = static_cast<std::uint32_t>(sorted[i]);
    team.sync();
  }

  // Genome `from` of side `src` (or a child when from >= n, truncation) to genome i of side `dst`.
  GPUGA_HD void move(int src, std::uint32_t from, int dst, std::uint32_t i) const {
    const bool child = from >= layout.individuals;
    const std::uint32_t index = child ? from - layout.individuals : from;
    copy_genome<B>(genome(dst, i), child ? kid(index) : genome(src, index));
    fit(dst)[i] = child ? kid_fit()[index] : fit(src)[index];
    if (layout.bands) {
      const std::uint8_t* scores = child ? kid_band(index) : band(src, index);
      for (int s = 0; s < kBands; ++s) band(dst, i)[s] = scores[s];
    }
  }

  // A repaired grid (no value twice in a unit) is solved when no free cell is blank.
  GPUGA_HD bool repaired_is_solved(const std::uint8_t* grid) const {
    for (int i = 0; i < info.n_free; ++i)
      if (!grid[info.all_free[i]]) return false;
    return true;
  }

  // Genomes from..to-1 of the array at `genomes` rebuilt within their candidates (the repaired
  // GA), a genome a tile of lanes (repair.hpp), each from its own stream: (seed,
  // generation, its index, kPurposeRepair); then each improved by `Search` (NoSearch, or the
  // tabu search of searched_step.hpp) with `searches` (a parameter rather than a member, so
  // that no other step's Island grows: its kernels' stack frames are held by kernel_resources).
  // Between barriers of the team: the genomes were written by their owners, and are read by
  // theirs after. Returns the searches' moves. A tile's scratch is its puzzle's size
  // (repair_tile_bytes); the launch gave each the most free cells of the engine's puzzles.
  template <class Search>
  GPUGA_HD std::uint64_t repair(std::uint8_t* genomes, std::uint32_t from, std::uint32_t to,
                                std::uint64_t seed, std::uint32_t generation, SearchArea searches) const {
    const auto lanes = team.template lanes<kRepairLanes<B>>(repair_tile_bytes<B>(info.n_free));
    auto& scratch = *reinterpret_cast<RepairScratch<B>*>(lanes.scratch());
    team.sync();
    for (std::uint32_t i = from + lanes.tile(); i < to; i += lanes.tiles()) {
      if (lanes.lane() == 0) scratch.rng = Rng(seed, generation, i, kPurposeRepair);
      lanes.sync();
      repair_on_lanes<B>(lanes, scratch, genomes + std::uint64_t(i) * kGenomeBytes, info);
    }
    team.sync();
    return Search::after_repair(*this, lanes, genomes, from, to, seed, generation, searches);
  }

  // Individuals from..n-1 of `side` new at `generation`, evaluated. kRepaired here and below:
  // the GA's children and new individuals are repaired (repair above), and improved by Search.
  // Returns the searches' moves.
  template <bool kRepaired, class Search = NoSearch>
  GPUGA_HD std::uint64_t renew(int side, std::uint32_t from, std::uint64_t seed, std::uint32_t generation,
                               SearchArea searches = {}) const {
    for (const std::uint32_t i : share(team, from, layout.individuals)) {
      init_genome<B, kRepaired>(genome(side, i), i, seed, generation, params.ga, info);
      if constexpr (!kRepaired) fit(side)[i] = evaluate<B>(genome(side, i), params.ga, band(side, i));
    }
    if constexpr (kRepaired) {
      const std::uint64_t moves =
          repair<Search>(genome(side, 0), from, layout.individuals, seed, generation, searches);
      for (const std::uint32_t i : share(team, from, layout.individuals))
        fit(side)[i] = evaluate_repaired<B>(genome(side, i), band(side, i));
      return moves;
    }
    return 0;
  }

  // Child i of the generation into side `nxt` (or the children, truncation) evaluated.
  template <bool kRepaired>
  GPUGA_HD void evaluate_child(int nxt, std::uint32_t i) const {
    const auto of = [this](std::uint8_t* child, std::uint8_t* bands) {
      if constexpr (kRepaired) return evaluate_repaired<B>(child, bands);
      else return evaluate<B>(child, params.ga, bands);
    };
    if (layout.truncation)
      kid_fit()[i] = of(kid(i), kid_band(i));
    else
      fit(nxt)[i] = of(genome(nxt, i), band(nxt, i));
  }

  // The next generation from side `cur` into side `cur ^ 1`, evaluated (not yet ordered). The
  // elite (copies of parents: tournament and rank) are not repaired again.
  // Returns the searches' moves.
  template <bool kRepaired, class Search = NoSearch>
  GPUGA_HD std::uint64_t breed(int cur, std::uint64_t seed, std::uint32_t generation,
                               SearchArea searches = {}) const {
    const int nxt = cur ^ 1;
    std::uint64_t moves = 0;
    for (const std::uint32_t i : share(team, layout.children)) {
      // Made per child from the record's offsets: six pointers held across the loop were what
      // made the GPU's segment step spill at 64 registers (docs/decisions.md).
      const GenerationView view{genome(cur, 0), fit(cur), order(), cdf,
                             layout.truncation ? kid(0) : genome(nxt, 0), band(cur, 0)};
      breed_child<B>(i, seed, generation, params.ga, info, view);
      if constexpr (!kRepaired) evaluate_child<false>(nxt, i);
    }
    if constexpr (kRepaired) {
      const std::uint32_t copies = params.ga.elite < layout.children ? params.ga.elite : layout.children;
      const std::uint32_t elite = layout.truncation ? 0 : copies;
      moves = repair<Search>(layout.truncation ? kid(0) : genome(nxt, 0), elite, layout.children, seed,
                                generation, searches);
      for (const std::uint32_t i : share(team, layout.children)) evaluate_child<true>(nxt, i);
    }
    if (!layout.truncation) return moves;
    // (mu+lambda): the best of parents (0..individuals-1) and children (individuals..), as many
    // as the parents, ties by that index, in their order, so the survivors' own order is the
    // identity.
    team.sync();
    const Fitness *parents = fit(cur), *kids = kid_fit();
    const std::uint32_t individuals = layout.individuals;
    const std::uint64_t* sorted = sort_keys(individuals + layout.children, [=](std::uint32_t i) {
      return i < individuals ? parents[i] : kids[i - individuals];
    });
    for (const std::uint32_t i : share(team, individuals))
      move(cur, static_cast<std::uint32_t>(sorted[i]), nxt, i);
    return moves;
  }

  // After `side` was ordered at `generation`: a better best becomes the island's best (its grid
  // copied to `best_grid`), fitness 0 marks it solved. Every thread updates its own `state` alike.
  GPUGA_HD void note_best(IslandState& state, int side, std::uint32_t generation, bool first,
                          std::uint8_t* best_grid) const {
    const Fitness best = fit(side)[order()[0]];
    if (!first && best >= state.best_ever) return;
    state.best_ever = best;
    state.last_improvement = generation;
    if (best == 0) state.solved = generation;
    team_copy(team, best_grid, genome(side, order()[0]), kGenomeBytes);
  }

  // Generation 0.
  template <bool kRepaired, class Search = NoSearch>
  GPUGA_HD void init(IslandState& state, std::uint64_t seed, std::uint8_t* best_grid,
                     SearchArea searches = {}) const {
    state = IslandState{};
    state.seed = seed;
    // Every individual evaluated, and every tabu-search move (a move's change of conflicts
    // counts as an evaluation, as a local-search move does below).
    state.evaluations = layout.individuals + renew<kRepaired, Search>(0, 0, seed, 0, searches);
    team.sync();
    sort_side(0);
    note_best(state, 0, 0, true, best_grid);
  }

  // One generation: a restart when one falls due, else breeding; then order and progress.
  template <bool kRepaired, class Search = NoSearch>
  GPUGA_HD void generation(IslandState& state, std::uint32_t gen, std::uint8_t* best_grid,
                           SearchArea searches = {}) const {
    const int cur = state.side, nxt = cur ^ 1;
    if (params.restart_after && gen - state.last_improvement > params.restart_after) {
      const std::uint32_t keep = kept_on_restart(params, layout.individuals);
      for (const std::uint32_t i : share(team, keep)) move(cur, order()[i], nxt, i);
      const std::uint64_t moves = renew<kRepaired, Search>(nxt, keep, state.seed, gen, searches);
      ++state.restarts;
      state.last_improvement = gen;
      state.evaluations += layout.individuals - keep + moves;
    } else {
      const std::uint64_t moves = breed<kRepaired, Search>(cur, state.seed, gen, searches);
      // Besides the children, every tabu-search move (a move's fitness change counts as an
      // evaluation, as for sa and hc).
      state.evaluations += bred_evaluations(layout.children, params.ga) + moves;
    }
    state.side = static_cast<std::uint8_t>(nxt);
    team.sync();
    sort_side(nxt);
    note_best(state, nxt, gen, false, best_grid);
  }

  // Adds `side`'s fitness sum and the diversity sample's Hamming distances to individual `best`
  // into a summary (zeroed by the caller, with a barrier after).
  GPUGA_HD void add_sums(IslandSummary& out, int side, std::uint32_t best) const {
    std::uint64_t sum = 0, dist = 0;
    for (const std::uint32_t i : share(team, layout.individuals)) sum += fit(side)[i];
    for (const std::uint32_t k : share(team, sample_size(layout.individuals)))
      dist += hamming<B>(genome(side, sample_index(k, layout.individuals)), genome(side, best));
    team.add(&out.fitness_sum, sum);
    team.add(&out.distance_sum, dist);
  }

  // The best `m` individuals, best first, to an outbox of m genomes, fitness and band scores.
  GPUGA_HD void emigrate(const IslandState& state, std::uint8_t* outbox,
                         std::uint32_t migrants) const {
    for (const std::uint32_t j : share(team, migrants)) {
      const std::uint32_t from = order()[j];
      copy_genome<B>(outbox + std::uint64_t(j) * kGenomeBytes, genome(state.side, from));
      reinterpret_cast<Fitness*>(outbox + std::uint64_t(migrants) * kGenomeBytes)[j] =
          fit(state.side)[from];
      if (layout.bands)
        for (int b = 0; b < kBands; ++b)
          outbox[std::uint64_t(migrants) * (kGenomeBytes + sizeof(Fitness)) + j * kBands + b] =
              band(state.side, from)[b];
    }
  }

  // A neighbour's outbox replaces the worst `m` (immigrant j into the j-th of them, worst last).
  GPUGA_HD void immigrate(IslandState& state, const std::uint8_t* outbox, std::uint32_t migrants,
                          std::uint8_t* best_grid) const {
    for (const std::uint32_t j : share(team, migrants)) {
      const std::uint32_t to = order()[layout.individuals - migrants + j];
      copy_genome<B>(genome(state.side, to), outbox + std::uint64_t(j) * kGenomeBytes);
      fit(state.side)[to] =
          reinterpret_cast<const Fitness*>(outbox + std::uint64_t(migrants) * kGenomeBytes)[j];
      if (layout.bands)
        for (int b = 0; b < kBands; ++b)
          band(state.side, to)[b] =
              outbox[std::uint64_t(migrants) * (kGenomeBytes + sizeof(Fitness)) + j * kBands + b];
    }
    team.sync();
    sort_side(state.side);
    note_best(state, state.side, state.clock, false, best_grid);
  }
};

}  // namespace gpuga
