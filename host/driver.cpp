#include "driver.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>

#include "errors.hpp"
#include "verify.hpp"

namespace gpuga {

std::atomic<bool> g_interrupted{false};

namespace {
void on_sigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}
}  // namespace

void install_interrupt_handler() { std::signal(SIGINT, on_sigint); }

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t k) {
  if (k == 0) return seed;
  std::uint64_t z = seed + k * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {

using Clock = std::chrono::steady_clock;

struct LaneRun {
  bool active = false;
  GenerationReport rep;  // rep.run: the request this lane runs
  RunResult result;
  std::uint32_t last_improvement = 0;
  Clock::time_point start;
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
};

class Runner {
 public:
  Runner(Engine& e, const std::vector<RunRequest>& req, const GaParams& p, const RunLimits& lim,
         RunObserver& obs, bool race)
      : engine_(e), requests_(req), params_(p), limits_(lim), observer_(obs), race_(race),
        lanes_(e.lanes()), results_(req.size()) {}

  std::vector<RunResult> run() {
    std::vector<LaneTask> tasks(lanes_.size());
    for (std::uint32_t l = 0; l < lanes_.size(); ++l) tasks[l] = take_next(l);
    bool go_on = true;
    while (std::any_of(tasks.begin(), tasks.end(), [](const LaneTask& t) { return t.action != LaneAction::Idle; })) {
      engine_.advance(tasks, limits_.keep_on_restart);
      go_on = observe(tasks) && go_on;
      for (std::uint32_t l = 0; l < lanes_.size(); ++l) tasks[l] = next_task(l, go_on);
    }
    return results_;
  }

 private:
  // Lane l starts the next request, if any.
  LaneTask take_next(std::uint32_t l) {
    if (next_ >= requests_.size() || g_interrupted.load() || stop_all_) return {};
    LaneRun& lr = lanes_[l];
    lr = LaneRun{};
    lr.active = true;
    lr.rep.run = next_++;
    lr.rep.lane = l;
    lr.result.seed = requests_[lr.rep.run].seed;
    lr.start = Clock::now();
    engine_.set_lane(l, requests_[lr.rep.run].puzzle, requests_[lr.rep.run].seed);
    lr.rep.evaluations = params_.pop;
    return {LaneAction::Init, 0};
  }

  // After a round: summaries, bests, and the reports the observer sees.
  bool observe(const std::vector<LaneTask>& tasks) {
    const std::vector<Summary> summaries = engine_.summaries();
    std::vector<GenerationReport> reports;
    for (std::uint32_t l = 0; l < lanes_.size(); ++l) {
      LaneRun& lr = lanes_[l];
      if (tasks[l].action == LaneAction::Idle) continue;
      lr.rep.summary = summaries[l];
      lr.rep.elapsed = lr.elapsed();
      if (tasks[l].action == LaneAction::Init || summaries[l].best < lr.result.best_fitness) {
        lr.result.best_fitness = summaries[l].best;
        lr.result.best = engine_.best(l);
        lr.last_improvement = lr.rep.generation;
      }
      reports.push_back(lr.rep);
    }
    return observer_.on_round(reports, engine_);
  }

  std::string stop_reason(const LaneRun& lr, bool go_on) const {
    if (lr.rep.summary.best == 0) return "solved";
    if (g_interrupted.load()) return "interrupted";
    if (!go_on) return "stopped";
    if (stop_all_) return "raced";
    // 0: none, short of where the 32-bit generation counter (a random key) would wrap.
    const std::uint32_t cap = limits_.max_generations ? limits_.max_generations : 0xFFFFFFF0u;
    if (lr.rep.generation >= cap) return "max-generations";
    if (limits_.time_limit > 0 && lr.elapsed() >= limits_.time_limit) return "time-limit";
    return {};
  }

  LaneTask next_task(std::uint32_t l, bool go_on) {
    LaneRun& lr = lanes_[l];
    if (!lr.active) return take_next(l);
    const std::string reason = stop_reason(lr, go_on);
    if (!reason.empty()) {
      finish(lr, reason);
      if (!go_on) return {};
      return take_next(l);
    }
    const std::uint32_t g = ++lr.rep.generation;
    if (limits_.restart_after > 0 && g - lr.last_improvement > limits_.restart_after) {
      ++lr.rep.restarts;
      lr.rep.evaluations += params_.pop - std::min(limits_.keep_on_restart, params_.pop);
      lr.last_improvement = g;
      return {LaneAction::Restart, g};
    }
    lr.rep.evaluations += params_.children;
    return {LaneAction::Step, g};
  }

  void finish(LaneRun& lr, const std::string& reason) {
    RunResult& r = lr.result;
    if (reason == "solved") {
      const Verdict v = verify_solution(requests_[lr.rep.run].puzzle, r.best);
      if (!v.ok)
        throw RuntimeFailure("internal error: fitness 0 but the grid does not verify: " + v.reason);
      r.solved = true;
      if (race_) stop_all_ = true;
    }
    r.stop_reason = reason;
    r.generations = lr.rep.generation;
    r.restarts = lr.rep.restarts;
    r.evaluations = lr.rep.evaluations;
    r.seconds = lr.elapsed();
    lr.active = false;
    results_[lr.rep.run] = r;
    observer_.on_result(lr.rep.run, r);
  }

  Engine& engine_;
  const std::vector<RunRequest>& requests_;
  const GaParams& params_;
  const RunLimits& limits_;
  RunObserver& observer_;
  bool race_;
  std::vector<LaneRun> lanes_;
  std::vector<RunResult> results_;
  std::size_t next_ = 0;
  bool stop_all_ = false;
};

}  // namespace

std::vector<RunResult> run_many(Engine& engine, const std::vector<RunRequest>& requests,
                                const GaParams& params, const RunLimits& limits,
                                RunObserver& observer, bool race) {
  return Runner(engine, requests, params, limits, observer, race).run();
}

}  // namespace gpuga
