#pragma once
// A tile of lanes: the threads of a team that work on one thing together (a child under repair,
// repair.hpp), and the few ways they cooperate, each with a plain serial meaning:
//   lane(), width()     this thread's lane in its tile, and the tile's lanes;
//   tile(), tiles()     this tile in its team, and the team's tiles;
//   sync()              a barrier of the tile, after which every lane sees what the others wrote
//                       to the tile's scratch;
//   ballot(pred)        pred of every lane, bit k lane k's (one lane: pred itself);
//   reduce_min(mine)    the least of the lanes' values, to every lane (one lane: its own);
//   broadcast(mine, k)  lane k's value, to every lane (one lane: its own);
//                       each of these three also a barrier of the tile, as sync() is;
//   fetch_or(word, bits) an atomic *word |= bits into the tile's scratch, returning it before;
//   scratch()           the tile's own bytes (Team::lanes says how many).
// A GPU block splits into tiles of a fixed width within a warp (cooperative groups' tiles,
// cuda/device_system.hpp); a CPU thread, and each thread of the OpenMP twin, is a tile of one
// lane (OneLane below), where each of these has its plain serial meaning. What a tile computes
// must not depend on its width: tests/test_repair.cpp runs the repair on OpenMP threads with
// real barriers (tests/omp_lanes.hpp) at widths 1 to 32 against the serial reference.
#include <concepts>
#include <cstdint>

#include "gpuga/device/hd.hpp"

namespace gpuga {

// What a tile offers, as above; every tile type is held to it where it is defined.
template <class T>
concept Tile = requires(const T tile, bool pred, std::uint32_t word, std::uint32_t* words,
                        std::uint64_t* wide_words, std::uint64_t wide) {
  { tile.lane() } -> std::same_as<std::uint32_t>;
  { tile.width() } -> std::same_as<std::uint32_t>;
  { tile.tile() } -> std::same_as<std::uint32_t>;
  { tile.tiles() } -> std::same_as<std::uint32_t>;
  tile.sync();
  { tile.ballot(pred) } -> std::same_as<std::uint32_t>;
  { tile.reduce_min(word) } -> std::same_as<std::uint32_t>;
  { tile.broadcast(word, word) } -> std::same_as<std::uint32_t>;
  { tile.fetch_or(words, word) } -> std::same_as<std::uint32_t>;
  { tile.fetch_or(wide_words, wide) } -> std::same_as<std::uint64_t>;
  { tile.scratch() } -> std::same_as<std::uint8_t*>;
};

// A team: the threads that hold one island (a GPU block, a CPU thread, or every CPU thread for a
// lone island), with a rank each, a barrier, the island's sort, a shared clock (past: whether a
// deadline went by, the same answer to every thread), an atomic add to a run's counters, and the
// tiles it splits into for a child's repair (lanes<width>(bytes a tile)) and for its search's
// tables (search_tile).
template <class T>
concept Team = requires(const T team, std::uint64_t* keys, std::uint32_t count, std::int64_t deadline,
                        std::uint64_t value) {
  { T::kContiguous } -> std::convertible_to<bool>;
  { T::kCutsGenerationZero } -> std::convertible_to<bool>;
  { team.rank() } -> std::same_as<std::uint32_t>;
  { team.size() } -> std::same_as<std::uint32_t>;
  team.sync();
  team.sort(keys, count);
  { team.past(deadline) } -> std::same_as<bool>;
  team.add(keys, value);
  { team.template lanes<32>(count) } -> Tile;
  { team.search_tile(team.template lanes<32>(count)) } -> std::same_as<std::uint64_t>;
};

// A tile of one lane: a CPU thread, tile `index` of `count` in its team, with its scratch.
struct OneLane {
  std::uint32_t index = 0, count = 1;
  std::uint8_t* bytes = nullptr;

  GPUGA_HD_INLINE std::uint32_t lane() const { return 0; }
  GPUGA_HD_INLINE std::uint32_t width() const { return 1; }
  GPUGA_HD_INLINE std::uint32_t tile() const { return index; }
  GPUGA_HD_INLINE std::uint32_t tiles() const { return count; }
  GPUGA_HD_INLINE void sync() const {}
  GPUGA_HD_INLINE std::uint32_t ballot(bool pred) const { return pred ? 1u : 0u; }
  GPUGA_HD_INLINE std::uint32_t reduce_min(std::uint32_t mine) const { return mine; }
  GPUGA_HD_INLINE std::uint32_t broadcast(std::uint32_t mine, std::uint32_t) const { return mine; }
  template <class Word>  // a unit's mask: 32 bits up to 25x25, 64 from 36x36
  GPUGA_HD_INLINE Word fetch_or(Word* word, Word bits) const {
    const Word before = *word;
    *word = before | bits;
    return before;
  }
  GPUGA_HD_INLINE std::uint8_t* scratch() const { return bytes; }
};
static_assert(Tile<OneLane>);

// Bytes of a tile's scratch, rounded up so that every tile's starts 16-byte aligned.
GPUGA_HD_INLINE constexpr std::uint32_t tile_scratch_bytes(std::uint64_t bytes) {
  return static_cast<std::uint32_t>((bytes + 15) / 16 * 16);
}

}  // namespace gpuga
