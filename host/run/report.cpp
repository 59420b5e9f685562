#include "gpuga/report.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

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

// One file's header and where its rows are, for messages.
struct Table {
  const std::string& file;
  int header_line;
  std::map<std::string, std::size_t> col;

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

void add_file(const std::string& file, std::map<std::pair<std::string, std::string>, Group>& groups) {
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
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const int line = lines[i];
    GPUGA_INPUT_CHECK(r.size() == rows[0].size(),
                      file + ":" + std::to_string(line) + ": " + std::to_string(r.size()) +
                          " fields; expected " + std::to_string(rows[0].size()));
    GPUGA_INPUT_CHECK(r[solved] == "0" || r[solved] == "1",
                      file + ":" + std::to_string(line) + ": solved is '" + r[solved] +
                          "'; expected 0 or 1");
    std::string key;
    for (const auto& [name, c] : config) key += (key.empty() ? "" : " ") + name + "=" + r[c];
    Group& g = groups[{key, puzzle_set(r[id])}];
    ++g.runs;
    if (r[solved] == "1") {
      g.seconds.push_back(t.number(r, line, seconds, "seconds"));
      g.generations.push_back(t.number(r, line, generations, "generations"));
    }
  }
}

}  // namespace

std::vector<ReportGroup> summarize_batch_csvs(const std::vector<std::string>& files) {
  std::map<std::pair<std::string, std::string>, Group> groups;  // (config, set)
  for (const auto& file : files) add_file(file, groups);
  std::vector<ReportGroup> out;
  for (auto& [key, g] : groups) {
    std::sort(g.seconds.begin(), g.seconds.end());
    std::sort(g.generations.begin(), g.generations.end());
    out.push_back({key.first, key.second, g.runs, g.seconds.size(),
                   double(g.seconds.size()) / g.runs, percentile(g.seconds, 0.5),
                   percentile(g.seconds, 0.95), percentile(g.generations, 0.5),
                   percentile(g.generations, 0.95)});
  }
  return out;
}

}  // namespace gpuga
