#include "gpuga/solve.hpp"

#include <chrono>

#include "gpuga/backend.hpp"
#include "gpuga/propagate.hpp"

namespace gpuga {

Solution solve(const Grid& puzzle, const RunPlan& plan, const SolveHooks& hooks,
               const std::string& name) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since_t0 = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Solution s;
  s.config = plan.config;
  const RunStart start = start_run(puzzle, plan.config.propagate, plan.config.seed, name);
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
  s.result = run_many(*engine, {{start.grid, plan.config.seed}}, plan.limits(),
                      hooks.observer ? *hooks.observer : quiet, hooks.consensus, keeper.get())
                 .front();
  return s;
}

Solution solve(const Grid& puzzle, RunOptions options, RunObserver* observer,
               const std::string& name) {
  draw_seed(options);
  const Target target = probe_target(options, puzzle.box);
  SolveHooks hooks;
  hooks.observer = observer;
  Solution s = solve(puzzle, plan(options, target), hooks, name);
  s.why_cpu = target.why_cpu;
  return s;
}

}  // namespace gpuga
