// gpuga report CSV...: per configuration and puzzle set of gpuga batch rows, the success rate
// and the median and 95th-percentile time and generations of the solved runs.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "gpuga/report.hpp"

namespace gpuga {
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  bool json = false;
};

void print_json(const std::vector<ReportGroup>& groups) {
  nlohmann::json out = nlohmann::json::array();
  // No solved run: no time or generations to take a percentile of (null, not 0).
  const auto figure = [](const ReportGroup& g, double v) { return g.solved ? nlohmann::json(v) : nlohmann::json(); };
  for (const auto& g : groups)
    out.push_back({{"config", g.config}, {"set", g.set}, {"runs", g.runs},
                   {"solved", g.solved}, {"success_rate", g.success_rate},
                   {"median_seconds", figure(g, g.median_seconds)}, {"p95_seconds", figure(g, g.p95_seconds)},
                   {"median_generations", figure(g, g.median_generations)},
                   {"p95_generations", figure(g, g.p95_generations)}});
  std::cout << out.dump(2) << '\n';
}

// A Markdown table per configuration.
void print_tables(const std::vector<ReportGroup>& groups) {
  std::string last_config;
  for (const auto& g : groups) {
    if (g.config != last_config) {
      std::cout << "\n" << g.config << "\n"
                << "| set | runs | solved | success | median s | p95 s | median gens | p95 gens |\n"
                << "|---|---|---|---|---|---|---|---|\n";
      last_config = g.config;
    }
    char figures[1600];  // room for 1e308 written in full four times; the set apart, unbounded
    if (g.solved)
      std::snprintf(figures, sizeof figures, " | %zu | %zu | %.1f%% | %.3f | %.3f | %.0f | %.0f |\n",
                    g.runs, g.solved, 100 * g.success_rate, g.median_seconds, g.p95_seconds,
                    g.median_generations, g.p95_generations);
    else  // no solved run to take a percentile of
      std::snprintf(figures, sizeof figures, " | %zu | 0 | 0.0%% | - | - | - | - |\n", g.runs);
    std::cout << "| " << g.set << figures;
  }
}

int run_report(const ReportOptions& o) {
  const auto groups = summarize_batch_csvs(o.files);  // every file read before anything is written
  if (o.json)
    print_json(groups);
  else
    print_tables(groups);
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
