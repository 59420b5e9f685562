#pragma once
// The steps of the engine over every island (engine/island_engine.hpp launches them; steps.hpp
// gathers them): a segment of generations, written once for every algorithm over what its
// segment does (the GA's here, the chains' in chain.hpp), with the GA's and the repaired GA's
// steps; and the boundary after a segment (halt checks, migration). Written once over a Team
// (island.hpp).
#include <cstdint>
#include <type_traits>

#include "gpuga/device/island.hpp"

namespace gpuga {

// Bytes of one island's outbox.
template <int B>
GPUGA_HD_INLINE std::uint64_t outbox_bytes(std::uint32_t migrants) {
  return align16(std::uint64_t(migrants) * (Shape<B>::kGenomeBytes + sizeof(Fitness) + kBandScores<B>));
}

// The state of an island whose generation 0 a deadline cut off (segment_step): no individual,
// no best, and no boundary step to come at its clock.
GPUGA_HD_INLINE IslandState unstarted_state(std::uint64_t seed) {
  IslandState s{};
  s.seed = seed;
  s.boundary = 0;
  s.best_ever = kNoFitness;
  s.side = kUnstarted;
  return s;
}

// Every island's home in the engine's memory (device or host), for the steps below.
template <int B>
struct IslandsView {
  static constexpr int kGenomeBytes = Shape<B>::kGenomeBytes;
  IslandParams params;
  IslandLayout layout;
  std::uint8_t* records;       // islands x layout.bytes
  IslandState* states;         // islands
  std::uint8_t* best_grids;    // islands x kGenomeBytes: each island's best so far
  std::uint8_t* outboxes;      // islands x outbox_bytes(migrants)
  const RunInfo<B>* runs;
  const RunTask* tasks;        // one per run
  const std::uint64_t* cdf;
  IslandSummary* summaries;    // islands
  std::uint64_t* solved;       // one per run: its islands that have solved (reset by the host)
  std::uint8_t* searches;      // --tabu: the segment launch's tabu-search tables (searched_step.hpp)

  GPUGA_HD std::uint32_t run_of(std::uint32_t island) const { return island / params.islands; }
  GPUGA_HD std::uint8_t* record(std::uint32_t island) const {
    return records + std::uint64_t(island) * layout.bytes;
  }
  GPUGA_HD std::uint8_t* best_grid(std::uint32_t island) const {
    return best_grids + std::uint64_t(island) * kGenomeBytes;
  }
  GPUGA_HD std::uint8_t* outbox(std::uint32_t island) const {
    return outboxes + std::uint64_t(island) * outbox_bytes<B>(params.migrants);
  }
};

// Launch `launch` of an epoch for one island: Init in launch 0, then one segment of generations
// (to the next halt check, migration or the run's target). `area`, a StagedWork or a pointer
// that is not null, is a staging area of staged_bytes(L) (shared memory on the GPU) that holds
// the island meanwhile; a null pointer leaves the island where it is. What a segment does to
// the island is `Segment`'s: GaSegment below, or the chains' (chain.hpp), each with
//   kRepairs                   whether its tiles need the repair's scratch;
//   kChecksDeadline<Team>      whether a segment past the run's deadline does not start;
//   init(isl, run, state, seed, best, view, island), advance(..., to, ...): generation 0, and
//                              the generations from state.clock to `to` (its clock then `to`).
// The GA's islands, the repaired GA's (with or without the tabu search) and the chains (sa, hc)
// are steps of their own (ga_segment_step, repaired_ga_segment_step below;
// searched_ga_segment_step, searched_step.hpp; chain_segment_step, chain.hpp), so that on the
// GPU each is a kernel of its own and none holds the registers or local memory that another
// needs (docs/decisions.md). The engine picks the step by its parameters.
template <int B, class Segment>
struct segment_step {
  static constexpr bool kStages = true;  // launched with a staging area (device_system.hpp)
  IslandsView<B> view;
  std::uint32_t launch;

  // A block's scratch for its tiles of lanes (the repaired GA's), before its staged island: as
  // the launch sized it, for the most free cells of the engine's puzzles.
  GPUGA_HD_INLINE std::uint32_t scratch_bytes(std::uint32_t threads) const {
    return Segment::kRepairs ? repair_scratch_bytes<B>(threads, view.layout.repair_cells) : 0;
  }

  template <class Team, class Work>
  GPUGA_HD_INLINE void operator()(const Team& team, std::uint32_t island, Work area) const {
    std::uint8_t* const work = work_bytes(area);
    const bool staged = std::is_same_v<Work, StagedWork> || work != nullptr;
    const RunTask task = view.tasks[view.run_of(island)];
    if (task.action == RunAction::Idle) return;
    const bool init = task.action == RunAction::Init && launch == 0;
    // Past the deadline no segment starts: the island stays at its clock.
    if constexpr (Segment::template kChecksDeadline<Team>)
      if (!init && team.past(task.deadline)) return;
    IslandState state = view.states[island];
    if (!init && (state.halted || state.clock >= task.target)) return;
    const RunInfo<B>& run = view.runs[view.run_of(island)];
    if constexpr (Team::kCutsGenerationZero) {
      // Island 0 of each run always starts, so that every run has a best.
      if (init && island % view.params.islands != 0 && team.past(task.deadline)) {
        if (team.rank() == 0)
          view.states[island] =
              unstarted_state(derive_seed(run.seed, run.first_island + island % view.params.islands));
        team.sync();
        return;
      }
    }
    const Island<Team, B> home{team, view.params, view.layout, run.info, view.cdf, view.record(island)};
    const PuzzleInfo<B>* info = &run.info;
    std::uint8_t* rec = home.rec;
    if (staged) {  // stage the puzzle and the live part of the island
      team_copy(team, work, info, staged_puzzle_bytes<B>(Segment::kRepairs));
      info = reinterpret_cast<const PuzzleInfo<B>*>(work);
      rec = work + work_header<B>(Segment::kRepairs);
    }
    const Island<Team, B> isl{team, view.params, view.layout, *info, view.cdf, rec};
    if (staged && !init) home.copy_live_to(isl, state.side);
    team.sync();
    std::uint8_t* best = view.best_grid(island);
    const bool was_solved = !init && state.solved != kNever;
    const std::uint64_t seed = derive_seed(run.seed, run.first_island + island % view.params.islands);
    if (init) {
      Segment::init(isl, run, state, seed, best, view, island);
    } else {
      const std::uint32_t to =
          next_stop(state.clock, task.target, view.params.migration_interval, view.params.halt_interval);
      Segment::advance(isl, run, state, to, best, view, island);
    }
    if (staged) isl.copy_live_to(home, state.side);
    if (team.rank() == 0) {
      view.states[island] = state;
      if (!was_solved && state.solved != kNever) team.add(&view.solved[view.run_of(island)], 1);
    }
    team.sync();
  }
};

// A GA island's segment: its generations (kRepaired: the children repaired, then improved by
// Search), and its emigrants where a migration falls due at the segment's end.
template <int B, bool kRepaired, class Search = NoSearch>
struct GaSegment {
  static constexpr bool kRepairs = kRepaired;
  template <class Team>
  static constexpr bool kChecksDeadline = true;

  // The launch's search tables, and the island's run's deadline, at which its searches stop:
  // read afresh each generation, since a deadline held across the generations spilled the
  // searched step at 25x25 (kernel_resources).
  GPUGA_HD_INLINE static SearchArea search_area(const IslandsView<B>& view, std::uint32_t island) {
    return {view.searches, view.tasks[view.run_of(island)].deadline};
  }

  template <class Team>
  GPUGA_HD_INLINE static void init(const Island<Team, B>& isl, const RunInfo<B>&, IslandState& state,
                                   std::uint64_t seed, std::uint8_t* best, const IslandsView<B>& view,
                                   std::uint32_t island) {
    isl.template init<kRepaired, Search>(state, seed, best, search_area(view, island));
  }

  template <class Team>
  GPUGA_HD_INLINE static void advance(const Island<Team, B>& isl, const RunInfo<B>&, IslandState& state,
                                      std::uint32_t to, std::uint8_t* best, const IslandsView<B>& view,
                                      std::uint32_t island) {
    for (std::uint32_t g = state.clock + 1; g <= to && state.solved == kNever; ++g)
      isl.template generation<kRepaired, Search>(state, g, best, search_area(view, island));
    state.clock = to;
    const std::uint32_t interval = view.params.migration_interval;
    if (interval && to % interval == 0 && view.runs[view.run_of(island)].ring_islands > 1 &&
        state.solved == kNever)
      isl.emigrate(state, view.outbox(island), view.params.migrants);
  }
};

// The GA's segment step and the repaired GA's (GaParams::repair propagate), types of their own,
// so that on the GPU each is a kernel of its own with its own register bound
// (cuda/device_system.hpp, LaunchPolicy).
template <int B>
struct ga_segment_step : segment_step<B, GaSegment<B, false>> {
  static constexpr const char* kName = "ga_segment_step";
};
template <int B>
struct repaired_ga_segment_step : segment_step<B, GaSegment<B, true>> {
  static constexpr const char* kName = "repaired_ga_segment_step";
};

// After every segment, once per clock: a run halts at a halt check when one of its islands has
// solved; otherwise, when a migration falls due, each island takes its ring predecessor's
// emigrants (written by the segment before; frozen solved islands neither send nor take).
// Works on the islands' homes; writes only the island's own state fields.
template <int B>
struct boundary_step {
  static constexpr bool kStages = false;  // from the islands' homes
  IslandsView<B> view;

  template <class Team>
  GPUGA_HD void operator()(const Team& team, std::uint32_t island, std::uint8_t*) const {
    const std::uint32_t run_index = view.run_of(island), islands = view.params.islands;
    if (view.tasks[run_index].action == RunAction::Idle) return;
    IslandState state = view.states[island];
    team.sync();  // every thread has read the state before rank 0 rewrites it below
    if (state.halted || state.boundary == state.clock) return;
    const bool halt = state.clock % view.params.halt_interval == 0 && view.solved[run_index] > 0;
    const std::uint32_t interval = view.params.migration_interval;
    const std::uint32_t from = run_index * islands + (island % islands + islands - 1) % islands;
    // The predecessor at the same clock: where a deadline cut a segment short (RunTask::deadline)
    // it may not have reached the migration, and its outbox is older.
    const IslandState& before = view.states[from];
    if (!halt && interval && state.clock % interval == 0 && state.clock > 0 &&
        view.runs[run_index].ring_islands > 1 && state.solved == kNever && before.solved == kNever &&
        before.clock == state.clock) {
      const RunInfo<B>& run = view.runs[run_index];
      const Island<Team, B> isl{team, view.params, view.layout, run.info, view.cdf, view.record(island)};
      isl.immigrate(state, view.outbox(from), view.params.migrants, view.best_grid(island));
    }
    if (team.rank() == 0) {
      IslandState& out = view.states[island];
      out.boundary = state.clock;
      out.halted = halt;
      out.best_ever = state.best_ever;
      out.last_improvement = state.last_improvement;
    }
    team.sync();
  }
};

}  // namespace gpuga
