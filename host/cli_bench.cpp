// gpuga bench: generations/s and evaluations/s against population size for each backend, the
// time per phase, bytes moved per generation against the measured copy bandwidth. The GPU is
// validated against the CPU during warm-up, never inside the timed region.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "backend.hpp"
#include "commands.hpp"
#include "devices.hpp"
#include "errors.hpp"
#include "gpuga/version.hpp"
#include "puzzle_io.hpp"

namespace gpuga {
namespace {

// Norvig easy50 #1: the fixed default puzzle, so figures compare across machines.
constexpr const char* kBenchPuzzle =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
constexpr std::uint32_t kValidateUpTo = 100000;  // larger populations: too slow on the CPU

struct BenchOptions {
  std::vector<Backend> backends;
  std::vector<std::uint32_t> pops;
  std::uint32_t generations = 30;
  std::uint32_t repeats = 5;
  std::uint32_t warmup = 3;
  std::string puzzle_file;
  std::uint64_t seed = 1;
  std::string json_file;
  int threads = 0;
  int device = 0;
};

struct Row {
  std::string backend;
  std::uint32_t pop = 0;
  double gens_per_s = 0, evals_per_s = 0;
  PhaseTimes per_gen;  // seconds per generation
  double bytes_per_gen = 0, achieved_gbs = 0, copy_gbs = 0;
  std::string validated;  // "yes", "skipped (...)" or "n/a"
  std::string skipped;    // why this size did not run
};

// The bytes one generation must move in this design: per child two parents read, the child
// written and read back for fitness (4 x 81) plus its fitness (2); per individual the order
// (fitness keys copied, indices written, a stable radix sort of 16-bit keys with 32-bit values:
// about 6 passes of 6 bytes) and the summary's read of fitness (2).
double bytes_per_generation(const GaParams& p) {
  return p.children * (4.0 * kCells + 2.0) + p.pop * (6.0 * 6.0 + 2.0);
}

// Host copy bandwidth (read + write) over 256 MiB buffers, best of 5.
double measure_host_copy_bandwidth() {
  const std::size_t bytes = std::size_t(256) << 20;
  std::vector<char> a(bytes, 1), b(bytes, 0);
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    a[rep] = b[bytes - 1 - rep];  // keep the copies observable
  }
  return 2.0 * bytes / best / 1e9;
}

PhaseTimes minus(const PhaseTimes& a, const PhaseTimes& b, double n) {
  return {(a.init - b.init) / n, (a.order - b.order) / n, (a.breed - b.breed) / n,
          (a.fitness - b.fitness) / n, (a.survival - b.survival) / n, (a.summary - b.summary) / n};
}

std::string validate(Engine& gpu, const Grid& puzzle, const GaParams& p, const GaOptions& ga,
                     std::uint32_t warmup) {
  if (p.pop > kValidateUpTo) return "skipped (pop > " + std::to_string(kValidateUpTo) + ")";
  auto cpu = make_cpu_engine(puzzle, p, ga.rank_pressure, ga.threads);
  cpu->initialize(0);
  for (std::uint32_t g = 1; g <= warmup; ++g) cpu->step(g);
  if (cpu->population() != gpu.population() || cpu->fitness() != gpu.fitness())
    throw RuntimeFailure("bench: the CUDA population differs from the CPU's after " +
                         std::to_string(warmup) + " warm-up generations (pop " +
                         std::to_string(p.pop) + ")");
  return "yes";
}

Row bench_one(Backend backend, std::uint32_t pop, const Grid& puzzle, const BenchOptions& o,
              double copy_gbs) {
  GaOptions ga;
  ga.pop = pop;
  ga.seed = o.seed;
  ga.threads = o.threads;
  ga.device = o.device;
  const GaParams p = to_params(ga);
  Row row;
  row.backend = to_string(backend);
  row.pop = pop;
  row.copy_gbs = copy_gbs;
  std::unique_ptr<Engine> engine;
  try {
    engine = make_engine(backend, puzzle, p, ga);
  } catch (const InputError& e) {
    row.skipped = e.what();
    return row;
  }
  engine->initialize(0);
  for (std::uint32_t g = 1; g <= o.warmup; ++g) engine->step(g);
  row.validated = backend == Backend::Cuda ? validate(*engine, puzzle, p, ga, o.warmup) : "n/a";
  engine->summary();
  const PhaseTimes before = engine->phase_times();
  std::vector<double> secs;  // per repeat: the median repeat is reported (shared machines jitter)
  std::uint32_t g = o.warmup;
  for (std::uint32_t rep = 0; rep < o.repeats; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint32_t k = 0; k < o.generations; ++k) {
      engine->step(++g);
      engine->summary();  // a whole generation includes its summary, which also synchronises
    }
    secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(secs.begin(), secs.begin() + secs.size() / 2, secs.end());
  row.gens_per_s = o.generations / secs[secs.size() / 2];
  row.evals_per_s = row.gens_per_s * p.children;
  row.per_gen = minus(engine->phase_times(), before, double(o.generations) * o.repeats);
  row.bytes_per_gen = bytes_per_generation(p);
  row.achieved_gbs = row.bytes_per_gen * row.gens_per_s / 1e9;
  return row;
}

void print_table(const std::vector<Row>& rows) {
  std::printf("%-7s %11s %10s %11s %8s | %7s %7s %7s %7s %7s | %9s %7s %7s  %s\n", "backend",
              "pop", "gens/s", "evals/s", "ms/gen", "order", "breed", "fitness", "surviv",
              "summary", "MB/gen", "GB/s", "copy", "validated");
  for (const auto& r : rows) {
    if (!r.skipped.empty()) {
      std::printf("%-7s %11u  skipped: %s\n", r.backend.c_str(), r.pop, r.skipped.c_str());
      continue;
    }
    const auto& t = r.per_gen;
    std::printf("%-7s %11u %10.1f %11.3g %8.3f | %7.3f %7.3f %7.3f %7.3f %7.3f | %9.2f %7.1f %7.1f  %s\n",
                r.backend.c_str(), r.pop, r.gens_per_s, r.evals_per_s, 1e3 / r.gens_per_s,
                1e3 * t.order, 1e3 * t.breed, 1e3 * t.fitness, 1e3 * t.survival, 1e3 * t.summary,
                r.bytes_per_gen / 1e6, r.achieved_gbs, r.copy_gbs, r.validated.c_str());
  }
  std::printf("gens/s, evals/s: median of the timed repeats; phase columns: mean ms per "
              "generation (CUDA: events; CPU: wall clock)\n");
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

nlohmann::json to_json(const std::vector<Row>& rows, const BenchOptions& o, const DeviceList& devs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    const auto& t = r.per_gen;
    out.push_back({{"backend", r.backend}, {"pop", r.pop}, {"skipped", r.skipped},
                   {"generations_per_s", r.gens_per_s}, {"evaluations_per_s", r.evals_per_s},
                   {"ms_per_phase", {{"init", 1e3 * t.init}, {"order", 1e3 * t.order},
                                     {"breed", 1e3 * t.breed}, {"fitness", 1e3 * t.fitness},
                                     {"survival", 1e3 * t.survival}, {"summary", 1e3 * t.summary}}},
                   {"bytes_per_generation", r.bytes_per_gen}, {"achieved_gb_per_s", r.achieved_gbs},
                   {"copy_gb_per_s", r.copy_gbs}, {"validated", r.validated}});
  }
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : devs.devices)
    devices.push_back({{"index", d.index}, {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"multiprocessors", d.multiprocessors}, {"memory_bytes", d.memory_bytes}});
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"gpuga_version", GPUGA_VERSION}, {"commit", GPUGA_GIT_COMMIT},
          {"build", GPUGA_BUILD_INFO}, {"date", date},
          {"host_cpu", cpu_model()}, {"host_threads", omp_get_max_threads()},
          {"cuda_driver", devs.driver_version}, {"cuda_runtime", devs.runtime_version},
          {"devices", devices}, {"device_used", o.device}, {"no_device_reason", devs.reason},
          {"options", {{"generations", o.generations}, {"repeats", o.repeats},
                       {"warmup", o.warmup}, {"seed", o.seed},
                       {"threads", o.threads}, {"puzzle", o.puzzle_file.empty() ? "built-in" : o.puzzle_file},
                       {"config", describe(GaOptions{})}}},
          {"results", out}};
}

std::vector<Backend> backends_to_run(const BenchOptions& o) {
  std::vector<Backend> out;
  const auto want = o.backends.empty() ? std::vector<Backend>{Backend::Auto} : o.backends;
  for (Backend b : want) {
    if (b != Backend::Auto) {
      out.push_back(resolve_backend(b, o.device));
      continue;
    }
    out.push_back(Backend::Cpu);
    if (!list_devices().devices.empty()) out.push_back(Backend::Cuda);
  }
  return out;
}

int run_bench(BenchOptions& o) {
  Grid puzzle;
  if (o.puzzle_file.empty()) {
    std::istringstream in(kBenchPuzzle);
    puzzle = parse_puzzles(in, "built-in")[0].grid;
  } else {
    puzzle = read_puzzle_file(o.puzzle_file)[0].grid;
  }
  const DeviceList devs = list_devices();
  std::vector<Row> rows;
  for (Backend b : backends_to_run(o)) {
    const double copy = b == Backend::Cuda ? measure_device_copy_bandwidth(o.device)
                                           : measure_host_copy_bandwidth();
    auto pops = o.pops;
    if (pops.empty())
      pops = b == Backend::Cuda
                 ? std::vector<std::uint32_t>{1000, 10000, 100000, 1000000, 10000000}
                 : std::vector<std::uint32_t>{1000, 10000, 100000, 1000000};
    for (auto pop : pops) {
      rows.push_back(bench_one(b, pop, puzzle, o, copy));
      std::fprintf(stderr, "bench: %s pop %u done\n", to_string(b), pop);
    }
  }
  print_table(rows);
  if (!o.json_file.empty()) {
    std::ofstream out(o.json_file);
    GPUGA_INPUT_CHECK(out.good(), o.json_file + ": cannot write the JSON report");
    out << to_json(rows, o, devs).dump(2) << '\n';
  }
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand(
      "bench", "Measure generations/s and evaluations/s against population size per backend, "
               "with the time per phase and the bytes moved; the default GA configuration, "
               "no restarts, on a fixed puzzle and seed");
  cmd->add_option("--backend", o->backends, "Backends to measure: cpu, cuda, or auto (every "
                  "available one; the default)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, Backend>{{"auto", Backend::Auto}, {"cpu", Backend::Cpu},
                                         {"cuda", Backend::Cuda}},
          CLI::ignore_case))
      ->delimiter(',');
  cmd->add_option("--pop", o->pops, "Population sizes (default CPU 1e3..1e6, CUDA 1e3..1e7, as "
                  "far as memory allows)")
      ->check(CLI::Range(2u, 200000000u))->delimiter(',');
  cmd->add_option("--generations", o->generations, "Timed generations per size")
      ->check(CLI::Range(1u, 1000000u))->capture_default_str();
  cmd->add_option("--repeats", o->repeats, "Timed repeats per size; the median is reported")
      ->check(CLI::Range(1u, 1000u))->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "Untimed warm-up generations (the GPU is validated "
                  "against the CPU over these)")
      ->check(CLI::Range(1u, 1000u))->capture_default_str();
  cmd->add_option("--puzzle", o->puzzle_file, "Puzzle file (its first puzzle; default Norvig "
                  "easy50 #1)")->check(CLI::ExistingFile);
  cmd->add_option("--seed", o->seed, "Random seed")->capture_default_str();
  cmd->add_option("--json", o->json_file, "Also write every figure, the device, driver and "
                  "runtime versions, commit and options to this JSON file");
  cmd->add_option("--threads", o->threads, "CPU backend threads (0: all cores)")
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--device", o->device, "CUDA device index")->check(CLI::Range(0, 1024));
  cmd->callback([o, &exit_status] { exit_status = run_bench(*o); });
}

}  // namespace gpuga
