#include "cli_messages.hpp"

#include <regex>

namespace gpuga {

std::string project_words(const std::string& cli11_message, const std::string& command) {
  const std::string help = command.empty() ? "gpuga --help" : "gpuga " + command + " --help";
  const std::string of = command.empty() ? "gpuga" : "gpuga " + command;
  std::smatch m;
  const auto is = [&](const char* pattern) {
    return std::regex_match(cli11_message, m, std::regex(pattern));
  };
  if (is("(.+): At Most 1 required but received ([0-9]+)"))
    return m.str(1) + " given " + m.str(2) + " times; expected it once";
  if (is("(.+): [0-9]+ required .* missing"))
    return m.str(1) + ": no value given; expected one (" + help + " says what it takes)";
  if (is("files is required"))
    return "no puzzle file given; expected one or more puzzle files, or - for standard input";
  if (is("(\\S+) is required")) return m.str(1) + " not given; expected it (" + help + ")";
  if (is("The following arguments? (?:was|were) not expected: (.+)"))
    return "'" + m.str(1) + "' is not an option or argument of " + of + "; expected those " + help +
           " lists";
  if (is("Could not convert: (\\S+) = (.*)"))
    return m.str(1) + ": '" + m.str(2) + "' is not a value it takes; expected one " + help +
           " names";
  // A positional's name ("files") says nothing a user typed.
  const auto file_for = [&] { return m.str(1) == "files" ? "a file" : "a file for " + m.str(1); };
  if (is("(\\S+): File is actually a directory: (.+)"))
    return m.str(2) + ": is a folder; expected " + file_for();
  if (is("(\\S+): File does not exist: (.+)"))
    return m.str(2) + ": no such file; expected " + file_for();
  if (is("files: (.+)")) return m.str(1);  // the puzzle files' own message, which names the file
  return "";
}

namespace {

// Options of `cmd` whose names begin as `given` does, or that it begins with: "--pop" for
// "--popsize". "" where none.
std::string near_names(const CLI::App& cmd, const std::string& given) {
  std::string near;
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& name : opt->get_lnames()) {
      const std::string option = "--" + name;
      const std::size_t common = std::min(option.size(), given.size());
      if (common > 3 && option.compare(0, common, given, 0, common) == 0)
        near += (near.empty() ? "" : ", ") + option;
    }
  }
  return near;
}

}  // namespace

std::string argument_problem(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* cmd = nullptr;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg == "--") break;  // what follows is positional
    if (arg == "--config") {
      if (k + 1 == args.size() || args[k + 1].rfind("--", 0) == 0)
        return "--config: no file given; expected --config FILE, a TOML file of options";
      ++k;
      continue;
    }
    if (!cmd) {
      if (arg.rfind("-", 0) != 0)
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
          if (sub->get_name() == arg) cmd = sub;
      continue;
    }
    if (cmd->get_allow_extras()) return "";  // its arguments are another program's (plot)
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) continue;
    const std::string name = arg.substr(0, arg.find('='));
    const CLI::Option* opt = cmd->get_option_no_throw(name);
    const std::string of = "gpuga " + cmd->get_name();
    if (!opt) {
      const std::string near = near_names(*cmd, name);
      return "'" + name + "' is not an option of " + of + (near.empty() ? "" : " (" + near + "?)") +
             "; expected those " + of + " --help lists";
    }
    if (name != arg || opt->get_expected_min() == 0) continue;
    if (k + 1 == args.size() || (args[k + 1].rfind("--", 0) == 0 && args[k + 1].size() > 2))
      return name + ": no value given" +
             (k + 1 == args.size() ? std::string() : " (" + args[k + 1] + " follows it)") +
             "; expected one (" + of + " --help says what it takes)";
    ++k;
  }
  return "";
}

}  // namespace gpuga
