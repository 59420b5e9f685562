// gpuga batch FILE... --runs R --seed S --csv out.csv: every puzzle R times with one GA
// configuration (see batch_runner.hpp).
#include "batch_runner.hpp"
#include "commands.hpp"

namespace gpuga {
namespace {

struct BatchOptions {
  GaOptions ga;
  BatchSetup setup;
};

int run_batch(const CLI::App* cmd, BatchOptions& o) {
  install_interrupt_handler();
  to_params(o.ga);  // draws the seed when none was given
  if (print_config_if_asked(o.ga, cmd)) return kExitOk;
  return run_batches(o.setup, {o.ga});
}

}  // namespace

void add_batch_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<BatchOptions>();
  auto* cmd = app.add_subcommand(
      "batch", "Run every puzzle --runs times (seeds derived from --seed), many runs at once, one "
               "CSV row per run; --resume continues an interrupted batch");
  add_batch_setup_options(cmd, o->setup);
  add_ga_options(cmd, o->ga);
  cmd->callback([o, cmd, &exit_status] { exit_status = run_batch(cmd, *o); });
}

}  // namespace gpuga
