#include "gpuga/solve.hpp"

#include "gpuga/backend.hpp"
#include "gpuga/propagate.hpp"

namespace gpuga {

Solution solve(const Grid& puzzle, RunConfig config, RunObserver* observer,
               const std::string& name) {
  Solution s;
  config.draw_seed();
  config.validate();
  s.backend = resolve_backend(config.backend, config.device, &s.why_cpu);
  config.resolve(s.backend, puzzle.box);
  const EngineParams params = config.islands();
  const RunStart start = start_run(puzzle, config.propagate, params.ga.seed, name);
  if (start.result) {
    s.result = *start.result;
  } else {
    auto engine = make_engine(s.backend, start.grid, params, config);
    RunObserver quiet;
    s.result = run_many(*engine, {{start.grid, params.ga.seed}}, config.limits(),
                        observer ? *observer : quiet).front();
  }
  s.config = config;
  return s;
}

}  // namespace gpuga
