#pragma once
// A backend's view of GA runs. An engine holds `lanes` independent populations of `pop`
// individuals each (in device memory for CUDA); every lane has its own puzzle, seed and
// generation, and all lanes advance in the same launches. A lane computes exactly what it would
// alone, so a batch of runs equals the runs one at a time. The driver only asks for one summary
// per lane and, when a lane's best improves, its best individual.
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
};

// What a lane does in one round, at the generation the round names for it.
enum class LaneAction : std::uint8_t {
  Idle,     // nothing: a finished lane, or one waiting for work
  Init,     // a fresh population
  Restart,  // keep the `keep` best individuals in slots 0..keep-1, renew the rest
  Step,     // breed the next generation
};

struct LaneTask {
  LaneAction action = LaneAction::Idle;
  std::uint32_t generation = 0;  // the random key of what the lane does
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::uint32_t lanes() const = 0;
  // Gives lane `l` a puzzle and a seed; an Init task then fills it.
  virtual void set_lane(std::uint32_t l, const Grid& puzzle, std::uint64_t seed) = 0;
  // One round: every lane does its task (one per lane), then the lanes that acted are
  // evaluated and ordered by (fitness, index).
  virtual void advance(const std::vector<LaneTask>& tasks, std::uint32_t keep) = 0;
  virtual std::vector<Summary> summaries() = 0;  // one per lane
  virtual Grid best(std::uint32_t lane) = 0;
  // A lane's whole population and fitness, for tests and checks only (never per generation).
  virtual std::vector<std::uint8_t> population(std::uint32_t lane) = 0;
  virtual std::vector<Fitness> fitness(std::uint32_t lane) = 0;
  virtual PhaseTimes phase_times() = 0;

  // Lane 0 alone, for single runs, tests and benchmarks.
  void initialize(std::uint32_t generation) { act0(LaneAction::Init, generation, 0); }
  void restart(std::uint32_t generation, std::uint32_t keep) {
    act0(LaneAction::Restart, generation, keep);
  }
  void step(std::uint32_t generation) { act0(LaneAction::Step, generation, 0); }
  Summary summary() { return summaries()[0]; }
  Grid best() { return best(0); }
  std::vector<std::uint8_t> population() { return population(0); }
  std::vector<Fitness> fitness() { return fitness(0); }

 private:
  void act0(LaneAction a, std::uint32_t generation, std::uint32_t keep) {
    std::vector<LaneTask> tasks(lanes());
    tasks[0] = {a, generation};
    advance(tasks, keep);
  }
};

// `params.seed` seeds lane 0 with `puzzle`; other lanes start Idle until set_lane.
std::unique_ptr<Engine> make_cpu_engine(const Grid& puzzle, const GaParams& params,
                                        double rank_pressure, int threads,
                                        std::uint32_t lanes = 1);

#if defined(GPUGA_HAVE_CUDA)
std::unique_ptr<Engine> make_cuda_engine(const Grid& puzzle, const GaParams& params,
                                         double rank_pressure, int device,
                                         std::uint32_t lanes = 1);
#endif

}  // namespace gpuga
