#include "gpuga/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "gpuga/backend.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/run_plan.hpp"
#include "gpuga/solve.hpp"
#include "gpuga/defaults.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#include "host_memory.hpp"

namespace gpuga {
namespace {

// A refusal in bench's words: bench has no --concurrent (its rows hold one run; --puzzles as
// many as the plan's slots), so the memory hint names only what it has.
std::string bench_words(std::string refusal) {
  const std::string hint = kLowerHint;
  if (const auto at = refusal.find(hint); at != std::string::npos)
    refusal.replace(at, hint.size(), "lower --pop (truncation: --children)");
  return refusal;
}

constexpr std::uint64_t kValidateUpTo = 100000;  // larger populations: too slow on the CPU

// What the bench gives every run: constant work a generation (no restart, no growth), and no
// local search unless the work gives it (its moves are hc's: --algorithm hc).
constexpr std::pair<const char*, const char*> kBenchOptions[] = {{"restart-after", "0"}, {"grow-after", "0"}};

// Whether the work's plan repairs the GA's children (plan()'s rule, on a CPU target of 9x9).
bool repairs(const RunOptions& work) {
  Target cpu;
  cpu.backend = Backend::Cpu;
  cpu.box = 3;
  RunOptions o = work;
  o.pop = o.island_size = 1000;  // any shape: the repair does not follow from it
  o.seed = 1;
  return plan(o, cpu).config.engine.ga.repair == Repair::Propagate;
}

PhaseTimes minus(const PhaseTimes& a, const PhaseTimes& b, double n) {
  return {(a.advance - b.advance) / n, (a.summary - b.summary) / n, (a.ring - b.ring) / n};
}

// The CUDA population after the warm-up equals the CPU backend's, byte for byte.
std::string validate(Engine& gpu, const Grid& puzzle, const EngineParams& p, int threads,
                     std::uint32_t warmup) {
  const std::uint64_t pop = std::uint64_t(p.islands) * p.ga.individuals;
  if (pop > kValidateUpTo) return "skipped (pop > " + std::to_string(kValidateUpTo) + ")";
  auto cpu = make_cpu_engine(puzzle, p, threads);
  cpu->initialize(warmup);
  if (cpu->population(0) != gpu.population(0) || cpu->fitness(0) != gpu.fitness(0))
    throw RuntimeFailure("bench: the CUDA population differs from the CPU's after " +
                         std::to_string(warmup) + " warm-up generations (pop " +
                         std::to_string(pop) + ")");
  return "yes";
}

}  // namespace

std::vector<RunOptions> bench_shapes(const RunOptions& work, const std::vector<std::string>& pops,
                                     const std::vector<std::string>& island_sizes) {
  std::vector<RunOptions> out;
  for (const std::string& pop : pops.empty() ? std::vector<std::string>{"100000"} : pops) {
    for (const std::string& size : island_sizes.empty() ? std::vector<std::string>{"auto"} : island_sizes) {
      RunOptions shape = work;
      give_option(shape, "pop", pop);
      give_option(shape, "island-size", size);
      out.push_back(shape);
    }
  }
  return out;
}

BenchRow bench_islands(Backend backend, const RunOptions& shape, const Grid& puzzle, const BenchSpec& o,
                       int ranks, const RankJoin& join) {
  RunOptions options = shape;
  for (const auto& [name, text] : kBenchOptions) give_option(options, name, text);
  if (!options.local_search) give_option(options, "local-search", "0");
  options.seed = o.seed;
  options.backend = backend;
  options.threads = o.threads;
  options.device = o.device;
  BenchRow row;
  row.backend = to_string(backend);
  row.ranks = ranks;
  // As given until the plan says (a refused shape keeps these): an island size of 0 is its default.
  row.pop = options.pop.value_or(0);
  row.island_size = options.island_size.value_or(0);
  std::unique_ptr<Engine> engine;
  EngineParams p;
  try {
    Target target = probe_target(options, puzzle.box);
    target.free_cells = puzzle.blanks();
    const RunPlan planned = plan(options, target);
    p = planned.engine_params();
    row.config = planned.config;
    row.pop = planned.config.pop;
    row.island_size = p.ga.individuals;
    row.islands = p.islands;
    if (backend == Backend::Cuda) row.islands_per_sm = planned.shape.islands_at_once;
    engine = make_engine(planned, puzzle);
  } catch (const InputError& e) {
    row.skipped = bench_words(e.what());
    return row;
  }
  if (ranks > 1 && join) {  // validated below against one process's engine for the whole run
    p.islands *= ranks;
    engine = join(std::move(engine), p);
  }
  row.placement = engine->placement();
  engine->initialize(o.warmup);
  if (backend == Backend::Cuda) {
    RunOptions on_cpu = options;  // the reference: the CPU backend's threads as a plan has them
    on_cpu.backend = Backend::Cpu;
    const int threads = static_cast<int>(probe_target(on_cpu, puzzle.box).units);
    row.validated = validate(*engine, puzzle, p, threads, o.warmup);
  } else {
    row.validated = "n/a";
  }
  // Evaluations and tabu moves done so far over every island (and their summary). An island
  // that solves the puzzle stops, so the row's figures then count less than whole work: it says so.
  struct Work {
    std::uint64_t evaluations = 0, tabu_moves = 0;
  };
  const auto work_done = [&engine, &row, &p] {
    Work total;
    for (const auto& island : engine->summaries()) {
      row.solved_at = std::min(row.solved_at, island.state.solved);
      total.evaluations += island.state.evaluations;
      total.tabu_moves += tabu_moves_of(island.state, p);
    }
    return total;
  };
  const Work warm = work_done();
  const PhaseTimes before = engine->phase_times();
  std::vector<double> secs;  // per repeat: the median repeat is reported (shared machines jitter)
  std::uint32_t g = o.warmup;
  Work done = warm;
  for (std::uint32_t rep = 0; rep < o.repeats; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    engine->advance_to(g += o.generations);  // one epoch, as the driver runs it
    done = work_done();
    secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  for (const double s : secs) row.ms_per_repeat.push_back(1e3 * s);
  std::nth_element(secs.begin(), secs.begin() + secs.size() / 2, secs.end());
  const double epoch = secs[secs.size() / 2];
  row.ms_per_epoch = 1e3 * epoch;
  // Every epoch does the same work: no restarts, and no island solves (sa, hc: moves). Where
  // one did, it stopped and the rest count less than whole work: no rate (NaN), only solved_at.
  const bool whole = row.solved_at == kNever;
  row.gens_per_s = whole ? o.generations / epoch : std::nan("");
  const auto per_s = [&](std::uint64_t count) {
    return whole ? double(count) / o.repeats / epoch : std::nan("");
  };
  row.evals_per_s = per_s(done.evaluations - warm.evaluations);
  row.tabu_moves_per_s = per_s(done.tabu_moves - warm.tabu_moves);
  row.per_epoch = minus(engine->phase_times(), before, o.repeats);
  return row;
}

PuzzlesRow bench_puzzles(Backend backend, const std::vector<Grid>& puzzles, const BenchSpec& o) {
  RunOptions options = o.work;
  options.backend = backend;
  options.seed = o.seed;
  options.threads = o.threads;
  options.device = o.device;
  PuzzlesRow row;
  row.backend = to_string(backend);
  row.puzzles = puzzles.size();
  GPUGA_INPUT_CHECK(!puzzles.empty(), "bench: no puzzle to solve; expected a file of puzzles");
  const auto t0 = std::chrono::steady_clock::now();
  RunPlan planned;
  try {
    Target target = probe_target(options, puzzles.front().box);
    for (const Grid& puzzle : puzzles) target.free_cells = std::max(target.free_cells, puzzle.blanks());
    planned = plan(options, target);
  } catch (const InputError& e) {
    row.skipped = bench_words(e.what());
    return row;
  }
  row.config = planned.config;
  std::vector<RunRequest> requests;
  const std::uint64_t seed = planned.config.engine.ga.seed;
  for (std::size_t k = 0; k < puzzles.size(); ++k) {
    GPUGA_INPUT_CHECK(puzzles[k].box == puzzles.front().box,
                      "bench: puzzles of box sizes " + std::to_string(puzzles.front().box) + " and " +
                          std::to_string(puzzles[k].box) + "; expected one size");
    const RunStart start = start_run(puzzles[k], planned.config.presolve, seed,
                                     "puzzle " + std::to_string(k + 1));
    if (start.result) ++row.solved;  // propagation solved it: verified
    else requests.push_back({start.grid, seed});
  }
  if (!requests.empty()) {
    const auto slots = static_cast<std::uint32_t>(std::min<std::size_t>(planned.slots, requests.size()));
    auto engine = make_engine(planned, requests.front().puzzle, slots);
    row.at_once = engine->slots();
    RunObserver quiet;
    for (const RunResult& r : run_many(*engine, requests, planned.limits(), quiet)) {
      row.solved += r.solved ? 1 : 0;
      row.evaluations += r.evaluations;
    }
  }
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  row.puzzles_per_s = row.puzzles / row.seconds;
  row.evals_per_s = row.evaluations / row.seconds;
  return row;
}

// Platinum Blonde (famous_named #3) with a wrong clue in its first cell: a 3 where the solution
// has an 8 (no given of its row, column or box is a 3), so it has no solution (tests/test_bench.cpp
// proves it with the exact checker). Unsolvable, no island ever stops and every timed generation
// is whole work at any scale: the plain puzzle was solved without restarts once there were a few
// hundred islands, and those rows counted partial work (bench/results/HISTORY.md, b7e73ec).
const char* bench_puzzle() {
  return "3......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...";
}

// The default table. The chains: CPU islands of 500 and 1000 at a few counts; CUDA the island
// sizes that matter on a GPU (128 to 1000) from one island per multiprocessor to 64 (the device
// holds 1 to 4 at once, so the larger counts measure waves of islands); then panmictic rows, one
// island of the whole population, on the GPU up to 1e6 across every block (a
// cooperative grid). The plain GA (--repair none) the same. The GA whose children are repaired
// by propagation (its default): a child costs about a hundred times a plain one on the built-in
// puzzle, so its table holds the island sizes of its defaults (32 to 128), at most 16 a
// multiprocessor and panmictic up to 1e5 (CUDA) or 1e3 (CPU), which keeps the whole table within
// a minute on either.
std::vector<RunOptions> default_bench_shapes(Backend b, int multiprocessors, const RunOptions& work, int box) {
  const bool repaired = algorithm_of(work) == Algorithm::Ga && repairs(work);
  std::vector<RunOptions> shapes;
  const auto add = [&](std::uint32_t pop, std::uint32_t island_size) {
    shapes.push_back(work);
    shapes.back().pop = pop;
    shapes.back().island_size = island_size;
  };
  if (b == Backend::Cuda) {
    const auto sms = static_cast<std::uint32_t>(std::max(multiprocessors, 1));
    const auto sizes = repaired ? std::vector<std::uint32_t>{32, 64, 128}
                                : std::vector<std::uint32_t>{128, 256, 512, 1000};
    const auto per_sm = repaired ? std::vector<std::uint32_t>{1, 4, 16}
                                 : std::vector<std::uint32_t>{1, 4, 16, 64};
    for (std::uint32_t size : sizes)
      for (std::uint32_t k : per_sm) add(sms * k * size, size);
  } else {
    const Repair repair = repaired ? Repair::Propagate : Repair::None;
    std::vector<std::uint32_t> sizes = table_island_sizes(size_defaults(Backend::Cpu, box, repair));
    const auto wider = repaired ? std::vector<std::uint32_t>{32, 128} : std::vector<std::uint32_t>{500, 1000};
    for (std::uint32_t size : wider)
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    for (std::uint32_t size : sizes)
      for (std::uint32_t k : {2u, 8u, 32u}) add(k * size, size);
  }
  const std::uint32_t largest = b == Backend::Cuda ? (repaired ? 100000u : 1000000u)
                                                   : (repaired ? 1000u : 100000u);
  for (std::uint32_t pop : {1000u, 10000u, 100000u, 1000000u})
    if (pop <= largest) add(pop, pop);  // one panmictic island
  return shapes;
}

}  // namespace gpuga
