// The CUDA backend computes the same bytes as the CPU backend: for every encoding, selection,
// crossover and fitness option, the device population, fitness and summaries equal the CPU's
// after each generation, across a restart. Skips, saying why, when no CUDA device is present.
#include <gtest/gtest.h>

#include "configs.hpp"
#include "devices.hpp"
#include "engine.hpp"
#include "grids.hpp"

using namespace gpuga;

namespace {

// Why the GPU tests cannot run here ("" when a device is present). GTEST_SKIP must be in the
// test body itself, so each test calls it on this.
std::string no_device_reason() {
  const DeviceList list = list_devices();
  return list.devices.empty() ? "no GPU: " + list.reason : "";
}

void expect_same_summary(const Summary& a, const Summary& b, std::uint32_t g) {
  EXPECT_EQ(a.best, b.best) << "generation " << g;
  EXPECT_EQ(a.worst, b.worst) << "generation " << g;
  EXPECT_EQ(a.best_index, b.best_index) << "generation " << g;
  EXPECT_EQ(a.mean, b.mean) << "generation " << g;
  EXPECT_EQ(a.diversity, b.diversity) << "generation " << g;
}

void expect_same_state(Engine& cpu, Engine& gpu, std::uint32_t g) {
  ASSERT_EQ(cpu.population(), gpu.population()) << "population differs at generation " << g;
  ASSERT_EQ(cpu.fitness(), gpu.fitness()) << "fitness differs at generation " << g;
  expect_same_summary(cpu.summary(), gpu.summary(), g);
  const Grid a = cpu.best(), b = gpu.best();
  EXPECT_TRUE(std::equal(a.cell, a.cell + kCells, b.cell)) << "best differs at generation " << g;
}

class CudaEqualsCpu : public ::testing::TestWithParam<TestConfig> {};

}  // namespace

TEST_P(CudaEqualsCpu, SamePopulationEveryGenerationAndAcrossARestart) {
  if (const auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (std::uint32_t pop : {300u, 4099u}) {  // one block, and several with a ragged last one
    GaParams c = GetParam().params;
    c.pop = pop;
    c.children = c.selection == Selection::Truncation ? 3 * pop + 7 : pop;
    const Grid puzzle = grid_of(kEasyPuzzle);
    auto cpu = make_cpu_engine(puzzle, c, GetParam().rank_pressure, 2);
    auto gpu = make_cuda_engine(puzzle, c, GetParam().rank_pressure, 0);
    cpu->initialize(0);
    gpu->initialize(0);
    expect_same_state(*cpu, *gpu, 0);
    for (std::uint32_t g = 1; g <= 12; ++g) {
      if (g == 7) {
        cpu->restart(g, 3);
        gpu->restart(g, 3);
      } else {
        cpu->step(g);
        gpu->step(g);
      }
      expect_same_state(*cpu, *gpu, g);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CudaEqualsCpu, ::testing::ValuesIn(all_test_configs()),
                         [](const auto& info) { return info.param.name; });

TEST(CudaEngine, LanesEqualTheCpuLanes) {
  if (const auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  using A = LaneAction;
  const std::vector<std::vector<LaneTask>> rounds = {
      {{A::Init, 0}, {A::Init, 0}, {A::Idle, 0}},
      {{A::Step, 1}, {A::Restart, 1}, {A::Init, 0}},
      {{A::Idle, 0}, {A::Step, 2}, {A::Step, 1}},
      {{A::Step, 2}, {A::Step, 3}, {A::Step, 2}}};
  for (const auto& c : all_test_configs(500)) {
    auto cpu = make_cpu_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, 2, 3);
    auto gpu = make_cuda_engine(grid_of(kEasyPuzzle), c.params, c.rank_pressure, 0, 3);
    for (std::uint32_t l = 1; l < 3; ++l) {
      cpu->set_lane(l, grid_of(kEasyPuzzle), c.params.seed ^ (l * 977));
      gpu->set_lane(l, grid_of(kEasyPuzzle), c.params.seed ^ (l * 977));
    }
    for (const auto& round : rounds) {
      cpu->advance(round, 3);
      gpu->advance(round, 3);
    }
    for (std::uint32_t l = 0; l < 3; ++l) {
      ASSERT_EQ(cpu->population(l), gpu->population(l)) << c.name << " lane " << l;
      ASSERT_EQ(cpu->fitness(l), gpu->fitness(l)) << c.name << " lane " << l;
      expect_same_summary(cpu->summaries()[l], gpu->summaries()[l], l);
    }
  }
}

TEST(CudaEngine, PopulationTooLargeIsRefusedBeforeAllocation) {
  if (const auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
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
