// The CPU backend: the island engine (island_engine.hpp) on the host system, the same text the
// CUDA backend runs, so the two compute the same bytes.
#include <stdexcept>

#include "host_system.hpp"
#include "island_engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const EngineParams& params,
                                        int threads, std::uint32_t slots) {
  if (threads < 1) throw std::logic_error("a CPU engine of no threads (plan() sets them)");
  return make_island_engine(puzzle, params, HostSystem(threads), slots);
}

}  // namespace gpuga
