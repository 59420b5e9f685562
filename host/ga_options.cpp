#include "ga_options.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include <omp.h>

#include "devices.hpp"
#include "gpuga/chain.hpp"
#include "errors.hpp"

namespace gpuga {
namespace {

template <class E>
std::map<std::string, E> names_of(std::initializer_list<E> values) {
  std::map<std::string, E> m;
  for (E v : values) m.emplace(to_string(v), v);
  return m;
}

// --local-search's value: a number of moves up to 100000, or kLocalSearchBySize for `auto`;
// kInvalidMoves for anything else.
constexpr std::uint32_t kInvalidMoves = kLocalSearchBySize - 1;
std::uint32_t parse_local_search(const std::string& v) {
  if (v == "auto") return kLocalSearchBySize;
  std::uint32_t moves = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), moves);
  return ec == std::errc() && end == v.data() + v.size() && moves <= 100000 ? moves : kInvalidMoves;
}

}  // namespace

std::uint32_t island_size_of(const GaOptions& o) {
  return o.island_size ? o.island_size : std::min(o.pop, kDefaultIslandSize);
}

std::uint32_t children_of(const GaOptions& o) {
  const std::uint32_t n = island_size_of(o);
  if (o.selection != Selection::Truncation) return n;
  return o.children ? o.children : 10 * n;
}

std::uint32_t migration_interval_of(const GaOptions& o) {
  return o.algorithm == Algorithm::Ga ? o.migration_interval : 0;
}
std::uint32_t migrants_of(const GaOptions& o) {
  return o.algorithm == Algorithm::Ga ? o.migrants : 0;
}

std::uint32_t default_local_search(int box) { return box >= 5 ? 20000 : 500; }

void resolve_for_puzzle(GaOptions& o, Backend backend, int box) {
  if (o.local_search == kLocalSearchBySize) o.local_search = default_local_search(box);
  if (o.pop != 0) return;
  const std::uint32_t n = o.island_size ? o.island_size : kDefaultIslandSize;
  std::uint32_t islands = o.threads > 0 ? o.threads : omp_get_max_threads();
#if defined(GPUGA_HAVE_CUDA)
  if (backend == Backend::Cuda) {
    // As many islands as run at once: islands per multiprocessor (the segment step's occupancy,
    // one island's shared memory included) times multiprocessors.
    const DeviceList list = list_devices();
    if (o.device < static_cast<int>(list.devices.size())) {
      GaOptions one = o;
      one.pop = n;
      const int per_sm = cuda_islands_per_multiprocessor(island_params(one), box, o.device);
      islands = std::max(per_sm, 1) * list.devices[o.device].multiprocessors;
    }
  }
#else
  (void)backend;
  (void)box;
#endif
  o.pop = islands * n;
}

const char* to_string(Algorithm a) {
  return a == Algorithm::Ga ? "ga" : (a == Algorithm::Sa ? "sa" : "hc");
}
const char* to_string(Encoding e) {
  return e == Encoding::Box ? "box" : (e == Encoding::Row ? "row" : "cell");
}
const char* to_string(FitnessKind f) { return f == FitnessKind::Squared ? "squared" : "conflicts"; }
const char* to_string(Selection s) {
  return s == Selection::Tournament ? "tournament" : (s == Selection::Rank ? "rank" : "truncation");
}
const char* to_string(Crossover c) {
  return c == Crossover::OnePoint ? "one-point" : (c == Crossover::Uniform ? "uniform" : "bands");
}
const char* to_string(Backend b) {
  return b == Backend::Auto ? "auto" : (b == Backend::Cpu ? "cpu" : "cuda");
}

void add_ga_options(CLI::App* cmd, GaOptions& o) {
  const auto ci = CLI::ignore_case;
  cmd->add_option("--algorithm", o.algorithm, "ga: the genetic algorithm; sa: simulated annealing, "
                  "hc: hill climbing, every individual an independent chain of moves (a "
                  "generation: one move per free cell of the puzzle, per chain)")
      ->transform(CLI::CheckedTransformer(
          names_of({Algorithm::Ga, Algorithm::Sa, Algorithm::Hc}), ci))
      ->capture_default_str()->group("GA");
  cmd->add_option("--pop", o.pop, "The whole population, split into islands of --island-size "
                  "(0: one island per CPU thread, or as many as the GPU runs at once)")
      ->check(CLI::Range(0u, 200000000u))->capture_default_str()->group("GA");
  cmd->add_option("--island-size", o.island_size, "Individuals per island; --pop must be a "
                  "multiple (0: min(--pop, " + std::to_string(kDefaultIslandSize) + "); "
                  "--island-size equal to --pop: one panmictic population)")
      ->check(CLI::Range(0u, 200000000u))->capture_default_str()->group("GA");
  cmd->add_option("--migration-interval", o.migration_interval, "Every this many generations "
                  "each island's best --migrants replace the worst of the next island on a fixed "
                  "ring (island k sends to k+1, the last to the first; 0: isolated islands; ga "
                  "only: sa and hc chains are independent)")
      ->check(CLI::Range(0u, 1000000u))->capture_default_str()->group("GA");
  cmd->add_option("--migrants", o.migrants, "Individuals each island sends per migration")
      ->check(CLI::Range(0u, 100000000u))->capture_default_str()->group("GA");
  cmd->add_option("--children", o.children,
                  "Children bred per generation per island with --selection truncation "
                  "(mu+lambda); 0: 10 x --island-size")
      ->check(CLI::Range(0u, 2000000000u))->capture_default_str()->group("GA");
  cmd->add_option("--encoding", o.encoding, "box: boxes are permutations; row: rows are; "
                  "cell: every free cell independent")
      ->transform(CLI::CheckedTransformer(
          names_of({Encoding::Box, Encoding::Row, Encoding::Cell}), ci))
      ->capture_default_str()->group("GA");
  cmd->add_option("--fitness", o.fitness, "conflicts: sum over counted units of 9 - distinct "
                  "digits; squared: sum over all units and digits of (count-1)^2")
      ->transform(CLI::CheckedTransformer(
          names_of({FitnessKind::Conflicts, FitnessKind::Squared}), ci))
      ->capture_default_str()->group("GA");
  cmd->add_option("--selection", o.selection, "tournament, rank (linear ranking) or truncation "
                  "(mu+lambda: the best of each island's parents and --children survive)")
      ->transform(CLI::CheckedTransformer(
          names_of({Selection::Tournament, Selection::Rank, Selection::Truncation}), ci))
      ->capture_default_str()->group("GA");
  cmd->add_option("--tournament-size", o.tournament_size, "Individuals per tournament")
      ->check(CLI::Range(1u, 64u))->capture_default_str()->group("GA");
  cmd->add_option("--rank-pressure", o.rank_pressure, "Linear ranking pressure: the best rank's "
                  "expected number of copies")
      ->check(CLI::Range(1.0, 2.0))->capture_default_str()->group("GA");
  cmd->add_option("--elite", o.elite, "Best individuals of each island copied unchanged each "
                  "generation")
      ->check(CLI::Range(0u, 200000000u))->capture_default_str()->group("GA");
  cmd->add_option("--crossover", o.crossover, "one-point or uniform, over boxes (box), rows "
                  "(row) or cells (cell); bands: each band of a box's height of rows (or stack of "
                  "columns; 9x9: three) from the parent with fewer conflicts there (Sato & Inoue)")
      ->transform(CLI::CheckedTransformer(
          names_of({Crossover::OnePoint, Crossover::Uniform, Crossover::Bands}), ci))
      ->capture_default_str()->group("GA");
  cmd->add_option("--crossover-rate", o.crossover_rate, "Probability that a child is a crossover")
      ->check(CLI::Range(0.0, 1.0))->capture_default_str()->group("GA");
  cmd->add_option("--mutation-rate", o.mutation_rate, "Probability that a child is mutated "
                  "(one swap of two free cells; cell: one free cell changed)")
      ->check(CLI::Range(0.0, 1.0))->capture_default_str()->group("GA");
  // Bound through a function so that `auto` stays `auto` in --print-config.
  cmd->add_option_function<std::string>(
         "--local-search", [&o](const std::string& v) { o.local_search = parse_local_search(v); },
         "Hill-climbing moves tried on every bred child after mutation, each made when it does "
         "not make the child worse (a memetic GA; 0: none; auto: " +
             std::to_string(default_local_search(3)) + " up to 16x16, " +
             std::to_string(default_local_search(5)) + " for 25x25)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return parse_local_search(v) == kInvalidMoves
                       ? "expected a number of moves in 0..100000 or auto, got '" + v + "'"
                       : std::string();
          },
          "UINT in [0 - 100000] or auto"))
      ->type_name("UINT")->default_str("auto")->group("GA");
  cmd->add_option("--given-aware", o.given_aware,
                "box/row: initialise and swap so that no digit lands where a given of its row, "
                "column or box holds it (when a legal placement exists)")
      ->capture_default_str()->group("GA");
  cmd->add_option("--cooling", o.cooling, "sa: the temperature's factor after each chain length")
      ->check(CLI::Range(0.5, 0.99999))->capture_default_str()->group("Annealing");
  cmd->add_option("--chain-length", o.chain_length, "sa: moves per temperature (0: the puzzle's "
                  "free cells, so one temperature per generation)")
      ->check(CLI::Range(0u, 1000000000u))->capture_default_str()->group("Annealing");
  cmd->add_option("--reheat-after", o.reheat_after, "sa: a chain goes back to the initial "
                  "temperature (the spread of the cost along random moves) after this many "
                  "temperatures without a new best (0: never)")
      ->check(CLI::Range(0u, 1000000000u))->capture_default_str()->group("Annealing");
  cmd->add_option("--restart-after", o.restart_after, "ga: restart an island after this many "
                  "generations without improvement of its best fitness; hc: restart a climber "
                  "from a random grid after this many generations without a better grid (0: "
                  "never; sa reheats instead)")
      ->capture_default_str()->group("Stopping and restarts");
  cmd->add_option("--keep-on-restart", o.keep_on_restart, "Best individuals of the island "
                  "kept on its restart (with --elite >= 1 these include the best it found)")
      ->capture_default_str()->group("Stopping and restarts");
  cmd->add_option("--max-generations", o.max_generations, "Stop after this many generations "
                  "(0: none; set it for results that do not depend on the machine's speed)")
      ->check(CLI::Range(0u, 4000000000u))->capture_default_str()->group("Stopping and restarts");
  cmd->add_option("--time-limit", o.time_limit, "Stop after this many seconds per puzzle (0: none)")
      ->check(CLI::NonNegativeNumber)->capture_default_str()->group("Stopping and restarts");
  o.seed_option = cmd->add_option("--seed", o.seed, "Random seed (default: drawn and printed, "
                                  "so the run can be repeated)")->group("Run");
  cmd->add_flag("--print-config", o.print_config, "Write the effective configuration (every "
                "option, the seed drawn) for gpuga --config, and exit")
      ->configurable(false)->group("Run");
  cmd->add_option("--backend", o.backend, "auto (CUDA when a device is present), cuda or cpu")
      ->transform(CLI::CheckedTransformer(
          names_of({Backend::Auto, Backend::Cpu, Backend::Cuda}), ci))
      ->capture_default_str()->group("Run");
  cmd->add_option("--threads", o.threads, "CPU backend threads (0: all cores)")
      ->check(CLI::Range(0, 4096))->capture_default_str()->group("Run");
  cmd->add_option("--device", o.device, "CUDA device index (see gpuga devices)")
      ->check(CLI::Range(0, 1024))->capture_default_str()->group("Run");
}

// Island size, island count and migration, checked against each other.
void check_islands(const GaOptions& o) {
  const std::uint32_t n = island_size_of(o);
  GPUGA_INPUT_CHECK(o.pop >= 2, "--pop " + std::to_string(o.pop) + ": expected at least 2");
  GPUGA_INPUT_CHECK(n >= 2 && n <= o.pop, "--island-size " + std::to_string(n) +
                                              ": expected 2 to --pop " + std::to_string(o.pop));
  if (o.pop % n != 0) {
    const std::uint32_t below = o.pop / n * n;
    throw InputError("--pop " + std::to_string(o.pop) + " is not a multiple of the island size " +
                     std::to_string(n) + "; expected a multiple such as " +
                     (below ? std::to_string(below) + " or " : std::string()) +
                     std::to_string(below + n) + ", or an --island-size that divides it");
  }
  GPUGA_INPUT_CHECK(o.algorithm == Algorithm::Ga || n <= kMaxChains,
                    "--island-size " + std::to_string(n) + ": sa and hc take at most " +
                        std::to_string(kMaxChains) + " chains an island");
  GPUGA_INPUT_CHECK(o.migrants <= n / 2,
                    "--migrants " + std::to_string(o.migrants) + ": expected at most half the "
                    "island size (" + std::to_string(n / 2) + ")");
}

IslandParams to_params(GaOptions& o) {
  if (o.seed_option && o.seed_option->count() == 0) {  // no --seed given on the command line
    std::random_device rd;
    o.seed = (std::uint64_t(rd()) << 32) | rd();
    if (o.seed_option) o.seed_option->add_result(std::to_string(o.seed));
  }
  return island_params(o);
}

IslandParams island_params(const GaOptions& options) {
  GaOptions o = options;
  resolve_for_puzzle(o, Backend::Cpu, 3);  // where nothing has resolved them yet: checks only
  check_islands(o);
  const std::uint32_t n = island_size_of(o);
  GaParams p;
  p.algorithm = o.algorithm;
  p.encoding = o.encoding;
  p.fitness = o.fitness;
  p.selection = o.selection;
  p.crossover = o.crossover;
  p.pop = n;
  p.children = children_of(o);
  GPUGA_INPUT_CHECK(o.selection == Selection::Truncation || o.children == 0 || o.children == n,
                    "--children " + std::to_string(o.children) +
                        " applies to --selection truncation only; expected it left out");
  GPUGA_INPUT_CHECK(o.elite < n, "--elite " + std::to_string(o.elite) +
                                     " must be smaller than the island size " + std::to_string(n));
  GPUGA_INPUT_CHECK(o.keep_on_restart <= n,
                    "--keep-on-restart " + std::to_string(o.keep_on_restart) +
                        " must not exceed the island size " + std::to_string(n));
  p.elite = o.selection == Selection::Truncation ? 0 : o.elite;
  p.tournament_size = o.tournament_size;
  p.given_aware = o.given_aware;
  p.crossover_threshold = rate_threshold(o.crossover_rate);
  p.mutation_threshold = rate_threshold(o.mutation_rate);
  p.local_search = o.local_search;
  p.seed = o.seed;
  IslandParams ip;
  ip.ga = p;
  ip.islands = o.pop / n;
  ip.migration_interval = migration_interval_of(o);
  ip.migrants = migrants_of(o);
  ip.anneal.cooling_step = cooling_step(o.cooling);
  ip.anneal.chain_length = o.chain_length;
  ip.anneal.reheat_after = o.reheat_after;
  ip.restart_after = o.restart_after;
  ip.keep_on_restart = o.keep_on_restart;
  return ip;
}

bool print_config_if_asked(const GaOptions& o, const CLI::App* cmd) {
  if (!o.print_config) return false;
  // Only this command's section, keys prefixed as the top level reads them (solve.pop=1000).
  std::cout << cmd->get_parent()->get_config_formatter()->to_config(
      cmd, /*default_also=*/true, /*write_description=*/false, cmd->get_name() + ".");
  return true;
}

RunLimits to_limits(const GaOptions& o) {
  return RunLimits{o.max_generations, o.time_limit};
}

nlohmann::json describe(const GaOptions& o) {
  return {{"algorithm", to_string(o.algorithm)},
          {"pop", o.pop},
          {"island_size", island_size_of(o)},
          {"islands", o.pop / std::max(island_size_of(o), 1u)},
          {"migration_interval", migration_interval_of(o)},
          {"migrants", migrants_of(o)},
          {"children", children_of(o)},
          {"encoding", to_string(o.encoding)},
          {"fitness", to_string(o.fitness)},
          {"selection", to_string(o.selection)},
          {"tournament_size", o.tournament_size},
          {"rank_pressure", o.rank_pressure},
          {"elite", o.selection == Selection::Truncation ? 0 : o.elite},
          {"crossover", to_string(o.crossover)},
          {"crossover_rate", o.crossover_rate},
          {"mutation_rate", o.mutation_rate},
          {"local_search", o.local_search},
          {"given_aware", o.given_aware},
          {"cooling", o.cooling},
          {"chain_length", o.chain_length},
          {"reheat_after", o.reheat_after},
          {"restart_after", o.restart_after},
          {"keep_on_restart", o.keep_on_restart},
          {"max_generations", o.max_generations},
          {"time_limit", o.time_limit},
          {"seed", o.seed}};
}

std::string describe_line(const GaOptions& o) {
  std::ostringstream s;
  bool first = true;
  const nlohmann::json config = describe(o);  // items() must not outlive the object
  for (const auto& [k, v] : config.items()) {
    s << (first ? "" : " ") << k << '=' << (v.is_string() ? v.get<std::string>() : v.dump());
    first = false;
  }
  return s.str();
}

}  // namespace gpuga
