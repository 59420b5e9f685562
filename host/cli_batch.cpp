// gpuga batch FILE... --runs R --seed S --csv out.csv: every puzzle R times, independent runs
// sharing the engine's lanes (--concurrent), one CSV row per run written and flushed as it ends.
// --resume continues an interrupted batch, skipping the runs already recorded.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "backend.hpp"
#include "commands.hpp"
#include "csv.hpp"
#include "errors.hpp"
#include "exact_solver.hpp"
#include "gpuga/version.hpp"
#include "puzzle_io.hpp"

namespace gpuga {
namespace {

struct BatchOptions {
  GaOptions ga;
  std::vector<std::string> files;
  std::uint32_t runs = 1;
  std::uint32_t sample = 0;  // 0: every puzzle
  std::uint32_t concurrent = 0;  // 0: as many as fit well
  std::string csv;
  bool resume = false;
};

// The first columns are named as existing analysis notebooks expect them.
const std::vector<std::string> kColumns = {
    "puzzle_id", "solved", "final_fitness", "time_seconds", "generations_run", "population_size",
    "mutation_rate", "restart_after_n_stagnant", "puzzle", "run", "seed", "restarts",
    "evaluations", "encoding", "selection", "selection_param", "crossover", "crossover_rate",
    "elite", "backend", "device", "gpuga_version", "grid", "stop"};

struct PlannedRun {
  std::string puzzle_id;  // file#index
  const Puzzle* puzzle;
  std::uint32_t run;
  std::uint64_t seed;
};

std::string puzzle_id(const Puzzle& p) { return p.file + "#" + std::to_string(p.index); }

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

std::set<std::pair<std::string, std::string>> recorded_runs(const std::string& csv) {
  std::set<std::pair<std::string, std::string>> done;
  const auto rows = read_csv_rows(csv);
  if (rows.empty()) return done;
  GPUGA_INPUT_CHECK(rows[0] == kColumns, csv + ":1: the header is not gpuga batch's; expected " +
                                             csv_line(kColumns));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    GPUGA_INPUT_CHECK(rows[i].size() == kColumns.size(),
                      csv + ":" + std::to_string(i + 1) + ": " + std::to_string(rows[i].size()) +
                          " fields; expected " + std::to_string(kColumns.size()));
    done.insert({rows[i][0], rows[i][9]});
  }
  return done;
}

std::string selection_param(const GaOptions& ga) {
  switch (ga.selection) {
    case Selection::Tournament: return "tournament_size=" + std::to_string(ga.tournament_size);
    case Selection::Rank: return "rank_pressure=" + std::to_string(ga.rank_pressure);
    default: return "children=" + std::to_string(ga.children ? ga.children : 10 * ga.pop);
  }
}

class BatchObserver final : public RunObserver {
 public:
  BatchObserver(CsvWriter& csv, const std::vector<PlannedRun>& plan, const BatchOptions& o,
                Backend backend)
      : csv_(csv), plan_(plan), o_(o), backend_(backend) {}

  void on_result(std::size_t i, const RunResult& r) override {
    const PlannedRun& pr = plan_[i];
    const auto& ga = o_.ga;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.4f", r.seconds);
    csv_.row({pr.puzzle_id, r.solved ? "1" : "0", std::to_string(r.best_fitness), secs,
              std::to_string(r.generations), std::to_string(ga.pop), std::to_string(ga.mutation_rate),
              std::to_string(ga.restart_after), to_line(pr.puzzle->grid), std::to_string(pr.run),
              std::to_string(pr.seed), std::to_string(r.restarts), std::to_string(r.evaluations),
              to_string(ga.encoding), to_string(ga.selection), selection_param(ga),
              to_string(ga.crossover), std::to_string(ga.crossover_rate), std::to_string(ga.elite),
              to_string(backend_), backend_ == Backend::Cuda ? std::to_string(ga.device) : "",
              GPUGA_VERSION, to_line(r.best), r.stop_reason});
    ++done_;
    solved_ += r.solved;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ > std::chrono::seconds(3) || done_ == plan_.size()) {
      std::fprintf(stderr, "batch: %zu/%zu runs done, %zu solved\n", done_, plan_.size(), solved_);
      last_ = now;
    }
  }

 private:
  CsvWriter& csv_;
  const std::vector<PlannedRun>& plan_;
  const BatchOptions& o_;
  Backend backend_;
  std::size_t done_ = 0, solved_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

int run_batch(const CLI::App* cmd, BatchOptions& o) {
  install_interrupt_handler();
  const GaParams params = to_params(o.ga);
  if (print_config_if_asked(o.ga, cmd)) return kExitOk;
  const auto puzzles = read_solvable_puzzles(o.files);
  std::error_code ec;
  const bool exists = std::filesystem::exists(o.csv, ec) && std::filesystem::file_size(o.csv, ec) > 0;
  GPUGA_INPUT_CHECK(!exists || o.resume, o.csv + ": exists; use --resume to continue that batch, "
                                                 "or name another file");
  if (exists) drop_partial_last_line(o.csv);
  const auto done = exists ? recorded_runs(o.csv) : decltype(recorded_runs(o.csv)){};
  const auto chosen = choose(puzzles, o.sample, params.seed);
  std::vector<PlannedRun> plan;
  for (std::size_t k = 0; k < chosen.size(); ++k)
    for (std::uint32_t r = 0; r < o.runs; ++r) {
      const std::string id = puzzle_id(*chosen[k]);
      if (done.count({id, std::to_string(r)})) continue;
      plan.push_back({id, chosen[k], r, derive_seed(params.seed, k * std::uint64_t(o.runs) + r + 1)});
    }
  std::fprintf(stderr, "batch: %zu runs to do (%zu recorded already)\n", plan.size(), done.size());
  CsvWriter csv(o.csv, kColumns);
  if (plan.empty()) return kExitOk;
  const Backend backend = resolve_backend(o.ga.backend, o.ga.device);
  std::uint32_t lanes = o.concurrent;
  if (lanes == 0) lanes = backend == Backend::Cuda ? std::max(1u, 1000000u / o.ga.pop) : 8;
  lanes = static_cast<std::uint32_t>(std::min<std::size_t>(lanes, plan.size()));
  std::vector<RunRequest> requests;
  for (const auto& pr : plan) requests.push_back({pr.puzzle->grid, pr.seed});
  auto engine = make_engine(backend, plan[0].puzzle->grid, params, o.ga, lanes);
  BatchObserver observer(csv, plan, o, backend);
  const auto results = run_many(*engine, requests, params, to_limits(o.ga), observer);
  const bool all = std::all_of(results.begin(), results.end(), [](const RunResult& r) { return r.solved; });
  return all && !g_interrupted.load() ? kExitOk : kExitUnsolved;
}

}  // namespace

void add_batch_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<BatchOptions>();
  auto* cmd = app.add_subcommand(
      "batch", "Run every puzzle --runs times (seeds derived from --seed), many runs at once, one "
               "CSV row per run; --resume continues an interrupted batch");
  add_puzzle_files_option(cmd, o->files);
  cmd->add_option("--csv", o->csv, "CSV file for the results (one row per run)")->required();
  cmd->add_option("--runs", o->runs, "Runs per puzzle")->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  cmd->add_option("--sample", o->sample, "Draw this many puzzles at random (seeded) from the "
                  "files (0: all)")->check(CLI::Range(0u, 100000000u));
  cmd->add_option("--concurrent", o->concurrent, "Runs advancing together (default: CUDA, "
                  "1e6 / --pop; CPU, 8)")->check(CLI::Range(0u, 65535u));
  cmd->add_flag("--resume", o->resume, "Continue the batch in --csv, skipping recorded runs");
  add_ga_options(cmd, o->ga);
  cmd->callback([o, cmd, &exit_status] { exit_status = run_batch(cmd, *o); });
}

}  // namespace gpuga
