#pragma once
// CLI11's messages for a command line it cannot take, in the project's words: what was given,
// what is wrong, what was expected (docs/troubleshooting.md). main() prints them.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace gpuga {

// `cli11_message` (a CLI::ParseError's what()) for `command` ("" for none) said as gpuga says
// it, or "" where gpuga has no words of its own for it.
std::string project_words(const std::string& cli11_message, const std::string& command);

// What CLI11 would misread on the command line `args` (in order, after the program's name), said
// first: an option its command does not have (CLI11 takes its value for a puzzle file), one whose
// value is missing before the next option (the option after it taken as its value), a --config
// with no file. "" where none.
std::string argument_problem(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace gpuga
