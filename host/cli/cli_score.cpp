// gpuga score FILE...: the fitness of each grid under every encoding's unit set and the squared
// metric, so that results can be cross-checked by hand. Grids may be partial or wrong.
#include <array>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "gpuga/device/fitness.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

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
    const std::uint8_t* cells = g.grid.cell.data();
    const auto [box, row, cell, sq] = with_box_size(g.grid.box, [&]<int B>() {
      return std::array<int, 4>{conflict_fitness<B>(cells, Encoding::Box),
                                conflict_fitness<B>(cells, Encoding::Row),
                                conflict_fitness<B>(cells, Encoding::Cell),
                                squared_fitness<B>(cells)};
    });
    const int blanks = static_cast<int>(g.grid.blanks());
    if (o.json) {
      rows.push_back({{"file", g.file}, {"line", g.line}, {"index", g.index},
                      {"size", size_name(g.grid)}, {"grid", to_line(g.grid, g.alphabet)},
                      {"blanks", blanks}, {"box", box}, {"row", row}, {"cell", cell},
                      {"squared", sq}});
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
