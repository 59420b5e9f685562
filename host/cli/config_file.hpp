#pragma once
// Messages for configuration files (--config): CLI11 names a key it cannot use but not where
// it is, so this finds the line.
#include <CLI/CLI.hpp>

#include <istream>
#include <string>
#include <vector>

namespace gpuga {

// CLI11's TOML reader, past a UTF-8 byte-order mark at the file's start (which it would read as
// part of the first key): configure_app's formatter for --config.
class ConfigToml : public CLI::ConfigBase {
 public:
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;
};

// The command line with every --config FILE (or --config=FILE) moved before the command, where
// CLI11 reads it: `gpuga solve --config f.toml` as `gpuga --config f.toml solve`.
std::vector<std::string> config_first(const std::vector<std::string>& args);

// Why `file`, given to --config, cannot be read as one ("FILE: no such file; expected ..."),
// or "" when it can: a regular, readable text file (a NUL byte says it is not).
std::string config_file_problem(const std::string& file);

// The 1-based line of `file` that sets `dotted_key` (solve.pop, as `solve.pop=` or as `pop=`
// under `[solve]`) for the `occurrence`-th time; 0 when none does or the file cannot be read.
int config_line_of(const std::string& file, const std::string& dotted_key, int occurrence = 1);

// "FILE:LINE: unknown key 'KEY'; ...", for CLI11's message on an unusable key ("INI was not able
// to parse KEY"); other messages come back after "FILE: ".
std::string describe_config_error(const std::string& file, const std::string& cli11_message);

// "FILE:LINE" for CLI11's message on a bad value ("--pop: 'abc' is not a number; ...") that
// came from the file: the option is not among the command line's `args` and line LINE sets it
// for `command` (solve.pop=, or pop= under [solve]; for an option set twice, the line that sets it
// again). "" otherwise: the command line gave it.
std::string config_value_place(const std::string& file, const std::string& command,
                               const std::vector<std::string>& args,
                               const std::string& cli11_message);

// The value text of line `line` of `file` (after its '='), or "".
std::string config_value_text(const std::string& file, int line);

}  // namespace gpuga
