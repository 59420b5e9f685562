#include "gpuga/run_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "gpuga/device/island_params.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/launch_policy.hpp"

namespace gpuga {
namespace {

// The kernel parameters that follow from the configuration's other settings in effect: the
// rates as thresholds, the elite truncation keeps (none), the annealing's step, the islands, the
// halt interval.
void derive_engine_params(RunConfig& c) {
  GaParams& g = c.engine.ga;
  g.elite = g.selection == Selection::Truncation ? 0 : c.elite;
  g.crossover_threshold = rate_threshold(c.crossover_rate);
  g.mutation_threshold = rate_threshold(c.mutation_rate);
  c.engine.anneal.cooling_step = cooling_step(c.cooling);
  c.engine.islands = c.pop / g.individuals;
  c.engine.halt_interval = halt_interval_for(g);
}

// The children an island of `n` breeds: truncation's --children (10 x n when not given), else n.
std::uint32_t children_of(const RunOptions& o, Selection selection, std::uint32_t n) {
  if (selection != Selection::Truncation) return n;
  return o.children.value_or(10 * n);
}

// The settings checked against each other (each one's range is its setting's), with n the
// island size in effect and the values as given or defaulted.
void check(const RunOptions& o, const RunConfig& c, std::uint32_t grow_given) {
  const GaParams& g = c.engine.ga;
  const std::uint32_t n = g.individuals;
  GPUGA_INPUT_CHECK(c.pop >= 2, "--pop " + std::to_string(c.pop) + ": expected at least 2");
  GPUGA_INPUT_CHECK(n >= 2 && n <= c.pop, "--island-size " + std::to_string(n) +
                                              ": expected 2 to --pop " + std::to_string(c.pop));
  if (c.pop % n != 0) {
    const std::uint32_t below = c.pop / n * n;
    throw InputError("--pop " + std::to_string(c.pop) + " is not a multiple of the island size " +
                     std::to_string(n) + "; expected a multiple such as " +
                     (below ? std::to_string(below) + " or " : std::string()) +
                     std::to_string(below + n) + ", or an --island-size that divides it");
  }
  GPUGA_INPUT_CHECK(g.algorithm == Algorithm::Ga || n <= kMaxChains,
                    "--island-size " + std::to_string(n) + ": sa and hc take at most " +
                        std::to_string(kMaxChains) + " chains an island");
  GPUGA_INPUT_CHECK(c.engine.migrants <= n / 2,
                    "--migrants " + std::to_string(c.engine.migrants) + ": expected at most half "
                    "the island size (" + std::to_string(n / 2) + ")");
  GPUGA_INPUT_CHECK(g.selection == Selection::Truncation || !o.children || *o.children == n,
                    "--children " + std::to_string(o.children.value_or(0)) +
                        " applies to --selection truncation only; expected it left out");
  GPUGA_INPUT_CHECK(c.elite < n, "--elite " + std::to_string(c.elite) +
                                     " must be smaller than the island size " + std::to_string(n));
  GPUGA_INPUT_CHECK(g.algorithm == Algorithm::Ga || grow_given == 0,
                    "--grow-after " + std::to_string(grow_given) + " with --algorithm " +
                        to_string(g.algorithm) +
                        "; islands grow in the GA only: expected 0 or auto");
  GPUGA_INPUT_CHECK(c.engine.keep_on_restart <= n,
                    "--keep-on-restart " + std::to_string(c.engine.keep_on_restart) +
                        " must not exceed the island size " + std::to_string(n));
  if (const std::string problem = tabu_problem(g); !problem.empty())
    throw InputError(problem);
  if (g.repair == Repair::Propagate) {
    GPUGA_INPUT_CHECK(g.algorithm == Algorithm::Ga,
                      std::string("--repair propagate with --algorithm ") + to_string(g.algorithm) +
                          ": the repair rebuilds the GA's children; expected --repair none or auto");
    GPUGA_INPUT_CHECK(g.encoding == Encoding::Cell,
                      std::string("--repair propagate with --encoding ") + to_string(g.encoding) +
                          ": a repaired grid keeps no block a permutation; expected --encoding cell");
    GPUGA_INPUT_CHECK(g.fitness == FitnessKind::Conflicts,
                      "--repair propagate with --fitness squared: a repaired grid's blanks are "
                      "conflicts, which the squared metric does not count; expected --fitness "
                      "conflicts");
  }
}

// --grow-after in effect: the generations of each stage but the last, rounded up to a multiple
// of the halt interval (island_params.hpp); 0 where islands do not grow (sa and hc, or 0).
std::uint32_t stage_length(const GaParams& g, std::uint32_t grow_after) {
  if (g.algorithm != Algorithm::Ga || grow_after == 0) return 0;
  const std::uint32_t h = halt_interval_for(g);
  return (grow_after + h - 1) / h * h;
}

}  // namespace

RunPlan plan(const RunOptions& o, const Target& t) {
  if (!o.seed) throw std::logic_error("plan: options without a seed (draw_seed first)");
  RunConfig c;
  for (const RunSetting& s : run_settings())
    if (s.apply) s.apply(o, c);
  c.backend = t.backend;
  c.device = t.device;  // this rank's, where several share a node's
  if (t.backend == Backend::Cpu) c.threads = static_cast<int>(t.units);  // --threads 0: every one
  c.rank_devices = t.rank_devices;
  GaParams& g = c.engine.ga;
  const bool ga = g.algorithm == Algorithm::Ga;
  // The repair, and the cell encoding it needs, unless the user chose the operators it changes.
  const bool plain = !ga || c.presolve == Propagation::None || o.encoding ||
                     g.fitness != FitnessKind::Conflicts;
  g.repair = o.repair.value_or(plain ? Repair::None : Repair::Propagate);
  g.encoding = o.encoding.value_or(g.repair == Repair::Propagate ? Encoding::Cell : Encoding::Box);
  const SizeDefaults& d = size_defaults(t.backend, t.box, g.repair);
  g.local_search = o.local_search.value_or(d.local_search);
  g.tabu = o.tabu.value_or(g.repair == Repair::Propagate ? d.tabu : 0);
  g.tabu_return = o.tabu_return.value_or(g.tabu ? d.tabu_return : 0);
  c.engine.restart_after = o.restart_after.value_or(ga ? d.restart_after : kClimberRestartAfter);
  // The table's growth is measured for the table's islands; islands the user sized grow only
  // when asked. Runs sized for throughput (many puzzles, no --pop) have islands and growth of
  // their own.
  const bool for_throughput = t.many && !o.pop;
  const std::uint32_t grow_given = o.grow_after.value_or(0);
  const std::uint32_t grow_after = o.grow_after.value_or(
      ga && !o.pop && !o.island_size ? (for_throughput ? d.many_grow_after : d.grow_after) : 0);
  g.individuals = o.island_size.value_or(
      default_island_size(o.pop.value_or(0), for_throughput ? d.many_island_size : d.island_size));
  g.children = children_of(o, g.selection, g.individuals);
  if (const std::string problem = fitness_problem(g, t.box); !problem.empty()) throw InputError(problem);
  RunPlan out;
  out.box = t.box;
  out.many = t.many;
  RunConfig one = c;  // one island of the plan's: what runs at once on a unit
  one.pop = g.individuals;
  derive_engine_params(one);
  const auto at_once = with_box_size(t.box, [&]<int B>() {
    const std::uint32_t free_cells = t.free_cells ? t.free_cells : Shape<B>::kCells;
    return islands_at_once<B>(one.engine.ga, free_cells, t.unit, t.launch, t.segments);
  });
  out.shape = {t.units, static_cast<std::uint32_t>(std::clamp<std::uint64_t>(at_once, 1, UINT32_MAX))};
  if (!o.pop) {  // islands to fill the target: its units, as many at once on each as fit
    const std::uint32_t islands =
        t.many ? default_islands_per_run(d, out.shape) : default_islands(d, out.shape);
    c.pop = islands * g.individuals * t.ranks;  // every rank's default
  }
  check(o, c, grow_given);
  if (!ga) c.engine.migration_interval = c.engine.migrants = 0;  // chains never migrate
  c.grow_after = stage_length(g, grow_after);
  GPUGA_INPUT_CHECK(c.grow_after == 0 || (std::uint64_t(c.pop) << kMaxGrowths) <= 200000000u,
                    "--grow-after with --pop " + std::to_string(c.pop) + ": its last stage would "
                    "hold " + std::to_string(std::uint64_t(c.pop) << kMaxGrowths) +
                    " individuals; expected at most 200000000 (a smaller --pop, or --grow-after 0)");
  derive_engine_params(c);
  out.slots = default_slots(t.backend, t.many, out.shape, c.engine.islands, c.pop);
  out.config = c;
  out.stages.push_back(c.engine);
  for (std::uint32_t k = 1; c.grow_after && k <= kMaxGrowths; ++k) {
    EngineParams p = c.engine;
    p.ga.individuals = g.individuals << k;
    p.ga.children = children_of(o, g.selection, p.ga.individuals);
    out.stages.push_back(p);
  }
  return out;
}

std::vector<EngineParams> stages_of(const RunPlan& plan, const EngineParams& here) {
  std::vector<EngineParams> out = plan.stages;
  for (EngineParams& p : out) p.islands = here.islands;
  return out;
}

}  // namespace gpuga
