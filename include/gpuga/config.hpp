#pragma once
// The GA's configuration as the operators see it: plain data, copied to the device as is.
#include <cstdint>

namespace gpuga {

// Plain int underlying types: CLI11 prints the values in --help, and uint8_t ones come out as
// control characters.
enum class Encoding { Box, Row, Cell };
enum class FitnessKind { Conflicts, Squared };
enum class Selection { Tournament, Rank, Truncation };
enum class Crossover { OnePoint, Uniform, Bands };

// Probabilities are compared with a 32-bit random draw: `threshold = rate * 2^32`, so 1.0 means
// always and the comparison is an exact integer one on host and device alike.
using Threshold = std::uint64_t;

struct GaParams {
  Encoding encoding = Encoding::Box;
  FitnessKind fitness = FitnessKind::Conflicts;
  Selection selection = Selection::Tournament;
  Crossover crossover = Crossover::Uniform;
  std::uint32_t pop = 1000;        // individuals in an island (mu)
  std::uint32_t children = 1000;   // bred per island and generation (lambda; = pop unless truncation)
  std::uint32_t elite = 0;         // best of an island copied unchanged (tournament and rank)
  std::uint32_t tournament_size = 3;
  bool given_aware = true;  // box/row: never place a digit where a given of its row, column or
                            // box already holds it, if a legal placement exists
  Threshold crossover_threshold = 0;
  Threshold mutation_threshold = 0;
  std::uint64_t seed = 0;          // the run's seed; island k's is derive_seed(seed, k)
};

inline Threshold rate_threshold(double rate) {
  return static_cast<Threshold>(rate * 4294967296.0 + 0.5);
}

}  // namespace gpuga
