#pragma once
// Output files checked before work starts: a run that cannot write its results is refused at
// once, naming the path, rather than after minutes of work.
#include <string>

namespace gpuga {

// InputError (exit 2) unless a file can be written at `path`: its folder exists, it is not a
// folder itself, and a file can be created there (or, where it exists, written). `what` names
// the output in the message ("the checkpoint", "the CSV"). Leaves nothing behind.
void check_output_file(const std::string& path, const std::string& what);

// Writes `text` as the whole of the file at `path`: a regular file (or a new one) through
// PATH.partial renamed over it, so that a reader never sees half of it and a failed write keeps
// the file before; anything else (a pipe, a device) in place. RuntimeFailure (exit 3) naming
// `what`, the path and the reason when a write fails.
void write_whole_file(const std::string& path, const std::string& text, const std::string& what);

// The reason the last write failed, for a message: strerror(errno), or "an earlier write
// failed" where errno no longer says (a buffered stream's error found at its flush).
std::string write_failure_reason();

}  // namespace gpuga
