// gpuga: a massively parallel genetic algorithm for Sudoku. Only this file turns exceptions
// into exit codes.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli_messages.hpp"
#include "commands.hpp"
#include "config_file.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#if defined(GPUGA_HAVE_MPI)
#include "mpi_world.hpp"
#endif

namespace {

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

// Standard output's state once the command is done: a full disk, a closed or broken stdout
// would otherwise lose results behind exit 0. Says so, and turns a success into exit 3.
int stdout_checked(int status) {
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return status;
  if (errno == 0) {  // failed at an earlier flush, whose errno is gone: a probe says why
    std::clearerr(stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  const std::string reason = gpuga::write_failure_reason();
  fail(gpuga::kExitFailure, "failure: standard output: cannot write (" + reason +
                                "): what the command printed there is lost or cut short; its "
                                "other files (a CSV, a checkpoint) are kept");
  return status <= gpuga::kExitUnsolved ? gpuga::kExitFailure : status;
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // A closed stdout would hand its descriptor to the first file opened, and results to it.
  if (::fcntl(STDOUT_FILENO, F_GETFD) < 0)
    return fail(gpuga::kExitFailure, "failure: standard output is closed; expected somewhere to "
                                     "write the results (a file, a pipe, /dev/null)");
  return stdout_checked(run(argc, argv));
}

namespace {

int run(int argc, char** argv) {
#if defined(GPUGA_HAVE_MPI)
  gpuga::MpiWorld world(argc, argv);  // before the command line: MPI may take its own arguments
#endif
  CLI::App app{"gpuga: a massively parallel genetic algorithm for Sudoku, on the GPU or the CPU"};
  int exit_status = gpuga::kExitOk;
  gpuga::configure_app(app, exit_status);

  // --config anywhere on the line, read before the command as CLI11 wants it; the file checked
  // first, so that one message says what is wrong with it.
  std::vector<std::string> args = gpuga::config_first({argv + 1, argv + argc});
  std::vector<std::string> configs;
  for (std::size_t k = 0; k + 1 < args.size() && args[k].rfind("--config", 0) == 0; ++k) {
    configs.push_back(args[k] == "--config" ? args[++k] : args[k].substr(9));
    if (const std::string problem = gpuga::config_file_problem(configs.back()); !problem.empty())
      return fail(gpuga::kExitBadInput, "error: " + problem);
  }
  if (configs.size() > 1) {
    std::string files;
    for (const std::string& file : configs) files += (files.empty() ? "" : ", ") + file;
    return fail(gpuga::kExitBadInput, "error: --config given " + std::to_string(configs.size()) +
                                          " times (" + files + "); expected one file: put the "
                                          "options in one, or give the others on the command "
                                          "line, which wins");
  }
  if (const std::string problem = gpuga::argument_problem(app, {argv + 1, argv + argc}); !problem.empty())
    return fail(gpuga::kExitBadInput, "error: " + problem);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
  try {
    app.parse(args);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ConfigError& e) {
    return fail(gpuga::kExitBadInput,
                "error: " + gpuga::describe_config_error(gpuga::config_file(app), e.what()));
  } catch (const CLI::ParseError& e) {
    const auto commands = app.get_subcommands();
    const std::string command = commands.empty() ? "" : commands.front()->get_name();
    if (commands.empty() && argc > 1 && argv[1][0] != '-')
      return fail(gpuga::kExitBadInput, std::string("error: unknown command '") + argv[1] +
                                            "'; expected " + gpuga::command_names(app));
    if (commands.empty() && argc == 1)
      return fail(gpuga::kExitBadInput, "error: no command given; expected " + gpuga::command_names(app));
    if (const std::string place = gpuga::config_value_place(
            gpuga::config_file(app), command,
            {argv + 1, argv + argc}, e.what());
        !place.empty()) {
      // A value TOML reads as no value at all (an unclosed [, a stray quote): CLI11 says "At
      // least 1 required"; say what the line holds instead.
      const std::string what = e.what();
      if (what.find("At least 1 required") != std::string::npos) {
        const auto line = std::stoi(place.substr(place.rfind(':') + 1));
        return fail(gpuga::kExitBadInput,
                    "error: " + place + ": " + what.substr(0, what.find(':')) + ": '" +
                        gpuga::config_value_text(gpuga::config_file(app), line) +
                        "' cannot be read as a value; expected one as --print-config writes it "
                        "(a number, a word, or a quoted string)");
      }
      const std::string words = gpuga::project_words(what, command);
      return fail(gpuga::kExitBadInput, "error: " + place + ": " + (words.empty() ? what : words));
    }
    // The validators' messages are the project's already (cli_run_config.hpp).
    const std::string words = gpuga::project_words(e.what(), command);
    if (const std::string file = gpuga::config_file(app); !file.empty())
      std::cerr << "gpuga: note: options were also read from " << file << '\n';
    return fail(gpuga::kExitBadInput, "error: " + (words.empty() ? std::string(e.what()) : words));
  } catch (const gpuga::NotFoundError& e) {
    return fail(gpuga::kExitUnsolved, std::string("not found: ") + e.what());
  } catch (const gpuga::InputError& e) {
    return fail(gpuga::kExitBadInput, std::string("error: ") + e.what());
  } catch (const std::exception& e) {
    return fail(gpuga::kExitFailure, std::string("failure: ") + e.what());
  }
  return exit_status;
}

}  // namespace
