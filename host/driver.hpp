#pragma once
// The host's part of a run: stopping, restarts on stagnation, reporting. The engine holds the
// population; the driver sees one summary and, when the best improves, the best individual.
#include <atomic>
#include <cstdint>
#include <string>

#include "engine.hpp"

namespace gpuga {

struct RunLimits {
  std::uint32_t max_generations = 100000;
  double time_limit = 0;             // seconds; 0 = none
  std::uint32_t restart_after = 0;   // generations without improvement; 0 = never
  std::uint32_t keep_on_restart = 1;
};

struct GenerationReport {
  std::uint32_t generation = 0;
  Summary summary;
  std::uint32_t restarts = 0;
  std::uint64_t evaluations = 0;
  double elapsed = 0;
};

// Hooks for what a front end shows. on_generation returning false stops the run.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual bool on_generation(const GenerationReport&, Engine&) { return true; }
};

struct RunResult {
  bool solved = false;
  Grid best{};
  Fitness best_fitness = 0;
  std::uint32_t generations = 0;
  std::uint32_t restarts = 0;
  std::uint64_t evaluations = 0;
  double seconds = 0;
  std::string stop_reason;  // solved, max-generations, time-limit, interrupted, stopped
};

// Set from a signal handler (Ctrl-C): the run stops after the current generation.
extern std::atomic<bool> g_interrupted;

// Runs the GA until solved or a limit. A "solved" result has passed verify_solution; a fitness
// of 0 that does not verify is a bug and throws.
RunResult run_ga(Engine& engine, const Grid& puzzle, const GaParams& params,
                 const RunLimits& limits, RunObserver& observer);

}  // namespace gpuga
