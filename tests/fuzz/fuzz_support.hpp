#pragma once
// What the fuzz targets share: the input as a file (the readers take paths, as the command line
// gives them), and the checks on a refusal. A target that finds a fault calls fault(), which
// aborts, so that libFuzzer saves the input as a crash.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
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
// (Read by hand: <regex> took four fifths of each target's compilation under the sanitizers,
// 11 s of 14 on two cores.)
inline void expect_names_line(const std::string& message, const std::string& file, int lines) {
  const std::string rest = message.rfind(file + ":", 0) == 0 ? message.substr(file.size() + 1) : "";
  const auto digits_from = [&rest](std::size_t at) {
    std::size_t end = at;
    while (end < rest.size() && rest[end] >= '0' && rest[end] <= '9') ++end;
    return end;
  };
  const std::size_t line_end = digits_from(0);
  std::size_t at = line_end;
  if (at > 0 && at < rest.size() && rest[at] == ':' && digits_from(at + 1) > at + 1)
    at = digits_from(at + 1);  // the column
  if (line_end == 0 || rest.compare(at, 2, ": ") != 0 || rest.size() <= at + 2)
    fault("a refusal that does not name the file and a line: " + message);
  const std::string number = rest.substr(0, line_end);
  const long line = number.size() > 9 ? -1 : std::stol(number);  // past any input's lines
  if (line < 1 || line > lines)
    fault("a refusal naming line " + number + " of an input of " + std::to_string(lines) +
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
