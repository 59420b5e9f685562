// --grow-after: runs whose islands grow (make_growing_engine in gpuga/engine.hpp). A run starts
// with the configuration's islands; when it has not solved after a stage's generations it starts
// again from its seed with islands twice the size (as many islands, so twice the population).
// Small islands solve most puzzles soonest and large ones solve the rest surely
// (docs/decisions.md); a run that grows has the first where they succeed and the second where
// they do not.
//
// Each stage is an engine of its own and computes the same bytes as its configuration alone from
// the same seed (RunConfig::stage). On the GPU each engine launches on a stream of its own, so
// that while some runs have grown and others not, the stages' kernels share the device rather
// than run one after another (docs/decisions.md). The driver
// sees one run: its clock goes on across the stages, and island k of a stage carries the
// evaluations, restarts and best grid of island k of the stages before, so that a run's figures
// count all its work and its best grid is the best it ever held. The snapshot holds the stage:
// checkpoints, MPI ranks and runs side by side work as without growth.
#include <algorithm>
#include <cstring>

#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "phase_ledger.hpp"
#include "snapshot_bytes.hpp"
#include "stopwatch.hpp"

namespace gpuga {
namespace {

// What island k of a run carries from the stages before the one it is in.
struct Carried {
  std::uint64_t evaluations = 0;
  std::uint32_t restarts = 0;
  Fitness best = kNoFitness;
  // The best's cells, kept only where it is the run's best (lowest carried fitness): the driver
  // asks for no other island's grid (driver.cpp takes the island of the run's best).
  std::vector<std::uint8_t> grid;
};

struct GrowingRun {
  Grid puzzle;
  std::uint64_t seed = 0;
  std::uint32_t stage = 0;
  std::vector<Carried> islands;
  std::vector<Fitness> stage_best;  // each island's best in this stage, as last summarised
};

// An island's part of a snapshot before the stage engine's: the stage, then what it carries.
constexpr std::uint64_t kCarriedBytes = sizeof(std::uint32_t) + sizeof(std::uint64_t) +
                                        sizeof(std::uint32_t) + sizeof(Fitness) + 1;

bool any_task(const std::vector<RunTask>& tasks) {
  return std::any_of(tasks.begin(), tasks.end(),
                     [](const RunTask& t) { return t.action != RunAction::Idle; });
}

GrowingRun fresh_run(const Grid& puzzle, std::uint64_t seed, std::uint32_t islands) {
  return {puzzle, seed, 0, std::vector<Carried>(islands), std::vector<Fitness>(islands, kNoFitness)};
}

class GrowingEngine final : public Engine {
 public:
  GrowingEngine(StageMaker make, std::vector<EngineParams> stages, const Grid& puzzle,
                std::uint32_t length)
      : make_(std::move(make)), params_(std::move(stages)), length_(length) {
    engines_.push_back(make_(params_[0]));
    engines_[0]->count_phases_on(ledger_);
    // Every slot as the first engine holds it (run 0 set, the others idle), so that summaries()
    // can read any slot before the driver gives it a run.
    runs_.assign(engines_[0]->slots(), fresh_run(puzzle, params_[0].ga.seed, islands()));
  }

  std::uint32_t slots() const override { return engines_[0]->slots(); }
  const IslandParams& params() const override { return engines_[0]->params(); }
  IslandParams run_params(std::uint32_t r) const override {
    return engines_[runs_[r].stage]->run_params(r);
  }
  std::uint32_t run_stage(std::uint32_t r) const override { return runs_[r].stage; }
  std::string placement() const override { return engines_[0]->placement(); }

  void set_run(std::uint32_t r, const Grid& puzzle, std::uint64_t seed) override {
    runs_[r] = fresh_run(puzzle, seed, islands());
    engines_[0]->set_run(r, puzzle, seed);
  }

  // Each run's task in its stage's clock, the stage's end where it ends before the target; a
  // run that reaches its stage's end unsolved grows and starts the next stage in the same epoch,
  // so that what the driver sees at a clock does not depend on where epochs end.
  void advance(const std::vector<RunTask>& tasks) override {
    std::vector<RunTask> left = tasks;
    while (any_task(left)) {
      std::vector<std::vector<RunTask>> per(engines_.size(), std::vector<RunTask>(slots()));
      for (std::uint32_t r = 0; r < slots(); ++r)
        if (left[r].action != RunAction::Idle) {
          const std::uint32_t s = runs_[r].stage, t = left[r].target - offset(s);
          per[s][r] = {left[r].action, last(s) ? t : std::min(t, length_), left[r].deadline};
        }
      for (std::size_t s = 0; s < engines_.size(); ++s)
        if (any_task(per[s])) engines_[s]->advance(per[s]);
      std::vector<std::vector<IslandSummary>> seen(engines_.size());
      for (std::uint32_t r = 0; r < slots(); ++r) {
        if (left[r].action == RunAction::Idle) continue;
        const std::uint32_t s = runs_[r].stage;
        if (last(s) || left[r].target - offset(s) < length_) {
          left[r] = {};
          continue;
        }
        if (seen[s].empty()) seen[s] = engines_[s]->summaries();
        const IslandSummary* is = &seen[s][std::size_t(r) * islands()];
        // Past its deadline a run does not grow: its time is up, and its stage's islands may
        // have stopped short of the stage's end.
        if (ended_unsolved(is) && !deadline_passed(left[r].deadline)) {
          grow(r, is);
          left[r].action = RunAction::Init;
        } else {
          left[r] = {};
        }
      }
    }
  }

  // The stage engines' summaries with the run's clock and what the islands carry.
  std::vector<IslandSummary> summaries() override {
    std::vector<std::vector<IslandSummary>> of(engines_.size());
    std::vector<IslandSummary> out(std::size_t(slots()) * islands());
    for (std::uint32_t r = 0; r < slots(); ++r) {
      GrowingRun& run = runs_[r];
      if (of[run.stage].empty()) of[run.stage] = engines_[run.stage]->summaries();
      const std::uint32_t off = offset(run.stage);
      for (std::uint32_t k = 0; k < islands(); ++k) {
        IslandSummary x = of[run.stage][std::size_t(r) * islands() + k];
        IslandState& st = x.state;
        run.stage_best[k] = st.best_ever;
        st.clock += off;
        st.last_improvement += off;
        if (st.solved != kNever) st.solved += off;
        if (st.boundary != kNever) st.boundary += off;
        st.evaluations += run.islands[k].evaluations;
        st.restarts += run.islands[k].restarts;
        st.best_ever = std::min(st.best_ever, run.islands[k].best);
        out[std::size_t(r) * islands() + k] = x;
      }
    }
    return out;
  }

  // The carried best where it is at least as good as the stage's (the earlier one on a tie).
  Grid best(std::uint32_t r, std::uint32_t island) override {
    const GrowingRun& run = runs_[r];
    const Carried& c = run.islands[island];
    if (c.grid.empty() || c.best > run.stage_best[island]) return engines_[run.stage]->best(r, island);
    Grid g(run.puzzle.box);
    g.cell = c.grid;
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t r) override {
    return engines_[runs_[r].stage]->population(r);
  }
  std::vector<Fitness> fitness(std::uint32_t r) override { return engines_[runs_[r].stage]->fitness(r); }
  // The stages' spans on one ledger, each instant once: on the GPU they overlap.
  PhaseTimes phase_times() override {
    double ring = 0;
    for (const auto& e : engines_) ring += e->phase_times().ring;  // settles each one's spans
    PhaseTimes t = ledger_->totals();
    t.ring = ring;
    return t;
  }
  void count_phases_on(std::shared_ptr<PhaseLedger> ledger) override {
    ledger_ = std::move(ledger);
    for (const auto& e : engines_) e->count_phases_on(ledger_);
  }

  // Engine::snapshot's layout, each island's block led by its stage and what it carries.
  std::vector<std::uint8_t> snapshot(std::uint32_t r) override {
    const GrowingRun& run = runs_[r];
    const std::vector<std::uint8_t> inner = engines_[run.stage]->snapshot(r);
    const std::uint64_t block = (inner.size() - kRunSnapshotHeader) / islands();
    const std::uint64_t cells = run.puzzle.cell.size();
    std::vector<std::uint8_t> out(kRunSnapshotHeader + islands() * (kCarriedBytes + cells + block));
    std::uint32_t clock = 0;
    read_value(inner.data(), clock);
    std::memcpy(out.data(), inner.data(), kRunSnapshotHeader);
    write_value(out.data(), clock + offset(run.stage));
    std::uint8_t* at = out.data() + kRunSnapshotHeader;
    for (std::uint32_t k = 0; k < islands(); ++k) {
      const Carried& c = run.islands[k];
      at = write_value(at, run.stage);
      at = write_value(at, c.evaluations);
      at = write_value(at, c.restarts);
      at = write_value(at, c.best);
      at = write_value(at, std::uint8_t(c.grid.empty() ? 0 : 1));
      if (!c.grid.empty()) std::memcpy(at, c.grid.data(), cells);
      at += cells;
      std::memcpy(at, inner.data() + kRunSnapshotHeader + k * block, block);
      at += block;
    }
    return out;
  }

  void restore(std::uint32_t r, const std::vector<std::uint8_t>& bytes) override {
    GrowingRun& run = runs_[r];
    const std::uint64_t cells = run.puzzle.cell.size(), lead = kCarriedBytes + cells;
    const std::uint64_t body = bytes.size() > kRunSnapshotHeader ? bytes.size() - kRunSnapshotHeader : 0;
    GPUGA_INPUT_CHECK(body > 0 && body % islands() == 0 && body / islands() > lead,
                      "a growing run's state of " + std::to_string(bytes.size()) +
                          " bytes; expected a header and " + std::to_string(islands()) +
                          " equal island blocks");
    const std::uint64_t block = body / islands() - lead;
    std::uint32_t stage = 0, clock = 0;
    read_value(bytes.data() + kRunSnapshotHeader, stage);
    read_value(bytes.data(), clock);
    GPUGA_INPUT_CHECK(stage < params_.size() && clock >= offset(stage),
                      "a growing run's state at stage " + std::to_string(stage) + ", generation " +
                          std::to_string(clock) + "; expected a stage below " +
                          std::to_string(params_.size()) + " that its generation has reached");
    std::vector<std::uint8_t> inner(bytes.begin(), bytes.begin() + kRunSnapshotHeader);
    inner.resize(kRunSnapshotHeader + islands() * block);
    write_value(inner.data(), clock - offset(stage));
    std::vector<Carried> carried(islands());
    const std::uint8_t* at = bytes.data() + kRunSnapshotHeader;
    for (std::uint32_t k = 0; k < islands(); ++k) {
      std::uint32_t island_stage = 0;
      std::uint8_t has_grid = 0;
      Carried& c = carried[k];
      at = read_value(at, island_stage);
      at = read_value(at, c.evaluations);
      at = read_value(at, c.restarts);
      at = read_value(at, c.best);
      at = read_value(at, has_grid);
      const bool cells_fit =
          std::all_of(at, at + cells, [&](std::uint8_t v) { return v <= run.puzzle.side(); });
      GPUGA_INPUT_CHECK(island_stage == stage && has_grid <= 1 && cells_fit,
                        "a growing run's state whose island " + std::to_string(k) +
                            " is not at its run's stage or holds a grid that is not one");
      if (has_grid) c.grid.assign(at, at + cells);
      std::memcpy(inner.data() + kRunSnapshotHeader + k * block, at + cells, block);
      at += cells + block;
    }
    engine_of(stage).set_run(r, run.puzzle, run.seed);
    engines_[stage]->restore(r, inner);
    run.stage = stage;
    run.islands = std::move(carried);
  }

  void link_ring(RingLink* link, std::uint32_t first_island, std::uint32_t ring_islands) override {
    link_ = {link, first_island, ring_islands};
    for (const auto& e : engines_) e->link_ring(link, first_island, ring_islands);
  }

 private:
  std::uint32_t islands() const { return params_[0].islands; }
  std::uint32_t offset(std::uint32_t stage) const { return stage * length_; }
  bool last(std::uint32_t stage) const { return stage + 1 == params_.size(); }

  // At the stage's end (every island's clock there: nothing halted it), no island solved.
  bool ended_unsolved(const IslandSummary* is) const {
    for (std::uint32_t k = 0; k < islands(); ++k)
      if (is[k].state.halted || is[k].state.solved != kNever || is[k].state.clock < length_) return false;
    return true;
  }

  Engine& engine_of(std::uint32_t stage) {
    while (engines_.size() <= stage) {
      engines_.push_back(make_(params_[engines_.size()]));
      engines_.back()->count_phases_on(ledger_);
      if (link_.link) engines_.back()->link_ring(link_.link, link_.first, link_.ring);
    }
    return *engines_[stage];
  }

  // Run r ended stage s unsolved (its islands' summaries `is`): its islands carry their figures
  // and bests, and the next stage starts it from its seed.
  void grow(std::uint32_t r, const IslandSummary* is) {
    GrowingRun& run = runs_[r];
    Engine& from = *engines_[run.stage];
    std::vector<bool> improved(islands());
    Fitness least = kNoFitness;
    for (std::uint32_t k = 0; k < islands(); ++k) {
      Carried& c = run.islands[k];
      c.evaluations += is[k].state.evaluations;
      c.restarts += is[k].state.restarts;
      improved[k] = is[k].state.best_ever < c.best;
      if (improved[k]) c.best = is[k].state.best_ever;
      least = std::min(least, c.best);
    }
    for (std::uint32_t k = 0; k < islands(); ++k) {
      Carried& c = run.islands[k];
      if (c.best != least) c.grid.clear();
      else if (improved[k]) c.grid = from.best(r, k).cell;
    }
    ++run.stage;
    std::fill(run.stage_best.begin(), run.stage_best.end(), kNoFitness);
    engine_of(run.stage).set_run(r, run.puzzle, run.seed);
  }

  struct Link {
    RingLink* link = nullptr;
    std::uint32_t first = 0, ring = 0;
  };

  StageMaker make_;
  std::vector<EngineParams> params_;
  std::uint32_t length_;
  std::vector<std::unique_ptr<Engine>> engines_;  // by stage, built when a run first reaches it
  std::vector<GrowingRun> runs_;                   // by slot
  Link link_;
  std::shared_ptr<PhaseLedger> ledger_ = std::make_shared<PhaseLedger>();  // every stage's
};

}  // namespace

std::unique_ptr<Engine> make_growing_engine(StageMaker make, std::vector<EngineParams> stages,
                                            const Grid& puzzle, std::uint32_t stage_length) {
  return std::make_unique<GrowingEngine>(std::move(make), std::move(stages), puzzle, stage_length);
}

}  // namespace gpuga
