#pragma once
// Output files checked before work starts: a run that cannot write its results is refused at
// once, naming the path, rather than after minutes of work.
#include <string>

namespace gpuga {

// InputError (exit 2) unless a file can be written at `path`: its folder exists, it is not a
// folder itself, and a file can be created there (or, where it exists, written). `what` names
// the output in the message ("the checkpoint", "the CSV"). Leaves nothing behind.
void check_output_file(const std::string& path, const std::string& what);

}  // namespace gpuga
