// gpuga score FILE...: the fitness of each grid under every encoding's unit set and the squared
// metric, so that results can be cross-checked by hand. Grids may be partial or wrong.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "errors.hpp"
#include "gpuga/fitness.hpp"
#include "puzzle_io.hpp"

namespace gpuga {
namespace {

struct ScoreOptions {
  std::vector<std::string> files;
  bool json = false;
};

int run_score(const ScoreOptions& o) {
  const auto grids = read_puzzle_files(o.files, ReadMode::Grids);
  nlohmann::json rows = nlohmann::json::array();
  if (!o.json) std::cout << "file:line  #  blanks  box(rows+cols)  row(cols+boxes)  cell(all)  squared\n";
  for (const auto& g : grids) {
    GPUGA_INPUT_CHECK(g.grid.box == 3, g.file + ":" + std::to_string(g.line) + ": a " +
                                           size_name(g.grid) + " grid; score reads 9x9 grids only so far");
    const int box = conflict_fitness(g.grid.cell.data(), Encoding::Box);
    const int row = conflict_fitness(g.grid.cell.data(), Encoding::Row);
    const int cell = conflict_fitness(g.grid.cell.data(), Encoding::Cell);
    const int sq = squared_fitness(g.grid.cell.data());
    const int blanks = kCells - clue_count(g.grid);
    if (o.json) {
      rows.push_back({{"file", g.file}, {"line", g.line}, {"index", g.index},
                      {"grid", to_line(g.grid)}, {"blanks", blanks}, {"box", box}, {"row", row},
                      {"cell", cell}, {"squared", sq}});
    } else {
      std::cout << g.file << ':' << g.line << "  " << g.index << "  " << blanks << "  " << box
                << "  " << row << "  " << cell << "  " << sq << '\n';
    }
  }
  if (o.json) std::cout << nlohmann::json{{"grids", rows}}.dump(2) << '\n';
  return kExitOk;
}

}  // namespace

void add_score_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<ScoreOptions>();
  auto* cmd = app.add_subcommand(
      "score", "Conflict fitness of each grid under the box, row and cell unit sets, and the "
               "squared fitness (blanks count as no digit)");
  add_puzzle_files_option(cmd, o->files, "Grid files, puzzle formats");
  cmd->add_flag("--json", o->json, "Write one JSON object instead of a table");
  cmd->callback([o, &exit_status] { exit_status = run_score(*o); });
}

}  // namespace gpuga
