// The CPU backend: the island engine (island_engine.hpp) on the host system, the same text the
// CUDA backend runs, so the two compute the same bytes.
#include <omp.h>

#include "host_system.hpp"
#include "island_engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const EngineParams& params,
                                        int threads, std::uint32_t slots) {
  return make_island_engine(puzzle, params,
                            HostSystem(threads > 0 ? threads : omp_get_max_threads()), slots);
}

}  // namespace gpuga
