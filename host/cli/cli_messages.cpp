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

}  // namespace gpuga
