#include "config_file.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "gpuga/sudoku/text_marks.hpp"

namespace gpuga {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Line `number` of a file without the byte-order mark the first may start with.
std::string without_mark(const std::string& line, int number) {
  return number == 1 && starts_with_utf8_mark(line) ? line.substr(kUtf8Mark.size()) : line;
}

}  // namespace

std::vector<CLI::ConfigItem> ConfigToml::from_config(std::istream& input) const {
  char mark[3] = {};
  input.read(mark, 3);
  if (input.gcount() == 3 && starts_with_utf8_mark(std::string_view(mark, 3))) return CLI::ConfigBase::from_config(input);
  input.clear();
  input.seekg(0);
  return CLI::ConfigBase::from_config(input);
}

std::vector<std::string> config_first(const std::vector<std::string>& args) {
  std::vector<std::string> configs, rest;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k] == "--") {  // what follows is positional
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(k), args.end());
      break;
    }
    if (args[k] == "--config" && k + 1 < args.size()) {
      configs.push_back(args[k]);
      configs.push_back(args[++k]);
    } else if (args[k].rfind("--config=", 0) == 0) {
      configs.push_back(args[k]);
    } else {
      rest.push_back(args[k]);
    }
  }
  configs.insert(configs.end(), rest.begin(), rest.end());
  return configs;
}

std::string config_file_problem(const std::string& file) {
  const std::string expected = "; expected a TOML file of options (gpuga COMMAND --print-config "
                               "writes one)";
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) return file + ": no such file" + expected;
  if (std::filesystem::is_directory(status)) return file + ": is a folder" + expected;
  if (!std::filesystem::is_regular_file(status)) return file + ": not a regular file" + expected;
  std::ifstream in(file, std::ios::binary);
  if (!in) return file + ": cannot be read" + expected;
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (starts_with_utf16_mark(head))
    return file + ": UTF-16 text (its byte-order mark says so); expected UTF-8 or ASCII, as "
                  "--print-config writes it";
  if (head.find('\0') != std::string::npos) return file + ": not a text file (it holds NUL bytes)" + expected;
  // A line that is neither a comment, a [section] nor key=value (an unclosed "[5"): CLI11 would
  // take it as a section of that name and pass over it.
  in.clear();
  in.seekg(0);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trimmed(without_mark(line, number));
    if (text.empty() || text[0] == '#' || text[0] == ';' || text.find('=') != std::string::npos) continue;
    if (text.front() == '[' && text.back() == ']') continue;
    return file + ":" + std::to_string(number) + ": '" + text +
           "' is neither a [section] nor a key=value line" + expected;
  }
  return "";
}

int config_line_of(const std::string& file, const std::string& dotted_key, int occurrence) {
  std::ifstream in(file);
  std::string line, section;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trimmed(without_mark(line, number));
    if (text.empty() || text[0] == '#' || text[0] == ';') continue;
    if (text.front() == '[' && text.back() == ']') {
      section = trimmed(text.substr(1, text.size() - 2));
      continue;
    }
    const std::string key = trimmed(text.substr(0, text.find('=')));
    if ((section.empty() ? key : section + "." + key) == dotted_key && --occurrence == 0) return number;
  }
  return 0;
}

std::string describe_config_error(const std::string& file, const std::string& cli11_message) {
  const std::string prefix = "INI was not able to parse ";
  if (cli11_message.rfind(prefix, 0) != 0) return file + ": " + cli11_message;
  const std::string key = cli11_message.substr(prefix.size());
  const int line = config_line_of(file, key);
  std::string where = file;
  if (line) where += ':' + std::to_string(line);
  return where + ": unknown key '" + key +
         "'; expected an option of the command, as `gpuga COMMAND --print-config` writes them";
}

std::string config_value_place(const std::string& file, const std::string& command,
                               const std::vector<std::string>& args,
                               const std::string& cli11_message) {
  if (file.empty() || command.empty() || cli11_message.rfind("--", 0) != 0) return "";
  const std::string name = cli11_message.substr(2, cli11_message.find(':') - 2);
  for (const auto& a : args)
    if (a == "--" + name || a.rfind("--" + name + "=", 0) == 0) return "";
  // An option set twice (CLI11: "At Most 1 required"): the line that sets it again.
  const bool repeated = cli11_message.find(": At Most 1 required") != std::string::npos;
  const int line = config_line_of(file, command + "." + name, repeated ? 2 : 1);
  return line ? file + ":" + std::to_string(line) : "";
}

std::string config_value_text(const std::string& file, int line) {
  std::ifstream in(file);
  std::string text;
  for (int number = 1; std::getline(in, text); ++number)
    if (number == line) {
      const auto eq = text.find('=');
      return eq == std::string::npos ? "" : trimmed(text.substr(eq + 1));
    }
  return "";
}

}  // namespace gpuga
