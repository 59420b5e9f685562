// Configuration files (gpuga --config FILE COMMAND), read as main() reads them, for the commands
// that take run options. A read either refuses with one of the command line's errors (a
// ConfigError that describe_config_error places in the file, a ParseError naming the option, an
// InputError), or gives a configuration that --print-config writes, and that this written
// configuration, read back, gives again: the same text.
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "config_file.hpp"
#include "fuzz_support.hpp"
#include "gpuga/errors.hpp"

using namespace gpuga;

namespace {

const char* const kCommands[] = {"solve", "batch", "sweep"};

struct Files {
  std::string config = fuzz::scratch_file("config.toml");
  std::string puzzle = fuzz::write_file(fuzz::scratch_file("config-puzzle.txt"),
                                        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n");
  std::string csv = fuzz::scratch_file("config-batch.csv");
};

// --print-config's text for `command` with options from `config`, or nothing when refused.
std::optional<std::string> print_config(const Files& f, const char* command) {
  std::vector<std::string> args = {"gpuga", "--config", f.config, command, "--print-config"};
  if (std::string(command) != "solve") args.insert(args.end(), {"--csv", f.csv});
  args.push_back(f.puzzle);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());

  CLI::App app{"gpuga"};
  int status = 0;
  configure_app(app, status);
  std::ostringstream out;
  struct CoutTo {  // --print-config writes to std::cout: into `out`, until this ends
    std::streambuf* before;
    ~CoutTo() { std::cout.rdbuf(before); }
  } cout_to{std::cout.rdbuf(out.rdbuf())};
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ConfigError& e) {
    const std::string m = describe_config_error(f.config, e.what());
    if (m.rfind(f.config + ":", 0) != 0) fuzz::fault("a config error that does not name the file: " + m);
    return std::nullopt;
  } catch (const CLI::ParseError&) {
    return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;
  }  // anything else is a fault: libFuzzer reports the uncaught exception
  if (status != 0) fuzz::fault("--print-config exited " + std::to_string(status));
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Files files;
  if (size == 0) return 0;
  const char* command = kCommands[data[0] % 3];
  fuzz::write_file(files.config, std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  const auto written = print_config(files, command);
  if (!written) return 0;
  fuzz::write_file(files.config, *written);
  const auto again = print_config(files, command);
  if (!again) fuzz::fault(std::string("--print-config's own text is refused:\n") + *written);
  if (*again != *written)
    fuzz::fault("--print-config's text read back differs:\n" + *written + "\nthen\n" + *again);
  return 0;
}
