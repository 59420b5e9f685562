// A run's state as a checkpoint carries it (Engine::snapshot, checkpoint.hpp's engine block),
// put back into a CPU engine of its shape and advanced: restore either refuses it or the
// islands run two more generations on it without a fault, and their best grids stay grids of
// values 0..n. The first byte picks the engine: the plain GA, the memetic GA with truncation
// (children apart), sa or hc, each two islands of 10 on AI Escargot.
//
// Seeds: GPUGA_FUZZ_WRITE_SEEDS=DIR fuzz_run_state -runs=0 writes each engine's state after 2
// and after 6 generations into DIR (tests/fuzz/README.md).
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "fuzz_support.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/run_plan.hpp"

using namespace gpuga;

namespace {

constexpr int kEngines = 4;

Grid escargot() {
  std::istringstream in("1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n");
  return parse_puzzles(in, "escargot")[0].grid;
}

EngineParams params_of(int k) {
  RunOptions c;
  c.algorithm = k == 2 ? Algorithm::Sa : k == 3 ? Algorithm::Hc : Algorithm::Ga;
  c.pop = 20;
  c.island_size = 10;
  c.local_search = k == 1 ? 5 : 0;
  if (k == 1) c.selection = Selection::Truncation;
  c.migration_interval = c.algorithm == Algorithm::Ga ? 2 : 0;
  c.restart_after = 3;
  c.seed = 5;
  return plan(c, Target{}).engine_params();  // the CPU, a population given
}

std::unique_ptr<Engine>& engine(int k) {
  static std::unique_ptr<Engine> engines[kEngines];
  if (!engines[k]) engines[k] = make_cpu_engine(escargot(), params_of(k), 1);
  return engines[k];
}

void write_seed(const std::string& dir, int k, Engine& e, std::uint32_t generation) {
  const auto state = e.snapshot(0);
  std::ofstream(dir + "/engine" + std::to_string(k) + "-generation" + std::to_string(generation),
                std::ios::binary)
      << static_cast<char>(k) << std::string(state.begin(), state.end());
}

void write_seeds(const std::string& dir) {
  for (int k = 0; k < kEngines; ++k) {
    auto e = make_cpu_engine(escargot(), params_of(k), 1);
    e->initialize(2);
    write_seed(dir, k, *e, 2);
    e->advance_to(6);
    write_seed(dir, k, *e, 6);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GPUGA_FUZZ_WRITE_SEEDS")) write_seeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Engine& e = *engine(data[0] % kEngines);
  const std::vector<std::uint8_t> state(data + 1, data + size);
  try {
    e.restore(0, state);
  } catch (const InputError&) {
    return 0;
  }
  std::uint32_t clock = 0;
  std::memcpy(&clock, state.data(), sizeof clock);
  e.advance_to(clock < 0xfffffff0u ? clock + 2 : clock);
  const auto islands = e.summaries();
  for (std::uint32_t i = 0; i < islands.size(); ++i)
    for (auto v : e.best(0, i).cell)
      if (v > 9) fuzz::fault("a best grid holds " + std::to_string(v));
  return 0;
}
