// gpuga sweep --grid 'pop=1000,10000 mutation-rate=0.1,0.3' ...: a batch for every combination
// of the values given, into one CSV. Every combination uses the same per-run seeds (common
// random numbers), so differences between configurations are not differences of luck.
#include <algorithm>
#include <sstream>

#include "batch_progress.hpp"
#include "gpuga/batch_runner.hpp"
#include "cli_ranks.hpp"
#include "cli_run_config.hpp"
#include "commands.hpp"
#include "config_file.hpp"
#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

struct SweepOptions {
  RunOptions run;
  bool print_config = false;
  BatchSetup setup;
  std::string grid;
};

// "name=v1,v2 name2=w1" as (name, values) pairs, in order.
std::vector<std::pair<std::string, std::vector<std::string>>> parse_grid(const std::string& grid) {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  std::istringstream in(grid);
  for (std::string item; in >> item;) {
    const auto eq = item.find('=');
    GPUGA_INPUT_CHECK(eq != std::string::npos && eq > 0 && eq + 1 < item.size(),
                      "--grid: '" + item + "'; expected NAME=VALUE[,VALUE...] (NAME an option "
                      "of gpuga batch without its dashes, as in pop=1000,10000)");
    const std::string name = item.substr(0, eq);
    for (const auto& axis : axes)
      GPUGA_INPUT_CHECK(axis.first != name, "--grid: " + name + " given twice; expected each "
                        "option once, its values together (" + name + "=A,B)");
    std::vector<std::string> values;
    std::istringstream vs(item.substr(eq + 1));
    for (std::string v; std::getline(vs, v, ',');) {
      GPUGA_INPUT_CHECK(std::find(values.begin(), values.end(), v) == values.end(),
                        "--grid: " + name + "=" + item.substr(eq + 1) + " holds " + v +
                            " twice; expected each value once (a run twice is --runs)");
      values.push_back(v);
    }
    axes.push_back({name, values});
  }
  GPUGA_INPUT_CHECK(!axes.empty(), "--grid is empty; expected NAME=VALUE[,VALUE...] ...");
  return axes;
}

// Every combination, each as the base options with the combination's values read over them by
// the settings' own parsers, as the command line reads them.
std::vector<RunOptions> expand(const SweepOptions& o) {
  const auto axes = parse_grid(o.grid);
  std::vector<const RunSetting*> settings;
  for (const auto& [name, values] : axes) {
    const RunSetting* s = find_setting(name);
    GPUGA_INPUT_CHECK(s != nullptr, "--grid: '" + name + "' is not an option of a run; expected "
                                    "one as gpuga batch takes it, without its dashes (pop, "
                                    "mutation-rate, selection, ...)");
    settings.push_back(s);
  }
  std::vector<RunOptions> out;
  std::vector<std::size_t> pick(axes.size(), 0);
  for (;;) {
    RunOptions combo = o.run;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::string& value = axes[a].second[pick[a]];
      const std::string error = settings[a]->parse(combo, value);
      GPUGA_INPUT_CHECK(error.empty(), "--grid: --" + axes[a].first + " " + value + ": " + error);
    }
    out.push_back(combo);  // run_batches plans it, checking the options against each other
    std::size_t a = axes.size();
    while (a > 0 && ++pick[a - 1] == axes[a - 1].second.size()) pick[--a] = 0;
    if (a == 0) return out;
  }
}

// An option given on the command line that the grid also sets: the grid's values would replace
// it without a word. One a --config file sets is the grid's to replace (--print-config writes
// every option). Before the seed is drawn, which sets --seed.
void refuse_options_the_grid_sets(const std::string& grid, const CLI::App* cmd) {
  const std::string config = config_file(*cmd->get_parent());
  for (const auto& [name, values] : parse_grid(grid)) {
    const CLI::Option* given = cmd->get_option_no_throw("--" + name);
    if (!given || given->count() == 0) continue;
    const int line = config.empty() ? 0 : config_line_of(config, cmd->get_name() + "." + name);
    std::string in_file = line ? config_value_text(config, line) : "";
    if (in_file.size() >= 2 && in_file.front() == '"' && in_file.back() == '"') in_file = in_file.substr(1, in_file.size() - 2);
    const bool from_file = line && in_file == given->as<std::string>();
    GPUGA_INPUT_CHECK(from_file,
                      "--" + name + " " + given->as<std::string>() + " given beside --grid's " +
                          name + "=" + values.front() + (values.size() > 1 ? ",..." : "") +
                          "; expected one of them (put every value in --grid)");
  }
}

int run_sweep(CLI::App* cmd, SweepOptions& o) {
  install_interrupt_handler();
  refuse_options_the_grid_sets(o.grid, cmd);
  draw_seed(o.run, cmd);  // every combination shares it
  if (print_config_if_asked(o.print_config, cmd)) return kExitOk;
  o.setup.node = node_place();  // under MPI: each rank its share of the node
  const auto share = rank_batch_share();
  StderrBatchReporter reporter("sweep");
  return batch_end_status(run_batches(o.setup, expand(o), share.get(), &reporter), o.setup.csv,
                          share.get(), reporter);
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand(
      "sweep", "Run a batch for every combination of the --grid values into one CSV (the same "
               "per-run seeds for every combination)");
  cmd->add_option("--grid", o->grid, "Values to combine: 'NAME=V1,V2 NAME2=W1,W2', NAME a GA "
                  "option without its dashes (pop, mutation-rate, selection, ...)")->required();
  add_batch_setup_options(cmd, o->setup);
  add_run_options(cmd, o->run, o->print_config);
  cmd->callback([o, cmd, &exit_status] { exit_status = run_sweep(cmd, *o); });
}

}  // namespace gpuga
