#include "cli_run_config.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <sstream>

#include "cli_ranks.hpp"
#include "commands.hpp"

namespace gpuga {

CLI::Validator setting_validator(const RunSetting& s) {
  return CLI::Validator(
      [&s](std::string& v) {
        RunOptions scratch;
        return s.parse(scratch, v);
      },
      s.accepts);
}

CLI::Validator whole_number_in(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) { return whole_number_problem(text, lo, hi); },
      "in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

CLI::Validator seconds(bool zero_too) {
  const std::string allowed = zero_too ? "0 or more seconds" : "seconds above 0";
  return CLI::Validator(
      [zero_too, allowed](std::string& text) -> std::string {
        constexpr double kAny = std::numeric_limits<double>::max();
        double v = 0;
        if (!real_number_problem(text, -kAny, kAny, &v).empty())  // not a number at all
          return "'" + text + "' is not a number; expected " + allowed;
        if (v < 0 || (v == 0 && !zero_too)) return text + " is out of range; expected " + allowed;
        return "";
      },
      zero_too ? ">= 0" : "> 0");
}

CLI::Validator one_of(std::vector<std::string> names, std::vector<std::string> also) {
  std::string allowed;
  for (std::size_t k = 0; k < names.size(); ++k)
    allowed += (k ? (k + 1 == names.size() ? " or " : ", ") : "") + names[k];
  names.insert(names.end(), also.begin(), also.end());
  return CLI::Validator(
      [names, allowed](std::string& text) -> std::string {
        for (const auto& n : names)
          if (CLI::detail::to_lower(text) == n) return "";
        return "'" + text + "'; expected " + allowed;
      },
      "");
}

namespace {

// The option of setting `s`, bound to `o`. The value is read at parse time (command line or
// --config file), so the table's parser checks it and CLI11 reports its message as any other
// (with the file it came from).
void add_setting_option(CLI::App* cmd, RunOptions& o, const RunSetting& s) {
  static const RunOptions defaults;
  const std::string names = "--" + s.name + (s.formerly.empty() ? "" : ",--" + s.formerly);
  cmd->add_option_function<std::string>(
         names, [&o, &s](const std::string& v) { s.parse(o, v); }, s.help)
      ->check(setting_validator(s))
      ->type_name(s.type_name)
      ->default_str(s.text(defaults))
      ->group(s.group);
}

}  // namespace

void add_run_options(CLI::App* cmd, RunOptions& o, bool& print_config) {
  for (const RunSetting& s : run_settings())
    if (!s.name.empty()) add_setting_option(cmd, o, s);  // "": an output only
  cmd->add_flag("--print-config", print_config, "Write the effective configuration (every "
                "option, the seed drawn) for gpuga --config, and exit")
      ->configurable(false)->group("Run");
}

void add_setting_options(CLI::App* cmd, RunOptions& o, const std::vector<std::string>& groups,
                         const std::vector<std::string>& except) {
  for (const RunSetting& s : run_settings()) {
    const auto in = [&s](const std::vector<std::string>& names, const std::string& what) {
      return std::find(names.begin(), names.end(), what) != names.end();
    };
    if (!s.name.empty() && in(groups, s.group) && !in(except, s.name)) add_setting_option(cmd, o, s);
  }
}

void add_batch_setup_options(CLI::App* cmd, BatchSetup& s) {
  add_puzzle_files_option(cmd, s.files);
  cmd->add_option("--csv", s.csv, "CSV file for the results (one row per run)")->required();
  cmd->add_option("--runs", s.runs, "Runs per puzzle")->check(whole_number_in(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--sample", s.sample, "Draw this many puzzles at random (seeded) from the "
                  "files (0: all)")->check(whole_number_in(0, 100000000))->capture_default_str();
  cmd->add_option("--concurrent", s.concurrent, "Runs advancing together (0: CUDA, 1e6 / --pop; "
                  "CPU, 8)")->check(whole_number_in(0, 65535))->capture_default_str();
  cmd->add_flag("--resume", s.resume, "Continue the batch in --csv, skipping recorded runs");
  add_trace_options(cmd, s.trace_dir, s.trace_every);
  cmd->add_option("--checkpoint-every", s.checkpoint_every,
                  "Save the runs in flight every SECONDS, one file each in CSV.checkpoints/ (0: "
                  "never); SIGTERM or SIGUSR1 then save them and exit with status 4, and --resume "
                  "continues them")
      ->check(seconds(true))->capture_default_str();
}

void add_trace_options(CLI::App* cmd, std::string& folder, std::uint32_t& every) {
  cmd->add_option("--trace", folder, "Write per-generation rows of every run to DIR/traces.csv "
                  "(appended; batch and sweep: each run's rows when it ends, before its CSV row)");
  cmd->add_option("--trace-every", every, "Trace every Nth generation")
      ->check(whole_number_in(1, 1000000))->capture_default_str();
}

void draw_seed(RunOptions& o, CLI::App* cmd) {
  if (o.seed) return;
  draw_seed(o);
  o.seed = root_rank_value(*o.seed);  // MPI ranks share a run's islands or a batch's runs
  cmd->get_option("--seed")->add_result(std::to_string(*o.seed));
}

bool print_config_if_asked(bool asked, const CLI::App* cmd) {
  if (!asked) return false;
  // Only this command's section, keys prefixed as the top level reads them (solve.pop=1000).
  std::cout << cmd->get_parent()->get_config_formatter()->to_config(
      cmd, /*default_also=*/true, /*write_description=*/false, cmd->get_name() + ".")
            << "# ranks = " << rank_place().size << " (MPI ranks; set by mpirun, not an option)\n";
  return true;
}

nlohmann::json describe(const RunConfig& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const RunSetting& s : run_settings()) {
    if (s.json.empty()) continue;
    std::visit([&](const auto& v) { out[s.json] = v; }, s.value(c));
  }
  return out;
}

std::string describe_line(const RunConfig& c) {
  std::ostringstream s;
  bool first = true;
  const nlohmann::json config = describe(c);  // items() must not outlive the object
  for (const auto& [k, v] : config.items()) {
    s << (first ? "" : " ") << k << '=' << (v.is_string() ? v.get<std::string>() : v.dump());
    first = false;
  }
  return s.str();
}

}  // namespace gpuga
