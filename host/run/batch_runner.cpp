#include "gpuga/batch_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "gpuga/backend.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/checkpoint.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/exact_solver.hpp"
#include "gpuga/propagate.hpp"
#include "gpuga/version.hpp"

namespace gpuga {
namespace {

struct PlannedRun {
  std::string puzzle_id;  // file#index
  const Puzzle* puzzle;
  std::uint32_t run;
  std::uint64_t seed;
};

std::string puzzle_id(const Puzzle& p) { return p.file + "#" + std::to_string(p.index); }

std::string fixed(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// K puzzles drawn without replacement by a partial Fisher-Yates shuffle on Philox draws keyed by
// the batch seed, so the sample is the same on every platform.
std::vector<const Puzzle*> choose(const std::vector<Puzzle>& all, std::uint32_t sample,
                                  std::uint64_t seed) {
  std::vector<const Puzzle*> out;
  for (const auto& p : all) out.push_back(&p);
  if (sample == 0 || sample >= out.size()) return out;
  Rng rng(seed, 0, 0, kPurposeInit);
  for (std::uint32_t i = 0; i < sample; ++i)
    std::swap(out[i], out[i + rng.below(static_cast<std::uint32_t>(out.size() - i))]);
  out.resize(sample);
  return out;
}

// Done/total, solved so far, rate and time left on stderr: redrawn in place on a terminal,
// a plain line every few seconds otherwise.
class Progress {
 public:
  explicit Progress(std::size_t total)
      : total_(total), tty_(::isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()),
        last_(start_) {}
  void add(bool solved);

 private:
  std::size_t total_, done_ = 0, solved_ = 0;
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_;
};

void Progress::add(bool solved) {
  ++done_;
  solved_ += solved;
  const auto now = std::chrono::steady_clock::now();
  if (!tty_ && now - last_ < std::chrono::seconds(3) && done_ != total_) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? done_ / secs : 0;
  const double left = rate > 0 ? (total_ - done_) / rate : 0;
  constexpr int kWidth = 30;
  const int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
  std::fprintf(stderr, "%s[%s%s] %zu/%zu runs, %zu solved, %.2f runs/s, %.0f s left%s",
               tty_ ? "\r" : "", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), done_, total_, solved_, rate, left,
               tty_ && done_ != total_ ? "" : "\n");
}

// Where finished rows go: into the CSV and the traces on the process that writes them (with a
// progress line for every CSV row), to that process from the others (BatchShare).
class Rows {
 public:
  Rows(const BatchSetup& s, BatchShare* share, std::size_t total) : share_(share) {
    if (!writer()) return;
    csv_ = std::make_unique<CsvWriter>(s.csv, batch_columns());
    if (!s.trace_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(s.trace_dir, ec);
      trace_ = std::make_unique<CsvWriter>(
          s.trace_dir + "/traces.csv",
          std::vector<std::string>{"config_id", "puzzle_id", "run", "seed", "generation", "best",
                                   "mean", "worst", "diversity", "restarts", "elapsed",
                                   "temperature"});
    }
    progress_ = std::make_unique<Progress>(total);
  }

  bool writer() const { return !share_ || share_->index() == 0; }
  std::uint32_t processes() const { return share_ ? share_->count() : 1; }

  void add(const BatchShare::Row& row) {
    if (!writer()) return share_->send(row);
    if (row.file == 1) return trace_->row(row.fields);
    csv_->row(row.fields);
    progress_->add(row.fields[1] == "1");
  }

  // The writer: the rows the others have sent (with `wait`, until they are all done).
  void collect(bool wait) {
    if (!share_ || !writer()) return;
    for (const auto& row : share_->take(wait)) add(row);
  }

 private:
  BatchShare* share_;
  std::unique_ptr<CsvWriter> csv_, trace_;
  std::unique_ptr<Progress> progress_;
};

// --checkpoint-every: the runs in flight of one configuration, one checkpoint file each in
// CSV.checkpoints/, named by the configuration and the run's seed and holding its identity
// (checkpoint.hpp), so that --resume continues them on any process count.
class BatchKeeper final : public RunKeeper {
 public:
  BatchKeeper(const BatchSetup& s, const RunConfig& ga, const std::vector<PlannedRun>& plan,
              const std::vector<RunRequest>& requests)
      : dir_(s.csv + ".checkpoints"), every_(s.checkpoint_every), plan_(plan), requests_(requests),
        config_(csv_line(config_values(ga))), config_id_(config_id(ga)),
        last_(std::chrono::steady_clock::now()) {
    std::filesystem::create_directories(dir_);
  }

  const RunState* resumed(std::size_t run) override {
    const std::string path = file(run);
    if (!std::filesystem::exists(path)) return nullptr;
    Checkpoint c = read_checkpoint(path);
    check_checkpoint_is_for(c, identity(run), path);
    loaded_ = std::move(c.run);
    ++continued_;
    return &loaded_;
  }
  bool due() override {
    asked_ = g_checkpoint_asked.load();
    return asked_ || std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= every_;
  }
  void save(std::size_t run, const RunState& st) override {
    Checkpoint c = identity(run);
    c.run = st;
    write_checkpoint(file(run), c);
    last_ = std::chrono::steady_clock::now();
  }
  bool stop_after_save() override { return asked_; }
  std::size_t continued() const { return continued_; }  // runs resumed from their files
  // A run recorded in the CSV has nothing left to continue.
  void forget(std::size_t run) const {
    std::error_code ec;
    std::filesystem::remove(file(run), ec);
  }

 private:
  std::string file(std::size_t run) const {
    char seed[17];
    std::snprintf(seed, sizeof seed, "%016llx", static_cast<unsigned long long>(plan_[run].seed));
    return dir_ + "/" + config_id_ + "-" + seed + ".ckpt";
  }
  Checkpoint identity(std::size_t run) const {
    const PlannedRun& pr = plan_[run];
    return {GPUGA_VERSION, config_ + " run=" + std::to_string(pr.run) + " seed=" + std::to_string(pr.seed),
            to_line(requests_[run].puzzle, pr.puzzle->alphabet), 0, {}};
  }

  std::string dir_;
  double every_;
  const std::vector<PlannedRun>& plan_;
  const std::vector<RunRequest>& requests_;
  std::string config_, config_id_;
  std::chrono::steady_clock::time_point last_;
  bool asked_ = false;
  RunState loaded_;  // the driver restores it at once
  std::size_t continued_ = 0;
};

// One row per run in the CSV, traces when asked, and a progress line on stderr (redrawn in
// place on a terminal, every few seconds otherwise).
class BatchObserver final : public RunObserver {
 public:
  BatchObserver(Rows& rows, bool tracing, const std::vector<PlannedRun>& plan, const RunConfig& ga,
                Backend backend, std::uint32_t trace_every, const BatchKeeper* keeper = nullptr)
      : rows_(rows), tracing_(tracing), plan_(plan), ga_(ga), backend_(backend),
        trace_every_(trace_every), keeper_(keeper), config_id_(config_id(ga)),
        pending_(plan.size()) {}

  std::uint32_t cadence() const override { return tracing_ ? trace_every_ : 0; }

  bool on_round(const std::vector<GenerationReport>& reps, Engine&) override {
    rows_.collect(false);
    if (!tracing_) return true;
    for (const auto& r : reps)
      if (r.generation % trace_every_ == 0)
        pending_[r.run].push_back(
            {config_id_, plan_[r.run].puzzle_id, std::to_string(plan_[r.run].run),
             std::to_string(plan_[r.run].seed),
             std::to_string(r.generation), std::to_string(r.summary.best),
             fixed(r.summary.mean, "%.3f"), std::to_string(r.summary.worst),
             fixed(r.summary.diversity, "%.2f"), std::to_string(r.restarts),
             fixed(r.elapsed, "%.4f"),
             ga_.algorithm == Algorithm::Sa ? fixed(r.summary.temperature, "%.4f") : ""});
    return true;
  }

  void on_result(std::size_t i, const RunResult& r) override {
    // Not finished: --resume runs it again (from its checkpoint, where it has one).
    if (!ran_to_an_end(r.stop_reason)) return;
    const PlannedRun& pr = plan_[i];
    auto row = batch_row({{"puzzle_id", pr.puzzle_id},
                          {"solved", r.solved ? "1" : "0"},
                          {"final_fitness", std::to_string(r.best_fitness)},
                          {"time_seconds", fixed(r.seconds, "%.4f")},
                          {"generations_run", std::to_string(r.generations)},
                          {"puzzle", to_line(pr.puzzle->grid, pr.puzzle->alphabet)},
                          {"run", std::to_string(pr.run)},
                          {"seed", std::to_string(pr.seed)},
                          {"restarts", std::to_string(r.restarts)},
                          {"evaluations", std::to_string(r.evaluations)},
                          {"backend", to_string(backend_)},
                          {"device", backend_ == Backend::Cuda ? std::to_string(ga_.device) : ""},
                          {"ranks", std::to_string(rows_.processes())},
                          {"gpuga_version", GPUGA_VERSION},
                          {"grid", to_line(r.best, pr.puzzle->alphabet)},
                          {"stop", to_string(r.stop_reason)},
                          {"size", size_name(r.best)},
                          {"config_id", config_id_}},
                         ga_);
    for (auto& t : pending_[i]) rows_.add({1, std::move(t)});
    pending_[i].clear();
    rows_.add({0, std::move(row)});  // after its trace: a recorded run always has its whole trace
    if (keeper_) keeper_->forget(i);
  }

 private:
  Rows& rows_;
  bool tracing_;
  const std::vector<PlannedRun>& plan_;
  const RunConfig& ga_;
  Backend backend_;
  std::uint32_t trace_every_;
  const BatchKeeper* keeper_;
  std::string config_id_;
  std::vector<std::vector<std::vector<std::string>>> pending_;  // trace rows per unfinished run
};

// The engine for `slots` runs at once; with the default count, halved until it fits the device's
// memory (the engine refuses, before allocating, what does not fit).
std::unique_ptr<Engine> make_slots(Backend backend, const Grid& first, const EngineParams& params,
                                   const RunConfig& ga, std::uint32_t slots, bool shrink) {
  for (;;) {
    try {
      return make_engine(backend, first, params, ga, slots);
    } catch (const InputError&) {
      if (!shrink || slots == 1) throw;
      slots /= 2;
    }
  }
}

struct Outcome {
  std::size_t ran = 0;      // runs finished (not interrupted)
  bool all_solved = true;
  bool checkpointed = false;  // a signal asked: the runs in flight saved, the batch ends
  std::size_t continued = 0;  // runs resumed from their checkpoints
  std::uint32_t slots = 0;  // runs held at once
};

// The planned runs of one configuration. Those that propagation completes are recorded at once;
// the others search from the grid propagation left, sharing the engine's run slots.
Outcome run_configuration(const BatchSetup& s, const RunConfig& ga, Backend backend,
                          const std::vector<PlannedRun>& plan, Rows& rows) {
  std::vector<PlannedRun> searched, propagated;
  std::vector<RunRequest> requests;
  std::vector<RunResult> completed;
  std::map<const Puzzle*, RunStart> starts;  // propagation once per puzzle, not per run
  for (const auto& pr : plan) {
    auto it = starts.find(pr.puzzle);
    if (it == starts.end())
      it = starts.emplace(pr.puzzle, start_run(pr.puzzle->grid, ga.propagate, 0, pr.puzzle_id)).first;
    const RunStart& start = it->second;
    if (start.result) {
      propagated.push_back(pr);
      completed.push_back(*start.result);
      completed.back().seed = pr.seed;
    } else {
      searched.push_back(pr);
      requests.push_back({start.grid, pr.seed});
    }
  }
  Outcome out;
  const bool tracing = !s.trace_dir.empty();
  BatchObserver recorder(rows, tracing, propagated, ga, backend, s.trace_every);
  for (std::size_t i = 0; i < completed.size(); ++i) recorder.on_result(i, completed[i]);
  out.ran = completed.size();
  if (searched.empty()) return out;
  std::uint32_t slots = s.concurrent;
  if (slots == 0) slots = backend == Backend::Cuda ? std::clamp(1000000u / ga.pop, 1u, 65535u) : 8;
  slots = static_cast<std::uint32_t>(std::min<std::size_t>(slots, searched.size()));
  auto engine = make_slots(backend, requests[0].puzzle, ga.islands(), ga, slots, s.concurrent == 0);
  std::unique_ptr<BatchKeeper> keeper;
  if (s.checkpoint_every > 0) keeper = std::make_unique<BatchKeeper>(s, ga, searched, requests);
  BatchObserver observer(rows, tracing, searched, ga, backend, s.trace_every, keeper.get());
  for (const auto& r : run_many(*engine, requests, ga.limits(), observer, nullptr, keeper.get())) {
    out.all_solved = out.all_solved && r.solved;
    out.checkpointed = out.checkpointed || r.stop_reason == StopReason::Checkpointed;
    out.ran += ran_to_an_end(r.stop_reason) ? 1 : 0;
  }
  out.slots = engine->slots();
  if (keeper) out.continued = keeper->continued();
  return out;
}

}  // namespace

BatchEnd run_batches(const BatchSetup& s, const std::vector<RunConfig>& given, BatchShare* share) {
  if (s.checkpoint_every > 0) install_checkpoint_signals();
  const auto puzzles = read_solvable_puzzles(s.files);
  for (const auto& p : puzzles)  // the runs of a batch share engines, which hold one size
    GPUGA_INPUT_CHECK(p.grid.box == puzzles.front().grid.box,
                      p.file + ":" + std::to_string(p.line) + ": a " + size_name(p.grid) +
                          " puzzle after " + size_name(puzzles.front().grid) + " ones (" +
                          puzzles.front().file + "); expected puzzles of one size per batch");
  std::vector<RunConfig> configs = given;  // --pop 0 resolved for each one's backend
  std::vector<Backend> backends;
  for (auto& ga : configs) {
    backends.push_back(resolve_backend(ga.backend, ga.device));
    ga.resolve(backends.back(), puzzles.front().grid.box);
  }
  std::error_code ec;
  const bool exists = std::filesystem::exists(s.csv, ec) && std::filesystem::file_size(s.csv, ec) > 0;
  GPUGA_INPUT_CHECK(!exists || s.resume, s.csv + ": exists; use --resume to continue that batch, "
                                                 "or name another file");
  const bool writer = !share || share->index() == 0;
  if (exists && writer) drop_partial_last_line(s.csv);
  if (share) share->barrier();  // every process reads the CSV as the writer left it
  const auto done = exists ? recorded_runs(s.csv) : std::set<RecordedRun>{};

  std::vector<std::vector<PlannedRun>> plans;
  std::size_t total = 0, planned = 0;
  for (const auto& ga : configs) {
    const auto chosen = choose(puzzles, s.sample, ga.seed);
    const std::string config = csv_line(config_values(ga));
    auto& plan = plans.emplace_back();
    for (std::size_t k = 0; k < chosen.size(); ++k)
      for (std::uint32_t r = 0; r < s.runs; ++r) {
        const std::string id = puzzle_id(*chosen[k]);
        if (done.count({id, std::to_string(r), config})) continue;
        const bool mine = !share || planned++ % share->count() == share->index();
        ++total;
        if (mine)
          plan.push_back({id, chosen[k], r, derive_seed(ga.seed, k * std::uint64_t(s.runs) + r + 1)});
      }
  }
  if (writer)
    std::fprintf(stderr, "batch: %zu runs to do in %zu configuration(s) (%zu recorded already)%s\n",
                 total, configs.size(), done.size(),
                 share ? (", over " + std::to_string(share->count()) + " processes").c_str() : "");
  Rows rows(s, share, total);
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t ran = 0;
  std::uint32_t widest = 0;
  bool all_solved = true, checkpointed = false;
  std::size_t continued = 0;
  for (std::size_t c = 0; c < configs.size() && !g_interrupted.load() && !checkpointed; ++c) {
    const Outcome o = run_configuration(s, configs[c], backends[c], plans[c], rows);
    ran += o.ran;
    all_solved = all_solved && o.all_solved;
    checkpointed = o.checkpointed;
    continued += o.continued;
    widest = std::max(widest, o.slots);
  }
  if (continued)
    std::fprintf(stderr, "batch: %zu run(s) continued from their checkpoints\n", continued);
  if (share) {
    rows.collect(true);
    std::tie(ran, all_solved) = share->done(ran, all_solved);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ran > 0 && writer)  // compare with --concurrent 1 for the one-at-a-time figure
    std::fprintf(stderr, "batch: %zu runs in %.2f s wall, %.4f s per run amortised (%u at a time)\n",
                 ran, wall, wall / ran, widest);
  if (checkpointed) {
    if (writer) std::fprintf(stderr, "batch: the runs in flight saved in %s.checkpoints/; "
                                     "--resume continues them\n", s.csv.c_str());
    return BatchEnd::Checkpointed;
  }
  return all_solved && !g_interrupted.load() ? BatchEnd::AllSolved : BatchEnd::SomeUnsolved;
}

}  // namespace gpuga
