// gpuga report CSV...: per puzzle set of gpuga batch rows, the configurations side by side on
// what varies between them (success with its interval, expected running time, percentiles over
// every run), and every two compared by named tests.
#include <cmath>
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

std::string figure(double v) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return "inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string figure(const RunPercentile& p) { return (p.at_least ? ">" : "") + figure(p.value); }

std::string value_of(const ReportGroup& g, const std::string& column) {
  for (const auto& [name, value] : g.config)
    if (name == column) return value;
  return "-";  // a CSV written before the column existed
}

// name=value over the columns that `varied` holds (or, where `same`, those it does not).
std::string config_text(const ReportGroup& g, const std::vector<std::string>& varied, bool same) {
  std::string text;
  for (const auto& [name, value] : g.config) {
    const bool in_varied = std::find(varied.begin(), varied.end(), name) != varied.end();
    if (in_varied != same) text += (text.empty() ? "" : " ") + name + "=" + value;
  }
  return text;
}

nlohmann::json percentile_json(const RunPercentile& p) {
  return p.at_least || std::isnan(p.value) ? nlohmann::json() : nlohmann::json(p.value);
}

nlohmann::json number_json(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

void print_json(const Report& report) {
  nlohmann::json groups = nlohmann::json::array(), comparisons = nlohmann::json::array();
  for (const auto& g : report.groups) {
    nlohmann::json config = nlohmann::json::object();
    for (const auto& [name, value] : g.config) config[name] = value;
    // A percentile on an unsolved run is null, with the least figure of the unsolved runs.
    groups.push_back({{"set", g.set}, {"config", config}, {"runs", g.runs}, {"solved", g.solved},
                      {"success_rate", g.success_rate},
                      {"success_interval", {g.success_interval.low, g.success_interval.high}},
                      {"ert_seconds", number_json(g.ert_seconds)},
                      {"ert_evaluations", number_json(g.ert_evaluations)},
                      {"median_seconds", percentile_json(g.median_seconds)},
                      {"p95_seconds", percentile_json(g.p95_seconds)},
                      {"median_generations", percentile_json(g.median_generations)},
                      {"median_evaluations", percentile_json(g.median_evaluations)}});
  }
  for (const auto& c : report.comparisons)
    comparisons.push_back({{"set", report.groups[c.a].set}, {"a", c.a}, {"b", c.b},
                           {"fisher_p", c.fisher_p}, {"mann_whitney_p", c.mann_whitney_p},
                           {"differ", c.differ}});
  std::cout << nlohmann::json{{"varied", report.varied}, {"groups", groups},
                              {"comparisons", comparisons}}.dump(2)
            << '\n';
}

void print_set_table(const Report& report, std::size_t first, std::size_t end) {
  std::string head = "|", rule = "|";
  for (const auto& name : report.varied) {
    head.append(" ").append(name).append(" |");
    rule.append("---|");
  }
  std::cout << "\n" << report.groups[first].set << "\n\n"
            << head << " runs | solved | success (95 % interval) | ERT s | ERT evaluations | "
            << "median s | p95 s | median generations | median evaluations |\n"
            << rule << "---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t k = first; k < end; ++k) {
    const ReportGroup& g = report.groups[k];
    std::string row = "|";
    for (const auto& name : report.varied) row.append(" ").append(value_of(g, name)).append(" |");
    char success[96];
    std::snprintf(success, sizeof success, "%.1f %% (%.1f-%.1f)", 100 * g.success_rate,
                  100 * g.success_interval.low, 100 * g.success_interval.high);
    std::cout << row << " " << g.runs << " | " << g.solved << " | " << success << " | "
              << figure(g.ert_seconds) << " | " << figure(g.ert_evaluations) << " | "
              << figure(g.median_seconds) << " | " << figure(g.p95_seconds) << " | "
              << figure(g.median_generations) << " | " << figure(g.median_evaluations) << " |\n";
  }
}

void print_comparisons(const Report& report, std::size_t first, std::size_t end) {
  std::size_t tests = 0;
  for (const auto& c : report.comparisons) tests += c.a >= first && c.a < end ? 2 : 0;
  if (tests == 0) return;
  std::cout << "\nEvery two configurations: Fisher's exact test on the solved runs, the "
               "Mann-Whitney U test on the time to solve (unsolved runs after every solved "
               "one); they differ beyond chance where a p is below 0.05 / "
            << tests << " (Bonferroni)\n\n| a | b | Fisher p | Mann-Whitney p | differ |\n|---|---|---|---|---|\n";
  for (const auto& c : report.comparisons) {
    if (c.a < first || c.a >= end) continue;
    std::cout << "| " << config_text(report.groups[c.a], report.varied, false) << " | "
              << config_text(report.groups[c.b], report.varied, false) << " | "
              << figure(c.fisher_p) << " | " << figure(c.mann_whitney_p) << " | "
              << (c.differ ? "yes" : "no") << " |\n";
  }
}

void print_tables(const Report& report) {
  if (report.groups.empty()) return;
  const std::string common = config_text(report.groups.front(), report.varied, true);
  std::cout << (report.varied.empty() ? "Configuration: " : "Every configuration: ") << common << "\n";
  for (std::size_t first = 0; first < report.groups.size();) {
    std::size_t end = first;
    while (end < report.groups.size() && report.groups[end].set == report.groups[first].set) ++end;
    print_set_table(report, first, end);
    print_comparisons(report, first, end);
    first = end;
  }
  std::cout << "\nERT: the seconds (evaluations) of every run over the solved runs. Percentiles "
               "over every run, the unsolved after every solved one: >X where one falls on an "
               "unsolved run, X the least of theirs.\n";
}

int run_report(const ReportOptions& o) {
  const Report report = summarize_batch_csvs(o.files);  // every file read before anything is written
  if (o.json)
    print_json(report);
  else
    print_tables(report);
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand(
      "report", "Per puzzle set of batch CSVs, the configurations side by side on what varies: "
                "success rate with its 95 % interval, expected running time and evaluations, "
                "percentiles over every run (unsolved counted), and every two compared by "
                "Fisher's exact and the Mann-Whitney U tests");
  cmd->add_option("files", o->files, "CSV files written by gpuga batch or sweep")
      ->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", o->json, "Write one JSON object (varied, groups, comparisons) instead of tables");
  cmd->callback([o, &exit_status] { exit_status = run_report(*o); });
}

}  // namespace gpuga
