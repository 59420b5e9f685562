// gpuga batch FILE... --runs R --seed S --csv out.csv: every puzzle R times with one GA
// configuration (see batch_runner.hpp).
#include "gpuga/batch_runner.hpp"
#include "batch_progress.hpp"
#include "cli_ranks.hpp"
#include "cli_run_config.hpp"
#include "commands.hpp"

namespace gpuga {
namespace {

struct BatchOptions {
  RunOptions run;
  bool print_config = false;
  BatchSetup setup;
};

int run_batch(CLI::App* cmd, BatchOptions& o) {
  install_interrupt_handler();
  draw_seed(o.run, cmd);
  if (print_config_if_asked(o.print_config, cmd)) return kExitOk;
  o.setup.node = node_place();  // under MPI: each rank its share of the node
  const auto share = rank_batch_share();
  StderrBatchReporter reporter("batch");
  return batch_end_status(run_batches(o.setup, {o.run}, share.get(), &reporter), o.setup.csv,
                          share.get(), reporter);
}

}  // namespace

void add_batch_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<BatchOptions>();
  auto* cmd = app.add_subcommand(
      "batch", "Run every puzzle --runs times (seeds derived from --seed), many runs at once, one "
               "CSV row per run; --resume continues an interrupted batch");
  add_batch_setup_options(cmd, o->setup);
  add_run_options(cmd, o->run, o->print_config);
  cmd->callback([o, cmd, &exit_status] { exit_status = run_batch(cmd, *o); });
}

}  // namespace gpuga
