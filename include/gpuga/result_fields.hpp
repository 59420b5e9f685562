#pragma once
// A finished run's fields as every output writes them: `solve --json`, the batch CSV's run
// columns and Python's gpuga.solve, under one name each. One list, result_fields(), so that a
// field added there reaches each output that writes it; the outputs add only what is their own
// (where the puzzle came from, the configuration, a batch's identifiers, Python's numpy grid).
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "gpuga/driver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {

// What the fields are read from: the run's result, its puzzle (and the alphabet the puzzle came
// in), and the backend that ran it.
struct FinishedRun {
  const Grid& puzzle;
  Alphabet alphabet;
  const RunResult& result;
  Backend backend;
};

using FieldValue = std::variant<bool, std::uint64_t, double, std::string>;

// The outputs that write a field.
enum Output : unsigned { kJson = 1, kCsv = 2, kPython = 4, kEvery = kJson | kCsv | kPython };

struct ResultField {
  const char* name;  // one name in every output: solve --json's key, the CSV's column, Result's
  unsigned outputs;  // the Output bits of those that write it
  // The CSV's column before it took `name`, still read (report, plot, gpuga.read_runs); nullptr:
  // none.
  const char* formerly;
  const char* meaning;
  FieldValue (*value)(const FinishedRun&);

  bool written_in(Output o) const { return (outputs & o) != 0; }
};

std::span<const ResultField> result_fields();

// A value as the CSV writes it: 1 or 0 for a bool, seconds to the microsecond.
std::string csv_text(const FieldValue& v);

}  // namespace gpuga
