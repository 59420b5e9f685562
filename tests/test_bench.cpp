// The bench's measurement (include/gpuga/bench.hpp): its built-in puzzle keeps every row whole
// work, its default table covers the GPU's island shapes, a row in which an island solved gives
// no rate, and puzzles a second count the runs a solve makes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "gpuga/bench.hpp"
#include "gpuga/defaults.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/solve.hpp"
#include "grids.hpp"
#include "run_gpuga.hpp"

namespace gpuga {
namespace {

Grid parse_one(const std::string& line) {
  std::istringstream in(line);
  return parse_puzzles(in, "test")[0].grid;
}

TEST(Bench, TheBuiltInPuzzleHasNoSolution) {
  // No island can ever stop on it, whatever the scale: every timed generation is whole work.
  EXPECT_EQ(solve_exact(parse_one(bench_puzzle())).solutions, 0);
}

// The default CUDA table's island sizes, islands per multiprocessor and largest panmictic pop.
struct TableShape {
  std::set<std::uint32_t> sizes, per_sm;
  std::uint32_t largest_panmictic = 0;
};
TableShape cuda_table(int sms, const std::string& algorithm, const std::string& repair = "auto") {
  RunOptions work;
  give_option(work, "algorithm", algorithm);
  give_option(work, "repair", repair);
  TableShape t;
  for (const RunOptions& shape : default_bench_shapes(Backend::Cuda, sms, work, 3)) {
    const std::uint32_t pop = *shape.pop, size = *shape.island_size;
    if (size == pop) {  // panmictic rows
      t.largest_panmictic = std::max(t.largest_panmictic, pop);
      continue;
    }
    EXPECT_EQ(pop % (size * sms), 0u) << pop << " in islands of " << size;
    t.sizes.insert(size);
    t.per_sm.insert(pop / size / sms);
  }
  return t;
}

TEST(Bench, TheDefaultCudaTableSpansIslandShapesFromOneToSixtyFourPerMultiprocessor) {
  const TableShape chains = cuda_table(132, "sa");  // an H100
  EXPECT_EQ(chains.sizes, (std::set<std::uint32_t>{128, 256, 512, 1000}));
  EXPECT_EQ(chains.per_sm, (std::set<std::uint32_t>{1, 4, 16, 64}));
  EXPECT_EQ(chains.largest_panmictic, 1000000u);
  // The repaired GA: the island sizes of its defaults, a table that ends within its step's limit.
  const TableShape ga = cuda_table(132, "ga");
  EXPECT_EQ(ga.sizes, (std::set<std::uint32_t>{32, 64, 128}));
  EXPECT_EQ(ga.per_sm, (std::set<std::uint32_t>{1, 4, 16}));
  EXPECT_EQ(ga.largest_panmictic, 100000u);
  // The plain GA (--repair none, or an encoding the repair does not take): the chains' shapes.
  const TableShape plain = cuda_table(132, "ga", "none");
  EXPECT_EQ(plain.sizes, chains.sizes);
  EXPECT_EQ(plain.per_sm, chains.per_sm);
  EXPECT_EQ(plain.largest_panmictic, 1000000u);
  RunOptions boxes, plain_ga;
  give_option(boxes, "encoding", "box");  // the plan's repair: none
  give_option(plain_ga, "repair", "none");
  const auto populations = [](const std::vector<RunOptions>& shapes) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const RunOptions& shape : shapes) out.push_back({*shape.pop, *shape.island_size});
    return out;
  };
  EXPECT_EQ(populations(default_bench_shapes(Backend::Cuda, 132, boxes, 3)),
            populations(default_bench_shapes(Backend::Cuda, 132, plain_ga, 3)));
}

TEST(Bench, TheDefaultCpuTableStartsWithTheIslandsSolveRuns) {
  // The repaired GA's table on the CPU begins with the island size solve takes for the puzzle's
  // size there (its defaults), two to 32 of them, then islands of 32 and 128.
  RunOptions work;
  for (const int box : {3, 5}) {
    const std::uint32_t solves = size_defaults(Backend::Cpu, box, Repair::Propagate).island_size;
    const auto rows = default_bench_shapes(Backend::Cpu, 0, work, box);
    ASSERT_GE(rows.size(), 3u);
    EXPECT_EQ(std::tie(*rows[0].pop, *rows[0].island_size), std::make_tuple(2 * solves, solves)) << box;
    std::set<std::uint32_t> sizes;
    for (const RunOptions& shape : rows) sizes.insert(*shape.island_size);
    EXPECT_TRUE(sizes.count(solves) && sizes.count(32) && sizes.count(128)) << box;
  }
}

TEST(Bench, ARowInWhichAnIslandSolvedGivesNoRate) {
  // A 4x4 puzzle the first generations solve, on the CPU backend.
  BenchSpec spec;
  spec.generations = 3;
  spec.repeats = spec.warmup = 2;
  spec.threads = 1;
  const RunOptions shape = bench_shapes(spec.work, {"40"}, {"20"}).at(0);
  const BenchRow solved = bench_islands(Backend::Cpu, shape, parse_one("1.3.3...2..3...1"), spec);
  ASSERT_NE(solved.solved_at, kNever);
  EXPECT_TRUE(std::isnan(solved.evals_per_s));
  EXPECT_TRUE(std::isnan(solved.gens_per_s));
  // The built-in puzzle on the same shape: whole work, a rate.
  const BenchRow whole = bench_islands(Backend::Cpu, shape, parse_one(bench_puzzle()), spec);
  EXPECT_EQ(whole.solved_at, kNever);
  EXPECT_GT(whole.evals_per_s, 0);
  EXPECT_GT(whole.gens_per_s, 0);
}

TEST(Bench, ARowsIslandsAreThePlansAsSolveTakesTheSizes) {
  // --island-size as solve reads it: 0 (or none given) the plan's default for the pop, the pop
  // itself one panmictic island; the row reports the plan's sizes.
  BenchSpec spec;
  spec.generations = spec.repeats = spec.warmup = 1;
  spec.threads = 1;
  const std::vector<RunOptions> shapes = bench_shapes(spec.work, {"1000"}, {"0", "1000"});
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(bench_shapes(spec.work, {"1000"}, {}).size(), 1u);
  const std::uint32_t solves =
      default_island_size(1000, size_defaults(Backend::Cpu, 3, Repair::Propagate).island_size);
  const Grid puzzle = parse_one(bench_puzzle());
  const BenchRow planned = bench_islands(Backend::Cpu, shapes[0], puzzle, spec);
  ASSERT_EQ(planned.skipped, "");
  EXPECT_EQ(std::tie(planned.pop, planned.island_size, planned.islands),
            std::make_tuple(1000u, solves, 1000u / solves));
  const BenchRow panmictic = bench_islands(Backend::Cpu, shapes[1], puzzle, spec);
  EXPECT_EQ(std::tie(panmictic.island_size, panmictic.islands), std::make_tuple(1000u, 1u));
  EXPECT_THROW(bench_shapes(spec.work, {"ten"}, {}), InputError);
}

TEST(Bench, PuzzlesASecondAreOfTheRunsASolveOfEachMakes) {
  // Many at once, each run is the one a solve of its puzzle alone makes (one seed): the row's
  // evaluations are theirs, its rate its puzzles over its seconds.
  const std::vector<Grid> puzzles = {grid_of(kHardPuzzle), grid_of(kEasyPuzzle), grid_of(kHardPuzzle)};
  BenchSpec spec;
  spec.seed = 3;
  spec.threads = 1;
  const PuzzlesRow row = bench_puzzles(Backend::Cpu, puzzles, spec);
  ASSERT_TRUE(row.skipped.empty()) << row.skipped;
  std::uint64_t evaluations = 0;
  std::size_t solved = 0;
  for (const Grid& puzzle : puzzles) {
    RunOptions alone;
    alone.seed = 3;
    alone.threads = 1;
    alone.backend = Backend::Cpu;
    const Solution s = solve(puzzle, alone);
    evaluations += s.result.evaluations;
    solved += s.result.solved ? 1 : 0;
  }
  EXPECT_EQ(row.puzzles, 3u);
  EXPECT_EQ(row.solved, solved);
  EXPECT_EQ(row.evaluations, evaluations);
  EXPECT_DOUBLE_EQ(row.puzzles_per_s, 3 / row.seconds);
  EXPECT_DOUBLE_EQ(row.evals_per_s, evaluations / row.seconds);
  // Puzzles of two sizes are refused.
  EXPECT_THROW(bench_puzzles(Backend::Cpu, {grid_of(kHardPuzzle), parse_one("1.3.3...2..3...1")}, spec),
               InputError);
}

}  // namespace
}  // namespace gpuga

TEST(Bench, ASkippedRowIsSaidSkippedInBenchsOwnWords) {
  // A population the address space cannot hold (ulimit -v): its row is skipped, said so as it
  // goes (not "done"), with a hint that names bench's own options only.
  const auto r = run_gpuga("bench --backend cpu --pop 400,20000000 --island-size 100 --generations 2 "
                           "--repeats 1 --warmup 1", "", "sh -c 'ulimit -v 1500000; exec \"$0\" \"$@\"'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("bench: cpu pop 20000000 island 100 skipped: --pop 20000000 needs"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("pop 20000000 island 100 done"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("--concurrent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower --pop (truncation: --children)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("children repaired by propagation"), std::string::npos) << r.out;
  // No row ran, and --repair not given: the title is still the repaired GA's, the default.
  const auto none = run_gpuga("bench --backend cpu --pop 20000000 --island-size 100 --generations 2 "
                              "--repeats 1 --warmup 1", "", "sh -c 'ulimit -v 1500000; exec \"$0\" \"$@\"'");
  EXPECT_EQ(none.status, 2) << none.err;
  EXPECT_NE(none.out.find("children repaired by propagation"), std::string::npos) << none.out;
}
