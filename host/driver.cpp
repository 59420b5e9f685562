#include "driver.hpp"

#include <chrono>

#include "errors.hpp"
#include "verify.hpp"

namespace gpuga {

std::atomic<bool> g_interrupted{false};

namespace {

std::string stop_reason(std::uint32_t generation, double elapsed, const RunLimits& limits) {
  if (g_interrupted.load()) return "interrupted";
  if (generation >= limits.max_generations) return "max-generations";
  if (limits.time_limit > 0 && elapsed >= limits.time_limit) return "time-limit";
  return {};
}

}  // namespace

RunResult run_ga(Engine& engine, const Grid& puzzle, const GaParams& params,
                 const RunLimits& limits, RunObserver& observer) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  RunResult r;
  engine.initialize(0);
  GenerationReport rep{0, engine.summary(), 0, params.pop, elapsed()};
  r.best_fitness = rep.summary.best;
  r.best = engine.best();
  std::uint32_t last_improvement = 0;
  bool go_on = observer.on_generation(rep, engine);

  while (rep.summary.best != 0) {
    r.stop_reason = go_on ? stop_reason(rep.generation, elapsed(), limits) : "stopped";
    if (!r.stop_reason.empty()) break;
    const std::uint32_t g = ++rep.generation;
    if (limits.restart_after > 0 && g - last_improvement > limits.restart_after) {
      engine.restart(g, limits.keep_on_restart);
      ++rep.restarts;
      rep.evaluations += params.pop - std::min(limits.keep_on_restart, params.pop);
      last_improvement = g;
    } else {
      engine.step(g);
      rep.evaluations += params.children;
    }
    rep.summary = engine.summary();
    rep.elapsed = elapsed();
    if (rep.summary.best < r.best_fitness) {
      r.best_fitness = rep.summary.best;
      r.best = engine.best();
      last_improvement = g;
    }
    go_on = observer.on_generation(rep, engine);
  }

  if (rep.summary.best == 0) {
    const Verdict v = verify_solution(puzzle, r.best);
    if (!v.ok) throw RuntimeFailure("internal error: fitness 0 but the grid does not verify: " + v.reason);
    r.solved = true;
    r.stop_reason = "solved";
  }
  r.generations = rep.generation;
  r.restarts = rep.restarts;
  r.evaluations = rep.evaluations;
  r.seconds = elapsed();
  return r;
}

}  // namespace gpuga
