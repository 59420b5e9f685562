#pragma once
// A backend's view of one GA run: the population lives in the backend's memory (device memory
// for CUDA); the driver only asks for summaries and the best individual.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuga/breed.hpp"

namespace gpuga {

enum class Backend { Auto, Cpu, Cuda };

struct Summary {
  Fitness best = 0, worst = 0;
  double mean = 0;
  double diversity = 0;  // mean Hamming distance (cells) of a fixed sample to the best
  std::uint32_t best_index = 0;
};

// Seconds spent per phase since the engine was made (CUDA: measured with events).
struct PhaseTimes {
  double init = 0, order = 0, breed = 0, fitness = 0, survival = 0, summary = 0;
  double total() const { return init + order + breed + fitness + survival + summary; }
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Fills the whole population at `generation` (the random key), evaluates and orders it.
  virtual void initialize(std::uint32_t generation) = 0;
  // Re-initialises all but the `keep` best individuals, which move to slots 0..keep-1.
  virtual void restart(std::uint32_t generation, std::uint32_t keep) = 0;
  // Breeds generation `generation` from the current population, evaluates and orders it.
  virtual void step(std::uint32_t generation) = 0;
  virtual Summary summary() = 0;
  virtual Grid best() = 0;
  // The whole population and fitness, for tests and checks only (never per generation).
  virtual std::vector<std::uint8_t> population() = 0;
  virtual std::vector<Fitness> fitness() = 0;
  virtual PhaseTimes phase_times() = 0;
};

std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const GaParams& params,
                                        double rank_pressure, int threads);

#if defined(GPUGA_HAVE_CUDA)
std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const GaParams& params,
                                         double rank_pressure, int device);
#endif

}  // namespace gpuga
