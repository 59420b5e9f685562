#pragma once
// Each subcommand lives in its own file (cli_<name>.cpp) with its options struct. Its callback
// runs the command and stores the exit status; errors are thrown and turned into exit codes by
// main() alone.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <system_error>

#include "gpuga/batch_runner.hpp"

namespace gpuga {

// The positional puzzle-file list every puzzle-reading command takes: each a file that is there,
// or - for standard input.
inline CLI::Option* add_puzzle_files_option(CLI::App* cmd, std::vector<std::string>& files,
                                            const std::string& what = "Puzzle files") {
  const CLI::Validator readable(
      [](std::string& path) -> std::string {
        if (path == "-" || CLI::ExistingFile(path).empty()) return "";
        std::error_code ec;
        return path + (std::filesystem::is_directory(path, ec) ? ": is a folder" : ": no such file") +
               "; expected a puzzle file, or - for standard input";
      },
      "FILE|-");
  return cmd->add_option("files", files, what + " ('-' for standard input)")
      ->required()
      ->check(readable);
}

enum ExitStatus : int {
  kExitOk = 0,         // all done, all solved / all checks passed
  kExitUnsolved = 1,   // some puzzle not solved within the limits (check --strict: not unique)
  kExitBadInput = 2,   // bad usage or bad input
  kExitFailure = 3,    // the machine failed (a CUDA error, out of memory)
  kExitCheckpointed = 4,  // a signal asked for a checkpoint: written, the run not finished
  kExitInterrupted = 5,   // a signal stopped it, no checkpoint kept: what finished is written
};

inline int batch_exit_status(BatchEnd end) {
  return end == BatchEnd::AllSolved      ? kExitOk
         : end == BatchEnd::Checkpointed ? kExitCheckpointed
         : end == BatchEnd::Interrupted  ? kExitInterrupted
                                         : kExitUnsolved;
}

// The whole command line on `app` (its --version, --config, every subcommand); a subcommand's
// callback runs it and stores its exit status in `exit_status`.
void configure_app(CLI::App& app, int& exit_status);
// The --config file given, or "".
std::string config_file(const CLI::App& app);
// "one of check, solve, ... (gpuga --help ...)": the commands, for a message.
std::string command_names(const CLI::App& app);

void add_check_command(CLI::App& app, int& exit_status);
void add_solve_command(CLI::App& app, int& exit_status);
void add_score_command(CLI::App& app, int& exit_status);
void add_devices_command(CLI::App& app, int& exit_status);
void add_bench_command(CLI::App& app, int& exit_status);
void add_batch_command(CLI::App& app, int& exit_status);
void add_report_command(CLI::App& app, int& exit_status);
void add_plot_command(CLI::App& app, int& exit_status);
void add_sweep_command(CLI::App& app, int& exit_status);
void add_generate_command(CLI::App& app, int& exit_status);
void add_rate_command(CLI::App& app, int& exit_status);

}  // namespace gpuga
