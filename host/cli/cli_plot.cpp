// gpuga plot ...: pictures of runs. They are drawn by the Python package's plots.py (matplotlib),
// installed beside the command as share/gpuga/plots.py: this finds it and runs it on the
// arguments as given, so that the options and --help are declared once, there.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

// plots.py beside the running command: share/gpuga/ in a build folder (the command at its top)
// or under an install prefix (the command in bin/).
std::filesystem::path plots_script() {
  std::error_code ec;
  const auto here = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  const std::filesystem::path places[] = {here / "share/gpuga/plots.py",
                                          here.parent_path() / "share/gpuga/plots.py"};
  for (const auto& place : places)
    if (std::filesystem::is_regular_file(place, ec)) return place;
  throw RuntimeFailure("plot: no share/gpuga/plots.py beside " + here.string() + " or above it; "
                       "expected one installed with gpuga (cmake --install, or a build folder)");
}

[[noreturn]] void run_plots(const std::vector<std::string>& args) {
  const std::filesystem::path script = plots_script();
  const char* chosen = std::getenv("GPUGA_PYTHON3");
#if defined(GPUGA_PLOT_PYTHON3)
  const std::string found = GPUGA_PLOT_PYTHON3;  // the build's, with matplotlib
#else
  const std::string found = "python3";
#endif
  const std::string python = chosen && *chosen ? chosen : found;
  std::vector<std::string> words = {python, script.string()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execvp(python.c_str(), argv.data());
  throw RuntimeFailure("plot: cannot run " + python + " (" + std::strerror(errno) + "); gpuga plot "
                       "needs Python 3 with matplotlib (Debian: python3-matplotlib), or "
                       "GPUGA_PYTHON3 naming one");
}

}  // namespace

// The exit status is plots.py's own: the command becomes it.
void add_plot_command(CLI::App& app, int& /*exit_status*/) {
  auto* cmd = app.add_subcommand(
      "plot", "Pictures of runs (PNG, with Python's matplotlib): convergence from traces "
              "(--traces DIR of batch, sweep or solve --trace), and from batch or sweep CSVs the "
              "share solved against time and evaluations, solved runs and the settings' effects "
              "(gpuga plot --help says more)");
  cmd->allow_extras();    // every argument is plots.py's
  cmd->set_help_flag();   // --help too
  cmd->callback([cmd] { run_plots(cmd->remaining()); });
}

}  // namespace gpuga
