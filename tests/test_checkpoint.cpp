// Checkpoints (checkpoint.hpp): a run's state taken between epochs and put back into a fresh
// engine continues to exactly the uninterrupted run, for the GA with migration and restarts, sa,
// hc and a 16x16 puzzle, on the CPU backend, on the device engine's OpenMP twin and across the
// two (and on a GPU and across it and the CPU, where there is one); the file refuses what is
// not a whole checkpoint of this run, each with its own message, and a write cut between its
// temporary file and the rename leaves the previous one usable; the driver saves when due, stops
// when a signal asks, and resumes to the uninterrupted result.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "gpuga/checkpoint.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/devices.hpp"
#if defined(GPUGA_HAVE_CUDA)
#include "gpuga/engine_cuda.hpp"
#endif
#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/run_config.hpp"
#include "grids.hpp"
#include "plans.hpp"
#include "temp_files.hpp"
#if defined(GPUGA_TEST_DEVICE_TWIN)
#include "device_engine_omp.hpp"
#endif

using namespace gpuga;

namespace {

const std::string kSixteen =  // puzzles/acs_16x16_fixed040_inst00-09.txt, the first
    ".8.f1......9.d.a........d23.........68.3e1fa..b.62.5...9074.83..890.e.1f4..5.b..2c.13...8.9"
    "60.......c6..f..b.2..e..b.9a...d2f.....d0.1.23..7...9...74.9....f....bf..5...9.....1...9.8."
    "f...0154...0...4....8db76e..83......b........e...67f20..a3.1.9f......34.2.";

Grid sixteen() {
  std::istringstream in(kSixteen);
  return parse_puzzles(in, "sixteen")[0].grid;
}

struct Case {
  std::string name;
  Grid puzzle;
  EngineParams params;
};

std::vector<Case> cases() {
  const auto params = [](Algorithm a, std::uint32_t local_search,
                         Repair repair = Repair::None) {
    RunOptions c;
    c.algorithm = a;
    c.repair = repair;
    c.pop = a == Algorithm::Ga ? 120 : 12;
    c.island_size = *c.pop / 3;  // three islands on a ring
    c.local_search = local_search;
    c.migration_interval = 3;
    c.restart_after = 4;  // restarts within the test's generations
    c.seed = 21;
    return plan_on(c).engine_params();
  };
  return {{"ga", grid_of(kHardPuzzle), params(Algorithm::Ga, 10)},
          {"plain_ga", grid_of(kHardPuzzle), params(Algorithm::Ga, 0)},
          {"sa", grid_of(kHardPuzzle), params(Algorithm::Sa, 0)},
          {"hc", grid_of(kHardPuzzle), params(Algorithm::Hc, 0)},
          {"ga_16x16", sixteen(), params(Algorithm::Ga, 20)},
          {"repaired_ga", grid_of(kUnsolvablePuzzle), params(Algorithm::Ga, 0, Repair::Propagate)}};
}

using Make = std::unique_ptr<Engine> (*)(const Grid&, const EngineParams&);
std::unique_ptr<Engine> cpu(const Grid& g, const EngineParams& p) { return make_cpu_engine(g, p, 2); }
#if defined(GPUGA_TEST_DEVICE_TWIN)
std::unique_ptr<Engine> twin(const Grid& g, const EngineParams& p) {
  return make_device_engine_omp(g, p, 1);
}
#endif

struct Seen {
  std::vector<std::uint8_t> population;
  std::vector<Fitness> fitness;
  std::vector<std::uint64_t> evaluations;
  std::vector<std::uint32_t> restarts;
};
Seen seen(Engine& e) {
  Seen s{e.population(0), e.fitness(0), {}, {}};
  for (const auto& island : e.summaries()) {
    s.evaluations.push_back(island.state.evaluations);
    s.restarts.push_back(island.state.restarts);
  }
  return s;
}
bool operator==(const Seen& a, const Seen& b) {
  return a.population == b.population && a.fitness == b.fitness &&
         a.evaluations == b.evaluations && a.restarts == b.restarts;
}

// Run to `at`, snapshot, go on to `end` on `first`; restore into a fresh engine from `second`
// and go on to `end` there: the two must agree, and have moved on since `at`.
void expect_resumes(const Case& c, Make first, Make second, std::uint32_t at, std::uint32_t end) {
  auto a = first(c.puzzle, c.params);
  a->initialize(at);
  const Seen mid = seen(*a);
  const auto state = a->snapshot(0);
  a->advance_to(end);
  auto b = second(c.puzzle, c.params);
  b->restore(0, state);
  EXPECT_TRUE(seen(*b) == mid) << c.name << ": restored state differs";
  b->advance_to(end);
  const Seen x = seen(*a), y = seen(*b);
  EXPECT_TRUE(x == y) << c.name << ": resumed at " << at << " differs at " << end;
  EXPECT_FALSE(x == mid) << c.name << ": nothing happened after " << at;
  std::uint32_t restarts = 0;
  for (auto r : x.restarts) restarts += r;
  // Restarts happened in between (the 16x16 islands, with local search, keep improving).
  if (c.params.ga.algorithm != Algorithm::Sa && c.puzzle.box == 3) EXPECT_GT(restarts, 0u) << c.name;
}

}  // namespace

TEST(Checkpoint, AResumedEngineEqualsTheUninterruptedOneOnTheCpu) {
  for (const auto& c : cases()) expect_resumes(c, cpu, cpu, 7, 25);
}

#if defined(GPUGA_TEST_DEVICE_TWIN)
TEST(Checkpoint, AResumedEngineEqualsTheUninterruptedOneOnTheDeviceTwinAndAcross) {
  for (const auto& c : cases()) {
    expect_resumes(c, twin, twin, 7, 25);
    expect_resumes(c, cpu, twin, 6, 20);
    expect_resumes(c, twin, cpu, 9, 22);
  }
}
#endif

#if defined(GPUGA_HAVE_CUDA)
std::unique_ptr<Engine> gpu(const Grid& g, const EngineParams& p) {
  return make_cuda_engine(g, p, 0, 1);
}

TEST(Checkpoint, AResumedEngineEqualsTheUninterruptedOneOnTheGpuAndAcross) {
  const DeviceList list = list_devices();
  if (list.devices.empty()) GTEST_SKIP() << "no GPU: " << list.reason;
  for (const auto& c : cases()) {
    expect_resumes(c, gpu, gpu, 7, 25);
    expect_resumes(c, cpu, gpu, 6, 20);  // a checkpoint taken on the CPU resumes on the GPU
    expect_resumes(c, gpu, cpu, 9, 22);
  }
}
#endif

TEST(Checkpoint, AStateOfAnotherShapeIsRefused) {
  const Case c = cases()[0];
  auto a = cpu(c.puzzle, c.params);
  a->initialize(2);
  EngineParams other = c.params;
  other.islands = 4;
  auto b = cpu(c.puzzle, other);
  EXPECT_THROW(b->restore(0, a->snapshot(0)), InputError);
}

// A checkpoint's checksum says the file is whole, not that gpuga wrote it: a state no island
// could be in (a buffer side past 1, a value past n, an order entry past the island, an sa
// chain's beta of 0) would send an island step past its buffers or into a fault, and is refused
// before anything is put back.
TEST(Checkpoint, AStateNoIslandCouldBeInIsRefused) {
  const Case c = cases()[0];
  auto a = cpu(c.puzzle, c.params);
  a->initialize(2);
  const auto good = a->snapshot(0);
  const IslandLayout L = make_layout<3>(c.params.ga);
  const std::uint64_t island = kRunSnapshotHeader, record = island + sizeof(IslandState);
  const std::uint32_t past_island = L.individuals;
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> bad;
  auto with = [&](const std::string& what, std::uint64_t at, const void* value, std::size_t n) {
    auto bytes = good;
    std::memcpy(bytes.data() + at, value, n);
    bad.emplace_back(what, bytes);
  };
  const std::uint8_t two = 2, ten = 10;
  with("side", island + offsetof(IslandState, side), &two, 1);
  with("halted", island + offsetof(IslandState, halted), &two, 1);
  with("a genome's value", record + L.genomes1 + 80, &ten, 1);
  with("an order entry", record + L.order + 4, &past_island, sizeof past_island);
  for (const auto& [what, bytes] : bad) {
    auto b = cpu(c.puzzle, c.params);
    EXPECT_THROW(b->restore(0, bytes), InputError) << what;
  }
  auto b = cpu(c.puzzle, c.params);
  EXPECT_NO_THROW(b->restore(0, good));
  // Found by fuzz_run_state (tests/fuzz): an sa chain's beta of 0 ended the CPU backend with a
  // division by zero (SIGFPE) in its summary.
  const Case sa = cases()[2];
  auto chains = cpu(sa.puzzle, sa.params);
  chains->initialize(2);
  auto frozen = chains->snapshot(0);
  const IslandLayout C = make_layout<3>(sa.params.ga);
  std::memset(frozen.data() + record + C.chain_states + offsetof(ChainState, beta), 0, sizeof(std::uint64_t));
  auto d = cpu(sa.puzzle, sa.params);
  EXPECT_THROW(d->restore(0, frozen), InputError);
}

namespace {

// In this process's own folder (temp_files.hpp): tests side by side never share a file.
std::string temp_path(const std::string& name) { return test_file(name).string(); }

Checkpoint sample_checkpoint() {
  Checkpoint c;
  c.version = "0.1.0";
  c.config = "algorithm=ga pop=120 seed=21";
  c.puzzle = kHardPuzzle;
  c.puzzle_index = 3;
  c.run.engine = {1, 2, 3, 4, 5, 250};
  c.run.elapsed = 1.5;
  c.run.init_seconds = 0.25;
  c.run.best = grid_of(kEasySolution);
  c.run.best_fitness = 4;
  c.run.island = 2;
  c.run.generation = 17;
  c.run.epoch = 8;
  return c;
}

// The message of read_checkpoint on `bytes`, or "" when it reads.
std::string refusal(const std::string& bytes) {
  const std::string path = temp_path("refused.ckpt");
  set_file_bytes(path, bytes);
  try {
    read_checkpoint(path);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

TEST(CheckpointFile, RoundTripsEveryField) {
  const std::string path = temp_path("round.ckpt");
  const Checkpoint c = sample_checkpoint();
  write_checkpoint(path, c);
  const Checkpoint d = read_checkpoint(path);
  EXPECT_EQ(d.version, c.version);
  EXPECT_EQ(d.config, c.config);
  EXPECT_EQ(d.puzzle, c.puzzle);
  EXPECT_EQ(d.puzzle_index, c.puzzle_index);
  EXPECT_EQ(d.run.engine, c.run.engine);
  EXPECT_EQ(d.run.elapsed, c.run.elapsed);
  EXPECT_EQ(d.run.init_seconds, c.run.init_seconds);
  EXPECT_EQ(d.run.best, c.run.best);
  EXPECT_EQ(d.run.best_fitness, c.run.best_fitness);
  EXPECT_EQ(d.run.island, c.run.island);
  EXPECT_EQ(d.run.generation, c.run.generation);
  EXPECT_EQ(d.run.epoch, c.run.epoch);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove(path);
}

TEST(CheckpointFile, WhatIsNotAWholeCheckpointIsRefusedWithItsOwnMessage) {
  const std::string path = temp_path("good.ckpt");
  write_checkpoint(path, sample_checkpoint());
  const std::string good = file_bytes(path);
  EXPECT_EQ(refusal(good), "");
  EXPECT_NE(refusal(good.substr(0, good.size() - 3)).find("truncated checkpoint"), std::string::npos);
  EXPECT_NE(refusal(good.substr(0, 25)).find("truncated checkpoint"), std::string::npos);
  std::string flipped = good;
  flipped[good.size() - 10] ^= 0x20;
  EXPECT_NE(refusal(flipped).find("damaged checkpoint (its checksum"), std::string::npos);
  std::string format = good;
  format.replace(format.find(" 1\n"), 3, " 9\n");
  EXPECT_NE(refusal(format).find("checkpoint format 9; this gpuga reads format 1"), std::string::npos);
  EXPECT_NE(refusal("puzzle\n" + good).find("not a gpuga checkpoint"), std::string::npos);
  std::filesystem::remove(path);
}

// Found while writing fuzz_checkpoint (tests/fuzz): a best grid's box read from a file whose
// checksum holds was used to size the grid before it was checked, a signed overflow and an
// allocation of 1e12 cells for a box of 1000.
TEST(CheckpointFile, ABestGridOfAnotherShapeOrValuesIsRefusedEvenWithItsChecksum) {
  const std::string path = temp_path("shape.ckpt");
  for (int box : {1000, -3, 1, 6}) {
    Checkpoint c = sample_checkpoint();
    c.run.best.box = box;  // its cells stay a 9x9's
    write_checkpoint(path, c);
    EXPECT_NE(refusal(file_bytes(path)).find("damaged checkpoint (its best grid)"), std::string::npos)
        << "box " << box;
  }
  Checkpoint c = sample_checkpoint();
  c.run.best.cell[5] = 10;  // past 9
  write_checkpoint(path, c);
  EXPECT_NE(refusal(file_bytes(path)).find("damaged checkpoint (its best grid)"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(CheckpointFile, AWriteCutBeforeItsRenameLeavesThePreviousOne) {
  const std::string path = temp_path("cut.ckpt");
  Checkpoint c = sample_checkpoint();
  write_checkpoint(path, c);
  // A crash after the new checkpoint's temporary file was begun, before the rename.
  set_file_bytes(path + ".tmp", file_bytes(path).substr(0, 40));
  EXPECT_EQ(read_checkpoint(path).run.generation, 17u);
  c.run.generation = 30;  // the next write replaces both
  write_checkpoint(path, c);
  EXPECT_EQ(read_checkpoint(path).run.generation, 30u);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove(path);
}

TEST(CheckpointFile, AnotherVersionConfigurationOrPuzzleIsRefused) {
  const Checkpoint c = sample_checkpoint();
  const auto message = [&](const Checkpoint& expected) -> std::string {
    try {
      check_checkpoint_is_for(c, expected, "run.ckpt");
      return "";
    } catch (const InputError& e) {
      return e.what();
    }
  };
  EXPECT_EQ(message(c), "");
  Checkpoint other = c;
  other.version = "0.2.0";
  EXPECT_NE(message(other).find("run.ckpt: a checkpoint of gpuga 0.1.0; this is gpuga 0.2.0"),
            std::string::npos);
  other = c;
  other.config = "algorithm=ga pop=240 seed=22";
  // The refusal names what differs, not the two whole configurations.
  EXPECT_NE(message(other).find("a checkpoint of another configuration: pop 120 there, 240 here; "
                                "seed 21 there, 22 here; expected the command that wrote it"),
            std::string::npos) << message(other);
  other = c;
  other.puzzle = kEasyPuzzle;
  EXPECT_NE(message(other).find("a checkpoint of another puzzle: puzzle 3 there differs from the files' here in "),
            std::string::npos) << message(other);
  EXPECT_EQ(message(other).find(kHardPuzzle), std::string::npos) << "the whole puzzle said";
  other = c;
  other.puzzle_index = 4;
  EXPECT_NE(message(other).find("a checkpoint of another puzzle: puzzle 3 of the files there, puzzle 4 here"),
            std::string::npos) << message(other);
}

namespace {

// Keeps the run's state in memory: saves after every epoch, stops after the save at or past
// generation `stop_at` (as a signal would ask), and resumes from `from`.
class MemoryKeeper : public RunKeeper {
 public:
  std::uint32_t stop_at = kNever;
  std::optional<RunState> from, saved;
  int saves = 0;
  const RunState* resumed(std::size_t) override { return from ? &*from : nullptr; }
  bool due() override { return true; }
  void save(std::size_t, const RunState& s) override {
    saved = s;
    ++saves;
  }
  bool stop_after_save() override { return saved && saved->generation >= stop_at; }
};

class Quiet : public RunObserver {};

}  // namespace

TEST(CheckpointDriver, ARunStoppedAtACheckpointResumesToTheUninterruptedResult) {
  for (const auto& c : cases()) {
    const RunLimits limits{60, 0};
    Quiet quiet;
    auto whole_engine = cpu(c.puzzle, c.params);
    const RunResult whole = run_many(*whole_engine, {{c.puzzle, 21}}, limits, quiet)[0];

    MemoryKeeper first;
    first.stop_at = 20;
    auto a = cpu(c.puzzle, c.params);
    const RunResult cut = run_many(*a, {{c.puzzle, 21}}, limits, quiet, nullptr, &first)[0];
    ASSERT_EQ(cut.stop_reason, StopReason::Checkpointed) << c.name;
    ASSERT_TRUE(first.saved) << c.name;
    EXPECT_GE(first.saved->generation, 20u) << c.name;
    EXPECT_LT(first.saved->generation, 60u) << c.name;

    MemoryKeeper second;
    second.from = first.saved;
    auto b = cpu(c.puzzle, c.params);
    const RunResult resumed = run_many(*b, {{c.puzzle, 21}}, limits, quiet, nullptr, &second)[0];
    EXPECT_EQ(resumed.stop_reason, whole.stop_reason) << c.name;
    EXPECT_EQ(resumed.generations, whole.generations) << c.name;
    EXPECT_EQ(resumed.evaluations, whole.evaluations) << c.name;
    EXPECT_EQ(resumed.restarts, whole.restarts) << c.name;
    EXPECT_EQ(resumed.best, whole.best) << c.name;
    EXPECT_EQ(resumed.best_fitness, whole.best_fitness) << c.name;
    EXPECT_EQ(resumed.island, whole.island) << c.name;
    EXPECT_GE(resumed.seconds, first.saved->elapsed) << c.name << ": the time spent before counts";
  }
}
