#pragma once
// A finished run's fields as every output writes them: `solve --json`, the batch CSV's run
// columns and Python's gpuga.solve. One list, result_fields(), so that a field added there
// reaches each output that names it; the outputs add only what is their own (where the puzzle
// came from, the configuration, a batch's identifiers, Python's numpy grid).
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "gpuga/driver.hpp"
#include "gpuga/puzzle_io.hpp"

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

struct ResultField {
  const char* json;    // solve --json's key; nullptr: not written there
  const char* csv;     // the batch CSV's column (the first analysis notebooks' names); nullptr: none
  const char* python;  // gpuga.solve's Result attribute; nullptr: none
  const char* meaning;
  FieldValue (*value)(const FinishedRun&);
};

std::span<const ResultField> result_fields();

// A value as the CSV writes it: 1 or 0 for a bool, seconds to the microsecond.
std::string csv_text(const FieldValue& v);

}  // namespace gpuga
