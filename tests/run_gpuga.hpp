#pragma once
// Runs the built gpuga binary as a user would, capturing exit status, stdout and stderr apart.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "paths.hpp"

struct GpugaRun {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `args` is passed to the shell after the binary's path; `stdin_text` is fed in; `wrapper`
// (for example a `timeout` command) goes before the binary.
inline GpugaRun run_gpuga(const std::string& args, const std::string& stdin_text = "",
                          const std::string& wrapper = "") {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpuga_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  const auto in = dir / "in", out = dir / "out", err = dir / "err";
  std::ofstream(in, std::ios::binary) << stdin_text;
  const std::string cmd = "cd " + source_path("") + " && " + wrapper + " " + gpuga_binary() + " " +
                          args + " <" + in.string() + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(cmd.c_str());
  GpugaRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove_all(dir);
  return r;
}
