#pragma once
// A run's checkpoint (gpuga solve --checkpoint FILE): what continues it exactly where it was, on
// either backend (Engine::snapshot is the same bytes on both), with what it belongs to, so that
// it is never used for another run: the gpuga version, the configuration, the puzzle.
//
// The file: a text line "gpuga checkpoint <format>", then the body's length and its FNV-1a
// 64-bit checksum (8 bytes each, little-endian), then the body. It is written to FILE.tmp,
// flushed to disk and renamed over FILE, so that a crash mid-write leaves the previous one.
#include <cstdint>
#include <string>

#include "gpuga/driver.hpp"

namespace gpuga {

inline constexpr std::uint32_t kCheckpointFormat = 1;

struct Checkpoint {
  std::string version;      // gpuga's (GPUGA_VERSION)
  std::string config;       // the run's configuration, seed included (one line)
  std::string puzzle;       // the grid the run searches (after propagation), as a line
  std::uint32_t puzzle_index = 0;  // solve: the place of the puzzle in its files, from 1
  RunState run;
};

// The file's bytes around a body (above): the format line, the length, the checksum.
std::string checkpoint_file_bytes(const std::string& body);

// Writes atomically (above). Throws RuntimeFailure when the disk says no.
void write_checkpoint(const std::string& path, const Checkpoint& c);

// Reads a checkpoint; InputError, naming the file, when it is not one, is of another format,
// is cut short or damaged (its checksum).
Checkpoint read_checkpoint(const std::string& path);

// Refuses (InputError, naming the file and the difference) a checkpoint of another gpuga
// version, configuration or puzzle than `expected`'s.
void check_checkpoint_is_for(const Checkpoint& c, const Checkpoint& expected, const std::string& path);

}  // namespace gpuga
