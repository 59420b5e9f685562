#pragma once
// Every step the engine launches over its islands (engine/island_engine.hpp, and the kernels of
// cuda/device_system.hpp): the segment steps of the GA and the repaired GA (island_steps.hpp),
// of the searched GA (searched_step.hpp) and of the chains (chain.hpp), the boundary after a
// segment (island_steps.hpp), and here the summary of any island.
#include <cstdint>

#include "gpuga/device/chain.hpp"
#include "gpuga/device/island_steps.hpp"
#include "gpuga/device/searched_step.hpp"

namespace gpuga {

// One summary per island: best, worst, fitness sum and the diversity sample's distances.
template <int B>
struct summary_step {
  static constexpr bool kStages = false;  // from the islands' homes
  IslandsView<B> view;

  template <class Team>
  GPUGA_HD void operator()(const Team& team, std::uint32_t island, std::uint8_t*) const {
    IslandSummary& out = view.summaries[island];
    const IslandState state = view.states[island];
    if constexpr (Team::kCutsGenerationZero) {
      if (state.side == kUnstarted) {  // no individual to summarise
        if (team.rank() == 0) {
          out = IslandSummary{};
          out.state = state;
          out.best = out.worst = kNoFitness;
        }
        team.sync();
        return;
      }
    }
    const RunInfo<B>& run = view.runs[view.run_of(island)];
    const Island<Team, B> isl{team, view.params, view.layout, run.info, view.cdf, view.record(island)};
    if (view.layout.chains) return Chains<Team, B>{isl, run}.summarize(out, state);
    if (team.rank() == 0) {
      out.state = state;
      out.fitness_sum = out.distance_sum = out.temperature_sum = 0;
      out.best_index = isl.order()[0];
      out.best = isl.fit(state.side)[out.best_index];
      out.worst = isl.fit(state.side)[isl.order()[view.layout.individuals - 1]];
    }
    team.sync();
    isl.add_sums(out, state.side, isl.order()[0]);
    team.sync();
  }
};

}  // namespace gpuga
