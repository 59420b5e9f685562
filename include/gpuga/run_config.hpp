#pragma once
// A run's configuration, declared once. RunConfig holds every option of a run (ga, sa or hc);
// run_settings() describes each: its name (the command line's --NAME, a configuration file's
// key, sweep's --grid NAME), the text it takes, its default, help and group, its JSON key and
// CSV column, and how it reads and writes a RunConfig. The command line of every subcommand,
// --print-config, the JSON, the summary line, the batch CSV's columns and config_id all come
// from that table (README.md, "Adding an engine option", says what else an option touches). No
// CLI11 and no JSON here (bench/README.md's defaults have their measurements).
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "gpuga/defaults.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/propagate.hpp"

namespace gpuga {

// A setting left at auto (--local-search, --restart-after) until resolve() puts the defaults
// table's value there (gpuga/defaults.hpp).
inline constexpr std::uint32_t kFromTable = 0xFFFFFFFFu;
// hc's --restart-after auto: climbers restart after this many generations without a better grid.
inline constexpr std::uint32_t kClimberRestartAfter = 30;
// --grow-after: a run's islands double at most this many times (to 4x the first size), the
// range of island sizes over which the sweeps found each box size's fastest (bench/README.md);
// beyond it a stage costs more than a minute's time limit allows.
inline constexpr std::uint32_t kMaxGrowths = 2;

struct RunConfig {
  Algorithm algorithm = Algorithm::Ga;
  std::uint32_t pop = 0;          // the whole population; 0: fill the backend (resolve)
  std::uint32_t island_size = 0;  // 0: the defaults table's (resolve)
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
  std::uint32_t local_search = kFromTable;  // bench/README.md: the memetic sweeps
  bool given_aware = true;
  Propagation propagate = Propagation::Singles;  // on the givens, before the run (bench/README.md)
  double cooling = 0.9;            // sa (bench/README.md: the schedule sweeps)
  std::uint32_t chain_length = 0;  // sa: moves per temperature; 0: the free cells
  std::uint32_t reheat_after = 50; // sa
  std::uint32_t restart_after = kFromTable;
  std::uint32_t keep_on_restart = 0;
  std::uint32_t grow_after = kFromTable;  // ga: generations a stage; 0: islands never grow
  std::uint32_t max_generations = 0;  // none: the time limit decides
  double time_limit = 60;
  std::uint64_t seed = 0;
  bool seed_given = false;  // false: draw_seed() draws one
  Backend backend = Backend::Auto;
  int threads = 0;
  int device = 0;

  // The effective island size, the children an island breeds per generation (truncation's
  // --children, 0: 10 x the island size; else the island size), and the migration in effect
  // (sa and hc chains never migrate).
  std::uint32_t island_size_in_effect() const;
  std::uint32_t children_in_effect() const;
  std::uint32_t migration_interval_in_effect() const;
  std::uint32_t migrants_in_effect() const;
  // --grow-after in effect: the generations of each stage but the last, rounded up to a multiple
  // of the halt interval (island_params.hpp), where every island of a run knows whether one
  // solved; 0 where islands do not grow (sa and hc, or 0 given).
  std::uint32_t stage_length() const;
  // Stage k of a run that grows (engine/growing_engine.cpp): this configuration with islands
  // 2^k times the size, as many of them; it computes what that configuration does alone.
  RunConfig stage(std::uint32_t k) const;
  // Every stage's islands for make_growing_engine: `here` (islands() of this configuration, or a
  // rank's share of them) at stage k's island size and children, k = 0 to kMaxGrowths.
  std::vector<EngineParams> stage_islands(const EngineParams& here) const;

  // Draws the seed when none was given.
  void draw_seed();
  // Checks the options against each other (each one's range is its setting's): throws
  // InputError saying which and what was expected.
  void validate() const;
  // The defaults that depend on the backend and the puzzle (gpuga/defaults.hpp), for puzzles
  // of box size `box`: --island-size 0, --local-search and --restart-after auto, and --pop 0 (islands to fill the
  // backend for one puzzle, or, `many` puzzles sharing it, each run's share). Once, before
  // islands().
  void resolve(Backend resolved, int box, bool many = false);
  // The backend's units and the islands of this configuration that run at once on each.
  BackendShape shape(Backend resolved, int box) const;
  // After validate(): the islands' parameters and the driver's limits.
  EngineParams islands() const;
  RunLimits limits() const { return {max_generations, time_limit}; }
};

// A setting's value as outputs record it: a count, a real, true/false or a name.
using SettingValue = std::variant<std::uint64_t, double, bool, std::string>;

// A setting's column in the batch CSV (gpuga/batch_csv.hpp): its name, its place among the
// configuration's columns (0, 1, ...: the CSV's order, which config_id hashes), and the CSV
// layout that added it (1: the first; report reads CSVs written before a column existed).
// Notebooks read columns by place and --resume matches them, so a place never changes: a new
// column takes the next one after the last.
struct CsvColumn {
  std::string name;  // "" none
  int position = -1;
  int since = 1;
};

struct RunSetting {
  std::string name;       // --NAME; "" for a value derived from others (an output only)
  std::string type_name;  // UINT, FLOAT, BOOLEAN or the choices, as help shows them
  std::string accepts;    // the range, as help shows it ("" for choices and flags)
  std::string group, help;
  std::string json;       // describe()'s key; "" none
  CsvColumn csv;          // the batch CSV's column, if any
  // Reads text into the configuration: "" or what is wrong with it (range, choices).
  std::function<std::string(RunConfig&, const std::string&)> parse;
  // The value as the command line takes it, for --print-config and help's default.
  std::function<std::string(const RunConfig&)> text;
  // The value in effect, as the JSON, the summary line and (unless `csv_value`) the CSV record it.
  std::function<SettingValue(const RunConfig&)> value;
  std::function<SettingValue(const RunConfig&)> csv_value;  // when the CSV records another
};

// Every setting of a run, in the command line's order.
const std::vector<RunSetting>& run_settings();
// The settings with a CSV column, in the CSV's order (by position).
const std::vector<const RunSetting*>& csv_settings();
// The setting named `name` (without dashes), or null.
const RunSetting* find_setting(const std::string& name);

// A value as the CSV writes it (reals as %g) and as the summary line does.
std::string csv_text(const SettingValue& v);

const char* to_string(Algorithm);
const char* to_string(Encoding);
const char* to_string(FitnessKind);
const char* to_string(Selection);
const char* to_string(Crossover);
const char* to_string(Backend);

}  // namespace gpuga
