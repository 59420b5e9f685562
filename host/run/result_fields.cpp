#include "gpuga/result_fields.hpp"

#include <cstdio>

#include "gpuga/device/rng.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {
namespace {

using F = FinishedRun;

// The order is solve --json's and Python's (the CSV's is batch_csv.cpp's layout).
const ResultField kFields[] = {
    {"size", kJson | kCsv, nullptr, "the puzzle's size, such as 9x9",
     [](const F& f) -> FieldValue { return size_name(f.result.best); }},
    {"puzzle", kJson | kCsv, nullptr, "the puzzle, one line in its own alphabet",
     [](const F& f) -> FieldValue { return to_line(f.puzzle, f.alphabet); }},
    {"solved", kEvery, nullptr, "whether the grid is a verified solution",
     [](const F& f) -> FieldValue { return f.result.solved; }},
    {"grid", kEvery, nullptr, "the solution, or the best grid found, one line in the puzzle's "
     "alphabet (Python: its rows as numpy, the line as `text`)",
     [](const F& f) -> FieldValue { return to_line(f.result.best, f.alphabet); }},
    {"best_fitness", kEvery, "final_fitness", "the best grid's conflicts (0: solved)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.best_fitness}; }},
    {"generations", kEvery, "generations_run",
     "generations run (solved: the one the solution appeared in)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.generations}; }},
    {"evaluations", kEvery, nullptr, "fitness evaluations, local-search moves included",
     [](const F& f) -> FieldValue { return f.result.evaluations; }},
    {"restarts", kEvery, nullptr, "island restarts",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.restarts}; }},
    {"growths", kEvery, nullptr, "the times its islands doubled (--grow-after)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.growths}; }},
    {"seconds", kEvery, "time_seconds", "the run's seconds",
     [](const F& f) -> FieldValue { return f.result.seconds; }},
    {"seed", kEvery, nullptr, "the run's seed",
     [](const F& f) -> FieldValue { return f.result.seed; }},
    {"island", kJson | kPython, nullptr,
     "the island that solved, or held the best grid (the lowest on ties)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.island}; }},
    {"island_seed", kJson, nullptr, "that island's seed",
     [](const F& f) -> FieldValue { return derive_seed(f.result.seed, f.result.island); }},
    {"stop", kEvery, nullptr, "why the run ended",
     [](const F& f) -> FieldValue { return std::string(to_string(f.result.stop_reason)); }},
    {"backend", kEvery, nullptr, "the backend that ran it",
     [](const F& f) -> FieldValue { return std::string(to_string(f.backend)); }},
};

}  // namespace

std::span<const ResultField> result_fields() { return kFields; }

std::string csv_text(const FieldValue& v) {
  struct Text {
    std::string operator()(bool b) const { return b ? "1" : "0"; }
    std::string operator()(std::uint64_t n) const { return std::to_string(n); }
    std::string operator()(double x) const {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6f", x);
      return buf;
    }
    std::string operator()(const std::string& s) const { return s; }
  };
  return std::visit(Text{}, v);
}

}  // namespace gpuga
