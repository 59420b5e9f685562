#pragma once
// What the host and an island engine exchange: a run's configuration as the operators see it
// (GaParams, AnnealParams), an island's parameters, the state it carries from segment to segment,
// its summary and a run's task for an epoch. Plain data, copied to the device as is, and no
// operators, so that the library's public headers (engine.hpp and those above it) do not bring
// the device operators and their random numbers into a program that only solves.
#include <cstdint>
#include <type_traits>

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
  std::uint32_t individuals{};  // in an island (mu; the user's --island-size)
  std::uint32_t children{};     // bred per island and generation (lambda; = individuals unless truncation)
  std::uint32_t elite{};        // best of an island copied unchanged (tournament and rank)
  std::uint32_t tournament_size{};
  bool given_aware{};  // box/row: never place a digit where a given of its row, column or box
                       // already holds it, if a legal placement exists
  Threshold crossover_threshold{};
  Threshold mutation_threshold{};
  std::uint32_t local_search{};  // hill-climbing moves tried on every bred child (memetic)
  Repair repair{};               // propagate: every child then rebuilt (repair.hpp; cell encoding)
  std::uint32_t tabu{};          // propagate: tabu-search steps on every repaired grid (tabu.hpp)
  std::uint32_t tabu_return{};   // tabu: a search's steps with no better best before it goes back to it
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

inline constexpr std::uint32_t kNever = 0xFFFFFFFFu;
// Above any grid's fitness (25x25: at most 43200): no individual yet.
inline constexpr Fitness kNoFitness = 0xFFFF;

// A run that has an island with fitness 0 stops at its next halt check, a multiple of its halt
// interval (the solving island stops at once): islands run a segment of generations on their
// own, so a run can only stop where all of them look, and what it computes must not depend on
// how often the host does. Every generation (1) when generations are costly (local search, a
// repair, or a chain sweep), so that a solved run ends at its solving generation; every
// kHaltInterval when they are cheap (the plain GA), where a segment a generation costs more than the tail: 20% of
// the CPU backend's throughput, against at most 9 generations once (docs/decisions.md). Only a
// check looks at every island of the run at one generation, which is what keeps the result
// independent of how islands are scheduled.
inline constexpr std::uint32_t kHaltInterval = 10;

// Chains in an island (sa, hc): the best key packs (sweep, index) into 32 + 21 bits.
inline constexpr std::uint32_t kMaxChains = 1u << 21;

// The individuals an island's diversity figure samples: min(pop, kDiversitySample), evenly
// spaced; the host averages the islands' figures by it.
inline constexpr std::uint32_t kDiversitySample = 1024;
constexpr std::uint32_t sample_size(std::uint32_t pop) {
  return pop < kDiversitySample ? pop : kDiversitySample;
}

struct IslandParams {
  GaParams ga;                      // ga.individuals: an island's; ga.children: bred by an island
  AnnealParams anneal;              // sa
  std::uint32_t islands = 1;        // per run, on a ring
  std::uint32_t migration_interval = 0;  // generations between migrations; 0: never (sa, hc)
  std::uint32_t migrants = 0;       // best individuals each island sends to the next
  std::uint32_t restart_after = 0;  // generations without improvement (hc: of a climb); 0: never
  std::uint32_t keep_on_restart = 0;
  // halt_interval_for(ga), which plan() sets and an engine checks: kernels read it, since deriving
  // it in them, or passing the params to next_stop, made the sm_80 grid kernels spill more.
  std::uint32_t halt_interval = kHaltInterval;
};

// The halt interval of runs of `ga` (kHaltInterval above): 1 where a generation is costly.
inline std::uint32_t halt_interval_for(const GaParams& ga) {
  const bool costly = ga.local_search > 0 || ga.repair == Repair::Propagate;
  return ga.algorithm != Algorithm::Ga || costly ? 1 : kHaltInterval;
}

// What an island carries from segment to segment.
struct IslandState {
  std::uint64_t seed = 0;
  std::uint64_t evaluations = 0;
  std::uint32_t clock = 0;          // the run's generation: every island of a run reaches it
  std::uint32_t boundary = kNever;  // the clock at which the last boundary step ran
  std::uint32_t last_improvement = 0;
  std::uint32_t restarts = 0;
  std::uint32_t solved = kNever;    // the generation the island reached fitness 0 (it stops there)
  Fitness best_ever = 0;
  std::uint8_t side = 0;            // which of the two population buffers holds the island
  std::uint8_t halted = 0;          // its run has stopped: an island solved
};
// Written whole into the islands' home and their snapshots: no byte of it may be padding.
static_assert(std::has_unique_object_representations_v<IslandState>, "an island's state has padding");

// The children a GA island breeds each generation: --children under truncation (mu+lambda), its
// size under the other selections (and a chain island's: IslandLayout::children).
constexpr std::uint32_t children_of(const GaParams& ga) {
  const bool truncation = ga.algorithm == Algorithm::Ga && ga.selection == Selection::Truncation;
  return truncation ? ga.children : ga.individuals;
}

// What a GA island counts as evaluations (IslandState::evaluations) besides its tabu searches'
// moves: a generation that breeds, every child (`children`: children_of(ga), which the island's
// layout holds) and every local-search move but the elite's; a restart, its new individuals,
// all but those it keeps. constexpr, since the kernels call these too (the CUDA build relaxes
// constexpr) and this header stays free of the device shim for the library's public headers.
constexpr std::uint64_t bred_evaluations(std::uint32_t children, const GaParams& ga) {
  return children + std::uint64_t(children - ga.elite) * ga.local_search;
}
constexpr std::uint32_t kept_on_restart(const IslandParams& params, std::uint32_t individuals) {
  return params.keep_on_restart < individuals ? params.keep_on_restart : individuals;
}

// A GA island's tabu moves so far (none without --tabu; chains make none): its evaluations less
// the rest, which its generations and restarts fix, its individuals at generation 0 first. Not
// for a growing run, whose islands carry the evaluations of stages of other sizes. Worked out on
// the host: a count of the kernels' own would grow the state that every segment step holds.
inline std::uint64_t tabu_moves_of(const IslandState& s, const IslandParams& params) {
  if (params.ga.algorithm != Algorithm::Ga) return 0;
  const std::uint64_t bred = s.clock - s.restarts;
  const std::uint32_t size = params.ga.individuals;
  return s.evaluations - size - bred * bred_evaluations(children_of(params.ga), params.ga) -
         std::uint64_t(s.restarts) * (size - kept_on_restart(params, size));
}

struct IslandSummary {
  IslandState state;
  std::uint64_t temperature_sum = 0;  // sa: its chains' temperatures, 16.16 fixed point
  std::uint64_t fitness_sum = 0;
  std::uint64_t distance_sum = 0;   // Hamming distances of the diversity sample to the best
  std::uint32_t best_index = 0;
  Fitness best = 0, worst = 0;
};

enum class RunAction : std::uint8_t { Idle, Init, Advance };

inline constexpr std::int64_t kNoDeadline = INT64_MAX;

// An island's side (IslandState::side) when its run's deadline passed before its generation 0
// (segment_step): it holds no individual and its summary says so (fitness kNoFitness).
inline constexpr std::uint8_t kUnstarted = 2;

// What the host asks of a run for one epoch: Init starts it at generation 0; both then advance
// it to `target` (or until it halts). `deadline`, nanoseconds on the host's steady clock, is the
// run's time limit: a team that can read that clock (Team::past) starts no segment past it, so a
// run stops within a segment of its limit however long the epoch; the run then ends (the driver
// sees its time is up), its islands where the deadline found them.
struct RunTask {
  RunAction action = RunAction::Idle;
  std::uint32_t target = 0;
  std::int64_t deadline = kNoDeadline;
};

}  // namespace gpuga
