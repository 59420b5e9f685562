#pragma once
// The host's part of GA runs: epochs, stopping, reporting. The engine holds the islands and
// decides restarts and migration on the device; the driver sees one summary per island per
// epoch and a run's best grid when it improves. Many runs share an engine: a run slot takes the
// next run when its run ends.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuga/engine.hpp"

namespace gpuga {

struct RunLimits {
  std::uint32_t max_generations = 0;  // 0 = none
  double time_limit = 0;              // seconds per run; 0 = none
};

struct RunRequest {
  Grid puzzle{};
  std::uint64_t seed = 0;
};

// A run's islands at one generation, taken together.
struct Summary {
  Fitness best = 0, worst = 0;
  double mean = 0;
  double diversity = 0;  // mean Hamming distance (cells) of each island's sample to its best
  double temperature = 0;  // sa: the chains' mean temperature (0 otherwise)
  std::uint32_t best_island = 0;  // the island holding `best` (lowest index on ties)
};

struct GenerationReport {
  std::size_t run = 0;     // index into the requests
  std::uint32_t slot = 0;  // the engine's run slot
  std::uint32_t generation = 0;
  Summary summary;         // the islands now (summary.best: the best any holds now)
  Fitness best_so_far = 0;  // the best any island has held since the run began
  std::uint32_t restarts = 0;
  std::uint32_t growths = 0;  // times the run's islands doubled (--grow-after) so far
  std::uint64_t evaluations = 0;
  double elapsed = 0;
};

// "[########............] 40 % of the time limit (60 s), 36 s left": how far a run is through
// the nearer of its limits, as solve's progress line shows it on a terminal; "" for a run
// with none. `width` characters of bar.
std::string limit_text(const GenerationReport& r, const RunLimits& limits, int width = 20);

// Why a run ended. Outputs write it as to_string gives it ("" for a run never started).
enum class StopReason {
  None,            // not started (a request left when the runs stopped)
  Solved,
  Propagation,     // solved before any run: propagation completed the grid (propagate.hpp)
  MaxGenerations,
  TimeLimit,
  Interrupted,     // Ctrl-C or a signal
  Stopped,         // an observer said stop
  Checkpointed,    // saved to go on later (RunKeeper)
};
const char* to_string(StopReason);
// Whether the run ran to an end of its own, rather than being cut off to go on later or never
// started: the runs a batch counts as done.
inline bool ran_to_an_end(StopReason r) {
  return r != StopReason::None && r != StopReason::Interrupted && r != StopReason::Checkpointed;
}

struct RunResult {
  bool solved = false;
  Grid best{};
  Fitness best_fitness = 0;
  std::uint32_t island = 0;       // of the islands with the best fitness found, the lowest
                                  // (solved: the first to solve, the lowest on ties)
  std::uint32_t generations = 0;  // solved: the generation the solution appeared
  std::uint32_t restarts = 0;
  std::uint32_t growths = 0;      // times its islands doubled (--grow-after) before it ended
  std::uint64_t evaluations = 0;
  double seconds = 0;
  double init_seconds = 0;  // of `seconds`, the first epoch: generation 0, its islands made
  std::uint64_t seed = 0;
  StopReason stop_reason = StopReason::None;
};

// Hooks for what a front end shows. on_round sees every running run's report after each epoch;
// returning false stops every run (StopReason::Stopped). on_result gets each run as it ends. cadence: the
// driver ends an epoch at every multiple of it (0: any), so that reports fall where asked.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual bool on_round(const std::vector<GenerationReport>&, Engine&) { return true; }
  virtual void on_result(std::size_t /*run*/, const RunResult&) {}
  virtual std::uint32_t cadence() const { return 0; }
};

// What the processes that run one run together (host/mpi) agree on after every epoch, so that
// each takes the same decisions: the epoch's seconds (the next epoch's length follows), each run
// slot's elapsed seconds (time limits), Ctrl-C, and whether the observers want to go on. Without
// a Consensus each process goes by its own.
struct RoundFacts {
  double epoch_seconds = 0;
  std::vector<double> elapsed;  // per run slot
  bool interrupted = false;
  bool go_on = true;
};

class Consensus {
 public:
  virtual ~Consensus() = default;
  virtual void agree(RoundFacts& facts) = 0;
};

// A run's state at the end of an epoch, as a checkpoint carries it (checkpoint.hpp): the
// engine's snapshot of it and the driver's part.
struct RunState {
  std::vector<std::uint8_t> engine;  // Engine::snapshot
  double elapsed = 0;                // seconds spent on the run so far
  double init_seconds = 0;
  Grid best{};                       // the result so far
  Fitness best_fitness = 0;
  std::uint32_t island = 0;
  std::uint32_t generation = 0;      // the run's clock
  std::uint32_t epoch = 1;           // the driver's epoch length (where epochs end: no result depends on it)
};

// Saves the states of the runs in flight and continues runs from them (gpuga solve and batch
// --checkpoint...). `run` is the request's index.
class RunKeeper {
 public:
  virtual ~RunKeeper() = default;
  // The state run `run` continues from when it starts, or null.
  virtual const RunState* resumed(std::size_t run) = 0;
  virtual bool due() = 0;  // after an epoch: save every run in flight now?
  virtual void save(std::size_t run, const RunState& s) = 0;
  // After the saves of an epoch: whether the runs must stop there (StopReason::Checkpointed: a signal
  // asked), starting no more.
  virtual bool stop_after_save() = 0;
};

// Set from a signal handler (Ctrl-C): runs stop at the end of the current epoch.
extern std::atomic<bool> g_interrupted;

// Ctrl-C (SIGINT), SIGTERM or SIGUSR1 sets g_interrupted; a second ends the process at once. Install it
// first thing, so that a Ctrl-C during start-up also stops cleanly.
void install_interrupt_handler();

// Set by SIGTERM or SIGUSR1 once install_checkpoint_signals() has claimed them (a run that keeps
// checkpoints): a checkpoint at the end of the current epoch, then the process exits.
extern std::atomic<bool> g_checkpoint_asked;
void install_checkpoint_signals();

// Runs every request on the engine's run slots until each is solved or out of budget. A
// solved result has passed verify_solution; a fitness of 0 that does not verify is a bug and
// throws. Returns the results in request order (runs never started are left default).
// With a consensus, every process of a run calls it with the same requests and engine shape.
// With a keeper, runs resume from their states and save when it is due.
std::vector<RunResult> run_many(Engine& engine, const std::vector<RunRequest>& requests,
                                const RunLimits& limits, RunObserver& observer,
                                Consensus* consensus = nullptr, RunKeeper* keeper = nullptr);

}  // namespace gpuga
