#pragma once
// A run's plan: what the user asked (RunOptions, gpuga/run_config.hpp), resolved once for where
// it runs (a Target: the backend and its device, the puzzle's box size, one puzzle or many at
// once). plan() is the only place defaults are decided: RunConfig's own, the defaults table's for
// the size and backend (gpuga/defaults.hpp), and the population that fills the device; a
// configuration that cannot run is refused there, naming the setting, its value and what is
// allowed. Every consumer takes a plan: solve, batch, sweep, bench, MPI ranks, Python,
// checkpoints and the kernel table. Each puzzle size of a file gets its own.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuga/defaults.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/launch_limits.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

// This process's place on its node: one of several ranks of an MPI job (`several`), which share
// the node's cores and CUDA devices, its local rank among them. A lone process: the defaults.
struct NodePlace {
  bool several = false;
  int local_rank = 0;
  int local_ranks = 1;
};

// Where a run runs, as plain data: probe_target() asks the backend once (the CUDA device's
// multiprocessors, what one holds, the footprints of the box size's segment kernels); plan()
// reads the target only, and calls no backend.
struct Target {
  Backend backend = Backend::Cpu;  // cpu or cuda, resolved
  int device = 0;
  int box = 3;               // the puzzles' box size (2 to 7; CUDA 2 to 5)
  bool many = false;         // many puzzles at once: each run sized for throughput
  // The most free cells of the puzzles that the front end knows it will run (0: every cell of
  // the box size): the repaired GA's tiles hold their candidates, and so their number a block.
  std::uint32_t free_cells = 0;
  std::uint32_t ranks = 1;   // processes that share each run's islands (MPI)
  std::uint32_t units = 1;   // CPU threads, or the device's multiprocessors
  // What one unit holds at once (a CPU thread: one island), how steps launch there, and the
  // segment kernels' footprints (cuda): islands_at_once() of launch_policy.hpp.
  UnitLimits unit;
  DeviceLimits launch;
  SegmentFootprints segments;
  std::string why_cpu;       // when auto fell back to the CPU, why (for the front end to say)
  // Several ranks: how they took their devices ("local rank % 2", "--device 1"; empty on the
  // CPU), and the devices they share round-robin (0: none shared, --device given or the CPU).
  std::string rank_devices;
  int shared_devices = 0;
};

// One run's plan: every setting in effect, the islands of every stage (one, or kMaxGrowths + 1
// when its islands grow), the limits. Immutable once made.
struct RunPlan {
  RunConfig config;                   // what every output records
  std::vector<EngineParams> stages;   // stage k's islands: 2^k times the first's (config.engine)
  BackendShape shape;                 // the target's units, and islands of the plan's at once on one
  std::uint32_t slots = 1;            // runs an engine holds at once, unless told (default_slots)
  int box = 3;
  bool many = false;

  const EngineParams& engine_params() const { return stages.front(); }  // the first stage's
  bool grows() const { return stages.size() > 1; }
  RunLimits limits() const { return config.limits(); }
};

// The plan of `options` (its seed given: draw_seed) on `target`.
RunPlan plan(const RunOptions& options, const Target& target);

// Every stage's islands for this process's share `here` of the first stage's (MPI ranks: fewer
// islands), for make_growing_engine.
std::vector<EngineParams> stages_of(const RunPlan& plan, const EngineParams& here);

}  // namespace gpuga
