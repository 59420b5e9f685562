#pragma once
// A tile of lanes (include/gpuga/device/lanes.hpp) made of every OpenMP thread of the enclosing
// parallel region, with real barriers, so that a missing one shows as a wrong result:
// tests/test_repair.cpp runs the repair on it at widths 1 to 32, as a GPU's tiles run it. Every
// lane takes each barrier alike whatever its work, as the lanes of a warp do.
#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace gpuga {

struct OmpLanes {
  std::uint32_t* exchange;  // two words a thread: the collectives go through them
  std::uint8_t* bytes;      // the tile's scratch
  mutable std::uint32_t collectives = 0;  // this thread's so far: which of its words is next

  std::uint32_t lane() const { return static_cast<std::uint32_t>(omp_get_thread_num()); }
  std::uint32_t width() const { return static_cast<std::uint32_t>(omp_get_num_threads()); }
  std::uint32_t tile() const { return 0; }
  std::uint32_t tiles() const { return 1; }
  void sync() const {
#pragma omp barrier
  }
  std::uint32_t ballot(bool pred) const {
    return combined(pred, [](std::uint32_t mask, std::uint32_t bit, std::uint32_t k) {
      return mask | bit << k;
    });
  }
  std::uint32_t reduce_min(std::uint32_t x) const {
    return combined(x, [](std::uint32_t least, std::uint32_t y, std::uint32_t) {
      return std::min(least, y);
    });
  }
  std::uint32_t broadcast(std::uint32_t x, std::uint32_t from) const {
    return combined(x, [from](std::uint32_t so_far, std::uint32_t y, std::uint32_t k) {
      return k == from ? y : so_far;
    });
  }
  template <class Word>
  Word fetch_or(Word* p, Word bits) const {
    return __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
  }
  std::uint8_t* scratch() const { return bytes; }

 private:
  // Every lane's x combined in lane order (combine(so_far, x of lane k, k)), to every lane,
  // after one barrier. The collectives take turns between two rows of words: a lane writes a row
  // again two collectives on, when every lane has passed the barrier of the one between, and so
  // has read the row.
  template <class Combine>
  std::uint32_t combined(std::uint32_t x, Combine combine) const {
    std::uint32_t* row = exchange + (collectives++ & 1u) * width();
    row[lane()] = x;
    sync();
    std::uint32_t out = row[0];
    for (std::uint32_t k = 1; k < width(); ++k) out = combine(out, row[k], k);
    return out;
  }
};

}  // namespace gpuga
