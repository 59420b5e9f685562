// The command line's app, apart from main(), so that what reads a command line or a --config
// file can be driven without a process (the config fuzz target, tests/fuzz).
#include "commands.hpp"
#include "config_file.hpp"
#include "gpuga/version.hpp"

namespace gpuga {

void configure_app(CLI::App& app, int& exit_status) {
  app.set_version_flag("--version", std::string("gpuga ") + GPUGA_VERSION + " (commit " +
                                        GPUGA_GIT_COMMIT + "; " + GPUGA_BUILD_INFO + ")");
  app.require_subcommand(1);
  // CLI11 reads configuration files at the top level: `gpuga --config run.toml solve ...`,
  // with keys as --print-config writes them (solve.pop=1000).
  app.config_formatter(std::make_shared<ConfigToml>());  // before the subcommands, which take it
  app.set_config("--config", "", "Read options from a TOML file, keys as --print-config writes "
                 "them (solve.pop=1000); the command line wins");
  // A misspelt key must not pass silently as a default; set before the subcommands, which
  // inherit it.
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.footer(
      "Exit status: 0 success; 1 some puzzle not solved within the limits (or, for check "
      "--strict, not uniquely solvable; for generate, a rating band or fill not found); 2 bad usage or input; 3 a runtime failure (CUDA, "
      "memory, an output that cannot be written); 4 checkpointed at a signal's asking (solve --checkpoint, batch "
      "--checkpoint-every), not finished: the same command continues it; 5 interrupted (Ctrl-C, "
      "SIGTERM) with no checkpoint kept: what finished is written, stderr says what was not.\nUnder MPI (a build with MPI, as --version says; mpirun -np N gpuga ...): solve "
      "splits each run's islands over the ranks, with the result of one process; batch and sweep "
      "share their runs out, rank 0 writing the CSV; bench measures weak scaling; the other "
      "commands run alike on every rank.");

  add_check_command(app, exit_status);
  add_solve_command(app, exit_status);
  add_score_command(app, exit_status);
  add_devices_command(app, exit_status);
  add_bench_command(app, exit_status);
  add_batch_command(app, exit_status);
  add_report_command(app, exit_status);
  add_plot_command(app, exit_status);
  add_sweep_command(app, exit_status);
  add_generate_command(app, exit_status);
  add_rate_command(app, exit_status);
}

std::string command_names(const CLI::App& app) {
  std::string names;
  const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
  for (std::size_t k = 0; k < commands.size(); ++k)
    names += (k ? (k + 1 == commands.size() ? " or " : ", ") : "") + commands[k]->get_name();
  return "one of " + names + " (gpuga --help says what each does)";
}

std::string config_file(const CLI::App& app) {
  const CLI::Option* opt = app.get_config_ptr();
  return opt && opt->count() > 0 ? opt->as<std::string>() : "";
}

}  // namespace gpuga
