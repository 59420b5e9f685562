// A device fault ends in an error that names it, not in an abort: after a kernel writes to an
// illegal address every CUDA call fails, and the engine's next call must throw RuntimeFailure
// with the first error, and its memory go without throwing from a destructor (std::terminate).
// On a GPU only; ctest runs each test in a process of its own, as a fault is the process's end.
#include <gtest/gtest.h>

#include <string>

#include "gpuga/devices.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/engine_cuda.hpp"
#include "gpuga/errors.hpp"
#include "grids.hpp"

using namespace gpuga;

namespace {

__global__ void write_to_an_illegal_address_kernel(int* p) { *p = 1; }  // one thread, on purpose

}  // namespace

TEST(CudaFaults, AFaultIsReportedWithItsNameAndTheEngineGoesWithoutAnAbort) {
  if (const DeviceList list = list_devices(); list.devices.empty())
    GTEST_SKIP() << "no GPU: " << list.reason;
  EngineParams p;
  p.ga.individuals = p.ga.children = 64;
  p.ga.crossover = Crossover::Uniform;
  p.ga.tournament_size = 3;
  p.ga.given_aware = true;
  p.islands = 4;
  p.migration_interval = 5;
  p.migrants = 1;
  auto engine = make_cuda_engine(grid_of(kEasyPuzzle), p, 0);
  engine->initialize(2);
  write_to_an_illegal_address_kernel<<<1, 1>>>(reinterpret_cast<int*>(16));
  try {
    engine->advance_to(9);
    engine->summaries();
    FAIL() << "no error after a fault";
  } catch (const RuntimeFailure& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("cudaErrorIllegalAddress"), std::string::npos) << m;
    EXPECT_NE(m.find("the last kernel launched was"), std::string::npos) << m;
  }
  engine.reset();  // every cudaFree fails now: the release must not throw
  SUCCEED();
}
