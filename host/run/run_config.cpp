#include "gpuga/run_config.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <map>
#include <random>

#include "gpuga/defaults.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/device/chain.hpp"

namespace gpuga {

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

// ---------------------------------------------------------------------------------------------
// The settings' table

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string real_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The whole of `text` as a number of type T, or false.
template <class T>
bool parse_number(const std::string& text, T& out) {
  if constexpr (std::is_floating_point_v<T>) {
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
  } else {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
  }
}

template <class T>
std::string number_text(T v) {
  if constexpr (std::is_floating_point_v<T>) return real_text(v);
  else return std::to_string(v);
}

// What a range accepts, in words: "0 to 64"; "0 or more" when it has no upper end.
template <class T>
std::string range_text(T lo, T hi) {
  if (hi == std::numeric_limits<T>::max()) return number_text(lo) + " or more";
  return number_text(lo) + " to " + number_text(hi);
}

// A number in [lo, hi] held in member `m`.
template <class T>
RunSetting number(std::string name, T RunConfig::*m, T lo, T hi, std::string group,
                  std::string help, std::string json, CsvColumn csv = {}) {
  RunSetting s;
  s.name = std::move(name);
  s.type_name = std::is_floating_point_v<T> ? "FLOAT" : "UINT";
  s.accepts = hi == std::numeric_limits<T>::max()
                  ? ""
                  : "in [" + number_text(lo) + " - " + number_text(hi) + "]";
  s.group = std::move(group);
  s.help = std::move(help);
  s.json = std::move(json);
  s.csv = std::move(csv);
  s.parse = [m, lo, hi](RunConfig& c, const std::string& text) -> std::string {
    T v{};
    if (!parse_number(text, v)) return "'" + text + "' is not a number; expected " + range_text(lo, hi);
    if (!(v >= lo && v <= hi)) return text + " is out of range; expected " + range_text(lo, hi);
    c.*m = v;
    return "";
  };
  s.text = [m](const RunConfig& c) {
    if constexpr (std::is_floating_point_v<T>) return real_text(c.*m);
    else return std::to_string(c.*m);
  };
  s.value = [m](const RunConfig& c) -> SettingValue {
    if constexpr (std::is_floating_point_v<T>) return double(c.*m);
    else return std::uint64_t(c.*m);
  };
  return s;
}

// One of `values`, by name (any case), or by its index as older --print-config files wrote it.
template <class E>
RunSetting choice(std::string name, E RunConfig::*m, std::vector<E> values, std::string group,
                  std::string help, std::string json, CsvColumn csv = {}) {
  RunSetting s;
  s.name = std::move(name);
  for (E v : values) {
    if (!s.type_name.empty()) s.type_name += '|';
    s.type_name += to_string(v);
  }
  s.group = std::move(group);
  s.help = std::move(help);
  s.json = std::move(json);
  s.csv = std::move(csv);
  s.parse = [m, values, names = s.type_name](RunConfig& c, const std::string& text) -> std::string {
    for (E v : values)
      if (lower(text) == to_string(v) || text == std::to_string(static_cast<int>(v))) {
        c.*m = v;
        return "";
      }
    return "'" + text + "'; expected one of " + names;
  };
  s.text = [m](const RunConfig& c) { return std::string(to_string(c.*m)); };
  s.value = [m](const RunConfig& c) -> SettingValue { return std::string(to_string(c.*m)); };
  return s;
}

RunSetting flag(std::string name, bool RunConfig::*m, std::string group, std::string help,
                std::string json, CsvColumn csv) {
  RunSetting s;
  s.name = std::move(name);
  s.type_name = "BOOLEAN";
  s.group = std::move(group);
  s.help = std::move(help);
  s.json = std::move(json);
  s.csv = std::move(csv);
  s.parse = [m](RunConfig& c, const std::string& text) -> std::string {
    static const std::map<std::string, bool> words = {
        {"true", true}, {"false", false}, {"1", true}, {"0", false}, {"yes", true},
        {"no", false}, {"on", true}, {"off", false}};
    const auto it = words.find(lower(text));
    if (it == words.end()) return "'" + text + "'; expected true or false";
    c.*m = it->second;
    return "";
  };
  s.text = [m](const RunConfig& c) { return std::string(c.*m ? "true" : "false"); };
  s.value = [m](const RunConfig& c) -> SettingValue { return c.*m; };
  return s;
}

// A value that outputs record but no option sets.
RunSetting derived(std::string json, CsvColumn csv,
                   std::function<SettingValue(const RunConfig&)> value) {
  RunSetting s;
  s.json = std::move(json);
  s.csv = std::move(csv);
  s.value = std::move(value);
  return s;
}

// With another value in effect than the one given (outputs record what the run used).
RunSetting in_effect(RunSetting s, std::function<SettingValue(const RunConfig&)> value) {
  s.value = std::move(value);
  return s;
}

std::string box_name(int box) { return std::to_string(box * box) + "x" + std::to_string(box * box); }

// A default of the table for help, each backend's boxes 3 to 5 with equal neighbours joined:
// "cpu 9x9 to 16x16: 500, 25x25: 20000; cuda ...".
std::string auto_text(std::uint32_t SizeDefaults::*m) {
  std::string out;
  for (const Backend b : {Backend::Cpu, Backend::Cuda}) {
    out += (out.empty() ? "" : "; ") + std::string(to_string(b));
    for (int first = 3, last = 3; first <= 5; first = ++last) {
      const std::uint32_t v = size_defaults(b, first).*m;
      while (last < 5 && size_defaults(b, last + 1).*m == v) ++last;
      out += (first == 3 ? " " : ", ") + box_name(first) +
             (last > first ? " to " + box_name(last) : "") + ": " + std::to_string(v);
    }
  }
  return out;
}

// Where runs sized for throughput (many puzzles at once, --pop 0) take `many` otherwise than one
// puzzle takes `one`: "; many puzzles at once, cuda 9x9: 32", or nothing.
std::string many_text(std::uint32_t SizeDefaults::*one, std::uint32_t SizeDefaults::*many) {
  std::string out;
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (int box = 3; box <= 5; ++box)
      if (const SizeDefaults& d = size_defaults(b, box); d.*many != d.*one)
        out += (out.empty() ? "; many puzzles at once, " : ", ") + std::string(to_string(b)) + " " +
               box_name(box) + ": " + std::to_string(d.*many);
  return out;
}

// A number in member `m` that also takes auto (kFromTable).
RunSetting or_auto(RunSetting s, std::uint32_t RunConfig::*m) {
  s.type_name = "UINT|auto";
  s.accepts += " or auto";
  const auto numeric = s.parse;
  s.parse = [numeric, m](RunConfig& c, const std::string& text) -> std::string {
    if (lower(text) == "auto") {
      c.*m = kFromTable;
      return "";
    }
    const std::string error = numeric(c, text);
    return error.empty() ? "" : error + " or auto";
  };
  s.text = [m](const RunConfig& c) {
    return c.*m == kFromTable ? std::string("auto") : std::to_string(c.*m);
  };
  return s;
}

std::string selection_param(const RunConfig& c) {
  switch (c.selection) {
    case Selection::Tournament: return "tournament_size=" + std::to_string(c.tournament_size);
    case Selection::Rank: return "rank_pressure=" + real_text(c.rank_pressure);
    default: return "children=" + std::to_string(c.children_in_effect());
  }
}

std::vector<RunSetting> make_settings() {
  using C = RunConfig;
  using U = std::uint32_t;
  const std::string ga = "GA", sa = "Annealing", stop = "Stopping and restarts", run = "Run";
  return {
      choice("algorithm", &C::algorithm, {Algorithm::Ga, Algorithm::Sa, Algorithm::Hc}, ga,
             "ga: the genetic algorithm; sa: simulated annealing, hc: hill climbing, every "
             "individual an independent chain of moves (a generation: one move per free cell of "
             "the puzzle, per chain)", "algorithm", {"algorithm", 17, 3}),
      number<U>("pop", &C::pop, 0, 200000000, ga, "The whole population, split into islands of "
                "--island-size (0: by backend and box size, one island per CPU thread or two per "
                "GPU multiprocessor; with several puzzles solved together, each run's share)",
                "pop", {"population_size", 0}),
      in_effect(number<U>("island-size", &C::island_size, 0, 200000000, ga, "Individuals per "
                          "island; --pop must be a multiple (0: by backend and box size, " +
                          auto_text(&SizeDefaults::island_size) +
                          many_text(&SizeDefaults::island_size, &SizeDefaults::many_island_size) +
                          "; or a divisor of --pop down "
                          "to half that; --island-size equal to --pop: one panmictic population)", "island_size", {"island_size", 14, 2}),
                [](const C& c) -> SettingValue { return std::uint64_t(c.island_size_in_effect()); }),
      derived("islands", {}, [](const C& c) -> SettingValue {
        return std::uint64_t(c.pop / std::max(c.island_size_in_effect(), 1u));
      }),
      in_effect(number<U>("migration-interval", &C::migration_interval, 0, 1000000, ga,
                          "Every this many generations each island's best --migrants replace the "
                          "worst of the next island on a fixed ring (island k sends to k+1, the "
                          "last to the first; 0: isolated islands; ga only: sa and hc chains are "
                          "independent)", "migration_interval", {"migration_interval", 15, 2}),
                [](const C& c) -> SettingValue { return std::uint64_t(c.migration_interval_in_effect()); }),
      in_effect(number<U>("migrants", &C::migrants, 0, 100000000, ga,
                          "Individuals each island sends per migration", "migrants", {"migrants", 16, 2}),
                [](const C& c) -> SettingValue { return std::uint64_t(c.migrants_in_effect()); }),
      in_effect(number<U>("children", &C::children, 0, 2000000000, ga, "Children bred per "
                          "generation per island with --selection truncation (mu+lambda); 0: 10 x "
                          "--island-size", "children"),
                [](const C& c) -> SettingValue { return std::uint64_t(c.children_in_effect()); }),
      choice("encoding", &C::encoding, {Encoding::Box, Encoding::Row, Encoding::Cell}, ga,
             "box: boxes are permutations; row: rows are; cell: every free cell independent",
             "encoding", {"encoding", 3}),
      choice("fitness", &C::fitness, {FitnessKind::Conflicts, FitnessKind::Squared}, ga,
             "conflicts: sum over counted units of 9 - distinct digits; squared: sum over all "
             "units and digits of (count-1)^2", "fitness", {"fitness", 4}),
      choice("selection", &C::selection,
             {Selection::Tournament, Selection::Rank, Selection::Truncation}, ga,
             "tournament, rank (linear ranking) or truncation (mu+lambda: the best of each "
             "island's parents and --children survive)", "selection", {"selection", 5}),
      derived("", {"selection_param", 6}, [](const C& c) -> SettingValue { return selection_param(c); }),
      number<U>("tournament-size", &C::tournament_size, 1, 64, ga, "Individuals per tournament",
                "tournament_size"),
      number<double>("rank-pressure", &C::rank_pressure, 1.0, 2.0, ga, "Linear ranking "
                     "pressure: the best rank's expected number of copies", "rank_pressure"),
      [] {  // truncation keeps no elite; the CSV records the option as given
        RunSetting s = number<U>("elite", &C::elite, 0, 200000000, "GA", "Best individuals of "
                                 "each island copied unchanged each generation", "elite", {"elite", 9});
        s.csv_value = s.value;
        s.value = [](const C& c) -> SettingValue {
          return std::uint64_t(c.selection == Selection::Truncation ? 0 : c.elite);
        };
        return s;
      }(),
      choice("crossover", &C::crossover, {Crossover::OnePoint, Crossover::Uniform, Crossover::Bands},
             ga, "one-point or uniform, over boxes (box), rows (row) or cells (cell); bands: each "
             "band of a box's height of rows (or stack of columns; 9x9: three) from the parent "
             "with fewer conflicts there (Sato & Inoue)", "crossover", {"crossover", 7}),
      number<double>("crossover-rate", &C::crossover_rate, 0.0, 1.0, ga,
                     "Probability that a child is a crossover", "crossover_rate", {"crossover_rate", 8}),
      number<double>("mutation-rate", &C::mutation_rate, 0.0, 1.0, ga, "Probability that a child "
                     "is mutated (one swap of two free cells; cell: one free cell changed)",
                     "mutation_rate", {"mutation_rate", 1}),
      or_auto(number<U>("local-search", &C::local_search, 0, 100000, ga,
                        "Hill-climbing moves tried on every bred child after mutation, each made "
                        "when it does not make the child worse (a memetic GA; 0: none; auto: by "
                        "backend and box size, " + auto_text(&SizeDefaults::local_search) + ")",
                        "local_search", {"local_search", 21, 4}),
              &C::local_search),
      flag("given-aware", &C::given_aware, ga, "box/row: initialise and swap so that no digit "
           "lands where a given of its row, column or box holds it (when a legal placement "
           "exists)", "given_aware", {"given_aware", 10}),
      choice("propagate", &C::propagate, {Propagation::None, Propagation::Singles}, ga,
             "none: the search alone; singles: naked and hidden singles on the givens to a fixed "
             "point before the run starts (a puzzle they complete is reported as solved by "
             "propagation, 0 generations)", "propagate", {"propagate", 22, 5}),
      number<double>("cooling", &C::cooling, 0.5, 0.99999, sa,
                     "sa: the temperature's factor after each chain length", "cooling", {"cooling", 18, 3}),
      number<U>("chain-length", &C::chain_length, 0, 1000000000, sa, "sa: moves per temperature "
                "(0: the puzzle's free cells, so one temperature per generation)", "chain_length",
                {"chain_length", 19, 3}),
      number<U>("reheat-after", &C::reheat_after, 0, 1000000000, sa, "sa: a chain goes back to "
                "the initial temperature (the spread of the cost along random moves) after this "
                "many temperatures without a new best (0: never)", "reheat_after", {"reheat_after", 20, 3}),
      or_auto(number<U>("restart-after", &C::restart_after, 0, 4000000000u, stop, "ga: restart an "
                        "island after this many generations without improvement of its best "
                        "fitness; hc: restart a climber from a random grid after this many "
                        "generations without a better grid (0: never; sa reheats instead; auto: "
                        "hc " + std::to_string(kClimberRestartAfter) + ", ga by backend and box "
                        "size, " + auto_text(&SizeDefaults::restart_after) + ")",
                        "restart_after", {"restart_after_n_stagnant", 2}),
              &C::restart_after),
      in_effect(or_auto(number<U>("grow-after", &C::grow_after, 0, 1000000, stop, "ga: a run not "
                                  "solved after this many generations starts again from its seed "
                                  "with islands twice the size (as many of them), at most " +
                                  std::to_string(kMaxGrowths) + " times; each stage is that "
                                  "configuration's run alone (0: never; rounded up to a multiple "
                                  "of 10 for the GA without local search; auto: with --pop and "
                                  "--island-size left at 0, by backend and box size, " +
                                  auto_text(&SizeDefaults::grow_after) +
                                  many_text(&SizeDefaults::grow_after, &SizeDefaults::many_grow_after) +
                                  "; else 0)",
                                  "grow_after", {"grow_after", 23, 6}),
                        &C::grow_after),
                [](const C& c) -> SettingValue { return std::uint64_t(c.stage_length()); }),
      number<U>("keep-on-restart", &C::keep_on_restart, 0, 0xFFFFFFFFu, stop, "Best individuals "
                "of the island kept on its restart (with --elite >= 1 these include the best it "
                "found)", "keep_on_restart", {"keep_on_restart", 11}),
      number<U>("max-generations", &C::max_generations, 0, 4000000000u, stop, "Stop after this "
                "many generations (0: none; set it for results that do not depend on the "
                "machine's speed)", "max_generations", {"max_generations", 12}),
      number<double>("time-limit", &C::time_limit, 0.0, std::numeric_limits<double>::max(), stop,
                     "Stop after this many seconds per puzzle (0: none)", "time_limit", {"time_limit", 13}),
      [] {
        RunSetting s = number<std::uint64_t>("seed", &C::seed, 0, ~std::uint64_t(0), "Run",
                                             "Random seed (default: drawn and printed, so the "
                                             "run can be repeated)", "seed");
        const auto parse = s.parse;
        s.parse = [parse](C& c, const std::string& text) {
          std::string error = parse(c, text);
          c.seed_given = error.empty();
          return error;
        };
        return s;
      }(),
      choice("backend", &C::backend, {Backend::Auto, Backend::Cpu, Backend::Cuda}, run,
             "auto (CUDA when a device is present), cuda or cpu", ""),
      number<int>("threads", &C::threads, 0, 4096, run, "CPU backend threads (0: all cores)", ""),
      number<int>("device", &C::device, 0, 1024, run, "CUDA device index (see gpuga devices)", ""),
  };
}

}  // namespace

const std::vector<RunSetting>& run_settings() {
  static const std::vector<RunSetting> settings = make_settings();
  return settings;
}

const std::vector<const RunSetting*>& csv_settings() {
  static const std::vector<const RunSetting*> columns = [] {
    std::vector<const RunSetting*> out;
    for (const RunSetting& s : run_settings())
      if (s.csv.position >= 0) out.push_back(&s);
    std::sort(out.begin(), out.end(), [](const RunSetting* a, const RunSetting* b) {
      return a->csv.position < b->csv.position;
    });
    return out;
  }();
  return columns;
}

const RunSetting* find_setting(const std::string& name) {
  for (const RunSetting& s : run_settings())
    if (!s.name.empty() && s.name == name) return &s;
  return nullptr;
}

std::string csv_text(const SettingValue& v) {
  if (const auto* d = std::get_if<double>(&v)) return real_text(*d);
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

// ---------------------------------------------------------------------------------------------
// RunConfig

std::uint32_t RunConfig::island_size_in_effect() const {
  return island_size ? island_size : default_island_size(pop, size_defaults(Backend::Cpu, 3).island_size);
}

std::uint32_t RunConfig::children_in_effect() const {
  const std::uint32_t n = island_size_in_effect();
  if (selection != Selection::Truncation) return n;
  return children ? children : 10 * n;
}

std::uint32_t RunConfig::migration_interval_in_effect() const {
  return algorithm == Algorithm::Ga ? migration_interval : 0;
}
std::uint32_t RunConfig::migrants_in_effect() const {
  return algorithm == Algorithm::Ga ? migrants : 0;
}

std::uint32_t RunConfig::stage_length() const {
  if (algorithm != Algorithm::Ga || grow_after == 0 || grow_after == kFromTable) return 0;
  GaParams ga;  // what the halt interval depends on (not islands(), which validates with this)
  ga.algorithm = algorithm;
  ga.local_search = local_search;
  const std::uint32_t h = halt_interval_for(ga);
  return (grow_after + h - 1) / h * h;
}

RunConfig RunConfig::stage(std::uint32_t k) const {
  RunConfig c = *this;
  c.island_size = island_size_in_effect() << k;
  c.pop = pop << k;
  if (selection != Selection::Truncation) c.children = 0;
  c.grow_after = 0;
  return c;
}

std::vector<EngineParams> RunConfig::stage_islands(const EngineParams& here) const {
  std::vector<EngineParams> stages;
  for (std::uint32_t k = 0; k <= kMaxGrowths; ++k) {
    const GaParams grown = stage(k).islands().ga;
    stages.push_back(here);
    stages.back().ga.island_size = grown.island_size;
    stages.back().ga.children = grown.children;
  }
  return stages;
}

void RunConfig::draw_seed() {
  if (seed_given) return;
  std::random_device rd;
  seed = (std::uint64_t(rd()) << 32) | rd();
  seed_given = true;
}

BackendShape RunConfig::shape(Backend resolved, int box) const {
  BackendShape shape;
  shape.units = static_cast<std::uint32_t>(threads > 0 ? threads : omp_get_max_threads());
#if defined(GPUGA_HAVE_CUDA)
  if (resolved == Backend::Cuda) {
    // Islands per multiprocessor: the segment step's occupancy, one island's shared memory
    // included, for islands of this configuration.
    const DeviceList list = list_devices();
    if (device < static_cast<int>(list.devices.size())) {
      RunConfig one = *this;
      one.pop = island_size_in_effect();
      shape.units = static_cast<std::uint32_t>(list.devices[device].multiprocessors);
      shape.islands_at_once = static_cast<std::uint32_t>(
          std::max(cuda_islands_per_multiprocessor(one.islands(), box, device), 1));
    }
  }
#else
  (void)resolved;
  (void)box;
#endif
  return shape;
}

void RunConfig::resolve(Backend resolved, int box, bool many) {
  const SizeDefaults& d = size_defaults(resolved == Backend::Cuda ? Backend::Cuda : Backend::Cpu, box);
  if (local_search == kFromTable) local_search = d.local_search;
  if (restart_after == kFromTable)
    restart_after = algorithm == Algorithm::Ga ? d.restart_after : kClimberRestartAfter;
  // The table's growth is measured for the table's islands; islands the user sized grow only
  // when asked. Runs sized for throughput (many puzzles, --pop 0) have islands and growth of
  // their own.
  const bool for_throughput = many && pop == 0;
  if (grow_after == kFromTable)
    grow_after = algorithm == Algorithm::Ga && pop == 0 && island_size == 0
                     ? (for_throughput ? d.many_grow_after : d.grow_after)
                     : 0;
  if (island_size == 0)
    island_size = default_island_size(pop, for_throughput ? d.many_island_size : d.island_size);
  if (pop != 0) return;
  const BackendShape s = shape(resolved, box);
  pop = (many ? default_islands_per_run(d, s) : default_islands(d, s)) * island_size;
}

void RunConfig::validate() const {
  RunConfig c = *this;
  c.resolve(Backend::Cpu, 3);  // where nothing has resolved them yet: checks only
  const std::uint32_t n = c.island_size_in_effect();
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
  GPUGA_INPUT_CHECK(algorithm == Algorithm::Ga || n <= kMaxChains,
                    "--island-size " + std::to_string(n) + ": sa and hc take at most " +
                        std::to_string(kMaxChains) + " chains an island");
  GPUGA_INPUT_CHECK(migrants <= n / 2,
                    "--migrants " + std::to_string(migrants) + ": expected at most half the "
                    "island size (" + std::to_string(n / 2) + ")");
  GPUGA_INPUT_CHECK(selection == Selection::Truncation || children == 0 || children == n,
                    "--children " + std::to_string(children) +
                        " applies to --selection truncation only; expected it left out");
  GPUGA_INPUT_CHECK(elite < n, "--elite " + std::to_string(elite) +
                                   " must be smaller than the island size " + std::to_string(n));
  GPUGA_INPUT_CHECK(algorithm == Algorithm::Ga || grow_after == 0 || grow_after == kFromTable,
                    "--grow-after " + std::to_string(grow_after) + " with --algorithm " +
                        to_string(algorithm) + "; islands grow in the GA only: expected 0 or auto");
  GPUGA_INPUT_CHECK(c.stage_length() == 0 || (std::uint64_t(c.pop) << kMaxGrowths) <= 200000000u,
                    "--grow-after with --pop " + std::to_string(c.pop) + ": its last stage would "
                    "hold " + std::to_string(std::uint64_t(c.pop) << kMaxGrowths) +
                    " individuals; expected at most 200000000 (a smaller --pop, or --grow-after 0)");
  GPUGA_INPUT_CHECK(keep_on_restart <= n,
                    "--keep-on-restart " + std::to_string(keep_on_restart) +
                        " must not exceed the island size " + std::to_string(n));
}

EngineParams RunConfig::islands() const {
  validate();
  RunConfig c = *this;
  c.resolve(Backend::Cpu, 3);  // where nothing has resolved them yet: as validate() checked
  const std::uint32_t n = c.island_size_in_effect();
  GaParams p;
  p.algorithm = algorithm;
  p.encoding = encoding;
  p.fitness = fitness;
  p.selection = selection;
  p.crossover = crossover;
  p.island_size = n;
  p.children = c.children_in_effect();
  p.elite = selection == Selection::Truncation ? 0 : elite;
  p.tournament_size = tournament_size;
  p.given_aware = given_aware;
  p.crossover_threshold = rate_threshold(crossover_rate);
  p.mutation_threshold = rate_threshold(mutation_rate);
  p.local_search = c.local_search;
  p.seed = seed;
  EngineParams ip;
  ip.ga = p;
  ip.islands = c.pop / n;
  ip.migration_interval = migration_interval_in_effect();
  ip.migrants = migrants_in_effect();
  ip.anneal.cooling_step = cooling_step(cooling);
  ip.anneal.chain_length = chain_length;
  ip.anneal.reheat_after = reheat_after;
  ip.restart_after = c.restart_after;
  ip.keep_on_restart = keep_on_restart;
  ip.rank_pressure = rank_pressure;
  ip.rank_pressure = rank_pressure;
  return ip;
}

}  // namespace gpuga
