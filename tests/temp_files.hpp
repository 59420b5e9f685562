#pragma once
// The files tests write (CSVs, configs, reports): in one directory per test process under the
// system's temporary directory, removed when the process ends, so that the suite leaves nothing
// behind. ctest runs every test in its own process, so the process id keeps parallel tests apart.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

inline std::filesystem::path test_file(const std::string& name) {
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("gpuga_tests_" + std::to_string(::getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path / name;
}

// A file's bytes, and a file made of `bytes` (replacing it).
inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline void set_file_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}
