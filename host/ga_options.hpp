#pragma once
// The command-line options of a run (ga, sa or hc), shared by every subcommand that runs one, with their
// validators and defaults (see bench/README.md for the measurements behind the defaults).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "driver.hpp"
#include "engine.hpp"

namespace gpuga {

// The island size when --island-size is left at 0: islands of up to this many (bench/README.md:
// the best single-population size measured on the CPU).
inline constexpr std::uint32_t kDefaultIslandSize = 1000;

// --local-search auto: the moves per child chosen by the puzzle's box size (default_local_search).
inline constexpr std::uint32_t kLocalSearchBySize = 0xFFFFFFFFu;

// The local-search moves per child for puzzles of box size `box` (bench/README.md, "16x16 and
// 25x25"): 500 up to 16x16; 25x25 children need many more before selection can tell them apart.
std::uint32_t default_local_search(int box);

struct GaOptions {
  Algorithm algorithm = Algorithm::Ga;
  std::uint32_t pop = 0;          // the whole population; 0: fill the backend (resolve_for_puzzle)
  std::uint32_t island_size = 0;  // 0: min(--pop, kDefaultIslandSize)
  std::uint32_t migration_interval = 50;
  std::uint32_t migrants = 1;
  std::uint32_t children = 0;  // per island; 0: as many as the island (truncation: 10 x island)
  Encoding encoding = Encoding::Box;
  FitnessKind fitness = FitnessKind::Conflicts;
  Selection selection = Selection::Tournament;
  std::uint32_t tournament_size = 3;
  double rank_pressure = 1.5;
  std::uint32_t elite = 1;
  Crossover crossover = Crossover::Bands;
  double crossover_rate = 1.0;
  double mutation_rate = 1.0;  // bench/README.md, "Why the defaults": a paired sweep
  std::uint32_t local_search = kLocalSearchBySize;  // bench/README.md: the memetic sweeps
  bool given_aware = true;
  double cooling = 0.9;            // sa (bench/README.md: the schedule sweeps)
  std::uint32_t chain_length = 0;  // sa: moves per temperature; 0: the free cells
  std::uint32_t reheat_after = 50; // sa
  std::uint32_t restart_after = 30;
  std::uint32_t keep_on_restart = 0;
  std::uint32_t max_generations = 0;  // none: the time limit decides
  double time_limit = 60;
  std::uint64_t seed = 0;
  Backend backend = Backend::Auto;
  int threads = 0;
  int device = 0;
  CLI::Option* seed_option = nullptr;  // set: --seed was given
  bool print_config = false;
};

// Adds every GA option to `cmd`, bound to `o`.
void add_ga_options(CLI::App* cmd, GaOptions& o);

// The defaults that depend on the backend and the puzzle, for puzzles of box size `box`: --pop 0,
// islands of the island size, one per CPU thread, or as many as the GPU runs at once; and
// --local-search auto. Call after resolve_backend, before to_params.
void resolve_for_puzzle(GaOptions& o, Backend backend, int box);

// After parsing: draws a seed when none was given, checks options against each other (throws
// InputError), and returns the islands' parameters and the driver's limits.
IslandParams to_params(GaOptions& o);
IslandParams island_params(const GaOptions& o);  // to_params with the seed already set
RunLimits to_limits(const GaOptions& o);

// The effective island size, and the children an island breeds per generation: truncation's
// --children (0: 10 x the island size), else the island size.
std::uint32_t island_size_of(const GaOptions& o);
std::uint32_t children_of(const GaOptions& o);
// The migration in effect: sa and hc chains never migrate.
std::uint32_t migration_interval_of(const GaOptions& o);
std::uint32_t migrants_of(const GaOptions& o);

// --print-config: after to_params (so that a drawn seed is in it), writes the whole command's
// configuration in the form `gpuga --config FILE` reads, and returns true (nothing to run).
bool print_config_if_asked(const GaOptions& o, const CLI::App* cmd);

// The effective configuration, as recorded in every output.
nlohmann::json describe(const GaOptions& o);
std::string describe_line(const GaOptions& o);

const char* to_string(Algorithm);
const char* to_string(Encoding);
const char* to_string(FitnessKind);
const char* to_string(Selection);
const char* to_string(Crossover);
const char* to_string(Backend);

}  // namespace gpuga
