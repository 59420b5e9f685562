// gpuga's Python module (_gpuga; the package gpuga wraps it): a thin layer over the library. Options
// are the command line's (run_settings(), dashes as underscores), read by the same parsers, so
// a keyword takes what --NAME takes and is refused with the CLI's message (ValueError). The GIL
// is released while the engine runs; callbacks and Ctrl-C are looked at after every epoch.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "gpuga/backend.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/batch_runner.hpp"
#include "gpuga/bench.hpp"
#include "gpuga/device/fitness.hpp"
#include "gpuga/devices.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/exact_solver.hpp"
#include "gpuga/sudoku/generate.hpp"
#include "gpuga/sudoku/propagate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/rate.hpp"
#include "gpuga/result_fields.hpp"
#include "gpuga/solve.hpp"
#include "gpuga/sudoku/verify.hpp"

namespace py = pybind11;
using namespace gpuga;

namespace {

// A puzzle from a string in any accepted format, or from rows of numbers (a list of lists or a
// numpy array, 0 for a blank), read by the file reader so that it is refused as a file would be.
Puzzle read_puzzle(const py::object& puzzle, ReadMode mode = ReadMode::Puzzles) {
  std::string text;
  if (py::isinstance<py::str>(puzzle)) {
    text = puzzle.cast<std::string>();
  } else {
    std::ostringstream rows;
    for (const auto& row : py::array_t<long long, py::array::c_style | py::array::forcecast>(puzzle)
                               .cast<std::vector<std::vector<long long>>>()) {
      for (long long v : row) rows << v << ' ';
      rows << '\n';
    }
    text = rows.str();
  }
  std::istringstream in(text);
  auto puzzles = parse_puzzles(in, "<puzzle>", mode);
  GPUGA_INPUT_CHECK(puzzles.size() == 1, "<puzzle>: " + std::to_string(puzzles.size()) +
                                             " puzzles; expected one");
  if (mode == ReadMode::Puzzles)
    GPUGA_INPUT_CHECK(solve_exact(puzzles[0].grid, 1).solutions > 0,
                      "<puzzle>: the puzzle has no solution; expected a solvable puzzle");
  return puzzles[0];
}

py::array_t<int> as_array(const Grid& g) {
  py::array_t<int> a({g.side(), g.side()});
  auto m = a.mutable_unchecked<2>();
  for (int c = 0; c < g.cells(); ++c) m(g.row_of(c), g.col_of(c)) = g.cell[c];
  return a;
}

// The keyword options as a run's options, each read by its setting's parser, the seed drawn
// when none is given.
RunOptions configure(const py::kwargs& options) {
  RunOptions c;
  for (const auto& [key, value] : options) {
    std::string name = py::str(key);
    for (auto& ch : name) ch = ch == '_' ? '-' : ch;
    GPUGA_INPUT_CHECK(find_setting(name), "unknown option '" + std::string(py::str(key)) +
                                                 "'; expected one of gpuga solve's options "
                                                 "(--help), dashes as underscores");
    give_option(c, name, py::isinstance<py::bool_>(value) ? (value.cast<bool>() ? "true" : "false")
                                                         : std::string(py::str(value)));
  }
  draw_seed(c);
  return c;
}

py::dict config_dict(const RunConfig& c) {
  py::dict d;
  for (const RunSetting& s : run_settings())
    if (!s.json.empty()) std::visit([&](const auto& v) { d[s.json.c_str()] = v; }, s.value(c));
  return d;
}

py::dict report_dict(const GenerationReport& r) {
  py::dict d;
  d["generation"] = r.generation;
  d["best"] = r.summary.best;
  d["best_so_far"] = r.best_so_far;
  d["mean"] = r.summary.mean;
  d["worst"] = r.summary.worst;
  d["diversity"] = r.summary.diversity;
  d["temperature"] = r.summary.temperature;
  d["restarts"] = r.restarts;
  d["growths"] = r.growths;
  d["evaluations"] = r.evaluations;
  d["elapsed"] = r.elapsed;
  return d;
}

// Calls back every `every` generations (False stops the run, an exception stops it and is
// raised from solve), keeps the history, and turns a Ctrl-C seen by Python into a clean stop.
class PyObserver final : public RunObserver {
 public:
  PyObserver(py::object callback, std::uint32_t every, bool history)
      : callback_(std::move(callback)), every_(every), history_(history) {}
  std::uint32_t cadence() const override { return every_; }

  bool on_round(const std::vector<GenerationReport>& reps, Engine&) override {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) return stop_with_error();  // Ctrl-C: KeyboardInterrupt
    for (const auto& r : reps) {
      if (every_ && r.generation % every_ != 0) continue;
      if (history_) rows_.append(report_dict(r));
      if (callback_.is_none()) continue;
      try {
        const py::object answer = callback_(report_dict(r));
        if (py::isinstance<py::bool_>(answer) && !answer.cast<bool>()) return false;
      } catch (py::error_already_set& e) {
        error_ = std::move(e);
        return false;
      }
    }
    return true;
  }
  // After the run, with the GIL: raises what stopped it, if anything did.
  void raise_if_any() {
    if (error_) {
      py::error_already_set e = std::move(*error_);
      error_.reset();
      throw e;
    }
  }
  py::list rows() const { return rows_; }

 private:
  bool stop_with_error() {
    error_ = py::error_already_set();
    g_interrupted.store(true);
    return false;
  }
  py::object callback_;
  std::uint32_t every_;
  bool history_;
  py::list rows_;
  std::optional<py::error_already_set> error_;
};

// Why auto runs on the CPU, as a Python warning (RuntimeWarning: shown once per place by
// Python's filters, an error where the caller asks warnings to be errors).
void say_why_cpu(const std::string& why_cpu) {
  if (why_cpu.empty()) return;
  if (PyErr_WarnEx(PyExc_RuntimeWarning, ("gpuga: " + why_cpu).c_str(), 1) != 0)
    throw py::error_already_set();
}

Backend backend_for(Backend requested, int device) {
  std::string why_cpu;
  const Backend b = resolve_backend(requested, device, &why_cpu);
  say_why_cpu(why_cpu);
  return b;
}

py::dict solve_puzzle(const py::object& puzzle, const py::object& callback, std::uint32_t every,
               bool history, const py::kwargs& options) {
  const Puzzle p = read_puzzle(puzzle);
  const RunOptions given = configure(options);
  PyObserver observer(callback, every, history);
  Solution s;
  {
    py::gil_scoped_release free;
    s = gpuga::solve(p.grid, given, &observer);
  }
  say_why_cpu(s.why_cpu);
  g_interrupted.store(false);
  observer.raise_if_any();
  const RunResult& r = s.result;
  const RunConfig& c = s.config;
  py::dict out;
  const FinishedRun run{p.grid, p.alphabet, r, c.backend};
  for (const ResultField& f : result_fields())
    if (f.written_in(kPython)) out[f.name] = std::visit([](const auto& v) { return py::cast(v); }, f.value(run));
  out["text"] = out["grid"];  // the line; the grid itself as numpy rows
  out["grid"] = as_array(r.best);
  out["config"] = config_dict(c);
  out["history"] = observer.rows();
  return out;
}

// Runs a batch into `csv` (gpuga batch's file, the CSV's columns and rows exactly).
bool batch(const std::vector<std::string>& files, const std::string& csv, std::uint32_t runs,
           std::uint32_t concurrent, bool resume, std::uint32_t sample, const std::string& trace,
           std::uint32_t trace_every, const std::vector<py::kwargs>& configs) {
  BatchSetup s;
  s.files = files;
  s.csv = csv;
  s.runs = runs;
  s.concurrent = concurrent;
  s.resume = resume;
  s.sample = sample;
  s.trace_dir = trace;
  s.trace_every = trace_every;
  std::vector<RunOptions> given;
  for (const auto& kw : configs) given.push_back(configure(kw));
  // The command line's news on stderr; of the progress, the last line only (a notebook has no
  // terminal to redraw a bar on).
  struct Reporter final : BatchReporter {
    void news(const std::string& line) override { std::fprintf(stderr, "batch: %s\n", line.c_str()); }
    void progress(const BatchProgress& p) override {
      if (p.done == p.total) std::fprintf(stderr, "%s\n", progress_text(p).c_str());
    }
  } reporter;
  py::gil_scoped_release free;
  const BatchEnd end = run_batches(s, given, nullptr, &reporter);
  g_interrupted.store(false);
  return end == BatchEnd::AllSolved;
}

// gpuga generate's puzzles, one line each (the command's alphabets); with a rating band, each
// as (line, score, technique).
py::list generate_puzzles(int size, std::uint32_t count, std::uint64_t seed, std::optional<double> fill,
                          bool unique, std::optional<std::string> rating) {
  GenerateSpec spec;
  spec.box = box_of_size(size);
  GPUGA_INPUT_CHECK(spec.box, "size=" + std::to_string(size) + ": expected 4, 9, 16, 25, 36, 49 or 64");
  spec.count = count;
  spec.seed = seed;
  spec.fill = fill;
  spec.unique = unique;
  if (rating) spec.rating = rating_band(*rating, "rating");
  std::vector<Generated> made;
  {
    py::gil_scoped_release free;
    made = generate(spec);
  }
  py::list out;
  for (const Generated& g : made) {
    if (rating) out.append(py::make_tuple(generated_line(g.puzzle), g.score, g.technique));
    else out.append(generated_line(g.puzzle));
  }
  return out;
}

// gpuga rate's rows: a dict a puzzle, the CSV's columns in order (None where there is none).
py::list rate_puzzles(const std::vector<std::string>& files,
                                                   std::uint32_t runs, std::uint32_t concurrent,
                                                   const py::kwargs& options) {
  RateSetup setup;
  setup.files = files;
  setup.runs = runs;
  setup.concurrent = concurrent;
  const RunOptions given = configure(options);
  struct Quiet final : BatchReporter {
    void news(const std::string&) override {}
    void progress(const BatchProgress&) override {}
  } quiet;
  std::vector<PuzzleRating> ratings;
  {
    py::gil_scoped_release free;
    ratings = rate(setup, given, &quiet);
  }
  if (g_interrupted.exchange(false)) {  // no rating of part of the runs, as the command
    PyErr_SetString(PyExc_KeyboardInterrupt, "rate interrupted: no rating written");
    throw py::error_already_set();
  }
  py::list out;
  for (const PuzzleRating& r : ratings) {
    py::dict row;
    for (const auto& [name, value] : rating_fields(r))
      row[name.c_str()] = std::visit([](const auto& v) -> py::object {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) return py::none();
        else return py::cast(v);
      }, value);
    out.append(row);
  }
  return out;
}

// What every bench of Python's measures with: the work's settings (gpuga solve's keywords), the
// seed (the library's default where None), threads and device; and the backend named.
BenchSpec bench_spec(const py::kwargs& options, const py::object& seed, int threads, int device) {
  BenchSpec spec;
  spec.work = configure(options);
  if (!seed.is_none()) spec.seed = seed.cast<std::uint64_t>();
  spec.threads = threads;
  spec.device = device;
  return spec;
}
Backend bench_backend(const std::string& name, int device) {
  RunOptions c;
  give_option(c, "backend", name);
  return backend_for(c.backend.value_or(Backend::Auto), device);
}

// gpuga bench --puzzles's row on one backend: the puzzles of `files` (one size) solved many at
// once at the plan of `options`, puzzles a second and evaluations a second.
py::dict bench_puzzle_files(const std::string& backend_name, const std::vector<std::string>& files,
                            const py::object& seed, int threads, int device, const py::kwargs& options) {
  const BenchSpec spec = bench_spec(options, seed, threads, device);
  const Backend backend = bench_backend(backend_name, device);
  std::vector<Grid> grids;
  for (const std::string& file : files)
    for (const Puzzle& p : read_puzzle_file(file)) grids.push_back(p.grid);
  PuzzlesRow r;
  {
    py::gil_scoped_release free;
    r = bench_puzzles(backend, grids, spec);
  }
  py::dict d;
  d["backend"] = r.backend;
  d["puzzles"] = r.puzzles;
  d["solved"] = r.solved;
  d["at_once"] = r.at_once;
  d["seconds"] = r.seconds;
  d["puzzles_per_s"] = r.puzzles_per_s;
  d["evaluations"] = r.evaluations;
  d["evaluations_per_s"] = r.evals_per_s;
  d["skipped"] = r.skipped;
  return d;
}

// gpuga bench's rows for every pair of the pops and island sizes given, as gpuga bench takes them
// (neither: the backend's default table), with the work's settings in `options` (gpuga solve's
// keywords) and the timing given, the library's defaults where not (None).
py::list bench(const std::string& backend_name, const std::vector<std::string>& pops,
               const std::vector<std::string>& island_sizes,
               const py::object& generations, const py::object& repeats, const py::object& warmup,
               const py::object& seed, int threads, int device, const py::kwargs& options) {
  BenchSpec spec = bench_spec(options, seed, threads, device);
  if (!generations.is_none()) spec.generations = generations.cast<std::uint32_t>();
  if (!repeats.is_none()) spec.repeats = repeats.cast<std::uint32_t>();
  if (!warmup.is_none()) spec.warmup = warmup.cast<std::uint32_t>();
  const Backend backend = bench_backend(backend_name, device);
  std::istringstream in(bench_puzzle());
  const Grid puzzle = parse_puzzles(in, "built-in")[0].grid;
  const std::vector<RunOptions> shapes =
      pops.empty() && island_sizes.empty()
          ? default_bench_shapes(backend, multiprocessors_of(list_devices(), device), spec.work, puzzle.box)
          : bench_shapes(spec.work, pops, island_sizes);
  std::vector<BenchRow> rows;
  {
    py::gil_scoped_release free;
    for (const RunOptions& shape : shapes) rows.push_back(bench_islands(backend, shape, puzzle, spec));
  }
  py::list out;
  for (const BenchRow& r : rows) {
    py::dict d;
    d["backend"] = r.backend;
    d["pop"] = r.pop;
    d["island_size"] = r.island_size;
    d["islands"] = r.islands;
    d["generations_per_s"] = r.gens_per_s;
    d["evaluations_per_s"] = r.evals_per_s;
    d["tabu_moves_per_s"] = r.tabu_moves_per_s;
    d["ms_per_epoch"] = r.ms_per_epoch;
    d["ms_per_repeat"] = r.ms_per_repeat;
    d["ms_advance"] = 1e3 * r.per_epoch.advance;
    d["ms_summary"] = 1e3 * r.per_epoch.summary;
    d["placement"] = r.placement;
    d["islands_per_multiprocessor"] = r.islands_per_sm;
    d["validated"] = r.validated;
    d["skipped"] = r.skipped;
    d["solved_at_generation"] = r.solved_at == kNever ? py::object(py::none()) : py::int_(r.solved_at);
    out.append(d);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_gpuga, m) {
  m.doc() = "gpuga's engine (use the gpuga package)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("solve", &solve_puzzle, py::arg("puzzle"), py::arg("callback") = py::none(),
        py::arg("every") = 0, py::arg("history") = false);
  m.def("batch", &batch, py::arg("files"), py::arg("csv"), py::arg("runs"),
        py::arg("concurrent"), py::arg("resume"), py::arg("sample"), py::arg("trace"),
        py::arg("trace_every"), py::arg("configs"));
  m.def("generate", &generate_puzzles, py::arg("size"), py::arg("count"), py::arg("seed"),
        py::arg("fill"), py::arg("unique"), py::arg("rating"));
  m.def("rate", &rate_puzzles, py::arg("files"), py::arg("runs"), py::arg("concurrent"));
  m.def("bench_puzzles", &bench_puzzle_files, py::arg("backend"), py::arg("files"), py::arg("seed"),
        py::arg("threads"), py::arg("device"));
  m.def("bench", &bench, py::arg("backend"), py::arg("pops"), py::arg("island_sizes"),
        py::arg("generations"),
        py::arg("repeats"), py::arg("warmup"), py::arg("seed"), py::arg("threads"),
        py::arg("device"));
  m.def("read_puzzles", [](const std::string& path) {
    std::vector<std::string> out;
    for (const auto& p : read_puzzle_file(path)) out.push_back(to_line(p.grid, p.alphabet));
    return out;
  });
  m.def("check", [](const py::object& puzzle) {
    return solve_exact(read_puzzle(puzzle, ReadMode::Grids).grid, 2).solutions;
  });
  m.def("verify", [](const py::object& puzzle, const py::object& grid) {
    const Verdict v = verify_solution(read_puzzle(puzzle).grid, read_puzzle(grid, ReadMode::Grids).grid);
    return py::make_tuple(v.ok, v.reason);
  });
  m.def("score", [](const py::object& grid) {
    const Grid g = read_puzzle(grid, ReadMode::Grids).grid;
    return with_box_size(g.box, [&]<int B>() {
      return conflict_fitness<B>(g.cell.data(), Encoding::Box);
    });
  });
  m.def("devices", [] {
    py::list out;
    for (const auto& d : list_devices().devices) {
      py::dict x;
      x["index"] = d.index;
      x["name"] = d.name;
      x["multiprocessors"] = d.multiprocessors;
      x["memory_bytes"] = d.memory_bytes;
      out.append(x);
    }
    return out;
  });
  m.def("result_fields", [] {  // each as {name, json, csv, python, formerly, meaning}
    py::list out;
    for (const ResultField& f : result_fields()) {
      py::dict d;
      d["name"] = f.name;
      d["json"] = f.written_in(kJson);
      d["csv"] = f.written_in(kCsv);
      d["python"] = f.written_in(kPython);
      d["formerly"] = f.formerly ? py::object(py::str(f.formerly)) : py::object(py::none());
      d["meaning"] = f.meaning;
      out.append(d);
    }
    return out;
  });
  m.def("former_columns", [] { return former_columns(); });  // {old CSV column: its name now}
  m.def("options", [] {
    std::vector<std::string> names;
    for (const RunSetting& s : run_settings())
      if (!s.name.empty()) {
        std::string n = s.name;
        for (auto& ch : n) ch = ch == '-' ? '_' : ch;
        names.push_back(n);
      }
    return names;
  });
}
