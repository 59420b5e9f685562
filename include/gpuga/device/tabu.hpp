#pragma once
// A tabu search on a repaired grid (--tabu N), the repaired GA's improvement step: TabuCol
// (Hertz & de Werra) on the free cells as Goudet & Hao's memetic algorithm runs it on Latin
// squares. The repaired grid's blanks take their least-held candidate first (a blank with no
// candidate stays blank), so that every free cell holds one of its candidates and the grid is
// scored by its conflicts (pairs of cells of a unit holding one value). A move changes a
// conflicting cell to another of its candidates; its score is the change in conflicts. Each step
// makes the best move that is not tabu: a cell may not take back a value it left for rand(10) +
// 0.6 x (cells in conflict) steps after (the tenure), unless the move leaves fewer conflicts than
// the search's best (aspiration). Ties go to a random one: every move's key is (score, a hash of
// (stream, step, cell, value), cell, value), and the least key is made. The search ends after
// `steps` steps, with no conflict left or at its run's deadline (a time limit); the genome holds
// the best grid found (the fewest conflicts, the earliest), whose conflict fitness (fitness.hpp)
// is 0 only when it is solved. With a return (--tabu-return R), a search whose last R steps have
// neither bettered its best nor gone back goes back to its best grid, the tabu cleared: from 49x49
// a long search spends most of its steps far above its best, which it reaches only now and then,
// and a start from the best again and again brings it nearer (docs/decisions.md).
//
// A search runs on a tile of lanes (lanes.hpp), a warp on a GPU and one lane on a CPU thread:
// the lanes score the moves of the cells in conflict in turn and agree on the least key (a
// reduction over the tile); the lanes move the peers' counts of the move, and lane 0 keeps
// the list of cells in conflict and the tenures. The move made is the least key however the
// lanes split the list, so any width makes the same moves. Its tables (peers holding each
// value, and each cell's tabu per value) are a cell by value each, hundreds of KiB at 36x36 and
// more than a megabyte at 64x64: the system
// holds one a tile (System::search_tiles, Team::search_tile; global memory on a GPU).
// tests/test_tabu.cpp checks the search against one written out cell by cell, at widths 1 to 32.
#include <cstdint>

#include "gpuga/device/lanes.hpp"
#include "gpuga/device/operators.hpp"
#include "gpuga/device/puzzle_info.hpp"
#include "gpuga/device/rng.hpp"

namespace gpuga {

// A search's state, for one search at a time on a tile of lanes.
template <int B>
struct TabuScratch {
  using S = Shape<B>;
  // A row of `held` a cell. Where a column's cells would lie a multiple of 4 KiB apart (64x64),
  // they share one set of an x86 core's L1 cache, and a move walks its column's counts: 8 bytes
  // more a row spread them.
  static constexpr int kHeldRow = S::kSide * S::kSide % 4096 == 0 ? S::kSide + 8 : S::kSide;
  std::uint8_t grid[S::kCells];                // the search's current grid
  std::uint8_t held[S::kCells][kHeldRow];      // [c][v - 1]: cells of c's units but c holding v
  std::uint32_t tabu[S::kCells][S::kSide];     // [c][v - 1]: the step from which c may take v again
  // The free cells in conflict (held[c][grid[c] - 1] > 0), in no order, and each cell's place in
  // that list (kOut when not in it): a step scores only their moves. Which move is made does not
  // depend on the list's order, since the least key is made.
  static constexpr std::uint16_t kOut = 0xFFFF;
  std::uint16_t conflicted[S::kCells];
  std::uint16_t place[S::kCells];
  int n_conflicted;
  std::uint64_t moves;  // the tile's searches' moves in the island's current generation (island.hpp)
};

// Bytes of a tile's tables, as the systems lay them out one after another (16-byte aligned).
template <int B>
inline constexpr std::uint64_t kTabuTableBytes = tile_scratch_bytes(sizeof(TabuScratch<B>));

// A move as a key: score + 1024 (14 bits), a hash (32), the cell (12) and value - 1 (6); the
// least key is the best move, ties by the hash.
struct TabuKey {
  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  GPUGA_HD_INLINE static std::uint64_t make(int score, std::uint32_t hash, int cell, int value) {
    return static_cast<std::uint64_t>(score + 1024) << 50 | static_cast<std::uint64_t>(hash) << 18 |
           static_cast<std::uint64_t>(cell) << 6 | static_cast<std::uint64_t>(value - 1);
  }
  GPUGA_HD_INLINE static int score(std::uint64_t key) { return static_cast<int>(key >> 50) - 1024; }
  GPUGA_HD_INLINE static int cell(std::uint64_t key) { return static_cast<int>(key >> 6 & 0xFFF); }
  GPUGA_HD_INLINE static int value(std::uint64_t key) { return static_cast<int>(key & 0x3F) + 1; }
};

// A 32-bit mix of a search's stream word and a step's move (the finaliser of MurmurHash3).
GPUGA_HD_INLINE std::uint32_t tabu_hash(std::uint32_t stream, std::uint32_t step, std::uint32_t what) {
  std::uint32_t hash = stream ^ step * 0x9E3779B1u ^ what * 0x85EBCA77u;
  hash ^= hash >> 16;
  hash *= 0x85EBCA6Bu;
  hash ^= hash >> 13;
  hash *= 0xC2B2AE35u;
  return hash ^ (hash >> 16);
}

// Calls visit(peer) for each cell of c's row, column and box but c, once each.
template <int B, class Visit>
GPUGA_HD_INLINE void for_each_peer(int c, const Visit& visit) {
  using S = Shape<B>;
  const int row = S::row_of(c), col = S::col_of(c);
  for (int k = 0; k < S::kSide; ++k) {
    if (k != col) visit(S::row_cell(row, k));
    if (k != row) visit(S::col_cell(col, k));
  }
  const int box = S::box_of(c);
  for (int k = 0; k < S::kSide; ++k) {
    const int peer = S::box_cell(box, k);
    if (S::row_of(peer) != row && S::col_of(peer) != col) visit(peer);
  }
}

template <int B>
struct TabuSearch {
  using S = Shape<B>;
  using Bits = typename S::Bits;
  TabuScratch<B>& scratch;
  const PuzzleInfo<B>& info;
  std::uint32_t stream;  // the child's word for the hashes

  // Cell c into (or out of) the list of cells in conflict, as its table now says.
  GPUGA_HD_INLINE void list(int c) const {
    const int now = scratch.grid[c];
    const bool conflicting = now && scratch.held[c][now - 1] > 0;
    const bool listed = scratch.place[c] != TabuScratch<B>::kOut;
    if (conflicting == listed) return;
    if (conflicting) {
      scratch.place[c] = static_cast<std::uint16_t>(scratch.n_conflicted);
      scratch.conflicted[scratch.n_conflicted++] = static_cast<std::uint16_t>(c);
      return;
    }
    const int last = scratch.conflicted[--scratch.n_conflicted];
    scratch.conflicted[scratch.place[c]] = static_cast<std::uint16_t>(last);
    scratch.place[last] = scratch.place[c];
    scratch.place[c] = TabuScratch<B>::kOut;
  }

  // Value v at cell c counted in its peers' tables, the peers holding v listed anew.
  GPUGA_HD_INLINE void count_and_list(int c, int v) const {
    for_each_peer<B>(c, [&](int peer) {
      ++scratch.held[peer][v - 1];
      if (scratch.grid[peer] == v) list(peer);
    });
  }

  // The genome into the scratch, its blanks filled in the order of the free cells, each with the
  // candidate its peers hold least (the lowest of those). Returns the conflicts.
  GPUGA_HD_INLINE int load(const std::uint8_t* genome) const {
    for (int c = 0; c < S::kCells; ++c) {
      scratch.grid[c] = genome[c];
      scratch.place[c] = TabuScratch<B>::kOut;
      for (int v = 0; v < S::kSide; ++v) scratch.held[c][v] = 0;
    }
    scratch.n_conflicted = 0;
    for (int i = 0; i < info.n_free; ++i)
      for (int v = 0; v < S::kSide; ++v) scratch.tabu[info.all_free[i]][v] = 0;
    for (int c = 0; c < S::kCells; ++c)
      if (scratch.grid[c]) count_and_list(c, scratch.grid[c]);
    for (int i = 0; i < info.n_free; ++i) {
      const int c = info.all_free[i];
      if (scratch.grid[c]) continue;
      int fill = 0;
      for (Bits m = static_cast<Bits>(info.allowed[c]); m; m &= m - 1) {
        const int v = S::value_of_bit(lowest_bit(m));
        if (!fill || scratch.held[c][v - 1] < scratch.held[c][fill - 1]) fill = v;
      }
      if (!fill) continue;
      scratch.grid[c] = static_cast<std::uint8_t>(fill);
      count_and_list(c, fill);
    }
    int conflicts = 0;
    for (int i = 0; i < info.n_free; ++i) {  // each free cell's own place in the list, as it ends
      const int c = info.all_free[i];
      if (scratch.grid[c]) conflicts += scratch.held[c][scratch.grid[c] - 1];
      list(c);
    }
    return conflicts / 2;  // each pair of free cells twice; givens hold no free cell's candidate
  }

  // The least key of the moves at `step` of the cells in conflict from the list's `first`, every
  // `stride`th (a lane's share; a cell left blank has none).
  GPUGA_HD_INLINE std::uint64_t best_key(std::uint32_t step, int conflicts, int best, int first,
                                         int stride) const {
    std::uint64_t least = TabuKey::kNone;
    for (int i = first; i < scratch.n_conflicted; i += stride) {
      const int c = scratch.conflicted[i], now = scratch.grid[c];
      const int here = scratch.held[c][now - 1];
      for (Bits m = static_cast<Bits>(info.allowed[c]); m; m &= m - 1) {
        const int v = S::value_of_bit(lowest_bit(m));
        if (v == now) continue;
        const int score = scratch.held[c][v - 1] - here;
        // Worse than the least key's score: not the move, tabu or not (the table's read, a
        // cache miss at 64x64, skipped).
        if (least != TabuKey::kNone && score > TabuKey::score(least)) continue;
        if (scratch.tabu[c][v - 1] > step && conflicts + score >= best) continue;
        const std::uint64_t key = TabuKey::make(
            score, tabu_hash(stream, step, static_cast<std::uint32_t>(c) << 6 | (v - 1)), c, v);
        least = key < least ? key : least;
      }
    }
    return least;
  }

  // Cell c to value v at `step`, by every lane of the tile: the peers' counts move from the old
  // value to v, each lane its share of the peers (in device memory on a GPU, so the tile's loads
  // overlap); then lane 0 lists anew the peers holding either value and c, and makes the value c
  // left tabu for the tenure, which counts the cells in conflict before the move. Every lane
  // meets after. The list's order may differ from a lane's alone; the moves do not (best_key).
  template <class Lanes>
  GPUGA_HD_INLINE void make(const Lanes& lanes, int c, int v, std::uint32_t step) const {
    const int old = scratch.grid[c], lane = static_cast<int>(lanes.lane()), width = static_cast<int>(lanes.width());
    int k = 0;
    for_each_peer<B>(c, [&](int peer) {
      if (k++ % width != lane) return;
      --scratch.held[peer][old - 1];
      ++scratch.held[peer][v - 1];
    });
    lanes.sync();
    if (lane == 0) {
      const std::uint32_t tenure = tabu_hash(stream, step, 0xFFFFFFFFu) % 10 +
                                   static_cast<std::uint32_t>(scratch.n_conflicted) * 3 / 5;
      scratch.grid[c] = static_cast<std::uint8_t>(v);
      for_each_peer<B>(c, [&](int peer) {
        if (scratch.grid[peer] == old || scratch.grid[peer] == v) list(peer);
      });
      list(c);
      scratch.tabu[c][old - 1] = step + 1 + tenure;
    }
    lanes.sync();
  }

  // The search's grid into the genome, by every lane of the tile; the tile meets after, so that
  // no lane's next move changes the grid under another's copy.
  template <class Lanes>
  GPUGA_HD_INLINE void keep(const Lanes& lanes, std::uint8_t* genome) const {
    for (int k = static_cast<int>(lanes.lane()); k < S::kCells; k += static_cast<int>(lanes.width()))
      genome[k] = scratch.grid[k];
    lanes.sync();
  }
};

// The least of the tile's keys, on every lane: the least high word, then the least low word of
// the lanes that hold it (two 32-bit reductions, as a warp reduces).
template <class Lanes>
GPUGA_HD_INLINE std::uint64_t least_key(const Lanes& lanes, std::uint64_t key) {
  const auto high = static_cast<std::uint32_t>(key >> 32);
  const std::uint32_t least_high = lanes.reduce_min(high);
  const std::uint32_t least_low = lanes.reduce_min(high == least_high ? static_cast<std::uint32_t>(key) : ~0u);
  return std::uint64_t(least_high) << 32 | least_low;
}

// Lane 0 looks at the run's deadline for its tile every kDeadlineSteps steps, so that a time
// limit ends a generation of long searches.
inline constexpr std::uint32_t kDeadlineSteps = 1024;

// The genome into the tile's tables, by lane 0 alone (the blanks are filled in the order of the
// free cells); its conflicts, on every lane, which meet here.
template <int B, class Lanes>
GPUGA_HD_INLINE int tabu_load(const Lanes& lanes, const TabuSearch<B>& search, const std::uint8_t* genome) {
  const int conflicts = lanes.lane() == 0 ? search.load(genome) : 0;
  return static_cast<int>(lanes.broadcast(static_cast<std::uint32_t>(conflicts), 0));
}

// Up to `steps` steps of the search on `genome` (a repaired grid) by the tile `lanes`, its
// hashes keyed by the child's stream (seed, generation, child, kPurposeTabu), back to the best
// grid after `return_after` steps that neither bettered it nor went back (0: never), until
// `deadline` (RunTask::deadline) has passed; returns the moves made. Every lane follows the same
// conflicts and best (each reads the agreed key); the lanes write the counts of a move, lane 0
// the rest of the tables.
template <int B, class Lanes>
GPUGA_HD std::uint32_t tabu_search(const Lanes& lanes, TabuScratch<B>& scratch, std::uint8_t* genome,
                                   const PuzzleInfo<B>& info, std::uint64_t seed, std::uint32_t generation,
                                   std::uint32_t child, std::uint32_t steps, std::uint32_t return_after = 0,
                                   std::int64_t deadline = kNoDeadline) {
  Rng rng(seed, generation, child, kPurposeTabu);
  const TabuSearch<B> search{scratch, info, rng.next()};
  const int lane = static_cast<int>(lanes.lane()), width = static_cast<int>(lanes.width());
  int conflicts = tabu_load(lanes, search, genome);
  int best = conflicts;
  search.keep(lanes, genome);
  std::uint32_t step = 0, last_turn = 0;  // the step of the last better best or return
  for (; step < steps && best > 0; ++step) {
    if (step % kDeadlineSteps == kDeadlineSteps - 1 &&
        lanes.broadcast(lane == 0 && deadline_passed(deadline), 0))
      break;
    const std::uint64_t key = least_key(lanes, search.best_key(step, conflicts, best, lane, width));
    if (key == TabuKey::kNone) break;
    search.make(lanes, TabuKey::cell(key), TabuKey::value(key), step);
    conflicts += TabuKey::score(key);
    if (conflicts < best) {
      best = conflicts;
      last_turn = step;
      search.keep(lanes, genome);
    } else if (return_after && step - last_turn >= return_after) {
      conflicts = tabu_load(lanes, search, genome);  // the best grid, which the genome holds
      last_turn = step;
    }
  }
  return step;
}

}  // namespace gpuga
