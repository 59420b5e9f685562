#pragma once
// A backend's view of GA runs (and of sa and hc runs, which share the engine: chain.hpp). An
// engine holds `slots` independent runs at once (a run slot: batch's --concurrent), each a ring
// of islands (include/gpuga/device/island.hpp) in the backend's memory (device memory for CUDA);
// every run has its own puzzle, seed and generation, and all runs advance in the same launches. A run computes
// exactly what it would alone, so a batch of runs equals the runs one at a time. The host sees
// one summary per island per epoch, and a best grid when it asks for one.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpuga/device/island_params.hpp"
#include "gpuga/sudoku/grid.hpp"

namespace gpuga {

enum class Backend { Auto, Cpu, Cuda };

// Seconds spent since the engine was made: advancing runs (every generation, restart, migration
// and halt check) and summarising them (CUDA: spans of device time measured with events), each
// instant counted once, so that the two never add up to more than the wall time (a growing
// run's stages overlap on the GPU: engine/phase_ledger.hpp); of `advance`, the ring's exchanges
// with other processes (RingLink: MPI ranks), on the host's clock.
struct PhaseTimes {
  double advance = 0, summary = 0, ring = 0;
};
class PhaseLedger;  // engine/phase_ledger.hpp

// Where a run's ring of islands goes on in other processes (host/mpi: one run's islands split
// over MPI ranks in contiguous blocks). After every segment, before its boundary step, the engine
// hands the link its count of solved islands and the emigrants of its last island; the link returns the count over every process (0 only when none has solved) and puts
// in `emigrants` those of the island before this process's first on the ring, which its first
// island takes at a migration as from its ring predecessor. Every process makes the same calls.
class RingLink {
 public:
  virtual ~RingLink() = default;
  virtual std::uint64_t exchange(std::uint64_t solved, std::vector<std::uint8_t>& emigrants) = 0;
};

inline constexpr std::uint64_t kRunSnapshotHeader = sizeof(std::uint32_t) + sizeof(std::uint64_t);

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::uint32_t slots() const = 0;  // runs held at once
  virtual const IslandParams& params() const = 0;
  // Run r's islands as they are now: params(), except in a run whose islands grow (--grow-after),
  // where they are the stage's.
  virtual IslandParams run_params(std::uint32_t r) const {
    (void)r;
    return params();
  }
  // The stage run r has reached: the times its islands grew (--grow-after), 0 where they never do.
  virtual std::uint32_t run_stage(std::uint32_t r) const {
    (void)r;
    return 0;
  }
  // Gives run `r` a puzzle and a seed; an Init task then starts it.
  virtual void set_run(std::uint32_t r, const Grid& puzzle, std::uint64_t seed) = 0;
  // One epoch: each run does its task (one per run), in launches with no host synchronisation.
  virtual void advance(const std::vector<RunTask>& tasks) = 0;
  virtual std::vector<IslandSummary> summaries() = 0;  // runs x islands, run-major
  virtual Grid best(std::uint32_t run, std::uint32_t island) = 0;  // the island's best so far
  // A run's islands, one after another (81 cells an individual), and their fitness: for tests and
  // checks only, never per generation.
  virtual std::vector<std::uint8_t> population(std::uint32_t run) = 0;
  virtual std::vector<Fitness> fitness(std::uint32_t run) = 0;
  virtual PhaseTimes phase_times() = 0;
  // Counts this engine's phase times from now on on `ledger`, which the other engines of the
  // same run share (a growing run's stages), so that an instant when several ran counts once.
  // An engine that times nothing of its own ignores it.
  virtual void count_phases_on(std::shared_ptr<PhaseLedger> ledger) { (void)ledger; }
  // Where an island lives while it runs: "shared memory", "device memory", "host memory".
  virtual std::string placement() const = 0;
  // Run r's whole state between epochs, the same bytes on every backend (checkpoint.hpp): a
  // header of kRunSnapshotHeader bytes (its clock, its count of solved islands), then one block
  // of the same size per island, in island order (its state, record, best grid and emigrants),
  // so that the blocks of engines sharing a ring, put one after another, are the whole run's.
  // restore() puts it back into a run that set_run has given the same puzzle and seed, on an
  // engine of the same shape.
  virtual std::vector<std::uint8_t> snapshot(std::uint32_t r) = 0;
  virtual void restore(std::uint32_t r, const std::vector<std::uint8_t>& bytes) = 0;
  // Joins this engine's islands to a ring that goes on elsewhere: they are islands first_island
  // on of a run of `ring_islands` (their seeds follow). One run slot only; set_run takes it.
  virtual void link_ring(RingLink* link, std::uint32_t first_island, std::uint32_t ring_islands) = 0;

  // Run 0 alone, for tests and benchmarks: start it, or advance it to `target`.
  void initialize(std::uint32_t target = 0) { act0({RunAction::Init, target}); }
  void advance_to(std::uint32_t target) { act0({RunAction::Advance, target}); }

 private:
  void act0(RunTask task) {
    std::vector<RunTask> tasks(slots());
    tasks[0] = task;
    advance(tasks);
  }
};

// What an engine is built from: the islands' parameters, which the kernels read, and rank
// selection's pressure (the best rank's expected copies), which the host turns into the table
// they read (rank_cdf, breed.hpp). Apart from IslandParams because the kernels keep a copy of
// those in local memory: a double more there grew the 16x16 segment step's stack by 16 bytes.
struct EngineParams : IslandParams {
  double rank_pressure = 0;
};

// "" where the islands' GA fits a puzzle of box side `box`; else why not, in the user's words:
// --fitness squared past 25x25 passes the 16 bits a fitness is kept in. plan() asks before any
// run (a batch begins no CSV for it), and an engine again when it is made.
inline std::string fitness_problem(const GaParams& ga, int box) {
  if (ga.fitness != FitnessKind::Squared || box <= 5) return "";
  const std::string side = std::to_string(box * box);
  return "--fitness squared on a " + side + "x" + side + " puzzle, whose squared fitness passes "
         "65,535; expected --fitness conflicts (squared runs 4x4 to 25x25)";
}

// "" where the islands can run `ga`'s tabu search (--tabu, tabu.hpp): within repaired grids;
// else why not, in the user's words. plan() asks before any run, and an engine again when it is
// made.
inline std::string tabu_problem(const GaParams& ga) {
  if (ga.tabu == 0 || ga.repair == Repair::Propagate) return "";
  return "--tabu " + std::to_string(ga.tabu) +
         " without --repair propagate: the search moves within a repaired grid; expected 0 or auto";
}

// `params.ga.seed` seeds run 0 with `puzzle`; other runs start Idle until set_run. `threads`: at
// least 1 (a plan's config has them in effect).
std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const EngineParams& params,
                                        int threads, std::uint32_t slots = 1);

// Runs whose islands grow (--grow-after): `stages` holds each stage's islands (the same but for
// ga.individuals and ga.children), `make` builds an engine of them for the same puzzle, backend
// and slots (the first at once, the others when a run first reaches them). A run that has not
// solved after `stage_length` generations of a stage (but the last) starts the next from its
// seed; each stage computes what its islands alone would (engine/growing_engine.cpp).
using StageMaker = std::function<std::unique_ptr<Engine>(const EngineParams&)>;
std::unique_ptr<Engine> make_growing_engine(StageMaker make, std::vector<EngineParams> stages,
                                            const Grid& puzzle, std::uint32_t stage_length);


}  // namespace gpuga
