#include "gpuga/report.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct RecordedFigures {
  bool solved;
  double seconds, generations, evaluations;  // evaluations NaN where the CSV has none
};

using Config = std::vector<std::pair<std::string, std::string>>;
using GroupKey = std::pair<std::string, Config>;  // (set, configuration)

std::string puzzle_set(const std::string& puzzle_id) {
  return std::filesystem::path(puzzle_id.substr(0, puzzle_id.rfind('#'))).filename().string();
}

// One file's header and where its rows are, for messages.
struct Table {
  const std::string& file;
  int header_line;
  std::map<std::string, std::size_t> col;  // by the columns' names now

  std::size_t column(const std::string& name) const {
    const auto it = col.find(name);
    GPUGA_INPUT_CHECK(it != col.end(),
                      file + ":" + std::to_string(header_line) + ": no column '" + name +
                          "'; expected a gpuga batch CSV header");
    return it->second;
  }
  // A finite number >= 0 in column `name` (at `c`) of the row on line `line`.
  double number(const std::vector<std::string>& row, int line, std::size_t c,
                const std::string& name) const {
    const std::string& text = row[c];
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    GPUGA_INPUT_CHECK(!text.empty() && end == text.c_str() + text.size() && errno == 0 &&
                          std::isfinite(v) && v >= 0,
                      file + ":" + std::to_string(line) + ": " + name + " is '" + text +
                          "'; expected a number >= 0");
    return v;
  }
};

void add_file(const std::string& file, std::map<GroupKey, std::vector<RecordedFigures>>& groups) {
  const auto [rows, lines, complete] = read_csv(file);
  GPUGA_INPUT_CHECK(!rows.empty(), file + ": empty; expected a gpuga batch CSV");
  Table t{file, lines[0], {}};
  for (std::size_t c = 0; c < rows[0].size(); ++c)
    GPUGA_INPUT_CHECK(t.col.emplace(current_column(rows[0][c]), c).second,
                      file + ":" + std::to_string(t.header_line) + ": column '" + rows[0][c] +
                          "' twice; expected a gpuga batch CSV header");
  std::vector<std::pair<std::string, std::size_t>> config;  // the configuration columns it has
  for (const auto& name : config_columns()) {
    if (!t.col.count(name) && added_later(name)) continue;
    config.emplace_back(name, t.column(name));
  }
  const std::size_t id = t.column("puzzle_id"), solved = t.column("solved"),
                    seconds = t.column("seconds"), generations = t.column("generations");
  const bool counted = t.col.count("evaluations") > 0;  // from the first layout on, but not required
  const std::size_t evaluations = counted ? t.col.at("evaluations") : 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const int line = lines[i];
    GPUGA_INPUT_CHECK(r.size() == rows[0].size(),
                      file + ":" + std::to_string(line) + ": " + std::to_string(r.size()) +
                          " fields; expected " + std::to_string(rows[0].size()));
    GPUGA_INPUT_CHECK(r[solved] == "0" || r[solved] == "1",
                      file + ":" + std::to_string(line) + ": solved is '" + r[solved] +
                          "'; expected 0 or 1");
    Config values;
    for (const auto& [name, c] : config) values.emplace_back(name, r[c]);
    groups[{puzzle_set(r[id]), values}].push_back(
        {r[solved] == "1", t.number(r, line, seconds, "seconds"),
         t.number(r, line, generations, "generations"),
         counted ? t.number(r, line, evaluations, "evaluations") : std::nan("")});
  }
}

// Percentile q of one figure over every run, the unsolved after every solved run.
RunPercentile percentile_of(const std::vector<RecordedFigures>& runs, double RecordedFigures::*figure, double q) {
  std::vector<std::pair<bool, double>> figures;
  for (const RecordedFigures& r : runs) figures.emplace_back(r.solved, r.*figure);
  return percentile_over_runs(figures, q);
}

ReportGroup summarize(const GroupKey& key, const std::vector<RecordedFigures>& runs) {
  ReportGroup g;
  g.set = key.first;
  g.config = key.second;
  g.runs = runs.size();
  double seconds = 0, evaluations = 0;
  for (const RecordedFigures& r : runs) {
    g.solved += r.solved;
    seconds += r.seconds;
    evaluations += r.evaluations;
    g.seconds_to_solve.push_back(r.solved ? r.seconds : kInfinity);
  }
  g.success_rate = double(g.solved) / double(g.runs);
  g.success_interval = wilson_interval(g.solved, g.runs);
  g.ert_seconds = g.solved ? seconds / double(g.solved) : kInfinity;
  g.ert_evaluations = g.solved ? evaluations / double(g.solved) : (std::isnan(evaluations) ? evaluations : kInfinity);
  g.median_seconds = percentile_of(runs, &RecordedFigures::seconds, 0.5);
  g.p95_seconds = percentile_of(runs, &RecordedFigures::seconds, 0.95);
  g.median_generations = percentile_of(runs, &RecordedFigures::generations, 0.5);
  g.median_evaluations = percentile_of(runs, &RecordedFigures::evaluations, 0.5);
  return g;
}

// The configuration columns whose values differ between the groups, or that some lack.
std::vector<std::string> varied_columns(const std::vector<ReportGroup>& groups) {
  std::vector<std::string> varied;
  for (const std::string& name : config_columns()) {
    std::set<std::optional<std::string>> values;  // none: a group without the column
    for (const ReportGroup& g : groups) {
      const auto it = std::find_if(g.config.begin(), g.config.end(),
                                   [&](const auto& entry) { return entry.first == name; });
      values.insert(it == g.config.end() ? std::nullopt : std::optional(it->second));
    }
    if (values.size() > 1) varied.push_back(name);
  }
  return varied;
}

// Every two configurations on a set, their tests held to 0.05 over all the set's (Bonferroni).
std::vector<ReportComparison> compare(const std::vector<ReportGroup>& groups) {
  std::vector<ReportComparison> out;
  for (std::size_t first = 0; first < groups.size();) {
    std::size_t end = first;
    while (end < groups.size() && groups[end].set == groups[first].set) ++end;
    const std::size_t before = out.size();
    for (std::size_t a = first; a < end; ++a)
      for (std::size_t b = a + 1; b < end; ++b)
        out.push_back({a, b,
                       fisher_exact_p(groups[a].solved, groups[a].runs, groups[b].solved, groups[b].runs),
                       mann_whitney_p(groups[a].seconds_to_solve, groups[b].seconds_to_solve)});
    const double threshold = 0.05 / (2.0 * double(out.size() - before));
    for (std::size_t k = before; k < out.size(); ++k)
      out[k].differ = std::min(out[k].fisher_p, out[k].mann_whitney_p) < threshold;
    first = end;
  }
  return out;
}

}  // namespace

Report summarize_batch_csvs(const std::vector<std::string>& files) {
  std::map<GroupKey, std::vector<RecordedFigures>> groups;
  for (const auto& file : files) add_file(file, groups);
  Report report;
  for (const auto& [key, runs] : groups) report.groups.push_back(summarize(key, runs));
  report.varied = varied_columns(report.groups);
  report.comparisons = compare(report.groups);
  return report;
}

}  // namespace gpuga
