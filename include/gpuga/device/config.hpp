#pragma once
// A run's configuration as the operators see it: plain data, copied to the device as is.
#include <cstdint>

namespace gpuga {

// Plain int underlying types: CLI11 prints the values in --help, and uint8_t ones come out as
// control characters.
enum class Algorithm { Ga, Sa, Hc };  // genetic algorithm, simulated annealing, hill climbing
enum class Encoding { Box, Row, Cell };
enum class FitnessKind { Conflicts, Squared };
enum class Selection { Tournament, Rank, Truncation };
enum class Crossover { OnePoint, Uniform, Bands };
enum class Repair { None, Propagate };  // a child as bred, or rebuilt within its candidates

// The most steps of a tabu search (--tabu; tabu.hpp): 2^30, so that a step and its tenure (under
// 2^12) never wrap a 32-bit tabu entry.
inline constexpr std::uint32_t kMaxTabuSteps = 1u << 30;

// A fitness: 0 is solved, lower is better (fitness.hpp; breed.hpp checks every box size's fits).
using Fitness = std::uint16_t;

// Probabilities are compared with a 32-bit random draw: `threshold = rate * 2^32`, so 1.0 means
// always and the comparison is an exact integer one on host and device alike.
using Threshold = std::uint64_t;

// Plain data with no defaults of its own: a planned RunConfig holds the GA's (RunConfig::engine),
// its defaults decided by the settings table and plan() (gpuga/run_plan.hpp).
struct GaParams {
  Algorithm algorithm{};  // sa, hc: every individual an independent chain
  Encoding encoding{};
  FitnessKind fitness{};
  Selection selection{};
  Crossover crossover{};
  std::uint32_t island_size{};  // individuals in an island (mu)
  std::uint32_t children{};     // bred per island and generation (lambda; = island_size unless truncation)
  std::uint32_t elite{};        // best of an island copied unchanged (tournament and rank)
  std::uint32_t tournament_size{};
  bool given_aware{};  // box/row: never place a digit where a given of its row, column or box
                       // already holds it, if a legal placement exists
  Threshold crossover_threshold{};
  Threshold mutation_threshold{};
  std::uint32_t local_search{};  // hill-climbing moves tried on every bred child (memetic)
  Repair repair{};               // propagate: every child then rebuilt (team_repair.hpp; cell encoding)
  std::uint32_t tabu{};          // propagate: tabu-search steps on every repaired grid (tabu.hpp)
  std::uint64_t seed{};          // the run's seed; island k's is derive_seed(seed, k)
};

// Simulated annealing's schedule (include/gpuga/device/chain.hpp). The inverse temperature beta is a
// 32.32 fixed-point integer, cooled exactly in integers so that host and device agree.
struct AnnealParams {
  std::uint64_t cooling_step = 0;  // per temperature beta += beta * cooling_step / 2^63:
                                   // (1 / cooling - 1) * 2^63
  std::uint32_t chain_length = 0;  // moves per temperature; 0: the puzzle's free cells
  std::uint32_t reheat_after = 0;  // temperatures without a chain's new best before it reheats
                                   // to the initial temperature; 0: never
};

inline std::uint64_t cooling_step(double cooling) {
  return static_cast<std::uint64_t>((1.0 / cooling - 1.0) * 9223372036854775808.0 + 0.5);
}

inline Threshold rate_threshold(double rate) {
  return static_cast<Threshold>(rate * 4294967296.0 + 0.5);
}

}  // namespace gpuga
