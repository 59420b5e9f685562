// gpuga bench: generations/s and evaluations/s against island size and count (and one panmictic
// population) for each backend, the time per epoch and its phases, where islands live and how
// many run per GPU multiprocessor; or (--puzzles) puzzles a second of a file solved many at once. The GPU is validated against the CPU during warm-up, never
// inside the timed region.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpuga/backend.hpp"
#include "gpuga/bench.hpp"
#include "cli_ranks.hpp"
#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/version.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {
namespace {

struct BenchOptions {
  BenchSpec spec;  // the work's settings and the timing, its defaults the library's
  std::vector<std::string> backends;
  std::vector<std::string> pops, island_sizes;  // as the settings table reads --pop and --island-size
  std::string puzzle_file;
  std::string puzzles_file;  // --puzzles: puzzles a second instead of the rows
  std::string json_file;
  bool device_given = false;
};

// For a row in which an island solved the puzzle: no rate, since what followed was partial work.
std::string solved_note(const BenchRow& r) {
  if (r.solved_at == kNever) return "";
  return "; an island solved the puzzle at generation " + std::to_string(r.solved_at) +
         ": partial work after it, no rate";
}

// The least and the most of a row's epochs, in ms: how far the repeats spread about the median.
std::string spread_text(const std::vector<double>& ms) {
  if (ms.empty()) return "-";
  const auto [least, most] = std::minmax_element(ms.begin(), ms.end());
  char text[48];
  std::snprintf(text, sizeof text, "%.2f-%.2f", *least, *most);
  return text;
}

// A rate, or "-" where the row has none (an island solved: bench.hpp).
std::string rate_text(double v, const char* format) {
  if (std::isnan(v)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

void print_table(const std::vector<BenchRow>& rows, const BenchOptions& o, const std::string& size) {
  const bool chains = algorithm_of(o.spec.work) != Algorithm::Ga;
  const auto ran = std::find_if(rows.begin(), rows.end(), [](const BenchRow& r) { return r.skipped.empty(); });
  // Where no row ran, the options say: the GA repairs its children unless --repair none.
  const bool repaired = ran != rows.end() ? ran->config.engine.ga.repair == Repair::Propagate
                                          : o.spec.work.repair.value_or(Repair::Propagate) == Repair::Propagate;
  std::printf("%s, on a %s puzzle\n",
              chains     ? "sa and hc: a generation is one move per free cell per chain"
              : repaired ? "the genetic algorithm, children repaired by propagation"
                         : "the plain genetic algorithm, children as bred",
              size.c_str());
  // Where the GA searches its children, their tabu moves a second, a share of evals/s.
  const bool searched = ran != rows.end() && ran->config.engine.ga.tabu > 0;
  const auto tabu_column = [searched](const std::string& text) {
    char cell[32];
    std::snprintf(cell, sizeof cell, " %11s", text.c_str());
    return searched ? std::string(cell) : std::string();
  };
  std::printf("%-7s %5s %11s %9s %8s %10s %11s%s %10s %19s | %9s %9s %9s | %-14s %6s  %s\n",
              "backend", "ranks", "pop", "island", "islands", "gens/s", chains ? "moves/s" : "evals/s",
              tabu_column("tabu/s").c_str(), "ms/epoch", "min-max", "advance", "summary", "ring",
              "placement", "per SM", "validated");
  for (const auto& r : rows) {
    if (!r.skipped.empty()) {
      std::printf("%-7s %5d %11u %9u %8u  skipped: %s\n", r.backend.c_str(), r.ranks, r.pop,
                  r.island_size, r.islands, r.skipped.c_str());
      continue;
    }
    const std::string per_sm = r.islands_per_sm ? std::to_string(r.islands_per_sm) : "-";
    const std::string efficiency =
        r.ranks > 1 ? "; efficiency " + rate_text(r.efficiency, "%.2f") : "";
    std::printf("%-7s %5d %11u %9u %8u %10s %11s%s %10.2f %19s | %9.2f %9.2f %9.2f | %-14s %6s  %s%s%s\n",
                r.backend.c_str(), r.ranks, r.pop, r.island_size, r.islands,
                rate_text(r.gens_per_s, "%.1f").c_str(), rate_text(r.evals_per_s, "%.3g").c_str(),
                tabu_column(rate_text(r.tabu_moves_per_s, "%.3g")).c_str(), r.ms_per_epoch,
                spread_text(r.ms_per_repeat).c_str(), 1e3 * r.per_epoch.advance,
                1e3 * r.per_epoch.summary, 1e3 * r.per_epoch.ring, r.placement.c_str(),
                per_sm.c_str(), r.validated.c_str(), efficiency.c_str(), solved_note(r).c_str());
  }
  std::printf("an epoch: %u generations then one summary per island; gens/s, evals/s, ms/epoch: "
              "the median epoch of the repeats (evals: individuals made and local- or tabu-search "
              "moves%s), min-max: the repeats' fastest and slowest epoch; advance, summary: mean "
              "ms per epoch (CUDA: events; CPU: wall clock); ring: of advance, the exchanges "
              "between MPI ranks. With ranks > 1, pop and islands are each rank's, evals/s the "
              "whole run's, and efficiency is evals/s over ranks x those of one rank alone (the "
              "row before)\n",
              o.spec.generations, searched ? "; tabu/s: the tabu moves of them" : "");
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

// A rate, or null where the row has none.
nlohmann::json rate_json(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

nlohmann::json to_json(const std::vector<BenchRow>& rows, const BenchOptions& o, const DeviceList& devs,
                       const std::string& size, const std::string& puzzle_text) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"backend", r.backend}, {"ranks", r.ranks},
                   {"efficiency", r.ranks > 1 ? rate_json(r.efficiency) : nlohmann::json(nullptr)},
                   {"pop", r.pop}, {"island_size", r.island_size},
                   {"islands", r.islands}, {"skipped", r.skipped},
                   {"generations_per_s", rate_json(r.gens_per_s)},
                   {"evaluations_per_s", rate_json(r.evals_per_s)},
                   {"tabu_moves_per_s", rate_json(r.tabu_moves_per_s)},
                   {"ms_per_epoch", r.ms_per_epoch}, {"ms_per_repeat", r.ms_per_repeat},
                   {"ms_per_phase", {{"advance", 1e3 * r.per_epoch.advance},
                                     {"summary", 1e3 * r.per_epoch.summary},
                                     {"ring", 1e3 * r.per_epoch.ring}}},
                   {"placement", r.placement}, {"islands_per_multiprocessor", r.islands_per_sm},
                   {"validated", r.validated},
                   {"solved_at_generation",
                    r.solved_at == kNever ? nlohmann::json(nullptr) : nlohmann::json(r.solved_at)}});
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : devs.devices)
    devices.push_back({{"index", d.index}, {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"multiprocessors", d.multiprocessors}, {"memory_bytes", d.memory_bytes}});
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  // The settings of the first row that ran: every row's but its backend, population and islands.
  const auto ran =
      std::find_if(rows.begin(), rows.end(), [](const BenchRow& r) { return r.skipped.empty(); });
  const nlohmann::json config = ran == rows.end() ? nlohmann::json(nullptr) : describe(ran->config);
  return {{"gpuga_version", GPUGA_VERSION}, {"commit", GPUGA_GIT_COMMIT},
          {"build", GPUGA_BUILD_INFO}, {"date", date},
          {"host_cpu", cpu_model()}, {"host_threads", omp_get_max_threads()},
          {"cuda_driver", devs.driver_version}, {"cuda_runtime", devs.runtime_version},
          {"devices", devices}, {"device_used", o.spec.device}, {"no_device_reason", devs.reason},
          {"options", {{"generations_per_epoch", o.spec.generations}, {"repeats", o.spec.repeats},
                       {"warmup", o.spec.warmup}, {"seed", o.spec.seed},
                       {"threads", o.spec.threads},
                       {"puzzle", o.puzzle_file.empty() ? "built-in (no solution)" : o.puzzle_file},
                       {"puzzle_text", puzzle_text}, {"size", size}, {"config", config}}},
          {"results", out}};
}

std::vector<Backend> backends_to_run(const BenchOptions& o) {
  std::vector<Backend> out;
  std::vector<Backend> want;  // the names were checked by --backend's validator
  for (const std::string& name : o.backends) {
    RunOptions c;
    find_setting("backend")->parse(c, name);
    want.push_back(*c.backend);
  }
  if (want.empty()) want.push_back(Backend::Auto);
  for (Backend b : want) {
    if (b != Backend::Auto) {
      out.push_back(resolve_backend(b, o.spec.device));
      continue;
    }
    out.push_back(Backend::Cpu);
    if (!list_devices().devices.empty()) out.push_back(Backend::Cuda);
  }
  return out;
}

// --pop and --island-size: every pair; neither: the default table for the backend (and device)
// and the puzzle's size.
std::vector<RunOptions> shapes_to_run(const BenchOptions& o, Backend b, const DeviceList& devs, int box) {
  if (o.pops.empty() && o.island_sizes.empty())
    return default_bench_shapes(b, multiprocessors_of(devs, o.spec.device), o.spec.work, box);
  return bench_shapes(o.spec.work, o.pops, o.island_sizes);
}

// --puzzles: the file's puzzles solved many at once on each backend, a row each.
int run_puzzles_bench(const BenchOptions& o) {
  if (!o.json_file.empty()) check_output_file(o.json_file, "--json");  // before the measuring
  std::vector<Grid> grids;
  for (const Puzzle& p : read_puzzle_file(o.puzzles_file)) grids.push_back(p.grid);
  std::vector<PuzzlesRow> rows;
  for (Backend b : backends_to_run(o)) rows.push_back(bench_puzzles(b, grids, o.spec));
  std::printf("%s: %zu puzzles solved many at once (as many runs at a time as the plan holds), "
              "each from propagation; seconds from the first to the last result\n",
              o.puzzles_file.c_str(), grids.size());
  std::printf("%-7s %8s %7s %8s %10s %11s %11s\n", "backend", "puzzles", "solved", "at once",
              "seconds", "puzzles/s", "evals/s");
  nlohmann::json out = nlohmann::json::array();
  for (const PuzzlesRow& r : rows) {
    if (!r.skipped.empty()) {
      std::printf("%-7s skipped: %s\n", r.backend.c_str(), r.skipped.c_str());
    } else {
      std::printf("%-7s %8zu %7zu %8u %10.3f %11.4g %11.3g\n", r.backend.c_str(), r.puzzles, r.solved,
                  r.at_once, r.seconds, r.puzzles_per_s, r.evals_per_s);
    }
    out.push_back({{"backend", r.backend}, {"puzzles", r.puzzles}, {"solved", r.solved},
                   {"at_once", r.at_once}, {"seconds", r.seconds}, {"puzzles_per_s", r.puzzles_per_s},
                   {"evaluations", r.evaluations}, {"evaluations_per_s", r.evals_per_s},
                   {"skipped", r.skipped},
                   {"config", r.skipped.empty() ? describe(r.config) : nlohmann::json(nullptr)}});
  }
  if (!o.json_file.empty()) {
    write_whole_file(o.json_file,
                     nlohmann::json{{"gpuga_version", GPUGA_VERSION}, {"commit", GPUGA_GIT_COMMIT},
                                    {"build", GPUGA_BUILD_INFO}, {"host_cpu", cpu_model()},
                                    {"puzzles_file", o.puzzles_file}, {"seed", o.spec.seed},
                                    {"puzzles", out}}.dump(2) + '\n',
                     "the JSON report");
  }
  const bool all = std::all_of(rows.begin(), rows.end(), [](const PuzzlesRow& r) {
    return r.skipped.empty() && r.solved == r.puzzles;
  });
  return all ? kExitOk : kExitUnsolved;
}

int run_bench(BenchOptions& o) {
  if (!o.json_file.empty()) check_output_file(o.json_file, "--json");  // before the measuring
  Puzzle puzzle_read;
  if (o.puzzle_file.empty()) {
    std::istringstream in(bench_puzzle());
    puzzle_read = parse_puzzles(in, "built-in")[0];
  } else {
    puzzle_read = read_puzzle_file(o.puzzle_file)[0];
  }
  const Grid& puzzle = puzzle_read.grid;
  const std::string puzzle_text = to_line(puzzle, puzzle_read.alphabet);
  const DeviceList devs = list_devices();
  std::vector<BenchRow> rows;
  // The JSON is rewritten after every row, so that a bench cut short (a time limit) keeps the
  // rows it measured.
  const auto write_json = [&] {
    if (o.json_file.empty()) return;
    write_whole_file(o.json_file, to_json(rows, o, devs, size_name(puzzle), puzzle_text).dump(2) + '\n',
                     "the JSON report");
  };
  // Under MPI (weak scaling): each row twice, on rank 0 alone while the others wait, then on
  // every rank at once, the islands of all of them one run; rank 0 alone writes.
  const RankPlace place = rank_place();
  if (const NodePlace node = node_place(); node.several) {  // each rank its share of the node
    RunOptions given;
    given.threads = o.spec.threads;
    if (o.device_given) given.device = o.spec.device;
    const Target devices = probe_target(given, 3, false, 1, node);
    say_shared_devices(devices);
    o.spec.device = devices.device;
    given.backend = Backend::Cpu;
    o.spec.threads = static_cast<int>(probe_target(given, 3, false, 1, node).units);
  }
  if (place.root()) write_json();
  const BenchSpec& spec = o.spec;
  for (Backend b : backends_to_run(o))
    for (const RunOptions& shape : shapes_to_run(o, b, devs, puzzle.box)) {
      if (place.root()) rows.push_back(bench_islands(b, shape, puzzle, spec));
      if (place.size > 1) {
        rank_barrier();
        BenchRow all = bench_islands(b, shape, puzzle, spec, place.size,
                                     [&](std::unique_ptr<Engine> local, const IslandParams& run) {
                                       return join_ranks(std::move(local), run, puzzle.box);
                                     });
        if (place.root()) {
          const double alone = rows.back().evals_per_s;
          all.efficiency = alone > 0 ? all.evals_per_s / (alone * place.size) : std::nan("");
          rows.push_back(all);
        }
      }
      if (!place.root()) continue;
      const BenchRow& row = rows.back();
      if (row.skipped.empty())
        std::fprintf(stderr, "bench: %s pop %u island %u done\n", to_string(b), row.pop, row.island_size);
      else
        std::fprintf(stderr, "bench: %s pop %u island %u skipped: %s\n", to_string(b), row.pop,
                     row.island_size, row.skipped.c_str());
      write_json();
    }
  if (!place.root()) return kExitOk;
  print_table(rows, o, size_name(puzzle));
  // Nothing measured is bad input, as solve refuses it (the rows say why; the first here).
  const bool none_ran = std::none_of(rows.begin(), rows.end(), [](const BenchRow& r) { return r.skipped.empty(); });
  GPUGA_INPUT_CHECK(rows.empty() || !none_ran, "bench: no row ran: " + rows.front().skipped);
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand(
      "bench", "Measure generations/s and evaluations/s against island size and island count "
               "(and one panmictic population) per backend, with the time per epoch, where "
               "islands live and how many run per GPU multiprocessor: the GA (the repaired one "
               "at its defaults; --repair none the plain one), sa or hc as the settings below "
               "say, without restarts, growth or (unless given) local search, on a fixed puzzle "
               "and seed. With --puzzles: puzzles a second and evaluations a second of a file "
               "solved many at once");
  // The settings that shape an island's work, as solve takes them (the settings table's GA and
  // annealing ones, but the population's: the bench's own lists below).
  add_setting_options(cmd, o->spec.work, {"GA", "Annealing"}, {"pop", "island-size"});
  cmd->add_option("--backend", o->backends, "Backends to measure: cpu, cuda, or auto (every "
                  "available one; the default)")
      ->check(setting_validator(*find_setting("backend")))->delimiter(',');
  cmd->add_option("--pop", o->pops, "Whole populations to measure, as solve takes --pop (with "
                  "--island-size: every pair; neither: a table of island counts and sizes per "
                  "backend and GA; --island-size alone: --pop 100000)")
      ->check(setting_validator(*find_setting("pop")))->type_name(find_setting("pop")->type_name)
      ->delimiter(',');
  cmd->add_option("--island-size", o->island_sizes, "Island sizes to measure, as solve takes "
                  "--island-size (0 or auto: the plan's for each --pop; the --pop itself: one "
                  "panmictic island)")
      ->check(setting_validator(*find_setting("island-size")))
      ->type_name(find_setting("island-size")->type_name)->delimiter(',');
  cmd->add_option("--generations", o->spec.generations, "Generations per timed epoch")
      ->check(whole_number_in(1, 1000000))->capture_default_str();
  cmd->add_option("--repeats", o->spec.repeats, "Timed epochs per row; the median is reported")
      ->check(whole_number_in(1, 1000))->capture_default_str();
  cmd->add_option("--warmup", o->spec.warmup, "Untimed warm-up generations (the GPU is validated "
                  "against the CPU over these)")
      ->check(whole_number_in(1, 1000000))->capture_default_str();
  cmd->add_option("--puzzle", o->puzzle_file, "Puzzle file (its first puzzle; default: Platinum "
                  "Blonde with a wrong clue, which has no solution, so that every row is whole "
                  "work; a row in which an island solves gives no rate)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--puzzles", o->puzzles_file, "Instead of the rows: puzzles a second, every "
                  "puzzle of this file (one size) solved many at once as solve runs a file, at "
                  "the settings' defaults (restarts too), on each backend")
      ->check(CLI::ExistingFile);
  cmd->add_option("--seed", o->spec.seed, "Random seed")
      ->check(setting_validator(*find_setting("seed")))->capture_default_str();
  cmd->add_option("--json", o->json_file, "Also write every figure, the device, driver and "
                  "runtime versions, commit and options to this JSON file");
  cmd->add_option("--threads", o->spec.threads, "CPU backend threads (0: all cores)")
      ->check(whole_number_in(0, 4096));
  cmd->add_option("--device", o->spec.device, "CUDA device index")->check(whole_number_in(0, 1024));
  cmd->callback([o, cmd, &exit_status] {
    o->device_given = cmd->count("--device") > 0;
    exit_status = o->puzzles_file.empty() ? run_bench(*o) : run_puzzles_bench(*o);
  });
}

}  // namespace gpuga
