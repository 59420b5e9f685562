// gpuga report CSV...: per configuration and puzzle set of gpuga batch rows, the success rate
// and the median and 95th-percentile time and generations of the solved runs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "gpuga/batch_runner.hpp"
#include "commands.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  bool json = false;
};

struct Group {
  std::size_t runs = 0;
  std::vector<double> seconds, generations;  // solved runs
};

// Nearest-rank percentile of a sorted sample.
double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * sorted.size()));
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

std::string puzzle_set(const std::string& puzzle_id) {
  return std::filesystem::path(puzzle_id.substr(0, puzzle_id.rfind('#'))).filename().string();
}

int run_report(const ReportOptions& o) {
  std::map<std::pair<std::string, std::string>, Group> groups;  // (config, set)
  for (const auto& file : o.files) {
    const auto rows = read_csv_rows(file);
    GPUGA_INPUT_CHECK(!rows.empty(), file + ": empty; expected a gpuga batch CSV");
    std::map<std::string, std::size_t> col;
    for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
    std::vector<std::string> names;  // the configuration columns this file has
    for (const auto& name : config_columns()) {
      if (!col.count(name) && added_later(name)) continue;
      GPUGA_INPUT_CHECK(col.count(name), file + ":1: no column '" + name +
                                              "'; expected a gpuga batch CSV header");
      names.push_back(name);
    }
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const auto& r = rows[i];
      GPUGA_INPUT_CHECK(r.size() == rows[0].size(),
                        file + ":" + std::to_string(i + 1) + ": " + std::to_string(r.size()) +
                            " fields; expected " + std::to_string(rows[0].size()));
      std::string config;
      for (const auto& name : names)
        config += (config.empty() ? "" : " ") + name + "=" + r[col[name]];
      Group& g = groups[{config, puzzle_set(r[col["puzzle_id"]])}];
      ++g.runs;
      if (r[col["solved"]] == "1") {
        g.seconds.push_back(std::stod(r[col["time_seconds"]]));
        g.generations.push_back(std::stod(r[col["generations_run"]]));
      }
    }
  }
  nlohmann::json out = nlohmann::json::array();
  std::string last_config;
  for (auto& [key, g] : groups) {
    std::sort(g.seconds.begin(), g.seconds.end());
    std::sort(g.generations.begin(), g.generations.end());
    const double rate = double(g.seconds.size()) / g.runs;
    if (o.json) {
      out.push_back({{"config", key.first}, {"set", key.second}, {"runs", g.runs},
                     {"solved", g.seconds.size()}, {"success_rate", rate},
                     {"median_seconds", percentile(g.seconds, 0.5)},
                     {"p95_seconds", percentile(g.seconds, 0.95)},
                     {"median_generations", percentile(g.generations, 0.5)},
                     {"p95_generations", percentile(g.generations, 0.95)}});
      continue;
    }
    if (key.first != last_config) {
      std::cout << "\n" << key.first << "\n"
                << "| set | runs | solved | success | median s | p95 s | median gens | p95 gens |\n"
                << "|---|---|---|---|---|---|---|---|\n";
      last_config = key.first;
    }
    char line[256];
    std::snprintf(line, sizeof line, "| %s | %zu | %zu | %.1f%% | %.3f | %.3f | %.0f | %.0f |\n",
                  key.second.c_str(), g.runs, g.seconds.size(), 100 * rate,
                  percentile(g.seconds, 0.5), percentile(g.seconds, 0.95),
                  percentile(g.generations, 0.5), percentile(g.generations, 0.95));
    std::cout << line;
  }
  if (o.json) std::cout << out.dump(2) << '\n';
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand(
      "report", "Per configuration and puzzle set of batch CSVs: success rate, median and 95th "
                "percentile time and generations of the solved runs");
  cmd->add_option("files", o->files, "CSV files written by gpuga batch or sweep")
      ->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", o->json, "Write one JSON array instead of tables");
  cmd->callback([o, &exit_status] { exit_status = run_report(*o); });
}

}  // namespace gpuga
