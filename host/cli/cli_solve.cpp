// gpuga solve [options] FILE...: the GA on each puzzle in turn; verified grids on stdout,
// progress and summaries on stderr.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>

#include "gpuga/backend.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/checkpoint.hpp"
#include "cli_ranks.hpp"
#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/version.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/result_fields.hpp"
#include "gpuga/solve.hpp"

namespace gpuga {
namespace {

enum class OutputFormat { Pretty, Line };

struct SolveOptions {
  RunOptions run;
  bool print_config = false;
  std::vector<std::string> files;
  std::uint32_t report_every = 100;
  bool show_best = false;
  bool interactive = false;
  OutputFormat format = OutputFormat::Pretty;
  bool json = false;
  std::string checkpoint;          // --checkpoint FILE: "" for none
  double checkpoint_every = 600;   // seconds between checkpoints
  std::uint32_t concurrent = 0;    // puzzles solved at once; 0: fill the backend when many
  std::string trace_dir;           // --trace: "" for none
  std::uint32_t trace_every = 1;
};

// --checkpoint: writes the run's state every --checkpoint-every seconds and when SIGTERM or
// SIGUSR1 asks (the run then stops), and continues from the state a checkpoint holds. Under MPI
// the ranks agree when (rank 0's clock, a signal on any rank), every rank takes the whole run's
// state (a collective) and rank 0 writes it; each rank reads the file to resume.
class CheckpointKeeper final : public RunKeeper {
 public:
  CheckpointKeeper(const std::string& path, Checkpoint identity, double every,
                   std::optional<RunState> resumed)
      : path_(path), identity_(std::move(identity)), every_(every), resumed_(std::move(resumed)),
        last_(std::chrono::steady_clock::now()) {}

  const RunState* resumed(std::size_t) override { return resumed_ ? &*resumed_ : nullptr; }
  bool due() override {
    const bool time = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= every_;
    asked_ = any_rank(g_checkpoint_asked.load());
    return any_rank(rank_place().root() && time) || asked_;
  }
  // A checkpoint that cannot be written (the disk filled, the folder went) does not end the run:
  // it says so once and goes on, so that the best grid is still printed at the end.
  void save(std::size_t, const RunState& s) override {
    if (rank_place().root()) {
      Checkpoint c = identity_;
      c.run = s;
      try {
        write_checkpoint(path_, c);
      } catch (const RuntimeFailure& e) {
        if (!warned_)
          std::cerr << "gpuga: warning: " << e.what() << "; the run goes on without checkpoints\n";
        warned_ = true;
      }
    }
    last_ = std::chrono::steady_clock::now();
  }
  bool stop_after_save() override { return asked_; }

 private:
  std::string path_;
  Checkpoint identity_;  // version, configuration and puzzle
  double every_;
  std::optional<RunState> resumed_;
  std::chrono::steady_clock::time_point last_;
  bool asked_ = false;  // a signal on some rank asked for this checkpoint: stop after it
  bool warned_ = false;  // a write failed and was reported
};

// The best individual of the run's best island now.
void print_best(std::ostream& out, const GenerationReport& rep, Engine& engine, Alphabet a) {
  out << "generation " << rep.generation << " (island " << rep.summary.best_island << ")\n"
      << to_pretty(engine.best(rep.slot, rep.summary.best_island), a) << "fitness "
      << rep.summary.best << '\n';
}

// Progress lines, --show-best grids and --interactive prompts, all on stderr. Under MPI every
// rank has one, alike but for the writing (rank 0's alone): the same epochs and the same calls
// to the engine, whose best() is collective there.
class SolveObserver final : public RunObserver {
 public:
  SolveObserver(const SolveOptions& o, std::istream* answers, bool writes)
      : o_(o), answers_(answers), err_(writes ? std::cerr.rdbuf() : nullptr), writes_(writes),
        terminal_(writes && ::isatty(STDERR_FILENO)) {}

  // Grids shown in the alphabet of the puzzle now running.
  void set_alphabet(Alphabet a) { alphabet_ = a; }
  // --trace: rows into FOLDER/traces.csv (the writer's, the folder checked).
  void open_trace(const std::string& folder) {
    if (writes_ && !folder.empty())
      trace_ = std::make_unique<CsvWriter>(folder + "/traces.csv", trace_columns());
  }
  // The runs about to start, of `plan`, on the puzzles named `ids` (by run): their limits (the
  // bar on a terminal) and traces; their marks start afresh.
  void start_runs(const RunPlan& plan, std::vector<std::string> ids) {
    limits_ = plan.limits();
    config_ = &plan.config;
    config_id_ = trace_ ? config_id(plan.config) : "";
    ids_ = std::move(ids);
    seen_.clear();
  }
  // Puzzles solved together: each progress line starts with its puzzle's number (`numbers`
  // by run), and the result goes to `on_done` as its run ends.
  void set_together(std::vector<int> numbers, std::function<void(std::size_t, const RunResult&)> on_done) {
    numbers_ = std::move(numbers);
    on_done_ = std::move(on_done);
  }
  void on_result(std::size_t run, const RunResult& r) override {
    if (on_done_) on_done_(run, r);
  }

  // Epochs end at every report and every traced generation (interactive, at every generation).
  std::uint32_t cadence() const override {
    if (o_.interactive) return 1;
    if (o_.trace_dir.empty()) return o_.report_every;
    return o_.report_every ? std::gcd(o_.report_every, o_.trace_every) : o_.trace_every;
  }

  bool on_round(const std::vector<GenerationReport>& reps, Engine& engine) override {
    if (reps.empty()) return true;
    for (const GenerationReport& rep : reps) {
      report(rep, engine);
      if (trace_ && rep.generation % o_.trace_every == 0)
        trace_->row(trace_row(ids_[rep.run], 0, config_->engine.ga.seed, rep, *config_, config_id_));
    }
    const GenerationReport& rep = reps.front();  // interactive: one puzzle at a time
    if (!o_.interactive || rep.summary.best == 0) return true;
    print_best(err_, rep, engine, alphabet_);
    return !writes_ || ask_to_continue();  // under MPI, rank 0's answer (the driver's Consensus)
  }

 private:
  // A progress line (docs/solving.md defines its fields): the best so far, then the islands
  // now; restarts and growths since the run's line before marked (+N); on a terminal, a bar of
  // the run's limits.
  void report(const GenerationReport& rep, Engine& engine) {
    if (o_.report_every && rep.generation % o_.report_every == 0) {
      if (!numbers_.empty()) err_ << "puzzle " << numbers_[rep.run] << ": ";
      const Seen before = seen_[rep.run];
      seen_[rep.run] = {rep.restarts, rep.growths};
      char line[256];
      std::snprintf(line, sizeof line,
                    "gen %u  best so far %u  now: best %u  mean %.2f  worst %u  diversity %.1f  "
                    "restarts %u%s",
                    rep.generation, rep.best_so_far, rep.summary.best, rep.summary.mean,
                    rep.summary.worst, rep.summary.diversity, rep.restarts,
                    more(rep.restarts, before.restarts).c_str());
      err_ << line;
      if (rep.growths) err_ << "  growths " << rep.growths << more(rep.growths, before.growths);
      std::snprintf(line, sizeof line, "  %.2f s  %.3g evals/s", rep.elapsed,
                    rep.elapsed > 0 ? rep.evaluations / rep.elapsed : 0.0);
      err_ << line;
      if (rep.summary.temperature > 0) err_ << "  temperature " << rep.summary.temperature;
      if (terminal_) {
        const std::string bar = limit_text(rep, limits_);
        if (!bar.empty()) err_ << "  " << bar;
      }
      err_ << '\n';
      if (o_.show_best) print_best(err_, rep, engine, alphabet_);
    }
  }

  // " (+N)" where a count grew by N since the run's line before.
  static std::string more(std::uint32_t now, std::uint32_t before) {
    return now > before ? " (+" + std::to_string(now - before) + ")" : "";
  }

  bool ask_to_continue() {
    for (;;) {
      std::cerr << "Run another generation? [y/n] " << std::flush;
      std::string answer;
      if (!std::getline(*answers_, answer)) return false;
      for (auto& ch : answer) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (answer == "y" || answer == "yes" || answer == "o" || answer == "oui") return true;
      if (answer == "n" || answer == "no" || answer == "non") return false;
      std::cerr << "Please answer y or n.\n";
    }
  }

  const SolveOptions& o_;
  std::istream* answers_;
  std::ostream err_;  // std::cerr's buffer, or none: writes nothing
  bool writes_;
  bool terminal_;  // stderr is a terminal: each line ends with the bar of the run's limits
  RunLimits limits_;
  std::unique_ptr<CsvWriter> trace_;  // --trace's, on the writer
  const RunConfig* config_ = nullptr;
  std::string config_id_;
  std::vector<std::string> ids_;  // by run: its puzzle's id in the traces
  struct Seen {
    std::uint32_t restarts = 0, growths = 0;
  };
  std::map<std::size_t, Seen> seen_;  // by run: the counts its line before said
  Alphabet alphabet_ = Alphabet::Digits;
  std::vector<int> numbers_;
  std::function<void(std::size_t, const RunResult&)> on_done_;
};

std::string puzzle_name(const Puzzle& p) {
  return p.file + ":" + std::to_string(p.line) + ": puzzle " + std::to_string(p.index);
}

// `start_up`: the seconds before the run (propagation, the engine and its memory); the run's own
// are split into its first epoch (generation 0) and the generations after. `config`: the plan
// the puzzle ran (each puzzle size of the files has its own).
nlohmann::json result_json(const Puzzle& p, const RunResult& r, double start_up,
                           const RunConfig& config) {
  nlohmann::json j = {{"file", p.file}, {"line", p.line}, {"index", p.index},
                      {"config", describe(config)},
                      {"time", {{"start_up", start_up}, {"initialisation", r.init_seconds},
                                {"generations", r.seconds - r.init_seconds}}}};
  const FinishedRun run{p.grid, p.alphabet, r, config.backend};
  for (const ResultField& f : result_fields())
    if (f.written_in(kJson)) std::visit([&](const auto& v) { j[f.name] = v; }, f.value(run));
  return j;
}

void print_result(const SolveOptions& o, const Puzzle& p, const RunResult& r, bool several) {
  if (o.format == OutputFormat::Line) {
    if (r.solved)
      std::cout << to_line(r.best, p.alphabet) << '\n';
    else
      // The best grid in the comment: labelled, and a reader of the output skips it.
      std::cout << "# puzzle " << p.index << " (" << p.file << ':' << p.line
                << ") not solved, best fitness " << r.best_fitness << ", best grid "
                << to_line(r.best, p.alphabet) << '\n';
  } else {
    if (several) std::cout << "# puzzle " << p.index << " (" << p.file << ':' << p.line << ")\n";
    if (r.solved)
      std::cout << to_pretty(r.best, p.alphabet);
    else
      std::cout << "# not solved; best grid found (fitness " << r.best_fitness << "):\n"
                << to_pretty(r.best, p.alphabet);
    if (several) std::cout << '\n';
  }
  std::cout << std::flush;
}

// "1 generation", "2 generations".
std::string count_of(std::uint64_t n, const char* thing) {
  return std::to_string(n) + " " + thing + (n == 1 ? "" : "s");
}

void print_summary(const Puzzle& p, const RunResult& r, const RunConfig& config) {
  char line[320];
  std::snprintf(line, sizeof line,
                "puzzle %d (%s:%d): %s after %s, %s, %s, %.2f s (%.3g evals/s); best fitness %u\n",
                p.index, p.file.c_str(), p.line,
                r.solved ? (r.stop_reason == StopReason::Propagation ? "solved by propagation" : "solved")
                         : to_string(r.stop_reason),
                count_of(r.generations, "generation").c_str(), count_of(r.restarts, "restart").c_str(),
                count_of(r.evaluations, "evaluation").c_str(), r.seconds,
                r.seconds > 0 ? r.evaluations / r.seconds : 0.0, r.best_fitness);
  std::cerr << line << "  seed " << config.engine.ga.seed << " (island " << r.island << " of "
            << config.engine.islands << ")"
            << (config.grow_after ? "  islands grew " + std::to_string(r.growths) + " time(s)" : "")
            << "  backend " << to_string(config.backend)
            << "  ranks " << rank_place().size
            << (config.rank_devices.empty() ? "" : " (devices: " + config.rank_devices + ")") << "  "
            << describe_line(config) << '\n';
}

// Each puzzle size's plan, made when a puzzle of that size first comes: a file may mix 4x4, 9x9
// and 16x16, and each gets its own defaults, counted for its puzzles' most free cells. The
// backend's fallback is said once.
class Plans {
 public:
  Plans(const RunOptions& options, bool together, const std::vector<Puzzle>& puzzles)
      : options_(options), together_(together), puzzles_(puzzles) {}
  const RunPlan& of(int box) {
    auto it = plans_.find(box);
    if (it != plans_.end()) return it->second;
    Target target = probe_target(options_, box, together_,
                                 static_cast<std::uint32_t>(rank_place().size), node_place());
    target.free_cells = most_free_cells(puzzles_, box);
    say_shared_devices(target);
    if (!target.why_cpu.empty() && !said_ && rank_place().root()) std::cerr << "gpuga: " << target.why_cpu << '\n';
    said_ = said_ || !target.why_cpu.empty();
    RunPlan p = plan(options_, target);
    if (!first_) first_ = box;
    return plans_.emplace(box, std::move(p)).first->second;
  }
  // The first puzzle's, for the JSON's top-level configuration.
  const RunPlan* first() const { return first_ ? &plans_.at(first_) : nullptr; }

 private:
  const RunOptions& options_;
  bool together_;
  const std::vector<Puzzle>& puzzles_;  // every puzzle of the files, for each size's free cells
  std::map<int, RunPlan> plans_;
  int first_ = 0;
  bool said_ = false;
};

// What run_solve shares with the ways it solves: where results go (rank 0 prints; the JSON is
// written at the end).
struct SolveContext {
  const SolveOptions& o;
  Consensus* consensus;
  SolveObserver& observer;
  nlohmann::json results = nlohmann::json::array();
  std::size_t reported = 0, solved = 0;

  // A puzzle's result, from `several` in the files, run as `plan` says.
  void report(const Puzzle& p, const RunResult& r, const RunPlan& plan, double start_up, bool several) {
    ++reported;
    solved += r.solved;
    if (!rank_place().root()) return;
    print_summary(p, r, plan.config);
    if (o.json)
      results.push_back(result_json(p, r, start_up, plan.config));
    else
      print_result(o, p, r, several);
  }
};

// One puzzle alone (all ranks together on it), with --checkpoint when asked. Returns false when
// the run was checkpointed: the command ends there.
bool solve_alone(SolveContext& c, const RunPlan& plan, const Puzzle& p, std::uint32_t index,
                 std::optional<Checkpoint>& resumed, bool several) {
  const SolveOptions& o = c.o;
  c.observer.set_alphabet(p.alphabet);
  c.observer.start_runs(plan, {puzzle_id(p)});
  const EngineParams mine = rank_islands(plan.engine_params());
  SolveHooks hooks;
  hooks.observer = &c.observer;
  hooks.consensus = c.consensus;
  hooks.islands_here = &mine;
  hooks.join = [&](std::unique_ptr<Engine> local) { return join_ranks(std::move(local), plan.engine_params(), p.grid.box); };
  if (!o.checkpoint.empty())
    hooks.keeper = [&](const Grid& start) -> std::unique_ptr<RunKeeper> {
      const Checkpoint identity{GPUGA_VERSION, describe_line(plan.config), to_line(start, p.alphabet), index, {}};
      std::optional<RunState> from;
      if (resumed && resumed->puzzle_index == index) {
        check_checkpoint_is_for(*resumed, identity, o.checkpoint);
        if (rank_place().root())
          std::fprintf(stderr, "gpuga: continuing puzzle %u from %s at generation %u (%.2f s spent)\n",
                       index, o.checkpoint.c_str(), resumed->run.generation, resumed->run.elapsed);
        from = std::move(resumed->run);
        resumed.reset();
      }
      return std::make_unique<CheckpointKeeper>(o.checkpoint, identity, o.checkpoint_every, std::move(from));
    };
  // --presolve: the search starts from what propagation leaves, or is not needed at all.
  const Solution solution = gpuga::solve(p.grid, plan, hooks, puzzle_name(p));
  const RunResult& r = solution.result;
  if (r.stop_reason == StopReason::Checkpointed) {
    if (rank_place().root())
      std::fprintf(stderr, "gpuga: puzzle %u checkpointed to %s at generation %u; the same "
                           "command continues it\n", index, o.checkpoint.c_str(), r.generations);
    return false;
  }
  c.report(p, r, plan, solution.start_up, several);
  return true;
}

// Puzzles [first, last) of one box size, `slots` runs at once on one engine, each with the
// seed it has alone (so each result is the one it gets alone). Results are written in file
// order, each as soon as it and every puzzle before it are done.
void solve_together(SolveContext& c, const RunPlan& plan, const std::vector<Puzzle>& puzzles,
                    std::size_t first, std::size_t last, std::uint32_t slots) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::optional<RunResult>> done(last - first);
  std::vector<RunRequest> requests;
  std::vector<std::size_t> request_puzzle;  // by run: the puzzle's offset from `first`
  std::vector<int> numbers;                 // by run: the puzzle's number, for progress lines
  for (std::size_t k = first; k < last; ++k) {
    const RunStart start = start_run(puzzles[k].grid, plan.config.presolve,
                                     plan.config.engine.ga.seed, puzzle_name(puzzles[k]));
    if (start.result) {
      done[k - first] = *start.result;
      continue;
    }
    requests.push_back({start.grid, plan.config.engine.ga.seed});
    request_puzzle.push_back(k - first);
    numbers.push_back(puzzles[k].index);
  }
  double start_up = 0;
  std::size_t next = 0;  // the first puzzle not yet written
  const auto write_ready = [&] {
    for (; next < done.size() && done[next]; ++next)
      c.report(puzzles[first + next], *done[next], plan, start_up, true);
  };
  write_ready();
  if (requests.empty()) return;
  c.observer.set_alphabet(puzzles[first].alphabet);
  std::vector<std::string> ids;
  for (const std::size_t k : request_puzzle) ids.push_back(puzzle_id(puzzles[first + k]));
  c.observer.start_runs(plan, std::move(ids));
  c.observer.set_together(numbers, [&](std::size_t run, const RunResult& r) {
    done[request_puzzle[run]] = r;
    write_ready();
  });
  slots = static_cast<std::uint32_t>(std::min<std::size_t>(slots, requests.size()));
  auto engine = make_engine(plan, requests.front().puzzle, slots);
  start_up = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run_many(*engine, requests, plan.limits(), c.observer);
  c.observer.set_together({}, {});
  write_ready();  // runs never started (Ctrl-C) stay unwritten
}

// Whether the puzzles are solved together: more than one, and nothing that takes them one at
// a time (--interactive, --checkpoint, MPI ranks sharing each run). --concurrent above 1 with
// one of those is refused.
bool solved_together(const SolveOptions& o, std::size_t puzzles) {
  const char* alone = o.interactive ? "--interactive"
                      : !o.checkpoint.empty() ? "--checkpoint"
                      : rank_place().size > 1 ? "MPI ranks" : nullptr;
  GPUGA_INPUT_CHECK(!alone || o.concurrent <= 1,
                    "--concurrent " + std::to_string(o.concurrent) + " with " + alone +
                        ", which solve one puzzle at a time; expected --concurrent 0 or 1");
  return !alone && o.concurrent != 1 && puzzles > 1;
}

int run_solve(CLI::App* cmd, SolveOptions& o) {
  install_interrupt_handler();
  draw_seed(o.run, cmd);
  // Before choosing a backend: printing needs no GPU.
  if (print_config_if_asked(o.print_config, cmd)) return kExitOk;
  if (!o.checkpoint.empty()) check_output_file(o.checkpoint, "--checkpoint");
  // Alone, a signal during the puzzles' check (seconds from 36x36) stops it; ranks check every
  // puzzle alike and settle a signal together at their first epoch.
  const bool alone = rank_place().size == 1;
  const auto puzzles = read_solvable_puzzles(
      o.files, alone ? [] { return g_interrupted.load(); } : std::function<bool()>{});
  if (alone && g_interrupted.load()) {
    std::fprintf(stderr, "gpuga: interrupted while checking the puzzles; none run\n");
    return kExitInterrupted;
  }
  std::ifstream tty;
  std::istream* answers = &std::cin;
  if (o.interactive && std::find(o.files.begin(), o.files.end(), "-") != o.files.end()) {
    tty.open("/dev/tty");
    GPUGA_INPUT_CHECK(tty.is_open(), "--interactive with puzzles on standard input needs a terminal");
    answers = &tty;
  }
  // Under MPI (cli_ranks.hpp) rank 0 alone writes; every rank runs its share of the islands.
  const RankPlace place = rank_place();
  const bool together = solved_together(o, puzzles.size());
  Plans plans(o.run, together, puzzles);
  // A configuration that cannot run a size of the files is refused before any run, the first
  // puzzle's size planned first (the JSON's configuration).
  for (const Puzzle& p : puzzles) plans.of(p.grid.box);
  const std::unique_ptr<Consensus> consensus = rank_consensus();
  if (place.root()) check_trace_folder(o.trace_dir);
  SolveObserver observer(o, answers, place.root());
  observer.open_trace(o.trace_dir);
  SolveContext c{o, consensus.get(), observer};
  // The solve's own seconds, for puzzles a second: from the first run's start (propagation, the
  // engine) to the last result; the process, the files and the device's first touch before it.
  const auto solving_from = std::chrono::steady_clock::now();
  if (together) {
    for (std::size_t first = 0, last = 0; first < puzzles.size() && !g_interrupted.load(); first = last) {
      while (last < puzzles.size() && puzzles[last].grid.box == puzzles[first].grid.box) ++last;
      const RunPlan& plan = plans.of(puzzles[first].grid.box);
      solve_together(c, plan, puzzles, first, last, o.concurrent ? o.concurrent : plan.slots);
    }
  } else {
    // --checkpoint: a file there is a run to continue (the puzzles before it were reported then).
    std::optional<Checkpoint> resumed;
    if (!o.checkpoint.empty()) {
      install_checkpoint_signals();
      if (std::filesystem::exists(o.checkpoint)) resumed = read_checkpoint(o.checkpoint);
    }
    std::uint32_t index = 0;  // the puzzle's place in the files, from 1
    for (const auto& p : puzzles) {
      ++index;
      if (resumed && index < resumed->puzzle_index) continue;
      if (g_interrupted.load()) break;
      if (!solve_alone(c, plans.of(p.grid.box), p, index, resumed, puzzles.size() > 1))
        return kExitCheckpointed;
    }
    GPUGA_INPUT_CHECK(!resumed, o.checkpoint + ": a checkpoint of puzzle " +
                                   std::to_string(resumed ? resumed->puzzle_index : 0) +
                                   ", but the files hold " + std::to_string(index) + " puzzles");
    // Every puzzle done: nothing left to continue.
    if (!o.checkpoint.empty() && !g_interrupted.load() && place.root()) std::filesystem::remove(o.checkpoint);
  }
  const bool all_solved = c.solved == c.reported && !g_interrupted.load();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - solving_from).count();
  if (puzzles.size() > 1 && place.root()) {  // several: the whole, as the JSON's seconds count it
    const std::string of = c.reported < puzzles.size() ? " of " + std::to_string(puzzles.size()) : "";
    std::fprintf(stderr, "gpuga: %zu%s puzzles, %zu solved, in %.3f s (%.0f puzzles a second)\n",
                 c.reported, of.c_str(), c.solved, seconds, seconds > 0 ? c.reported / seconds : 0.0);
  }
  if (o.json && place.root()) {
    const RunConfig& first = plans.first()->config;  // the first puzzle's; each result has its own
    nlohmann::json config = describe(first);
    config["backend"] = to_string(first.backend);
    config["ranks"] = place.size;  // MPI ranks the runs spanned
    if (first.backend == Backend::Cuda) config["device"] = first.device;  // rank 0's
    if (!first.rank_devices.empty()) config["rank_devices"] = first.rank_devices;
    // An interrupted run says so, and which puzzles it did not run (by file, line and index).
    std::set<std::pair<std::string, int>> ran;
    for (const nlohmann::json& r : c.results) ran.insert({r["file"].get<std::string>(), r["index"].get<int>()});
    nlohmann::json not_run = nlohmann::json::array();
    for (const Puzzle& p : puzzles)
      if (!ran.count({p.file, p.index})) not_run.push_back({{"file", p.file}, {"line", p.line}, {"index", p.index}});
    std::cout << nlohmann::json{{"gpuga_version", GPUGA_VERSION}, {"commit", GPUGA_GIT_COMMIT},
                                {"config", config}, {"seconds", seconds},
                                {"interrupted", g_interrupted.load()}, {"not_run", not_run},
                                {"results", c.results}}.dump(2)
              << '\n';
  }
  if (g_interrupted.load()) {
    if (place.root() && c.reported < puzzles.size())
      std::fprintf(stderr, "gpuga: interrupted: %zu of %zu puzzles not run\n",
                   puzzles.size() - c.reported, puzzles.size());
    return kExitInterrupted;
  }
  return all_solved ? kExitOk : kExitUnsolved;
}

}  // namespace

void add_solve_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand(
      "solve", "Solve puzzles with the genetic algorithm (or annealing or hill climbing: --algorithm)");
  add_puzzle_files_option(cmd, o->files);
  add_run_options(cmd, o->run, o->print_config);
  cmd->add_option("--report-every", o->report_every,
                  "Progress line on stderr every N generations (0: none)")
      ->capture_default_str()->group("Output");
  cmd->add_flag("--show-best", o->show_best, "With each progress line, the best grid")
      ->group("Output");
  add_trace_options(cmd, o->trace_dir, o->trace_every);
  for (const char* name : {"--trace", "--trace-every"}) cmd->get_option(name)->group("Output");
  cmd->add_flag("--interactive", o->interactive,
                "After each generation show the best grid and ask whether to go on (y/n; o/n)")
      ->group("Output");
  cmd->add_option("--format", o->format,
                  "pretty: a grid with box separators; line: the grid on one line, a character a "
                  "cell (81 at 9x9, n x n at n x n)")
      ->check(one_of({"pretty", "line"}, {"0", "1"}))
      ->transform(CLI::Transformer(
          std::map<std::string, OutputFormat>{{"pretty", OutputFormat::Pretty},
                                              {"line", OutputFormat::Line}},
          CLI::ignore_case))
      ->capture_default_str()->group("Output");
  cmd->add_flag("--json", o->json, "Write one JSON object with every result to stdout")
      ->group("Output");
  cmd->add_option("--concurrent", o->concurrent,
                  "Puzzles solved at once when the files hold several, each run exactly as it "
                  "runs alone and written in file order (0: as many as fill the backend, with "
                  "--pop 0 sized for throughput: see the defaults table; 1: one after another)")
      ->check(whole_number_in(0, 65535))->capture_default_str()->group("Run");
  cmd->add_option("--checkpoint", o->checkpoint,
                  "Keep the run in flight in FILE (written atomically), and continue from FILE "
                  "when it is there: the same command resumes an interrupted solve exactly. "
                  "SIGTERM or SIGUSR1 then write it and exit with status 4")
      ->group("Checkpoints");
  cmd->add_option("--checkpoint-every", o->checkpoint_every,
                  "Seconds between checkpoints (at the end of an epoch)")
      ->check(seconds(false))->capture_default_str()->group("Checkpoints");
  cmd->callback([o, cmd, &exit_status] { exit_status = run_solve(cmd, *o); });
}

}  // namespace gpuga
