#pragma once
// Errors are exceptions; only main() turns them into exit codes.
#include <stdexcept>
#include <string>

namespace gpuga {

// Bad input or usage: a message meant for the user (file, line, what was wrong, what was
// expected). main() prints it and exits with status 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Input that asks for what a search did not find within its budget (generate's rating band,
// its --unique --fill): no fault in how it was asked, so main() exits with status 1, as for a
// puzzle not solved within its limits.
class NotFoundError : public InputError {
 public:
  using InputError::InputError;
};

// A failure of the machine rather than of the input (a CUDA call, an allocation).
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gpuga

#define GPUGA_INPUT_CHECK(cond, message)                  \
  do {                                                    \
    if (!(cond)) throw ::gpuga::InputError(message);      \
  } while (0)
