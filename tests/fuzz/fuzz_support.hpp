#pragma once
// What the fuzz targets share: the input as a file (the readers take paths, as the command line
// gives them), and the checks on a refusal. A target that finds a fault calls fault(), which
// aborts, so that libFuzzer saves the input as a crash.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <regex>
#include <string>

#include "gpuga/errors.hpp"
#include "temp_files.hpp"  // file_bytes, set_file_bytes

namespace gpuga::fuzz {

[[noreturn]] inline void fault(const std::string& what) {
  std::fprintf(stderr, "fuzz target: %s\n", what.c_str());
  std::abort();
}

// A file of this process's for the input (or anything else the target writes), named by `what`.
inline std::string scratch_file(const std::string& what) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/gpuga-fuzz-" + std::to_string(::getpid()) +
         "-" + what;
}

inline std::string write_file(const std::string& path, const std::string& bytes) {
  set_file_bytes(path, bytes);
  return path;
}

// A refusal must say where: "FILE:LINE[:COLUMN]: what", LINE within the input's `lines`.
inline void expect_names_line(const std::string& message, const std::string& file, int lines) {
  static const std::regex where(R"(^([0-9]+)(:[0-9]+)?: .+)", std::regex::extended);
  std::smatch m;
  const std::string rest = message.rfind(file + ":", 0) == 0 ? message.substr(file.size() + 1) : "";
  if (!std::regex_match(rest, m, where))
    fault("a refusal that does not name the file and a line: " + message);
  const long line = std::stol(m[1].str());
  if (line < 1 || line > lines)
    fault("a refusal naming line " + m[1].str() + " of an input of " + std::to_string(lines) +
          " line(s): " + message);
}

// The lines of `text` as a reader numbers them (a last line without its line break counts).
inline int line_count(const std::string& text) {
  int n = 0;
  for (char ch : text) n += ch == '\n';
  return n + (!text.empty() && text.back() != '\n');
}

// Runs `read`: true when it returns. Its InputError must name `file` and a line of `text`,
// unless it refuses the whole file with one of `whole_file` ("FILE: empty;" ...).
template <class Read>
bool read_or_refusal(Read&& read, const std::string& file, const std::string& text,
                     std::initializer_list<const char*> whole_file = {}) {
  try {
    read();
    return true;
  } catch (const InputError& e) {
    const std::string m = e.what();
    for (const char* what : whole_file)
      if (m.rfind(file + ": " + what, 0) == 0) return false;
    expect_names_line(m, file, line_count(text));
    return false;
  }
}

}  // namespace gpuga::fuzz
