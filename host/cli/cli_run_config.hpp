#pragma once
// The command-line face of a run's configuration (run_config.hpp): the options of every
// subcommand that runs one, made from run_settings(), and what the CLI writes of it.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpuga/batch_runner.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

// A CLI11 validator that reads a value as setting `s` does (its message when it cannot).
CLI::Validator setting_validator(const RunSetting& s);

// Validators for the options outside run_settings(), in the settings' words (what was read and
// what is allowed; whole_number_problem): a whole number from lo to hi
// ("0 is out of range; expected 1 to 1000000"); a number of seconds (above 0, or 0 too); one of
// `names`, any case, or of `also` (the values a CLI::Transformer before it maps them to, which
// --print-config files hold).
CLI::Validator whole_number_in(std::uint64_t lo, std::uint64_t hi);
CLI::Validator seconds(bool zero_too);
CLI::Validator one_of(std::vector<std::string> names, std::vector<std::string> also = {});

// Adds an option for every setting of run_settings() to `cmd`, bound to `o`, and --print-config
// bound to `print_config`.
void add_run_options(CLI::App* cmd, RunOptions& o, bool& print_config);

// Adds an option for each setting of run_settings() in `groups` but those `except` (gpuga
// bench: the settings that shape an island's work).
void add_setting_options(CLI::App* cmd, RunOptions& o, const std::vector<std::string>& groups,
                         const std::vector<std::string>& except);

// Adds the options of a batch other than its runs' (gpuga batch and sweep) to `cmd`.
void add_batch_setup_options(CLI::App* cmd, BatchSetup& s);
// --trace DIR and --trace-every N (batch, sweep and solve): per-generation rows in DIR/traces.csv.
void add_trace_options(CLI::App* cmd, std::string& folder, std::uint32_t& every);

// After parsing: draws the seed when none was given (rank 0's on every MPI rank), and records it
// as the --seed option's value so that --print-config writes it.
void draw_seed(RunOptions& o, CLI::App* cmd);

// --print-config: writes the whole command's configuration (the seed drawn included) in the form
// `gpuga --config FILE` reads, and returns true (nothing to run); false when not asked.
bool print_config_if_asked(bool asked, const CLI::App* cmd);

// A plan's configuration, as recorded in every output: JSON keys and values from
// run_settings(); the summary line is the same as key=value pairs.
nlohmann::json describe(const RunConfig& c);
std::string describe_line(const RunConfig& c);

}  // namespace gpuga
