#pragma once
// Batches of runs: every chosen puzzle --runs times for each GA configuration, runs sharing the
// engine's run slots, one CSV row per run flushed as it ends, optional per-generation traces.
// gpuga batch runs one configuration, gpuga sweep many.
#include <string>
#include <vector>

#include "gpuga/run_config.hpp"

namespace gpuga {

struct BatchSetup {
  std::vector<std::string> files;
  std::uint32_t runs = 1;
  std::uint32_t sample = 0;      // 0: every puzzle
  std::uint32_t concurrent = 0;  // 0: as many as fit well
  std::string csv;
  bool resume = false;
  std::string trace_dir;         // empty: no traces
  std::uint32_t trace_every = 1;
};

// The CSV's columns: the first ones as existing analysis notebooks expect them, then the rest
// of each run and every option that shapes it (the columns that make its configuration).
const std::vector<std::string>& batch_columns();
const std::vector<std::string>& config_columns();
// The configuration columns added with islands and with sa/hc: a CSV written before them has
// one population per run (island size = population_size, no migration) and the GA.
bool added_later(const std::string& column);

// Runs the batch for each configuration (their seeds already drawn). Returns whether every run
// solved its puzzle (and none was interrupted).
bool run_batches(const BatchSetup& setup, const std::vector<RunConfig>& configs);

}  // namespace gpuga
