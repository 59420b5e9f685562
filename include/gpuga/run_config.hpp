#pragma once
// A run's settings, declared once. RunOptions holds what the user gave of every setting of a run
// (ga, sa or hc), RunConfig every setting in effect (gpuga/run_plan.hpp's plan() makes one from
// the other); run_settings() describes each: its name (the command line's --NAME, a
// configuration file's key, sweep's --grid NAME), the text it takes, its default, help and group,
// its JSON key and CSV column, how it reads RunOptions and what it records of a RunConfig. The
// command line of every subcommand, --print-config, the JSON, the summary line, the batch CSV's
// columns and config_id all come from that table (docs/adding-an-option.md says what else an
// option touches). No CLI11 and no JSON here.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpuga/defaults.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/sudoku/propagate.hpp"

namespace gpuga {

// hc's --restart-after auto: climbers restart after this many generations without a better grid.
inline constexpr std::uint32_t kClimberRestartAfter = 30;
// --grow-after: a run's islands double at most this many times (to 4x the first size), the
// range of island sizes over which the sweeps found each box size's fastest (docs/benchmarks.md);
// beyond it a stage costs more than a minute's time limit allows.
inline constexpr std::uint32_t kMaxGrowths = 2;

// What the user gave: each setting present or not (the command line, a --config file, sweep's
// --grid, Python's keywords and a batch CSV's configuration all fill it through the settings
// table). What is not given is decided by plan() (gpuga/run_plan.hpp) for the puzzle's size and
// the backend: RunConfig's defaults, or the defaults table's (gpuga/defaults.hpp) where a
// setting depends on them (pop, island size, local search, restart and growth). The seed alone
// comes before plan(), drawn where none is given (draw_seed), since a run's record must name it.
struct RunOptions {
  std::optional<Algorithm> algorithm;
  std::optional<std::uint32_t> pop, island_size, migration_interval, migrants, children;
  std::optional<Encoding> encoding;
  std::optional<FitnessKind> fitness;
  std::optional<Selection> selection;
  std::optional<std::uint32_t> tournament_size;
  std::optional<double> rank_pressure;
  std::optional<std::uint32_t> elite;
  std::optional<Crossover> crossover;
  std::optional<double> crossover_rate, mutation_rate;
  std::optional<std::uint32_t> local_search;
  std::optional<Repair> repair;
  std::optional<std::uint32_t> tabu;
  std::optional<std::uint32_t> tabu_return;
  std::optional<bool> given_aware;
  std::optional<Propagation> presolve;
  std::optional<double> cooling;
  std::optional<std::uint32_t> chain_length, reheat_after, restart_after, keep_on_restart;
  std::optional<std::uint32_t> grow_after, max_generations;
  std::optional<double> time_limit;
  std::optional<std::uint64_t> seed;
  std::optional<Backend> backend;
  std::optional<int> threads, device;
};

// A seed drawn for options that give none, so that the run can be repeated (printed with it).
void draw_seed(RunOptions& o);

// Why `text` is not a number from lo to hi, in the settings' own words ("0 is out of range;
// expected 1 to 1000000"), or "" when it is one (its value into `value` where given): for the
// options outside the table (host/cli/cli_run_config.hpp).
std::string whole_number_problem(const std::string& text, std::uint64_t lo, std::uint64_t hi);
std::string real_number_problem(const std::string& text, double lo, double hi, double* value = nullptr);

// The defaults of a run's kernel parameters that depend on neither the puzzle's size nor the
// backend (plan() decides the others and derives the rest: thresholds, islands, halt interval).
inline EngineParams default_engine_params() {
  EngineParams e;
  e.ga.algorithm = Algorithm::Ga;
  e.ga.encoding = Encoding::Box;
  e.ga.fitness = FitnessKind::Conflicts;
  e.ga.selection = Selection::Tournament;
  e.ga.crossover = Crossover::Bands;
  e.ga.tournament_size = 3;
  e.ga.given_aware = true;
  e.ga.repair = Repair::None;  // plan(): propagate for the GA at the defaults
  e.anneal.reheat_after = 50;  // sa
  e.migration_interval = 50;   // 0 for sa and hc, whose chains never migrate
  e.migrants = 1;              // likewise
  e.rank_pressure = 1.5;
  return e;
}

// A run's configuration as it runs: every setting in effect, for the puzzle's size and the
// backend (plan() makes it; its members' initialisers are the defaults that depend on neither).
// What every output records of a run. A setting the kernels read lives in `engine`, the islands'
// parameters of the run's first stage as they run; the others (and the reals the kernels take as
// integers) beside it.
struct RunConfig {
  // ga.individuals: an island's (--island-size); ga.children: bred an island a generation (truncation:
  // --children, or 10 x island); ga.elite as the kernels take it (truncation keeps none);
  // islands: the whole run's (every rank's).
  EngineParams engine = default_engine_params();
  std::uint32_t pop = 0;    // the whole population
  std::uint32_t elite = 1;  // as given
  double crossover_rate = 1.0;
  double mutation_rate = 1.0;  // docs/decisions.md: a paired sweep
  Propagation presolve = Propagation::Singles;  // on the givens, before the run (docs/decisions.md)
  double cooling = 0.9;  // sa (docs/benchmarks.md: the schedule sweeps)
  // ga: generations a stage of a run whose islands grow, rounded up to a multiple of the halt
  // interval (island_params.hpp), where every island of a run knows whether one solved; 0: its
  // islands never grow.
  std::uint32_t grow_after = 0;
  std::uint32_t max_generations = 0;  // none: the time limit decides
  double time_limit = 60;
  Backend backend = Backend::Cpu;  // cpu or cuda
  int threads = 0;  // in effect on the CPU: the target's (--threads 0: every one)
  int device = 0;
  std::string rank_devices;  // several MPI ranks: how they took their devices (Target's)

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
  std::string formerly;  // its name in CSVs written before it took the setting's own; "" none

  CsvColumn() = default;
  CsvColumn(std::string column, int place, int layout = 1, std::string former = "")
      : name(std::move(column)), position(place), since(layout), formerly(std::move(former)) {}
};

struct RunSetting {
  std::string name;       // --NAME; "" for a value derived from others (an output only)
  // --FORMERLY, the option's earlier name: still read (command line, configuration files, sweep's
  // --grid, Python's keywords, a CSV's column), and help names the new one beside it.
  std::string formerly;
  std::string type_name;  // UINT, FLOAT, BOOLEAN or the choices, as help shows them
  std::string accepts;    // the range, as help shows it ("" for choices and flags)
  std::string group, help;
  std::string json;       // describe()'s key; "" none
  CsvColumn csv;          // the batch CSV's column, if any
  // Reads text into the options: "" or what is wrong with it (range, choices).
  std::function<std::string(RunOptions&, const std::string&)> parse;
  // The option as the command line takes it, for --print-config and help's default: the value
  // given, else its default ("auto" where plan() decides it).
  std::function<std::string(const RunOptions&)> text;
  // The value given, if any, into a configuration (plan()'s first step).
  std::function<void(const RunOptions&, RunConfig&)> apply;
  // The value in effect, as the JSON, the summary line and (unless `csv_value`) the CSV record it.
  std::function<SettingValue(const RunConfig&)> value;
  std::function<SettingValue(const RunConfig&)> csv_value;  // when the CSV records another
};

// The algorithm the options give, else the default: for a front end that shapes its work by it
// before any plan (bench's sizes and table).
Algorithm algorithm_of(const RunOptions& o);

// Every setting of a run, in the command line's order.
const std::vector<RunSetting>& run_settings();
// The settings with a CSV column, in the CSV's order (by position).
const std::vector<const RunSetting*>& csv_settings();
// The setting named `name` (without dashes), or by its former name, or null.
const RunSetting* find_setting(const std::string& name);

// Gives the option `name` (as the command line spells it, without dashes) the value `text`, read
// by its setting's parser: InputError, naming both, where either is not one.
void give_option(RunOptions& o, const std::string& name, const std::string& text);

// A value as the CSV writes it (reals as %g) and as the summary line does.
std::string csv_text(const SettingValue& v);

const char* to_string(Algorithm);
const char* to_string(Encoding);
const char* to_string(FitnessKind);
const char* to_string(Selection);
const char* to_string(Crossover);
const char* to_string(Repair);
const char* to_string(Backend);

}  // namespace gpuga
