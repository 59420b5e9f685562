#include "gpuga/batch_csv.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <stdexcept>

#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/result_fields.hpp"

namespace gpuga {
namespace {

// The row's layout: the run's own columns by name, the configuration's where named (the first
// three, as the first analysis notebooks read them), and the rest of the configuration's at
// kTheOtherSettings, in the table's order (RunSetting::csv.position): a new option lands there
// without an edit here. Columns are only ever added, at the end of a group, so that notebooks
// that read them by place keep working; a column renamed keeps its place, and its former name
// still reads (current_column).
constexpr const char* kTheOtherSettings = "*";
constexpr const char* kLayout[] = {
    "puzzle_id", "solved", "best_fitness", "seconds", "generations",
    "pop", "mutation_rate", "restart_after",
    "puzzle", "run", "seed", "restarts", "evaluations", "growths",
    kTheOtherSettings,
    "backend", "device", "ranks", "gpuga_version", "grid", "stop", "size", "config_id",
};

std::vector<std::string> lay_out() {
  std::vector<std::string> columns;
  for (const std::string entry : kLayout) {
    if (entry != kTheOtherSettings) {
      columns.push_back(entry);
      continue;
    }
    for (const RunSetting* s : csv_settings())
      if (std::find(std::begin(kLayout), std::end(kLayout), s->csv.name) == std::end(kLayout))
        columns.push_back(s->csv.name);
  }
  return columns;
}

}  // namespace

const std::vector<std::string>& batch_columns() {
  static const std::vector<std::string> columns = lay_out();
  return columns;
}

const std::vector<std::string>& config_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> names;
    for (const RunSetting* s : csv_settings()) names.push_back(s->csv.name);
    return names;
  }();
  return columns;
}

const std::map<std::string, std::string>& former_columns() {
  static const std::map<std::string, std::string> names = [] {
    std::map<std::string, std::string> out;
    for (const RunSetting* s : csv_settings())
      if (!s->csv.formerly.empty()) out[s->csv.formerly] = s->csv.name;
    for (const ResultField& f : result_fields())
      if (f.formerly) out[f.formerly] = f.name;
    return out;
  }();
  return names;
}

std::string current_column(const std::string& name) {
  const auto it = former_columns().find(name);
  return it == former_columns().end() ? name : it->second;
}

bool added_later(const std::string& column) {
  for (const RunSetting* s : csv_settings())
    if (s->csv.name == column) return s->csv.since > 1;
  return false;
}

std::vector<std::string> config_values(const RunConfig& config) {
  std::vector<std::string> out;
  for (const RunSetting* s : csv_settings())
    out.push_back(csv_text(s->csv_value ? s->csv_value(config) : s->value(config)));
  return out;
}

std::string config_id(const RunConfig& config) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : csv_line(config_values(config))) h = (h ^ ch) * 0x100000001b3ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> batch_row(const RunFields& run, const RunConfig& config) {
  const auto& settings = config_columns();
  const auto values = config_values(config);  // in config_columns() order
  std::vector<std::string> row;
  for (const std::string& column : batch_columns()) {
    const auto setting = std::find(settings.begin(), settings.end(), column);
    if (setting != settings.end()) {
      row.push_back(values[setting - settings.begin()]);
      continue;
    }
    const auto it = run.find(column);
    if (it == run.end()) throw std::logic_error("batch CSV row without " + column);
    row.push_back(it->second);
  }
  return row;
}

std::map<RecordedRun, std::vector<int>> recorded_runs(const std::string& csv) {
  std::map<RecordedRun, std::vector<int>> done;
  const auto [rows, lines, complete] = read_csv(csv);
  if (rows.empty()) return done;
  if (rows[0] != batch_columns()) {
    // Name what differs: an older batch's CSV lacks the columns added since (report reads it;
    // --resume would add rows of another layout to it).
    std::vector<std::string> missing, unknown;
    for (const auto& name : batch_columns())
      if (std::find(rows[0].begin(), rows[0].end(), name) == rows[0].end()) missing.push_back(name);
    for (const auto& name : rows[0])
      if (std::find(batch_columns().begin(), batch_columns().end(), name) == batch_columns().end())
        unknown.push_back(name);
    const auto listed = [](const std::vector<std::string>& names) {
      std::string text;
      for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
      return text;
    };
    std::string what = !missing.empty() ? "it lacks the column(s) " + listed(missing) : "";
    if (!unknown.empty()) what += (what.empty() ? "" : ", and ") + ("has column(s) batch does not write: " + listed(unknown));
    if (what.empty()) what = "its columns are in another order";
    throw InputError(csv + ":" + std::to_string(lines[0]) + ": the header is not this gpuga batch's: " + what +
                     "; expected a CSV this version's batch wrote (an older one still reads with "
                     "gpuga report; run the batch afresh into a new file)");
  }
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    GPUGA_INPUT_CHECK(rows[i].size() == rows[0].size(),
                      csv + ":" + std::to_string(lines[i]) + ": " + std::to_string(rows[i].size()) +
                          " fields; expected " + std::to_string(rows[0].size()));
    std::vector<std::string> config;
    for (const auto& name : config_columns()) config.push_back(rows[i][col.at(name)]);
    done[{rows[i][col.at("puzzle_id")], rows[i][col.at("puzzle")], rows[i][col.at("run")],
          csv_line(config)}].push_back(lines[i]);
  }
  return done;
}

std::string puzzle_id(const Puzzle& p) { return p.file + "#" + std::to_string(p.index); }

const std::vector<std::string>& trace_columns() {
  // Python's history has the same names, the run's identifiers apart; columns only ever added.
  static const std::vector<std::string> columns{
      "config_id", "puzzle_id", "run",         "seed",    "generation", "best",
      "mean",      "worst",     "diversity",   "restarts", "elapsed",   "temperature",
      "best_so_far", "growths", "evaluations"};
  return columns;
}

std::vector<std::string> trace_row(const std::string& puzzle_id, std::uint32_t run, std::uint64_t seed,
                                   const GenerationReport& r, const RunConfig& config,
                                   const std::string& config_id) {
  const auto fixed = [](double v, const char* format) {
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return std::string(text);
  };
  return {config_id, puzzle_id, std::to_string(run), std::to_string(seed),
          std::to_string(r.generation), std::to_string(r.summary.best),
          fixed(r.summary.mean, "%.3f"), std::to_string(r.summary.worst),
          fixed(r.summary.diversity, "%.2f"), std::to_string(r.restarts), fixed(r.elapsed, "%.4f"),
          config.engine.ga.algorithm == Algorithm::Sa ? fixed(r.summary.temperature, "%.4f") : "",
          std::to_string(r.best_so_far), std::to_string(r.growths), std::to_string(r.evaluations)};
}

void check_trace_folder(const std::string& folder) {
  if (folder.empty()) return;
  std::error_code made, ignored;
  std::filesystem::create_directories(folder, made);
  GPUGA_INPUT_CHECK(std::filesystem::is_directory(folder, ignored),
                    folder + ": cannot be made a folder (" +
                        (made ? made.message() : std::string("a file of that name")) +
                        "); expected a folder for --trace");
  check_output_file(folder + "/traces.csv", "--trace");
}

}  // namespace gpuga
