#pragma once
// The defaults that depend on where a run runs, on its puzzle's box size and on whether the GA
// repairs its children, in one table: what --island-size 0, --local-search auto,
// --restart-after and --grow-after auto (the GA's) and --pop 0 resolve to on the CPU and on a
// CUDA device, for one puzzle (the fastest time to a solution) and for many puzzles at once
// (solve FILE: the most puzzles a second).
// docs/benchmarks.md, "The defaults, by backend and size", has the table and docs/decisions.md
// how it was chosen. Pure functions: tests check the resolution from made-up device shapes, with
// no GPU.
#include <cstdint>
#include <vector>

#include "gpuga/device/island_params.hpp"

namespace gpuga {

enum class Backend;  // gpuga/engine.hpp

struct SizeDefaults {
  std::uint32_t island_size = 0;   // individuals per island
  std::uint32_t local_search = 0;  // hill-climbing moves per child
  std::uint32_t restart_after = 0;  // ga: generations without improvement before an island restarts
  std::uint32_t grow_after = 0;     // ga: generations before a run's islands double (0: never)
  // --pop 0, one puzzle: islands per unit (a CPU thread or a multiprocessor), at most as many as
  // run there at once.
  std::uint32_t islands_per_unit = 0;
  // --pop 0, many puzzles at once: islands per run, runs side by side until the units are full;
  // their island size and growth (smaller islands growing sooner than one puzzle's where a
  // device's room favours many small runs whose slow few grow: docs/benchmarks.md).
  std::uint32_t islands_per_run = 0;
  std::uint32_t many_island_size = 0;
  std::uint32_t many_grow_after = 0;
  std::uint32_t tabu = 0;  // the repaired GA: tabu-search steps on every repaired grid
  std::uint32_t tabu_return = 0;  // its steps with no better best before a search goes back to it
};

// The entry for `backend` (box sizes 2 to 8), puzzles of box size `box` and the GA
// whose children are repaired or not (--repair; sa and hc take the plain GA's).
const SizeDefaults& size_defaults(Backend backend, int box, Repair repair);

// The island sizes an entry starts runs on: one puzzle's, then many puzzles' where it differs.
std::vector<std::uint32_t> table_island_sizes(const SizeDefaults& d);

// Where runs go: the backend's units (CPU threads, or a device's multiprocessors) and how many
// islands of the default size run at once on one (1 on a CPU thread; on a multiprocessor, the
// segment step's occupancy with the island's shared memory).
struct BackendShape {
  std::uint32_t units = 1;
  std::uint32_t islands_at_once = 1;
};

// The island size when --island-size is 0 and --pop is `pop` (0: the default size): the
// default size when it divides pop, pop itself when smaller, else the largest divisor of pop
// from half the default size up; with none, the default size (which plan()'s checks then
// refuse, saying so).
std::uint32_t default_island_size(std::uint32_t pop, std::uint32_t size);

// --pop 0: the islands of one run (one puzzle), and of each run when `many` puzzles share the
// backend.
std::uint32_t default_islands(const SizeDefaults& d, const BackendShape& shape);
std::uint32_t default_islands_per_run(const SizeDefaults& d, const BackendShape& shape);

// Runs of `islands` islands side by side that fill the shape's units (at least 1).
std::uint32_t runs_that_fill(const BackendShape& shape, std::uint32_t islands);

// Runs an engine holds at once where the command leaves it (--concurrent 0), for runs of
// `islands` islands and `pop` individuals: runs sized for throughput (`many`: solve's puzzles
// together) as many as fill the shape's units; runs each sized as one puzzle's (batch, sweep,
// rate) 8 on the CPU, whose threads then take islands of several runs, and on a GPU about a
// million individuals in all (1 to 65535 runs).
std::uint32_t default_slots(Backend backend, bool many, const BackendShape& shape,
                            std::uint32_t islands, std::uint32_t pop);

}  // namespace gpuga
