#include "gpuga/solve.hpp"

#include <chrono>

#include "gpuga/backend.hpp"
#include "gpuga/propagate.hpp"

namespace gpuga {

Solution solve(const Grid& puzzle, RunConfig config, const SolveHooks& hooks,
               const std::string& name) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since_t0 = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Solution s;
  config.draw_seed();
  config.validate();
  s.backend = resolve_backend(config.backend, config.device, &s.why_cpu);
  config.resolve(s.backend, puzzle.box);
  const EngineParams params = config.islands();
  const RunStart start = start_run(puzzle, config.propagate, params.ga.seed, name);
  s.config = config;
  if (start.result) {
    s.result = *start.result;
    s.start_up = since_t0();
    return s;
  }
  auto engine = make_engine(s.backend, start.grid, hooks.islands_here ? *hooks.islands_here : params,
                            config);
  if (hooks.join) engine = hooks.join(std::move(engine));
  const std::unique_ptr<RunKeeper> keeper = hooks.keeper ? hooks.keeper(start.grid) : nullptr;
  RunObserver quiet;
  s.start_up = since_t0();
  s.result = run_many(*engine, {{start.grid, params.ga.seed}}, config.limits(),
                      hooks.observer ? *hooks.observer : quiet, hooks.consensus, keeper.get())
                 .front();
  return s;
}

}  // namespace gpuga
