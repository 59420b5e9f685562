#pragma once
// A tile of lanes (include/gpuga/device/lanes.hpp) made of OpenMP threads, with real barriers, so
// that a missing one shows as a wrong result. Either every thread of the enclosing parallel
// region (tests/test_repair.cpp runs the repair on it at widths 1 to 32, as a GPU's tiles run it),
// or `width` consecutive threads of a team split into tiles, each with a barrier of its own (the
// OpenMP twin's engine with tiles of several lanes: cuda/device_system.hpp). Every lane takes
// each barrier alike whatever its work, as the lanes of a warp do.
#include <omp.h>

#include <algorithm>
#include <barrier>
#include <cstdint>

namespace gpuga {

class OmpLanes {
 public:
  // The whole parallel region one tile: `exchange` holds two words a thread.
  OmpLanes(std::uint32_t* exchange, std::uint8_t* bytes)
      : exchange_(exchange), bytes_(bytes), lane_(static_cast<std::uint32_t>(omp_get_thread_num())),
        width_(static_cast<std::uint32_t>(omp_get_num_threads())) {}
  // Tile `tile` of `tiles`, lane `lane` of `width`, on the tile's barrier (of `width` threads),
  // exchange words (two a lane) and scratch.
  OmpLanes(std::uint32_t* exchange, std::uint8_t* bytes, std::barrier<>& barrier,
           std::uint32_t lane, std::uint32_t width, std::uint32_t tile, std::uint32_t tiles)
      : exchange_(exchange), bytes_(bytes), barrier_(&barrier), lane_(lane), width_(width),
        tile_(tile), tiles_(tiles) {}

  std::uint32_t lane() const { return lane_; }
  std::uint32_t width() const { return width_; }
  std::uint32_t tile() const { return tile_; }
  std::uint32_t tiles() const { return tiles_; }
  void sync() const {
    if (barrier_) {
      barrier_->arrive_and_wait();
      return;
    }
#pragma omp barrier
  }
  std::uint32_t ballot(bool pred) const {
    return combined(pred, [](std::uint32_t mask, std::uint32_t bit, std::uint32_t k) {
      return mask | bit << k;
    });
  }
  std::uint32_t reduce_min(std::uint32_t mine) const {
    return combined(mine, [](std::uint32_t least, std::uint32_t y, std::uint32_t) {
      return std::min(least, y);
    });
  }
  std::uint32_t broadcast(std::uint32_t mine, std::uint32_t from) const {
    return combined(mine, [from](std::uint32_t so_far, std::uint32_t y, std::uint32_t k) {
      return k == from ? y : so_far;
    });
  }
  template <class Word>
  Word fetch_or(Word* word, Word bits) const {
    return __atomic_fetch_or(word, bits, __ATOMIC_RELAXED);
  }
  std::uint8_t* scratch() const { return bytes_; }

 private:
  // Every lane's x combined in lane order (combine(so_far, x of lane k, k)), to every lane,
  // after one barrier. The collectives take turns between two rows of words: a lane writes a row
  // again two collectives on, when every lane has passed the barrier of the one between, and so
  // has read the row.
  template <class Combine>
  std::uint32_t combined(std::uint32_t x, Combine combine) const {
    std::uint32_t* row = exchange_ + (collectives_++ & 1u) * width_;
    row[lane_] = x;
    sync();
    std::uint32_t out = row[0];
    for (std::uint32_t k = 1; k < width_; ++k) out = combine(out, row[k], k);
    return out;
  }

  std::uint32_t* exchange_;
  std::uint8_t* bytes_;
  std::barrier<>* barrier_ = nullptr;  // none: the parallel region's barrier
  std::uint32_t lane_, width_, tile_ = 0, tiles_ = 1;
  mutable std::uint32_t collectives_ = 0;  // this thread's so far: which of its words is next
};
static_assert(Tile<OmpLanes>);

}  // namespace gpuga
