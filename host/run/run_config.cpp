#include "gpuga/run_config.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <map>
#include <random>

#include "gpuga/defaults.hpp"

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
const char* to_string(Repair r) { return r == Repair::Propagate ? "propagate" : "none"; }
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

// What a range accepts, in words: "0 to 64"; "0 or more" for a real with no upper end (a whole
// number's type always has one, and a value past it is refused naming it).
template <class T>
std::string range_text(T lo, T hi) {
  if (std::is_floating_point_v<T> && hi == std::numeric_limits<T>::max())
    return number_text(lo) + " or more";
  return number_text(lo) + " to " + number_text(hi);
}

// Where a setting's value in effect lives in a RunConfig: a member of its own, or of the kernel
// parameters it holds (RunConfig::engine: the islands', their GA's or their annealing's).
template <class T>
struct Place {
  T RunConfig::*own = nullptr;
  T EngineParams::*engine = nullptr;
  T GaParams::*ga = nullptr;
  T AnnealParams::*anneal = nullptr;
  Place(T RunConfig::*m) : own(m) {}
  Place(T EngineParams::*m) : engine(m) {}
  Place(T GaParams::*m) : ga(m) {}
  Place(T AnnealParams::*m) : anneal(m) {}

  template <class Config>  // RunConfig or const RunConfig
  auto& of(Config& c) const {
    if (own) return c.*own;
    if (engine) return c.engine.*engine;
    if (ga) return c.engine.ga.*ga;
    return c.engine.anneal.*anneal;
  }
};

// A configuration of defaults only: what a setting not given is, where plan() decides nothing.
const RunConfig& config_defaults() {
  static const RunConfig defaults;
  return defaults;
}

// The text of a configuration's default at `in`.
template <class T>
std::string default_text(const Place<T>& in) {
  return number_text(in.of(config_defaults()));
}

// Why `text` is not a number of type T in [lo, hi], or "" with the number in `v`.
template <class T>
std::string range_problem(const std::string& text, T lo, T hi, T& v) {
  double any = 0;  // what a number out of T's own range reads as, to say so
  if (!parse_number(text, v) && parse_number(text, any)) {
    // 1e3, 0x40, 64.5: a number, in range, but not a whole one in the digits a count is read in.
    if (std::is_integral_v<T> && text.find_first_not_of("0123456789") != std::string::npos &&
        any >= double(lo) && any <= double(hi))
      return "'" + text + "' is not a whole number in decimal digits; expected " + range_text(lo, hi);
    return text + " is out of range; expected " + range_text(lo, hi);
  }
  if (!parse_number(text, v)) return "'" + text + "' is not a number; expected " + range_text(lo, hi);
  if (!(v >= lo && v <= hi)) return text + " is out of range; expected " + range_text(lo, hi);
  return "";
}

// A number in [lo, hi], given into `given` and in effect in `in`.
template <class T>
RunSetting number(std::string name, std::optional<T> RunOptions::*given, Place<T> in, T lo,
                  T hi, std::string group, std::string help, std::string json, CsvColumn csv = {}) {
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
  s.parse = [given, lo, hi](RunOptions& o, const std::string& text) -> std::string {
    T v{};
    std::string problem = range_problem(text, lo, hi, v);
    if (problem.empty()) o.*given = v;
    return problem;
  };
  s.text = [given, in](const RunOptions& o) {
    return o.*given ? number_text(*(o.*given)) : default_text(in);
  };
  s.apply = [given, in](const RunOptions& o, RunConfig& c) {
    if (o.*given) in.of(c) = *(o.*given);
  };
  s.value = [in](const RunConfig& c) -> SettingValue {
    if constexpr (std::is_floating_point_v<T>) return double(in.of(c));
    else return std::uint64_t(in.of(c));
  };
  return s;
}

// One of `values`, by name (any case), or by its index as older --print-config files wrote it.
template <class E>
RunSetting choice(std::string name, std::optional<E> RunOptions::*given,
                  std::type_identity_t<Place<E>> in,
                  std::vector<E> values, std::string group, std::string help, std::string json,
                  CsvColumn csv = {}) {
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
  s.parse = [given, values, names = s.type_name](RunOptions& o, const std::string& text) -> std::string {
    for (E v : values)
      if (lower(text) == to_string(v) || text == std::to_string(static_cast<int>(v))) {
        o.*given = v;
        return "";
      }
    return "'" + text + "'; expected one of " + names;
  };
  s.text = [given, in](const RunOptions& o) {
    return std::string(to_string(o.*given ? *(o.*given) : in.of(config_defaults())));
  };
  s.apply = [given, in](const RunOptions& o, RunConfig& c) {
    if (o.*given) in.of(c) = *(o.*given);
  };
  s.value = [in](const RunConfig& c) -> SettingValue { return std::string(to_string(in.of(c))); };
  return s;
}

RunSetting flag(std::string name, std::optional<bool> RunOptions::*given, Place<bool> in,
                std::string group, std::string help, std::string json, CsvColumn csv) {
  RunSetting s;
  s.name = std::move(name);
  s.type_name = "BOOLEAN";
  s.group = std::move(group);
  s.help = std::move(help);
  s.json = std::move(json);
  s.csv = std::move(csv);
  s.parse = [given](RunOptions& o, const std::string& text) -> std::string {
    static const std::map<std::string, bool> words = {
        {"true", true}, {"false", false}, {"1", true}, {"0", false}, {"yes", true},
        {"no", false}, {"on", true}, {"off", false}};
    const auto it = words.find(lower(text));
    if (it == words.end()) return "'" + text + "'; expected true or false";
    o.*given = it->second;
    return "";
  };
  s.text = [given, in](const RunOptions& o) {
    return std::string((o.*given ? *(o.*given) : in.of(config_defaults())) ? "true" : "false");
  };
  s.apply = [given, in](const RunOptions& o, RunConfig& c) {
    if (o.*given) in.of(c) = *(o.*given);
  };
  s.value = [in](const RunConfig& c) -> SettingValue { return in.of(c); };
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

std::string box_name(int box) { return std::to_string(box * box) + "x" + std::to_string(box * box); }

// A default of the table (the repaired GA's rows or the plain GA's) for help, each backend's
// boxes 3 to 8 with equal neighbours joined: "cpu 9x9 to 16x16: 500, 25x25: 20000; cuda ...".
std::string auto_text(std::uint32_t SizeDefaults::*m, Repair repair) {
  std::string out;
  for (const Backend b : {Backend::Cpu, Backend::Cuda}) {
    out += (out.empty() ? "" : "; ") + std::string(to_string(b));
    for (int first = 3, last = 3; first <= kMaxBox; first = ++last) {
      const std::uint32_t v = size_defaults(b, first, repair).*m;
      while (last < kMaxBox && size_defaults(b, last + 1, repair).*m == v) ++last;
      out += (first == 3 ? " " : ", ") + box_name(first) +
             (last > first ? " to " + box_name(last) : "") + ": " + std::to_string(v);
    }
  }
  return out;
}

// Where runs sized for throughput (many puzzles at once, --pop 0) take `many` otherwise than one
// puzzle takes `one`: "; many puzzles at once, cuda 9x9: 32", or nothing.
std::string many_text(std::uint32_t SizeDefaults::*one, std::uint32_t SizeDefaults::*many,
                      Repair repair) {
  std::string out;
  for (const Backend b : {Backend::Cpu, Backend::Cuda})
    for (int box = 3; box <= kMaxBox; ++box)
      if (const SizeDefaults& d = size_defaults(b, box, repair); d.*many != d.*one)
        out += (out.empty() ? "; many puzzles at once, " : ", ") + std::string(to_string(b)) + " " +
               box_name(box) + ": " + std::to_string(d.*many);
  return out;
}

// A number that plan() decides when it is not given: `word` (auto) says so, and so does 0 where
// `zero_too` (--pop 0, --island-size 0, --children 0); the command line shows `word` for it.
RunSetting or_auto(RunSetting s, std::optional<std::uint32_t> RunOptions::*given,
                   const std::string& word = "auto", bool zero_too = false) {
  if (word == "auto") {
    s.type_name = "UINT|auto";
    s.accepts += " or auto";
  }
  const auto numeric = s.parse;
  s.parse = [numeric, given, word, zero_too](RunOptions& o, const std::string& text) -> std::string {
    if (lower(text) == "auto") {
      o.*given = std::nullopt;
      return "";
    }
    const std::string error = numeric(o, text);
    if (error.empty() && zero_too && *(o.*given) == 0) o.*given = std::nullopt;
    return error.empty() || word != "auto" ? error : error + " or auto";
  };
  s.text = [given, word](const RunOptions& o) {
    return o.*given ? std::to_string(*(o.*given)) : word;
  };
  return s;
}

// A default of both sets of the table's rows for help: the repaired GA's (the default), then the
// plain GA's, each with `many` where runs sized for throughput take another.
std::string both_texts(std::uint32_t SizeDefaults::*m, std::uint32_t SizeDefaults::*many = nullptr) {
  auto rows = [&](Repair r) { return auto_text(m, r) + (many ? many_text(m, many, r) : ""); };
  return "repaired, " + rows(Repair::Propagate) + "; --repair none, " + rows(Repair::None);
}

// A choice that plan() decides when it is not given: auto says so, and the command line shows it.
template <class E>
RunSetting choice_or_auto(RunSetting s, std::optional<E> RunOptions::*given) {
  s.type_name += "|auto";
  const auto named = s.parse;
  s.parse = [named, given](RunOptions& o, const std::string& text) -> std::string {
    if (lower(text) == "auto") {
      o.*given = std::nullopt;
      return "";
    }
    const std::string error = named(o, text);
    return error.empty() ? error : error + " or auto";
  };
  s.text = [given](const RunOptions& o) {
    return o.*given ? std::string(to_string(*(o.*given))) : std::string("auto");
  };
  return s;
}

std::string selection_param(const RunConfig& c) {
  switch (c.engine.ga.selection) {
    case Selection::Tournament:
      return "tournament_size=" + std::to_string(c.engine.ga.tournament_size);
    case Selection::Rank: return "rank_pressure=" + real_text(c.engine.rank_pressure);
    default: return "children=" + std::to_string(c.engine.ga.children);
  }
}

std::vector<RunSetting> make_settings() {
  using C = RunConfig;
  using G = GaParams;
  using E = EngineParams;
  using A = AnnealParams;
  using O = RunOptions;
  using U = std::uint32_t;
  const std::string ga = "GA", sa = "Annealing", stop = "Stopping and restarts", run = "Run";
  return {
      choice("algorithm", &O::algorithm, &G::algorithm, {Algorithm::Ga, Algorithm::Sa, Algorithm::Hc},
             ga, "ga: the genetic algorithm; sa: simulated annealing, hc: hill climbing, every "
             "individual an independent chain of moves (a generation: one move per free cell of "
             "the puzzle, per chain)", "algorithm", {"algorithm", 17, 3}),
      or_auto(number<U>("pop", &O::pop, &C::pop, 0, 200000000, ga, "The whole population, split "
                        "into islands of --island-size (0: by backend and box size, one island "
                        "per CPU thread or two per GPU multiprocessor; with several puzzles solved "
                        "together, each run's share)", "pop", {"pop", 0, 1, "population_size"}),
              &O::pop, "0", true),
      or_auto(number<U>("island-size", &O::island_size, &G::individuals, 0, 200000000, ga,
                        "Individuals per island; --pop must be a multiple (0: by backend and box "
                        "size, " + both_texts(&SizeDefaults::island_size,
                                              &SizeDefaults::many_island_size) +
                        "; or a divisor of --pop down to half that; --island-size equal to --pop: "
                        "one panmictic population)", "island_size", {"island_size", 14, 2}),
              &O::island_size, "0", true),
      derived("islands", {}, [](const C& c) -> SettingValue {
        return std::uint64_t(c.pop / std::max(c.engine.ga.individuals, 1u));
      }),
      number<U>("migration-interval", &O::migration_interval, &E::migration_interval, 0, 1000000,
                ga, "Every this many generations each island's best --migrants replace the "
                "worst of the next island on a fixed ring (island k sends to k+1, the last to "
                "the first; 0: isolated islands; ga only: sa and hc chains are independent)",
                "migration_interval", {"migration_interval", 15, 2}),
      number<U>("migrants", &O::migrants, &E::migrants, 0, 100000000, ga,
                "Individuals each island sends per migration", "migrants", {"migrants", 16, 2}),
      or_auto(number<U>("children", &O::children, &G::children, 0, 2000000000, ga, "Children bred "
                        "per generation per island with --selection truncation (mu+lambda); 0: 10 "
                        "x --island-size", "children"),
              &O::children, "0", true),
      choice_or_auto(choice("encoding", &O::encoding, &G::encoding,
                            {Encoding::Box, Encoding::Row, Encoding::Cell}, ga, "box: boxes are "
                            "permutations; row: rows are; cell: every free cell independent "
                            "(auto: cell with --repair propagate, else box)", "encoding",
                            {"encoding", 3}),
                     &O::encoding),
      choice("fitness", &O::fitness, &G::fitness, {FitnessKind::Conflicts, FitnessKind::Squared},
             ga, "conflicts: sum over counted units of 9 - distinct digits; squared: sum over all "
             "units and digits of (count-1)^2", "fitness", {"fitness", 4}),
      choice("selection", &O::selection, &G::selection,
             {Selection::Tournament, Selection::Rank, Selection::Truncation}, ga,
             "tournament, rank (linear ranking) or truncation (mu+lambda: the best of each "
             "island's parents and --children survive)", "selection", {"selection", 5}),
      derived("", {"selection_param", 6}, [](const C& c) -> SettingValue { return selection_param(c); }),
      number<U>("tournament-size", &O::tournament_size, &G::tournament_size, 1, 64, ga,
                "Individuals per tournament", "tournament_size"),
      number<double>("rank-pressure", &O::rank_pressure, &E::rank_pressure, 1.0, 2.0, ga, "Linear "
                     "ranking pressure: the best rank's expected number of copies", "rank_pressure"),
      [] {  // truncation keeps no elite; the CSV records the option as given
        RunSetting s = number<U>("elite", &O::elite, &C::elite, 0, 200000000, "GA", "Best "
                                 "individuals of each island copied unchanged each generation",
                                 "elite", {"elite", 9});
        s.csv_value = s.value;
        s.value = [](const C& c) -> SettingValue {
          return std::uint64_t(c.engine.ga.selection == Selection::Truncation ? 0 : c.elite);
        };
        return s;
      }(),
      choice("crossover", &O::crossover, &G::crossover,
             {Crossover::OnePoint, Crossover::Uniform, Crossover::Bands}, ga, "one-point or "
             "uniform, over boxes (box), rows (row) or cells (cell); bands: each band of a box's "
             "height of rows (or stack of columns; 9x9: three) from the parent with fewer "
             "conflicts there (Sato & Inoue)", "crossover", {"crossover", 7}),
      number<double>("crossover-rate", &O::crossover_rate, &C::crossover_rate, 0.0, 1.0, ga,
                     "Probability that a child is a crossover", "crossover_rate", {"crossover_rate", 8}),
      number<double>("mutation-rate", &O::mutation_rate, &C::mutation_rate, 0.0, 1.0, ga,
                     "Probability that a child is mutated (one swap of two free cells; cell: one "
                     "free cell changed)", "mutation_rate", {"mutation_rate", 1}),
      or_auto(number<U>("local-search", &O::local_search, &G::local_search, 0, 100000, ga,
                        "Hill-climbing moves tried on every bred child after mutation, each made "
                        "when it does not make the child worse (a memetic GA; 0: none; auto: by "
                        "backend and box size, " + both_texts(&SizeDefaults::local_search) + ")",
                        "local_search", {"local_search", 21, 4}),
              &O::local_search),
      choice_or_auto(choice("repair", &O::repair, &G::repair, {Repair::None, Repair::Propagate}, ga,
                            "none: children as bred; propagate: every child, and every new "
                            "individual, rebuilt within its cells' candidates: the most "
                            "constrained open cell first, its own value where that is still a "
                            "candidate (else a random one), naked and hidden singles after each "
                            "placement; a cell left with no candidate stays blank, a conflict in "
                            "each of its units (ga with --encoding cell and --fitness conflicts; "
                            "auto: propagate for the GA with --presolve singles, no --encoding "
                            "and --fitness conflicts, else none)", "repair", {"repair", 24, 7}),
                     &O::repair),
      or_auto(number<U>("tabu", &O::tabu, &G::tabu, 0, kMaxTabuSteps, ga,
                        "Tabu-search steps on every repaired grid (--repair propagate; a warp a "
                        "grid on a GPU): its blanks filled, each step changes a cell in conflict to the "
                        "candidate that removes the most conflicts, not taking a cell back to a "
                        "value it left lately (TabuCol); the individual is the best grid found, "
                        "conflicts and all (0: none; auto: by backend and box size, " +
                        auto_text(&SizeDefaults::tabu, Repair::Propagate) + ")", "tabu",
                        {"tabu", 25, 8}),
              &O::tabu),
      or_auto(number<U>("tabu-return", &O::tabu_return, &G::tabu_return, 0, kMaxTabuSteps, ga,
                        "Steps after which a tabu search (--tabu) that has not bettered its best "
                        "since, nor gone back, goes back to its best grid with its tabu cleared (0: "
                        "never; auto: by backend and box size, " +
                        auto_text(&SizeDefaults::tabu_return, Repair::Propagate) + ")", "tabu_return",
                        {"tabu_return", 26, 9}),
              &O::tabu_return),
      flag("given-aware", &O::given_aware, &G::given_aware, ga, "box/row: initialise and swap so "
           "that no digit lands where a given of its row, column or box holds it (when a legal "
           "placement exists)", "given_aware", {"given_aware", 10}),
      [&ga] {  // called --propagate before, which read like --repair propagate
        RunSetting s = choice("presolve", &O::presolve, &C::presolve,
                              {Propagation::None, Propagation::Singles}, ga, "none: the search "
                              "alone; singles: naked and hidden singles on the givens to a fixed "
                              "point before the run starts (a puzzle they complete is reported as "
                              "solved by propagation, 0 generations); --propagate, its former "
                              "name, is read as --presolve", "presolve",
                              {"presolve", 22, 5, "propagate"});
        s.formerly = "propagate";
        return s;
      }(),
      number<double>("cooling", &O::cooling, &C::cooling, 0.5, 0.99999, sa,
                     "sa: the temperature's factor after each chain length", "cooling", {"cooling", 18, 3}),
      number<U>("chain-length", &O::chain_length, &A::chain_length, 0, 1000000000, sa, "sa: moves "
                "per temperature (0: the puzzle's free cells, so one temperature per generation)",
                "chain_length", {"chain_length", 19, 3}),
      number<U>("reheat-after", &O::reheat_after, &A::reheat_after, 0, 1000000000, sa, "sa: a "
                "chain goes back to the initial temperature (the spread of the cost along random "
                "moves) after this many temperatures without a new best (0: never)",
                "reheat_after", {"reheat_after", 20, 3}),
      or_auto(number<U>("restart-after", &O::restart_after, &E::restart_after, 0, 4000000000u, stop,
                        "ga: restart an island after this many generations without improvement "
                        "of its best fitness; hc: restart a climber from a random grid after this "
                        "many generations without a better grid (0: never; sa reheats instead; "
                        "auto: hc " + std::to_string(kClimberRestartAfter) + ", ga by backend and "
                        "box size, " + both_texts(&SizeDefaults::restart_after) + ")",
                        "restart_after", {"restart_after", 2, 1, "restart_after_n_stagnant"}),
              &O::restart_after),
      or_auto(number<U>("grow-after", &O::grow_after, &C::grow_after, 0, 1000000, stop, "ga: a run "
                        "not solved after this many generations starts again from its seed with "
                        "islands twice the size (as many of them), at most " +
                        std::to_string(kMaxGrowths) + " times; each stage is that configuration's "
                        "run alone (0: never; rounded up to a multiple of 10 for the GA without "
                        "local search; auto: with --pop and --island-size left at 0, by backend "
                        "and box size, " + both_texts(&SizeDefaults::grow_after,
                                                      &SizeDefaults::many_grow_after) +
                        "; else 0)", "grow_after", {"grow_after", 23, 6}),
              &O::grow_after),
      number<U>("keep-on-restart", &O::keep_on_restart, &E::keep_on_restart, 0, 0xFFFFFFFFu, stop,
                "Best individuals of the island kept on its restart (with --elite >= 1 these "
                "include the best it found)", "keep_on_restart", {"keep_on_restart", 11}),
      number<U>("max-generations", &O::max_generations, &C::max_generations, 0, 4000000000u, stop,
                "Stop after this many generations (0: none; set it for results that do not "
                "depend on the machine's speed)", "max_generations", {"max_generations", 12}),
      number<double>("time-limit", &O::time_limit, &C::time_limit, 0.0,
                     std::numeric_limits<double>::max(), stop,
                     "Stop after this many seconds per puzzle (0: none), within 10 % or 0.25 s, "
                     "whichever is larger: each island stops where the limit finds it (one island "
                     "spread over every CPU thread or a GPU's grid, and a GPU's generation 0, at "
                     "the end of a generation)", "time_limit", {"time_limit", 13}),
      number<std::uint64_t>("seed", &O::seed, &G::seed, 0, ~std::uint64_t(0), run, "Random seed "
                            "(default: drawn and printed, so the run can be repeated)", "seed"),
      [&run] {  // the backend in effect is the target's (plan); auto is the default given
        RunSetting s = choice("backend", &O::backend, &C::backend,
                              {Backend::Auto, Backend::Cpu, Backend::Cuda}, run,
                              "auto (CUDA when a device is present), cuda or cpu", "");
        s.text = [](const O& o) { return std::string(to_string(o.backend.value_or(Backend::Auto))); };
        s.apply = [](const O&, C&) {};
        return s;
      }(),
      number<int>("threads", &O::threads, &C::threads, 0, 4096, run, "CPU backend threads (0: all "
                  "cores)", ""),
      number<int>("device", &O::device, &C::device, 0, 1024, run, "CUDA device index (see gpuga "
                  "devices)", ""),
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
    if (!s.name.empty() && (s.name == name || s.formerly == name)) return &s;
  return nullptr;
}

void give_option(RunOptions& o, const std::string& name, const std::string& text) {
  const RunSetting* s = find_setting(name);
  GPUGA_INPUT_CHECK(s, "unknown option --" + name + "; expected one of gpuga solve's options (--help)");
  const std::string error = s->parse(o, text);
  GPUGA_INPUT_CHECK(error.empty(), "--" + name + " " + text + ": " + error);
}

std::string csv_text(const SettingValue& v) {
  if (const auto* d = std::get_if<double>(&v)) return real_text(*d);
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

std::string whole_number_problem(const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  return range_problem(text, lo, hi, v);
}

std::string real_number_problem(const std::string& text, double lo, double hi, double* value) {
  double v = 0;
  std::string problem = range_problem(text, lo, hi, v);
  if (value) *value = v;
  return problem;
}

Algorithm algorithm_of(const RunOptions& o) {
  return o.algorithm.value_or(config_defaults().engine.ga.algorithm);
}

void draw_seed(RunOptions& o) {
  if (o.seed) return;
  std::random_device rd;
  o.seed = (std::uint64_t(rd()) << 32) | rd();
}

}  // namespace gpuga
