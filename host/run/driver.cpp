#include "gpuga/driver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>

#include "gpuga/device/island_params.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/verify.hpp"

namespace gpuga {

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::Solved: return "solved";
    case StopReason::Propagation: return "propagation";
    case StopReason::MaxGenerations: return "max-generations";
    case StopReason::TimeLimit: return "time-limit";
    case StopReason::Interrupted: return "interrupted";
    case StopReason::Stopped: return "stopped";
    case StopReason::Checkpointed: return "checkpointed";
    case StopReason::None: break;
  }
  return "";
}

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_checkpoint_asked{false};

namespace {
void on_sigint(int sig) {
  g_interrupted.store(true);
  std::signal(sig, SIG_DFL);  // a second ends the process at once
}
void on_checkpoint_signal(int) { g_checkpoint_asked.store(true); }
}  // namespace

void install_checkpoint_signals() {
  std::signal(SIGTERM, on_checkpoint_signal);
  std::signal(SIGUSR1, on_checkpoint_signal);
}

void install_interrupt_handler() {
  std::signal(SIGINT, on_sigint);
  std::signal(SIGTERM, on_sigint);  // a scheduler's (or mpirun's) stop: the same clean end
  std::signal(SIGUSR1, on_sigint);  // a scheduler's warning, where no checkpoint is kept
}

namespace {

using Clock = std::chrono::steady_clock;

// Epochs aim at this much wall time: short enough for time limits and progress, long enough that
// the host's part (one summary per island) is small beside the device's.
constexpr double kEpochSeconds = 0.1;
constexpr std::uint32_t kMaxEpoch = 1000;

// A run's islands taken together, from their summaries.
struct RunView {
  std::uint32_t clock = 0;
  Summary summary;
  std::uint32_t restarts = 0;
  std::uint64_t evaluations = 0;
  bool halted = false;
  std::uint32_t solved_island = kNever;  // the first to solve (lowest index on ties)
  std::uint32_t solved_generation = kNever;
  std::uint32_t best_island = 0;  // best so far (lowest index on ties)
  Fitness best_ever = 0;
};

// Islands that a deadline left unstarted (kUnstarted) hold no individual: the figures are the
// started islands', island 0's at least (segment_step).
RunView view_run(const IslandSummary* s, const IslandParams& p) {
  RunView r;
  r.clock = s[0].state.clock;
  r.summary.best = s[0].best;
  r.summary.worst = s[0].worst;
  r.best_ever = s[0].state.best_ever;
  std::uint64_t sum = 0, dist = 0, temperature = 0;
  std::uint32_t started = 0;
  for (std::uint32_t k = 0; k < p.islands; ++k) {
    const IslandState& st = s[k].state;
    if (st.best_ever < r.best_ever) r.best_ever = st.best_ever, r.best_island = k;
    if (st.solved < r.solved_generation) r.solved_generation = st.solved, r.solved_island = k;
    r.restarts += st.restarts;
    r.evaluations += st.evaluations;
    r.halted = r.halted || st.halted;
    if (st.side == kUnstarted) continue;
    ++started;
    if (s[k].best < r.summary.best) r.summary.best = s[k].best, r.summary.best_island = k;
    r.summary.worst = std::max(r.summary.worst, s[k].worst);
    sum += s[k].fitness_sum;
    dist += s[k].distance_sum;
    temperature += s[k].temperature_sum;
  }
  r.summary.mean = double(sum) / (double(started) * p.ga.individuals);
  r.summary.diversity = double(dist) / (double(started) * sample_size(p.ga.individuals));
  r.summary.temperature = double(temperature) / 65536.0 / (double(started) * p.ga.individuals);
  return r;
}

struct SlotRun {
  bool active = false;
  GenerationReport rep;  // rep.run: the request this slot runs
  RunView view;
  RunResult result;
  Clock::time_point start;
  double seen = 0;  // elapsed() at the end of the last epoch, as agreed (RoundFacts)
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
};

class Runner {
 public:
  Runner(Engine& e, const std::vector<RunRequest>& req, const RunLimits& lim, RunObserver& obs,
         Consensus* consensus, RunKeeper* keeper)
      : engine_(e), requests_(req), limits_(lim), observer_(obs), consensus_(consensus),
        keeper_(keeper), slots_(e.slots()), results_(req.size()) {}

  std::vector<RunResult> run() {
    std::vector<RunTask> tasks(slots_.size());
    bool go_on = true;
    settle(0, go_on);
    for (std::uint32_t l = 0; l < slots_.size(); ++l) tasks[l] = take_next(l);
    while (std::any_of(tasks.begin(), tasks.end(),
                       [](const RunTask& t) { return t.action != RunAction::Idle; })) {
      const auto t0 = Clock::now();
      std::vector<std::uint32_t> from(slots_.size());  // each slot's clock as the epoch starts
      for (std::uint32_t l = 0; l < slots_.size(); ++l) from[l] = slots_[l].view.clock;
      engine_.advance(tasks);
      go_on = observe(tasks) && go_on;
      const std::uint32_t idle_after = first_idle(tasks, from);
      const double seconds = settle(std::chrono::duration<double>(Clock::now() - t0).count(), go_on);
      note_generation_time(seconds, tasks, from);
      adapt_epoch(seconds, idle_after);
      if (keeper_ && keeper_->due()) save_all();
      for (std::uint32_t l = 0; l < slots_.size(); ++l) tasks[l] = next_task(l, go_on);
    }
    return results_;
  }

 private:
  // Every run in flight saved (RunKeeper); then they stop if a signal asked.
  void save_all() {
    for (std::uint32_t l = 0; l < slots_.size(); ++l) {
      const SlotRun& lr = slots_[l];
      if (!lr.active || out_of_time(lr)) continue;  // it ends now, its islands maybe cut short
      keeper_->save(lr.rep.run, {engine_.snapshot(l), lr.elapsed(), lr.result.init_seconds,
                                 lr.result.best, lr.result.best_fitness, lr.result.island,
                                 lr.view.clock, epoch_});
    }
    checkpointed_ = keeper_->stop_after_save();
  }

  // Slot l's run continued from a saved state.
  RunTask resume(std::uint32_t l, const RunState& s) {
    SlotRun& lr = slots_[l];
    engine_.restore(l, s.engine);
    lr.start = Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(s.elapsed));
    lr.result.init_seconds = s.init_seconds;
    lr.result.best = s.best;
    lr.result.best_fitness = s.best_fitness;
    lr.result.island = s.island;
    epoch_ = std::max(epoch_, s.epoch);
    lr.view = view_of(l, engine_.summaries());
    return task(l, RunAction::Advance);
  }

  // Slot l's task for the next epoch, with its run's deadline. Not where processes share a run
  // (a consensus): islands that one process cut short would not match what the others' islands
  // take from them at a migration; there runs stop where epochs end (out_of_time).
  RunTask task(std::uint32_t l, RunAction action) const {
    const SlotRun& lr = slots_[l];
    RunTask t{action, action == RunAction::Init ? 0 : target(lr), kNoDeadline};
    if (limits_.time_limit > 0 && !consensus_)
      t.deadline = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       (lr.start + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(limits_.time_limit)))
                           .time_since_epoch())
                       .count();
    return t;
  }

  // Time is up, or the next generation, at the pace of the last epoch, would end past the limit's
  // tolerance (10 %, at least 0.25 s): islands that cannot read the host's clock (a GPU's grid,
  // a team of every CPU thread) stop only between generations. Agreed figures only (RoundFacts),
  // so every process of a run decides alike.
  bool out_of_time(const SlotRun& lr) const {
    const double limit = limits_.time_limit;
    if (limit <= 0) return false;
    return lr.seen >= limit || lr.seen + generation_seconds_ > limit + std::max(0.1 * limit, 0.25);
  }

  // The seconds a generation took in the last epoch that advanced (agreed: the same on every
  // process), for epochs sized to a time limit.
  void note_generation_time(double seconds, const std::vector<RunTask>& tasks,
                            const std::vector<std::uint32_t>& from) {
    std::uint32_t most = 0;
    for (std::uint32_t l = 0; l < slots_.size(); ++l)
      if (tasks[l].action == RunAction::Advance) most = std::max(most, slots_[l].view.clock - from[l]);
    if (most > 0) generation_seconds_ = seconds / most;
  }

  // Slot l's run, from every slot's island summaries.
  RunView view_of(std::uint32_t l, const std::vector<IslandSummary>& summaries) const {
    const IslandParams p = engine_.run_params(l);
    return view_run(&summaries[std::size_t(l) * p.islands], p);
  }

  // 0: none, short of where the 32-bit generation counter (a random key) would wrap.
  std::uint32_t cap() const {
    return limits_.max_generations ? limits_.max_generations : 0xFFFFFFF0u;
  }

  // The end of slot l's next epoch: `epoch_` on, cut at the observer's cadence, the generation
  // limit and the generations that fit in the run's time left (at least one: a team that cannot
  // read the host's clock, as the GPU's, stops only where an epoch ends). Where epochs end
  // changes no result (island.hpp), only when the host looks.
  std::uint32_t target(const SlotRun& lr) const {
    const std::uint32_t clock = lr.view.clock;
    std::uint64_t t = std::min<std::uint64_t>(std::uint64_t(clock) + epoch_, cap());
    if (const std::uint32_t c = observer_.cadence()) t = std::min<std::uint64_t>(t, (clock / c + 1) * std::uint64_t(c));
    if (limits_.time_limit > 0 && generation_seconds_ > 0) {
      const double fit = std::ceil((limits_.time_limit - lr.seen) / generation_seconds_);
      t = std::min<std::uint64_t>(t, clock + static_cast<std::uint64_t>(std::clamp(fit, 1.0, 1e9)));
    }
    return static_cast<std::uint32_t>(t);
  }

  // With requests waiting, the generations into the epoch after which a slot's run halted
  // short of the epoch's end, the fewest over the slots (0: none did): that slot stood idle for
  // the rest of the epoch, since a slot takes its next run only between epochs.
  std::uint32_t first_idle(const std::vector<RunTask>& tasks, const std::vector<std::uint32_t>& from) const {
    if (next_ >= requests_.size()) return 0;
    std::uint32_t fewest = 0;
    for (std::uint32_t l = 0; l < slots_.size(); ++l) {
      const RunView& v = slots_[l].view;
      if (tasks[l].action != RunAction::Advance || !v.halted || v.clock >= tasks[l].target) continue;
      const std::uint32_t ran = std::max(v.clock - from[l], 1u);
      fewest = fewest ? std::min(fewest, ran) : ran;
    }
    return fewest;
  }

  // Epochs of about kEpochSeconds, but, once a slot stood idle with runs waiting, no longer than
  // the first free slot needed, for as long as runs wait (many short runs side by side, as
  // solve's puzzles: docs/decisions.md). Where epochs end changes no result.
  void adapt_epoch(double seconds, std::uint32_t idle_after) {
    if (idle_after) {
      epoch_ = std::min(epoch_, idle_after);
      held_ = true;
      return;
    }
    if (held_ && next_ < requests_.size()) return;
    held_ = false;
    if (seconds < kEpochSeconds / 2 && epoch_ < kMaxEpoch) epoch_ *= 2;
    else if (seconds > 2 * kEpochSeconds && epoch_ > 1) epoch_ /= 2;
  }

  // What the decisions after an epoch go by (RoundFacts): the consensus's where there is one.
  // Returns the epoch's seconds.
  double settle(double epoch_seconds, bool& go_on) {
    RoundFacts f{epoch_seconds, {}, g_interrupted.load(), go_on};
    for (const SlotRun& lr : slots_) f.elapsed.push_back(lr.active ? lr.elapsed() : 0.0);
    if (consensus_) consensus_->agree(f);
    if (f.interrupted) g_interrupted.store(true);  // on every process: no more puzzles either
    interrupted_ = f.interrupted;
    go_on = f.go_on;
    for (std::size_t l = 0; l < slots_.size(); ++l) slots_[l].seen = f.elapsed[l];
    return f.epoch_seconds;
  }

  // Slot l starts the next request, if any.
  RunTask take_next(std::uint32_t l) {
    if (next_ >= requests_.size() || interrupted_ || checkpointed_) return {};
    SlotRun& lr = slots_[l];
    lr = SlotRun{};
    lr.active = true;
    lr.rep.run = next_++;
    lr.rep.slot = l;
    lr.result.seed = requests_[lr.rep.run].seed;
    lr.start = Clock::now();
    engine_.set_run(l, requests_[lr.rep.run].puzzle, requests_[lr.rep.run].seed);
    if (const RunState* s = keeper_ ? keeper_->resumed(lr.rep.run) : nullptr) return resume(l, *s);
    return task(l, RunAction::Init);  // the first epoch reports the initial islands
  }

  // After an epoch: summaries, bests, and the reports the observer sees.
  bool observe(const std::vector<RunTask>& tasks) {
    const std::vector<IslandSummary> summaries = engine_.summaries();
    std::vector<GenerationReport> reports;
    for (std::uint32_t l = 0; l < slots_.size(); ++l) {
      SlotRun& lr = slots_[l];
      if (tasks[l].action == RunAction::Idle) continue;
      const bool first = tasks[l].action == RunAction::Init;
      if (first) lr.result.init_seconds = lr.elapsed();
      const Fitness before = lr.view.best_ever;
      lr.view = view_of(l, summaries);
      lr.rep.generation = lr.view.clock;
      lr.rep.summary = lr.view.summary;
      lr.rep.best_so_far = lr.view.best_ever;
      lr.rep.restarts = lr.view.restarts;
      lr.rep.growths = engine_.run_stage(lr.rep.slot);
      lr.rep.evaluations = lr.view.evaluations;
      lr.rep.elapsed = lr.elapsed();
      // The island the view names now, also on a tie that a lower island joined since the last
      // look: what the run reports must not depend on where epochs ended.
      const std::uint32_t island =
          lr.view.solved_island != kNever ? lr.view.solved_island : lr.view.best_island;
      if (first || lr.view.best_ever < before || island != lr.result.island) {
        lr.result.best_fitness = lr.view.best_ever;
        lr.result.best = engine_.best(l, island);
        lr.result.island = island;
      }
      reports.push_back(lr.rep);
    }
    return observer_.on_round(reports, engine_);
  }

  StopReason stop_reason(const SlotRun& lr, bool go_on) const {
    const bool out_of_time = this->out_of_time(lr);
    const bool interrupted = interrupted_;
    const bool at_cap = lr.view.clock >= cap();
    // A solved run goes on to its halt check (island.hpp: at once, or at most kHaltInterval - 1
    // generations for the plain GA), so that its figures do not depend on where epochs end;
    // unless it must stop now anyway.
    if (lr.view.solved_island != kNever &&
        (lr.view.halted || at_cap || interrupted || !go_on || out_of_time || checkpointed_))
      return StopReason::Solved;
    if (lr.view.solved_island != kNever) return StopReason::None;
    if (interrupted) return StopReason::Interrupted;
    if (!go_on) return StopReason::Stopped;
    if (at_cap) return StopReason::MaxGenerations;
    if (out_of_time) return StopReason::TimeLimit;
    if (checkpointed_) return StopReason::Checkpointed;  // a run that ends here anyway says why instead
    return StopReason::None;
  }

  RunTask next_task(std::uint32_t l, bool go_on) {
    SlotRun& lr = slots_[l];
    if (!lr.active) return take_next(l);
    const StopReason reason = stop_reason(lr, go_on);
    if (reason == StopReason::None) return task(l, RunAction::Advance);
    finish(lr, reason);
    if (!go_on) return {};
    return take_next(l);
  }

  void finish(SlotRun& lr, StopReason reason) {
    RunResult& r = lr.result;
    r.generations = lr.view.clock;
    if (reason == StopReason::Solved) {  // observe fetched the solving island's grid when it appeared
      r.generations = lr.view.solved_generation;
      const Verdict v = verify_solution(requests_[lr.rep.run].puzzle, r.best);
      if (!v.ok)
        throw RuntimeFailure("internal error: fitness 0 but the grid does not verify: " + v.reason);
      r.solved = true;
    }
    r.stop_reason = reason;
    r.restarts = lr.view.restarts;
    r.growths = engine_.run_stage(lr.rep.slot);
    r.evaluations = lr.view.evaluations;
    r.seconds = lr.elapsed();
    lr.active = false;
    results_[lr.rep.run] = r;
    observer_.on_result(lr.rep.run, r);
  }

  Engine& engine_;
  const std::vector<RunRequest>& requests_;
  const RunLimits& limits_;
  RunObserver& observer_;
  Consensus* consensus_;
  RunKeeper* keeper_;
  bool interrupted_ = false;  // Ctrl-C, as settled after the last epoch
  bool checkpointed_ = false;  // saved at a signal's asking: the run stops here
  std::vector<SlotRun> slots_;
  std::vector<RunResult> results_;
  std::size_t next_ = 0;
  // One generation first: a 25x25 generation with local search takes seconds. Quick generations
  // double it within a few epochs.
  std::uint32_t epoch_ = 1;
  bool held_ = false;  // epochs no longer grow: a slot stood idle while runs wait (adapt_epoch)
  double generation_seconds_ = 0;  // note_generation_time
};

}  // namespace

std::vector<RunResult> run_many(Engine& engine, const std::vector<RunRequest>& requests,
                                const RunLimits& limits, RunObserver& observer,
                                Consensus* consensus, RunKeeper* keeper) {
  return Runner(engine, requests, limits, observer, consensus, keeper).run();
}

std::string limit_text(const GenerationReport& r, const RunLimits& limits, int width) {
  if (!limits.time_limit && !limits.max_generations) return "";
  const double by_time = limits.time_limit > 0 ? r.elapsed / limits.time_limit : 0;
  const double by_generations = limits.max_generations ? double(r.generation) / limits.max_generations : 0;
  const bool timed = limits.time_limit > 0 && (!limits.max_generations || by_time >= by_generations);
  const double share = std::min(1.0, timed ? by_time : by_generations);
  char which[64], left[48];
  if (timed) {
    std::snprintf(which, sizeof which, "the time limit (%g s)", limits.time_limit);
    std::snprintf(left, sizeof left, "%.0f s left", std::max(0.0, limits.time_limit - r.elapsed));
  } else {
    std::snprintf(which, sizeof which, "--max-generations %u", limits.max_generations);
    if (r.generation == 0)  // no generation after the first yet: no pace to go by
      std::snprintf(left, sizeof left, "time left unknown");
    else {
      const std::uint32_t to_go = limits.max_generations - std::min(r.generation, limits.max_generations);
      std::snprintf(left, sizeof left, "%.0f s left", r.elapsed / r.generation * to_go);
    }
  }
  const int filled = static_cast<int>(width * share);
  char line[192];
  std::snprintf(line, sizeof line, "[%s%s] %.0f %% of %s, %s", std::string(filled, '#').c_str(),
                std::string(width - filled, '.').c_str(), 100 * share, which, left);
  return line;
}

}  // namespace gpuga
