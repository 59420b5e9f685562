#include "gpuga/solve.hpp"

#include <chrono>

#include "gpuga/backend.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/verify.hpp"

namespace gpuga {

RunStart start_run(const Grid& puzzle, Propagation propagation, std::uint64_t seed,
                   const std::string& name) {
  if (propagation == Propagation::None) return {puzzle, std::nullopt};
  const auto t0 = std::chrono::steady_clock::now();
  const Propagated p = propagate_singles(puzzle);
  GPUGA_INPUT_CHECK(!p.contradiction, name + " has no solution: propagation found that " + p.where +
                                          "; expected a solvable puzzle");
  if (!p.complete()) return {p.grid, std::nullopt};
  RunResult r;
  const Verdict v = verify_solution(puzzle, p.grid);
  if (!v.ok)
    throw RuntimeFailure("internal error: propagation completed " + name +
                         " with a grid that does not verify: " + v.reason);
  r.solved = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.best = p.grid;
  r.seed = seed;
  r.stop_reason = StopReason::Propagation;
  return {p.grid, r};
}

Solution solve(const Grid& puzzle, const RunPlan& plan, const SolveHooks& hooks,
               const std::string& name) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since_t0 = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Solution s;
  s.config = plan.config;
  const RunStart start =
      start_run(puzzle, plan.config.presolve, plan.config.engine.ga.seed, name);
  if (start.result) {
    s.result = *start.result;
    s.start_up = since_t0();
    return s;
  }
  auto engine = make_engine(plan, start.grid, 1, hooks.islands_here);
  if (hooks.join) engine = hooks.join(std::move(engine));
  const std::unique_ptr<RunKeeper> keeper = hooks.keeper ? hooks.keeper(start.grid) : nullptr;
  RunObserver quiet;
  s.start_up = since_t0();
  s.result = run_many(*engine, {{start.grid, plan.config.engine.ga.seed}}, plan.limits(),
                      hooks.observer ? *hooks.observer : quiet, hooks.consensus, keeper.get())
                 .front();
  return s;
}

Solution solve(const Grid& puzzle, RunOptions options, RunObserver* observer,
               const std::string& name) {
  draw_seed(options);
  Target target = probe_target(options, puzzle.box);
  target.free_cells = puzzle.blanks();
  SolveHooks hooks;
  hooks.observer = observer;
  Solution s = solve(puzzle, plan(options, target), hooks, name);
  s.why_cpu = target.why_cpu;
  return s;
}

}  // namespace gpuga
