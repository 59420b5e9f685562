#include "gpuga/result_fields.hpp"

#include <cstdio>

#include "gpuga/device/rng.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {
namespace {

using F = FinishedRun;

// The order is solve --json's and Python's (the CSV's is batch_csv.cpp's layout).
const ResultField kFields[] = {
    {"size", "size", nullptr, "the puzzle's size, such as 9x9",
     [](const F& f) -> FieldValue { return size_name(f.result.best); }},
    {"puzzle", "puzzle", nullptr, "the puzzle, one line in its own alphabet",
     [](const F& f) -> FieldValue { return to_line(f.puzzle, f.alphabet); }},
    {"solved", "solved", "solved", "whether the grid is a verified solution",
     [](const F& f) -> FieldValue { return f.result.solved; }},
    {"grid", "grid", "text", "the solution, or the best grid found, one line in the puzzle's alphabet",
     [](const F& f) -> FieldValue { return to_line(f.result.best, f.alphabet); }},
    {"fitness", "final_fitness", "fitness", "the best grid's conflicts (0: solved)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.best_fitness}; }},
    {"generations", "generations_run", "generations",
     "generations run (solved: the one the solution appeared in)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.generations}; }},
    {"evaluations", "evaluations", "evaluations", "fitness evaluations, local-search moves included",
     [](const F& f) -> FieldValue { return f.result.evaluations; }},
    {"restarts", "restarts", "restarts", "island restarts",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.restarts}; }},
    {"growths", "growths", "growths", "the times its islands doubled (--grow-after)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.growths}; }},
    {"seconds", "time_seconds", "seconds", "the run's seconds",
     [](const F& f) -> FieldValue { return f.result.seconds; }},
    {"seed", "seed", "seed", "the run's seed",
     [](const F& f) -> FieldValue { return f.result.seed; }},
    {"island", nullptr, "island", "the island that solved, or held the best grid (the lowest on ties)",
     [](const F& f) -> FieldValue { return std::uint64_t{f.result.island}; }},
    {"island_seed", nullptr, nullptr, "that island's seed",
     [](const F& f) -> FieldValue { return derive_seed(f.result.seed, f.result.island); }},
    {"stop", "stop", "stop", "why the run ended",
     [](const F& f) -> FieldValue { return std::string(to_string(f.result.stop_reason)); }},
    {"backend", "backend", "backend", "the backend that ran it",
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
