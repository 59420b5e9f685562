#pragma once
// CLI11's messages for a command line it cannot take, in the project's words: what was given,
// what is wrong, what was expected (docs/troubleshooting.md). main() prints them.
#include <string>

namespace gpuga {

// `cli11_message` (a CLI::ParseError's what()) for `command` ("" for none) said as gpuga says
// it, or "" where gpuga has no words of its own for it.
std::string project_words(const std::string& cli11_message, const std::string& command);

}  // namespace gpuga
