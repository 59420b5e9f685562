#pragma once
// Throughput of the island engine (gpuga bench, and gpuga.bench in Python): evaluations/s of one
// population shape on one backend, over timed epochs after a warm-up, with the time per phase,
// where islands live, and (CUDA) the population checked against the CPU backend's.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

// What every row of a bench shares, and the one place of the bench's defaults (the command line
// and Python read them here): the settings that shape an island's work as given (the settings
// table's GA and annealing settings: --algorithm, --repair, --local-search, the operators; the
// plan's defaults for the rest), then how the rows are timed. Every row runs without restarts
// or growth, and without local search unless `work` gives it.
struct BenchSpec {
  RunOptions work;
  std::uint32_t generations = 100;  // per timed epoch
  std::uint32_t repeats = 5;        // timed epochs; the median is reported
  std::uint32_t warmup = 20;        // untimed generations first (the GPU is validated over them)
  std::uint64_t seed = 1;
  int threads = 0;
  int device = 0;
};

struct BenchRow {
  std::string backend;
  int ranks = 1;          // under MPI: the ranks the row's run spans (pop and islands are per rank)
  double efficiency = 0;  // ranks > 1: evals/s against ranks x one rank's alone
  std::uint32_t pop = 0, island_size = 0, islands = 0;  // the plan's (refused: as given)
  // Rates of whole work: NaN in a row in which an island solved the puzzle (solved_at), whose
  // islands then stopped, so that no partial work is ever reported as a rate.
  double gens_per_s = 0, evals_per_s = 0, ms_per_epoch = 0;  // of the median epoch
  std::vector<double> ms_per_repeat;  // every timed epoch's, in the order they ran
  double tabu_moves_per_s = 0;  // of evals_per_s, the tabu searches' moves (--tabu)
  PhaseTimes per_epoch;   // seconds per epoch
  std::string placement;  // where an island lives while it runs
  int islands_per_sm = 0; // CUDA: islands resident per multiprocessor
  std::string validated;  // "yes", "skipped (...)" or "n/a"
  std::string skipped;    // why this size did not run
  std::uint32_t solved_at = kNever;  // the first generation an island solved the puzzle at
  RunConfig config;       // as planned (not where skipped): every setting the row ran with
};

// Puzzles a second on one backend: a set of puzzles of one size solved at the plan of the spec's
// work (its defaults where not given, restarts and local search too), many at once as solve and batch run a file (each started
// by propagation, then the rest side by side on one engine of the plan's runs at once).
struct PuzzlesRow {
  std::string backend;
  std::size_t puzzles = 0, solved = 0;
  std::uint32_t at_once = 0;     // runs an engine held at once
  double seconds = 0;            // from the first puzzle's propagation to the last result
  double puzzles_per_s = 0, evals_per_s = 0;
  std::uint64_t evaluations = 0;
  std::string skipped;           // why it did not run (a configuration the backend refuses)
  RunConfig config;              // as planned
};
PuzzlesRow bench_puzzles(Backend backend, const std::vector<Grid>& puzzles, const BenchSpec& spec);

// The built-in puzzle (one line), for every algorithm: one with no solution, so that no island
// ever stops and every timed generation is whole work at any scale (bench.cpp says which).
const char* bench_puzzle();

// The rows' populations: the work with --pop and --island-size at every pair of the texts given
// (as solve takes them: an island size of 0 or auto is the plan's default for the pop; none
// given, --pop 100000 and the plan's island size).
std::vector<RunOptions> bench_shapes(const RunOptions& work, const std::vector<std::string>& pops,
                                     const std::vector<std::string>& island_sizes);

// The default table for a backend, the work's settings and puzzles of box size `box`: the work
// with --pop and --island-size given (an island size equal to the pop: one panmictic island),
// each GA's own sizes (the repaired GA's where the work's plan repairs). On CUDA the island counts
// are multiples of the device's `multiprocessors`: 1 to 64 islands each (the repaired GA: 1 to
// 16). On the CPU the islands solve runs there come first (its defaults' island sizes, then 32
// and 128 for the repaired GA).
std::vector<RunOptions> default_bench_shapes(Backend resolved, int multiprocessors, const RunOptions& work,
                                             int box);

// Joins a rank's engine to a run of `run.islands` over MPI ranks (host/mpi), for weak scaling.
using RankJoin = std::function<std::unique_ptr<Engine>(std::unique_ptr<Engine>, const IslandParams& run)>;

// One row: the population `shape` gives (a work of bench_shapes or the default table) on
// `backend`, its island size and count the plan's; with `ranks` > 1 and `join`, the islands of
// every rank one run. A shape the backend refuses comes back with `skipped` set.
BenchRow bench_islands(Backend backend, const RunOptions& shape, const Grid& puzzle,
                       const BenchSpec& spec, int ranks = 1, const RankJoin& join = {});

}  // namespace gpuga
