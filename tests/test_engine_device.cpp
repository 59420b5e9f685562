// The device engine (cuda/device_engine.inl) computes the same bytes as the CPU backend: for
// every encoding, selection, crossover and fitness option, its population, fitness and summaries
// equal the CPU's after each generation, across a restart, and lane by lane. Each test runs the
// engine twice over: compiled for Thrust's OpenMP system (always, so CI checks every line of the
// engine but the CUDA shim) and compiled for CUDA, on the GPU (skipped, saying why, when no CUDA
// device is present).
#include <gtest/gtest.h>

#include <tuple>

#include "configs.hpp"
#include "device_engine_omp.hpp"
#include "devices.hpp"
#include "engine.hpp"
#include "errors.hpp"
#include "grids.hpp"

using namespace gpuga;

namespace {

enum class System { Omp, Cuda };

std::string system_name(System s) { return s == System::Omp ? "omp" : "cuda"; }
void PrintTo(System s, std::ostream* os) { *os << system_name(s); }

// Why the engine cannot run on `s` here ("" when it can). GTEST_SKIP must be in the test body
// itself, so each test calls it on this.
std::string skip_reason(System s) {
  if (s == System::Omp) return "";
  const DeviceList list = list_devices();
  return list.devices.empty() ? "no GPU: " + list.reason : "";
}

std::unique_ptr<Engine> make_device(System s, const Grid& puzzle, const GaParams& p,
                                    double pressure, std::uint32_t lanes = 1) {
  if (s == System::Omp) return make_device_engine_omp(puzzle, p, pressure, lanes);
  return make_cuda_engine(puzzle, p, pressure, 0, lanes);
}

void expect_same_summary(const Summary& a, const Summary& b, std::uint32_t g) {
  EXPECT_EQ(a.best, b.best) << "generation " << g;
  EXPECT_EQ(a.worst, b.worst) << "generation " << g;
  EXPECT_EQ(a.best_index, b.best_index) << "generation " << g;
  EXPECT_EQ(a.mean, b.mean) << "generation " << g;
  EXPECT_EQ(a.diversity, b.diversity) << "generation " << g;
}

void expect_same_state(Engine& cpu, Engine& dev, std::uint32_t g) {
  ASSERT_EQ(cpu.population(), dev.population()) << "population differs at generation " << g;
  ASSERT_EQ(cpu.fitness(), dev.fitness()) << "fitness differs at generation " << g;
  expect_same_summary(cpu.summary(), dev.summary(), g);
  const Grid a = cpu.best(), b = dev.best();
  EXPECT_TRUE(std::equal(a.cell, a.cell + kCells, b.cell)) << "best differs at generation " << g;
}

class DeviceEqualsCpu : public ::testing::TestWithParam<std::tuple<System, TestConfig>> {};
class DeviceEngine : public ::testing::TestWithParam<System> {};

}  // namespace

TEST_P(DeviceEqualsCpu, SamePopulationEveryGenerationAndAcrossARestart) {
  const auto& [system, config] = GetParam();
  if (const auto why = skip_reason(system); !why.empty()) GTEST_SKIP() << why;
  for (std::uint32_t pop : {300u, 4099u}) {  // one block, and several with a ragged last one
    GaParams c = config.params;
    c.pop = pop;
    c.children = c.selection == Selection::Truncation ? 3 * pop + 7 : pop;
    const Grid puzzle = grid_of(kEasyPuzzle);
    auto cpu = make_cpu_engine(puzzle, c, config.rank_pressure, 2);
    auto dev = make_device(system, puzzle, c, config.rank_pressure);
    cpu->initialize(0);
    dev->initialize(0);
    expect_same_state(*cpu, *dev, 0);
    for (std::uint32_t g = 1; g <= 12; ++g) {
      if (g == 7) {
        cpu->restart(g, 3);
        dev->restart(g, 3);
      } else {
        cpu->step(g);
        dev->step(g);
      }
      expect_same_state(*cpu, *dev, g);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, DeviceEqualsCpu,
    ::testing::Combine(::testing::Values(System::Omp, System::Cuda),
                       ::testing::ValuesIn(all_test_configs())),
    [](const auto& info) {
      return system_name(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
    });

TEST_P(DeviceEngine, LanesEqualTheCpuLanes) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  using A = LaneAction;
  const std::vector<std::vector<LaneTask>> rounds = {
      {{A::Init, 0}, {A::Init, 0}, {A::Idle, 0}},
      {{A::Step, 1}, {A::Restart, 1}, {A::Init, 0}},
      {{A::Idle, 0}, {A::Step, 2}, {A::Step, 1}},
      {{A::Step, 2}, {A::Step, 3}, {A::Step, 2}}};
  for (const auto& c : all_test_configs(500)) {
    auto cpu = make_cpu_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, 2, 3);
    auto dev = make_device(GetParam(), grid_of(kEasyPuzzle), c.params, c.rank_pressure, 3);
    for (std::uint32_t l = 1; l < 3; ++l) {
      cpu->set_lane(l, grid_of(kEasyPuzzle), c.params.seed ^ (l * 977));
      dev->set_lane(l, grid_of(kEasyPuzzle), c.params.seed ^ (l * 977));
    }
    for (const auto& round : rounds) {
      cpu->advance(round, 3);
      dev->advance(round, 3);
    }
    const auto cpu_summaries = cpu->summaries(), dev_summaries = dev->summaries();
    for (std::uint32_t l = 0; l < 3; ++l) {
      ASSERT_EQ(cpu->population(l), dev->population(l)) << c.name << " lane " << l;
      ASSERT_EQ(cpu->fitness(l), dev->fitness(l)) << c.name << " lane " << l;
      expect_same_summary(cpu_summaries[l], dev_summaries[l], l);
      const Grid a = cpu->best(l), b = dev->best(l);
      EXPECT_TRUE(std::equal(a.cell, a.cell + kCells, b.cell)) << c.name << " lane " << l;
    }
  }
}

TEST_P(DeviceEngine, LaneCountOutsideTheSortKeyRangeIsRefused) {
  if (const auto why = skip_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  const TestConfig c = all_test_configs(10).front();
  for (std::uint32_t lanes : {0u, 65536u})
    EXPECT_THROW(make_device(GetParam(), grid_of(kEasyPuzzle), c.params, c.rank_pressure, lanes),
                 InputError)
        << lanes << " lanes";
}

INSTANTIATE_TEST_SUITE_P(Systems, DeviceEngine, ::testing::Values(System::Omp, System::Cuda),
                         [](const auto& info) { return system_name(info.param); });

TEST(CudaEngine, PopulationTooLargeIsRefusedBeforeAllocation) {
  if (const auto why = skip_reason(System::Cuda); !why.empty()) GTEST_SKIP() << why;
  GaParams p;
  p.pop = 2000000000u;
  p.children = p.pop;
  try {
    make_cuda_engine(grid_of(kEasyPuzzle), p, 1.5, 0);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("MiB of device memory"), std::string::npos) << e.what();
  }
}
