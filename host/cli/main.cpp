// gpuga: a massively parallel genetic algorithm for Sudoku. Only this file turns exceptions
// into exit codes.
#include <iostream>

#include "commands.hpp"
#include "config_file.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/version.hpp"
#if defined(GPUGA_HAVE_MPI)
#include "mpi_world.hpp"
#endif

namespace {

// The --config file given, or "".
std::string config_file(const CLI::App& app) {
  const CLI::Option* opt = app.get_config_ptr();
  return opt && opt->count() > 0 ? opt->as<std::string>() : "";
}

// Says what went wrong and returns `status`; under MPI with several ranks, names the rank and
// ends them all, so that none waits for this one.
int fail(int status, const std::string& what) {
#if defined(GPUGA_HAVE_MPI)
  const gpuga::MpiWorld* world = gpuga::MpiWorld::current();
  if (world && world->several()) {
    std::cerr << "gpuga (rank " << world->rank() << " of " << world->size() << "): " << what << '\n'
              << std::flush;
    world->abort(status);
  }
#endif
  std::cerr << "gpuga: " << what << '\n';
  return status;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(GPUGA_HAVE_MPI)
  gpuga::MpiWorld world(argc, argv);  // before the command line: MPI may take its own arguments
#endif
  CLI::App app{"gpuga: a massively parallel genetic algorithm for Sudoku, on the GPU or the CPU"};
  app.set_version_flag("--version", std::string("gpuga ") + GPUGA_VERSION + " (commit " +
                                        GPUGA_GIT_COMMIT + "; " + GPUGA_BUILD_INFO + ")");
  app.require_subcommand(1);
  // CLI11 reads configuration files at the top level: `gpuga --config run.toml solve ...`,
  // with keys as --print-config writes them (solve.pop=1000).
  app.set_config("--config", "", "Read options from a TOML file, keys as --print-config writes "
                 "them (solve.pop=1000); the command line wins");
  // A misspelt key must not pass silently as a default; set before the subcommands, which
  // inherit it.
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.footer(
      "Exit status: 0 success; 1 some puzzle not solved within the limits (or, for check "
      "--strict, not uniquely solvable); 2 bad usage or input; 3 a runtime failure (CUDA, "
      "memory); 4 checkpointed at a signal's asking (solve --checkpoint), not finished: the same "
      "command continues it.\nUnder MPI (a build with MPI, as --version says; mpirun -np N gpuga ...): solve "
      "splits each run's islands over the ranks, with the result of one process; batch and sweep "
      "share their runs out, rank 0 writing the CSV; bench measures weak scaling; the other "
      "commands run alike on every rank.");

  int exit_status = gpuga::kExitOk;
  gpuga::add_check_command(app, exit_status);
  gpuga::add_solve_command(app, exit_status);
  gpuga::add_score_command(app, exit_status);
  gpuga::add_devices_command(app, exit_status);
  gpuga::add_bench_command(app, exit_status);
  gpuga::add_batch_command(app, exit_status);
  gpuga::add_report_command(app, exit_status);
  gpuga::add_sweep_command(app, exit_status);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ConfigError& e) {
    return fail(gpuga::kExitBadInput,
                "error: " + gpuga::describe_config_error(config_file(app), e.what()));
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    if (const std::string file = config_file(app); !file.empty())
      std::cerr << "gpuga: note: options were also read from " << file << '\n';
    return gpuga::kExitBadInput;
  } catch (const gpuga::InputError& e) {
    return fail(gpuga::kExitBadInput, std::string("error: ") + e.what());
  } catch (const std::exception& e) {
    return fail(gpuga::kExitFailure, std::string("failure: ") + e.what());
  }
  return exit_status;
}
