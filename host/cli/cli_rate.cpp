// gpuga rate FILE... [--runs R] [--json] [--runs-csv FILE] [run options]: how hard each puzzle is
// for the engine, one row a puzzle (gpuga/rate.hpp says what each column holds).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <type_traits>
#include <variant>
#include <nlohmann/json.hpp>

#include "batch_progress.hpp"
#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/rate.hpp"

namespace gpuga {
namespace {

struct RateOptions {
  RunOptions run;
  bool print_config = false;
  RateSetup setup;
  bool json = false;
};

nlohmann::json rating_json(const PuzzleRating& r) {
  nlohmann::json out;
  for (const auto& field : rating_fields(r)) {  // (clang 14 captures no structured binding)
    nlohmann::json& at = out[field.first];
    std::visit([&at](const auto& v) {
      if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) at = nullptr;
      else at = v;
    }, field.second);
  }
  return out;
}

int run_rate(CLI::App* cmd, RateOptions& o) {
  install_interrupt_handler();
  draw_seed(o.run, cmd);
  if (print_config_if_asked(o.print_config, cmd)) return kExitOk;
  StderrBatchReporter reporter("rate");
  const std::vector<PuzzleRating> ratings = rate(o.setup, o.run, &reporter);
  if (g_interrupted.load()) {
    std::error_code ec;  // no --runs-csv yet: stopped before the runs began
    const bool kept = !o.setup.runs_csv.empty() && std::filesystem::exists(o.setup.runs_csv, ec);
    std::fprintf(stderr, "rate: interrupted: no rating written, since a rating from part of a "
                 "puzzle's runs would mislead%s\n",
                 kept ? ("; " + o.setup.runs_csv + " holds every finished run").c_str() : "");
    return kExitInterrupted;
  }
  for (const PuzzleRating& r : ratings)
    if (r.solutions != 1)
      std::fprintf(stderr, "rate: %s:%d: puzzle %d has several solutions: not rated (the ladder's "
                   "patterns assume one), its row says \"not unique\"\n", r.file.c_str(), r.line, r.index);
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const PuzzleRating& r : ratings) rows.push_back(rating_json(r));
    std::cout << nlohmann::json{{"seed", *o.run.seed}, {"runs", o.setup.runs}, {"puzzles", rows}}.dump(2)
              << '\n';
  } else {
    std::cout << csv_line(rating_columns()) << '\n';
    for (const PuzzleRating& r : ratings) {
      std::vector<std::string> row;
      for (const auto& field : rating_fields(r)) row.push_back(csv_text(field.second));
      std::cout << csv_line(row) << '\n';
    }
  }
  return kExitOk;
}

}  // namespace

void add_rate_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<RateOptions>();
  auto* cmd = app.add_subcommand(
      "rate", "How hard each puzzle is: the hardest technique a person needs, on Sudoku "
              "Explainer's scale, and for the engine --runs seeds each, many at once (success "
              "rate, median and 90th percentile of generations, evaluations and seconds); what "
              "propagation fills, the exact solver's conflicts, a score and a rating; CSV (or "
              "--json) on stdout, one row a puzzle");
  add_puzzle_files_option(cmd, o->setup.files);
  cmd->add_option("--runs", o->setup.runs, "Runs per puzzle (seeds derived from --seed); 0 "
                  "rates by the techniques alone")
      ->check(whole_number_in(0, 1000000))->capture_default_str()->group("Rate");
  cmd->add_option("--concurrent", o->setup.concurrent, "Runs advancing together (0: as batch "
                  "picks)")->check(whole_number_in(0, 65535))->capture_default_str()->group("Rate");
  cmd->add_option("--runs-csv", o->setup.runs_csv, "Also keep every run's row in this CSV "
                  "(gpuga batch's columns)")->group("Rate");
  cmd->add_flag("--json", o->json, "Write one JSON object instead of CSV")->group("Rate");
  add_run_options(cmd, o->run, o->print_config);
  cmd->callback([o, cmd, &exit_status] { exit_status = run_rate(cmd, *o); });
}

}  // namespace gpuga
