#pragma once
// The host's part of GA runs: stopping, restarts on stagnation, reporting. The engine holds the
// populations; the driver sees one summary per lane and a lane's best individual when it
// improves. Many runs share an engine's lanes: a lane takes the next run when its run ends.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine.hpp"

namespace gpuga {

struct RunLimits {
  std::uint32_t max_generations = 0;  // 0 = none
  double time_limit = 0;             // seconds per run; 0 = none
  std::uint32_t restart_after = 0;   // generations without improvement; 0 = never
  std::uint32_t keep_on_restart = 1;
};

struct RunRequest {
  Grid puzzle{};
  std::uint64_t seed = 0;
};

struct GenerationReport {
  std::size_t run = 0;     // index into the requests
  std::uint32_t lane = 0;
  std::uint32_t generation = 0;
  Summary summary;
  std::uint32_t restarts = 0;
  std::uint64_t evaluations = 0;
  double elapsed = 0;
};

struct RunResult {
  bool solved = false;
  Grid best{};
  Fitness best_fitness = 0;
  std::uint32_t generations = 0;
  std::uint32_t restarts = 0;
  std::uint64_t evaluations = 0;
  double seconds = 0;
  std::uint64_t seed = 0;
  std::string stop_reason;  // solved, max-generations, time-limit, interrupted, stopped, raced
};

// Hooks for what a front end shows. on_round sees every running lane's report after each
// round; returning false stops every run ("stopped"). on_result gets each run as it ends.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual bool on_round(const std::vector<GenerationReport>&, Engine&) { return true; }
  virtual void on_result(std::size_t /*run*/, const RunResult&) {}
};

// Set from a signal handler (Ctrl-C): runs stop after the current generation.
extern std::atomic<bool> g_interrupted;

// Ctrl-C sets g_interrupted; a second Ctrl-C ends the process at once. Install it first thing,
// so that a Ctrl-C during start-up also stops cleanly.
void install_interrupt_handler();

// Runs every request on the engine's lanes until each is solved or out of budget. With `race`,
// the requests are islands of one puzzle: the first solved run stops the others ("raced").
// A "solved" result has passed verify_solution; a fitness of 0 that does not verify is a bug
// and throws. Returns the results in request order (runs never started are left default).
std::vector<RunResult> run_many(Engine& engine, const std::vector<RunRequest>& requests,
                                const GaParams& params, const RunLimits& limits,
                                RunObserver& observer, bool race = false);

// Seed of island or run k derived from a seed: k = 0 is the seed itself (SplitMix64 otherwise).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t k);

}  // namespace gpuga
