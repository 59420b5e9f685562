// gpuga check FILE...: clue count and number of solutions of every puzzle, by the exact solver.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

namespace gpuga {
namespace {

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
  bool strict = false;
  ExactSolver solver = ExactSolver::Auto;
};

const char* solutions_word(int n) { return n == 0 ? "none" : (n == 1 ? "one" : "several"); }

int run_check(const CheckOptions& opt) {
  // Contradictory givens read (as score reads grids): such a puzzle has none, counted as such
  // beside the others rather than refusing the file.
  const auto puzzles = read_puzzle_files(opt.files, ReadMode::Grids);
  int count[3] = {0, 0, 0};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : puzzles) {
    const bool contradictory = first_clash(p.grid).has_value();
    ExactResult r;  // none
    if (!contradictory) r = solve_exact(p.grid, 2, opt.solver);
    ++count[r.solutions];
    const std::string solution = r.solutions == 1 ? to_line(r.solution, p.alphabet) : "";
    if (opt.json) {
      rows.push_back({{"file", p.file}, {"line", p.line}, {"index", p.index},
                      {"size", size_name(p.grid)}, {"puzzle", to_line(p.grid, p.alphabet)},
                      {"clues", clue_count(p.grid)},
                      {"solutions", solutions_word(r.solutions)}, {"solution", solution},
                      {"contradictory_givens", contradictory}});
    } else {
      std::cout << p.file << ':' << p.line << "  #" << p.index << "  " << size_name(p.grid)
                << "  clues " << clue_count(p.grid)
                << "  solutions: " << solutions_word(r.solutions);
      if (!solution.empty()) std::cout << "  " << solution;
      if (contradictory) std::cout << " (contradictory givens)";
      std::cout << '\n';
    }
  }
  if (opt.json) {
    nlohmann::json out = {{"puzzles", rows},
                          {"summary", {{"total", puzzles.size()}, {"one", count[1]},
                                       {"several", count[2]}, {"none", count[0]}}}};
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << puzzles.size() << " puzzles: " << count[1] << " with exactly one solution, "
              << count[2] << " with several, " << count[0] << " with none\n";
  }
  const bool all_unique = count[0] == 0 && count[2] == 0;
  return opt.strict && !all_unique ? kExitUnsolved : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_status) {
  auto opt = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand(
      "check", "Report clue count and number of solutions (none, one, several) of each puzzle");
  add_puzzle_files_option(cmd, opt->files);
  cmd->add_flag("--json", opt->json, "Write one JSON object instead of text");
  cmd->add_flag("--strict", opt->strict,
                "Exit with status 1 unless every puzzle has exactly one solution");
  const std::map<std::string, ExactSolver> solvers = {
      {"auto", ExactSolver::Auto}, {"search", ExactSolver::Search}, {"sat", ExactSolver::Sat}};
  cmd->add_option("--solver", opt->solver,
                  "auto: the bitmask search, or the SAT solver for a puzzle that makes it branch "
                  "widely; search or sat: that one alone (every puzzle gets the same count)")
      ->check(one_of({"auto", "search", "sat"}, {"0", "1", "2"}))
      ->transform(CLI::Transformer(solvers, CLI::ignore_case))
      ->default_str("auto");
  cmd->callback([opt, &exit_status] { exit_status = run_check(*opt); });
}

}  // namespace gpuga
