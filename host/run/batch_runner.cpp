#include "gpuga/batch_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "batch_keeper.hpp"
#include "batch_rows.hpp"
#include "../io/file_lock.hpp"
#include "gpuga/backend.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/device/rng.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/solve.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {
namespace {


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

// One row per run in the CSV, and traces when asked.
class BatchObserver final : public RunObserver {
 public:
  BatchObserver(Rows& rows, bool tracing, const std::vector<BatchRun>& runs, const RunConfig& config,
                Backend backend, std::uint32_t trace_every, const BatchKeeper* keeper = nullptr)
      : rows_(rows), tracing_(tracing), runs_(runs), config_(config), backend_(backend),
        trace_every_(trace_every), keeper_(keeper), config_id_(config_id(config)),
        pending_(runs.size()) {}

  std::uint32_t cadence() const override { return tracing_ ? trace_every_ : 0; }

  bool on_round(const std::vector<GenerationReport>& reps, Engine&) override {
    rows_.collect(false);
    if (!tracing_) return true;
    for (const auto& r : reps) {
      if (r.generation % trace_every_ != 0) continue;
      const BatchRun& run = runs_[r.run];
      pending_[r.run].push_back(trace_row(run.puzzle_id, run.run, run.seed, r, config_, config_id_));
    }
    return true;
  }

  void on_result(std::size_t i, const RunResult& r) override {
    // Not finished: --resume runs it again (from its checkpoint, where it has one).
    if (!ran_to_an_end(r.stop_reason)) return;
    auto row = run_row(runs_[i], r, config_, backend_, rows_.processes(), config_id_);
    for (auto& t : pending_[i]) rows_.add({1, std::move(t)});
    pending_[i].clear();
    rows_.add({0, std::move(row)});  // after its trace: a recorded run always has its whole trace
    if (keeper_) keeper_->forget(i);
  }

 private:
  Rows& rows_;
  bool tracing_;
  const std::vector<BatchRun>& runs_;
  const RunConfig& config_;
  Backend backend_;
  std::uint32_t trace_every_;
  const BatchKeeper* keeper_;
  std::string config_id_;
  std::vector<std::vector<std::vector<std::string>>> pending_;  // trace rows per unfinished run
};

// The engine for `slots` runs at once; with the default count, halved until it fits the device's
// memory (the engine refuses, before allocating, what does not fit).
std::unique_ptr<Engine> make_slots(const RunPlan& plan, const Grid& first, std::uint32_t slots,
                                   bool shrink) {
  for (;;) {
    try {
      return make_engine(plan, first, slots);
    } catch (const InputError&) {
      if (!shrink || slots == 1) throw;
      slots /= 2;
    }
  }
}

// The batch's whole: its runs (each a puzzle) and their evaluations a second of its wall time,
// which starts at its first run (compare with --concurrent 1 for the one-at-a-time figure).
std::string batch_rates(const BatchTally& tally, double wall, std::uint32_t widest) {
  char line[200];
  std::snprintf(line, sizeof line,
                "%zu runs in %.3g s wall (%u at a time): %.3g puzzles a second, %.3g evaluations "
                "a second, %.3g s per run amortised",
                tally.ran, wall, widest, tally.ran / wall, tally.evaluations / wall, wall / tally.ran);
  return line;
}

// The configuration columns that take more than one value among `plans` (of one puzzle size),
// each with its values in the order they come: "pop (100, 200), mutation_rate (0.1, 0.3)".
// A grid's key varies by itself; the others through the defaults it changes (--repair none: the
// plain GA's island size and local search).
std::string varied_settings(const std::vector<const RunPlan*>& plans) {
  const auto& columns = config_columns();
  std::vector<std::vector<std::string>> values(columns.size());
  for (const RunPlan* one : plans) {
    const auto row = config_values(one->config);
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (std::find(values[c].begin(), values[c].end(), row[c]) == values[c].end())
        values[c].push_back(row[c]);
  }
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (values[c].size() < 2) continue;
    std::string listed;
    for (const std::string& v : values[c]) listed += (listed.empty() ? "" : ", ") + v;
    out += (out.empty() ? "" : ", ") + columns[c] + " (" + listed + ")";
  }
  return out;
}

struct Outcome {
  BatchTally tally;           // of the runs finished
  bool checkpointed = false;  // a signal asked: the runs in flight saved, the batch ends
  std::string unsaved;        // why some were not (a checkpoint that could not be written), or ""
  std::size_t continued = 0;  // runs resumed from their checkpoints
  std::uint32_t slots = 0;  // runs held at once
};

// The runs of one configuration's plan (one puzzle size). Those that propagation
// completes are recorded at once; the others search from the grid propagation left, sharing the
// engine's run slots.
Outcome run_configuration(const BatchSetup& s, const RunPlan& run_plan,
                          const std::vector<BatchRun>& runs, Rows& rows, BatchReporter* reporter) {
  const RunConfig& config = run_plan.config;
  const Backend backend = config.backend;
  std::vector<BatchRun> searched, propagated;
  std::vector<RunRequest> requests;
  std::vector<RunResult> completed;
  std::map<const Puzzle*, RunStart> starts;  // propagation once per puzzle, not per run
  for (const auto& pr : runs) {
    auto it = starts.find(pr.puzzle);
    if (it == starts.end())
      it = starts.emplace(pr.puzzle, start_run(pr.puzzle->grid, config.presolve, 0, pr.puzzle_id)).first;
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
  BatchObserver recorder(rows, tracing, propagated, config, backend, s.trace_every);
  for (std::size_t i = 0; i < completed.size(); ++i) recorder.on_result(i, completed[i]);
  out.tally.ran = completed.size();
  if (searched.empty()) return out;
  const std::uint32_t slots = static_cast<std::uint32_t>(
      std::min<std::size_t>(s.concurrent ? s.concurrent : run_plan.slots, searched.size()));
  auto engine = make_slots(run_plan, requests[0].puzzle, slots, s.concurrent == 0);
  std::unique_ptr<BatchKeeper> keeper;
  if (s.checkpoint_every > 0) keeper = std::make_unique<BatchKeeper>(s, config, searched, requests, reporter);
  BatchObserver observer(rows, tracing, searched, config, backend, s.trace_every, keeper.get());
  for (const auto& r : run_many(*engine, requests, run_plan.limits(), observer, nullptr, keeper.get())) {
    out.tally.all_solved = out.tally.all_solved && r.solved;
    out.checkpointed = out.checkpointed || r.stop_reason == StopReason::Checkpointed;
    if (!ran_to_an_end(r.stop_reason)) continue;
    ++out.tally.ran;
    out.tally.evaluations += r.evaluations;
  }
  out.slots = engine->slots();
  // A signal that asked for checkpoints ends the batch there, even where the runs in flight
  // then ended anyway (at their generation cap) and none is left checkpointed: the runs not
  // begun are still to do.
  if (keeper && keeper->stop_after_save()) out.checkpointed = true;
  if (keeper) out.continued = keeper->continued();
  if (keeper && out.checkpointed) out.unsaved = keeper->failure();
  return out;
}

}  // namespace

BatchEnd run_batches(const BatchSetup& s, const std::vector<RunOptions>& given, BatchShare* share,
                     BatchReporter* reporter) {
  if (s.checkpoint_every > 0) install_checkpoint_signals();
  // Alone, a signal during the puzzles' check (seconds from 36x36) stops it; processes that share
  // the batch check every puzzle alike and settle the signal at their first epoch.
  const auto puzzles = !s.puzzles.empty() ? s.puzzles : read_solvable_puzzles(
      s.files, share ? std::function<bool()>{} : [] { return g_interrupted.load(); });
  const bool writer = !share || share->index() == 0;
  if (!share && g_interrupted.load()) {
    if (reporter) reporter->news("interrupted while checking the puzzles: no run begun");
    return BatchEnd::Interrupted;
  }
  // Every output checked before anything is written: a refusal leaves no file behind.
  if (writer) check_output_file(s.csv, "the batch's CSV");
  // One writer a CSV, from before its rows are read to the last one written (a CSV to a pipe or
  // a device, /dev/stdout, has no rows to share and no folder to lock in).
  std::optional<FileLock> one_writer;
  std::error_code kind;
  if (writer && (!std::filesystem::exists(s.csv, kind) || std::filesystem::is_regular_file(s.csv, kind)))
    one_writer.emplace(s.csv, "the batch's CSV");
  std::error_code ec;
  const bool exists = std::filesystem::is_regular_file(s.csv, ec) && std::filesystem::file_size(s.csv, ec) > 0;
  GPUGA_INPUT_CHECK(!exists || s.resume, s.csv + ": exists; use --resume to continue that batch, "
                                                 "or name another file");
  if (writer) check_trace_folder(s.trace_dir);
  if (exists && writer) drop_partial_last_line(s.csv);
  if (share) share->barrier();  // every process reads the CSV as the writer left it
  // The CSV's runs by content; each planned run that one records takes it off (a file given
  // twice has its runs recorded twice, and a run a crash lost is still to do).
  auto done = exists ? recorded_runs(s.csv) : std::map<RecordedRun, std::vector<int>>{};
  std::size_t recorded = 0;
  for (const auto& [run, lines] : done) recorded += lines.size();
  std::set<std::pair<std::string, std::string>> given_puzzles;  // (puzzle_id, puzzle)

  // Each configuration's plan for each puzzle size, in the order the sizes come; each plan's
  // runs share engines, which hold one size.
  std::vector<int> boxes;
  for (const auto& p : puzzles)
    if (std::find(boxes.begin(), boxes.end(), p.grid.box) == boxes.end()) boxes.push_back(p.grid.box);
  std::vector<RunPlan> run_plans;
  std::vector<std::vector<BatchRun>> runs_of_plan;  // run_plans[c]'s runs
  std::string why_cpu, shared;
  std::size_t total = 0, planned = 0;
  for (const auto& options : given) {
    std::map<int, std::size_t> of_box;  // the plan of each size in run_plans
    for (const int box : boxes) {
      Target target = probe_target(options, box, false, 1, s.node);
      target.free_cells = most_free_cells(puzzles, box);
      if (why_cpu.empty()) why_cpu = target.why_cpu;
      if (shared.empty()) shared = shared_devices_news(target, s.node);
      of_box[box] = run_plans.size();
      run_plans.push_back(plan(options, target));
      runs_of_plan.emplace_back();
    }
    const auto chosen = choose(puzzles, s.sample, *options.seed);
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      const std::size_t at = of_box.at(chosen[k]->grid.box);
      const RunConfig& config = run_plans[at].config;
      const std::string recorded_as = csv_line(config_values(config));
      const std::string id = puzzle_id(*chosen[k]);
      const std::string text = to_line(chosen[k]->grid, chosen[k]->alphabet);
      given_puzzles.insert({id, text});
      for (std::uint32_t r = 0; r < s.runs; ++r) {
        const auto recorded_run = done.find({id, text, std::to_string(r), recorded_as});
        if (recorded_run != done.end() && !recorded_run->second.empty()) {
          recorded_run->second.pop_back();
          continue;
        }
        const bool mine = !share || planned++ % share->count() == share->index();
        ++total;
        if (mine)
          runs_of_plan[at].push_back(
              {id, chosen[k], r,
               derive_seed(config.engine.ga.seed, k * std::uint64_t(s.runs) + r + 1)});
      }
    }
  }
  for (const auto& [run, lines] : done)
    GPUGA_INPUT_CHECK(lines.empty() || given_puzzles.count({std::get<0>(run), std::get<1>(run)}),
                      s.csv + ":" + std::to_string(lines.empty() ? 0 : lines.front()) + ": a run of " +
                          std::get<0>(run) + " whose puzzle the given files do not hold there (" +
                          std::get<1>(run) + "); expected the files the batch ran on, unchanged");
  const auto news = [&](const std::string& line) {
    if (writer && reporter) reporter->news(line);
  };
  if (!shared.empty()) news(shared);
  if (!why_cpu.empty()) news(why_cpu);
  news(std::to_string(total) + " runs to do in " + std::to_string(given.size()) +
       " configuration(s) (" + std::to_string(recorded) + " recorded already)" +
       (share ? ", over " + std::to_string(share->count()) + " processes" : ""));
  // What the configurations differ in, as planned, a puzzle size at a time (run_plans holds
  // each configuration's plan of every size, in the order of `boxes`).
  for (std::size_t b = 0; b < boxes.size() && given.size() > 1; ++b) {
    std::vector<const RunPlan*> of_size;
    for (std::size_t at = b; at < run_plans.size(); at += boxes.size()) of_size.push_back(&run_plans[at]);
    const std::string varied = varied_settings(of_size);
    const std::string side = std::to_string(boxes[b] * boxes[b]);
    if (!varied.empty())
      news("the configurations differ in " + varied +
           (boxes.size() > 1 ? " (" + side + "x" + side + ")" : ""));
  }
  Rows rows(s, share, writer ? reporter : nullptr, total);
  const auto t0 = std::chrono::steady_clock::now();
  BatchTally tally;
  std::uint32_t widest = 0;
  bool checkpointed = false;
  std::string unsaved;
  std::size_t continued = 0;
  for (std::size_t c = 0; c < run_plans.size() && !g_interrupted.load() && !checkpointed; ++c) {
    const Outcome o = run_configuration(s, run_plans[c], runs_of_plan[c], rows, writer ? reporter : nullptr);
    tally.ran += o.tally.ran;
    tally.all_solved = tally.all_solved && o.tally.all_solved;
    tally.evaluations += o.tally.evaluations;
    checkpointed = o.checkpointed;
    unsaved = o.unsaved;
    continued += o.continued;
    widest = std::max(widest, o.slots);
  }
  if (continued) news(std::to_string(continued) + " run(s) continued from their checkpoints");
  if (share) {
    rows.collect(true);
    tally = share->done(tally);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tally.ran > 0) news(batch_rates(tally, wall, widest));
  const bool all_solved = tally.all_solved;
  if (checkpointed && !unsaved.empty()) {  // asked to stop, and not all saved: as interrupted
    news("stopped, but the runs in flight could not all be saved (" + unsaved + "); --resume runs "
         "those from their start, the " + std::to_string(tally.ran) + " recorded runs kept");
    return BatchEnd::Interrupted;
  }
  if (checkpointed) {
    news("the runs in flight saved in " + s.csv + ".checkpoints/; --resume continues them");
    return BatchEnd::Checkpointed;
  }
  if (g_interrupted.load()) {
    news("interrupted: " + std::to_string(tally.ran) + " of the " + std::to_string(total) +
         " runs to do finished, " + std::to_string(total - tally.ran) + " not run");
    return BatchEnd::Interrupted;
  }
  return all_solved ? BatchEnd::AllSolved : BatchEnd::SomeUnsolved;
}

}  // namespace gpuga
