#pragma once
// Where tests find the sources (puzzles) and the gpuga binary: the paths of the build, unless a
// bundle run on another machine (bench/gpu-check.sh run) says where it unpacked them, through
// GPUGA_TEST_SOURCE_DIR and GPUGA_TEST_BINARY.
#include <cstddef>
#include <cstdlib>
#include <string>

#include "gpuga/sudoku/puzzle_io.hpp"

inline std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

// `relative` (for example "puzzles/x.txt") under the source tree.
inline std::string source_path(const std::string& relative) {
  return env_or("GPUGA_TEST_SOURCE_DIR", GPUGA_SOURCE_DIR) + "/" + relative;
}

inline std::string gpuga_binary() { return env_or("GPUGA_TEST_BINARY", GPUGA_BINARY); }

// Puzzle `index` of a file of the corpus (puzzles/FILE).
inline gpuga::Grid corpus_puzzle(const std::string& file, std::size_t index = 0) {
  return gpuga::read_puzzle_file(source_path("puzzles/" + file)).at(index).grid;
}
