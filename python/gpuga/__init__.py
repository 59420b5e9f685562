"""gpuga from Python: the GA engine of the gpuga command, with DataFrames and callbacks.

    import gpuga
    r = gpuga.solve("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..", seed=1)
    print(r.text)                         # a verified grid
    runs = gpuga.batch("puzzles/norvig_top95.txt", runs=3, seed=1, max_generations=200)

Options are gpuga solve's, dashes as underscores (pop=, island_size=, local_search=, ...), read
by the same parsers: the same seed and options give the same result as the command line, and a
bad value raises ValueError with its message.
"""
import os
import random
import tempfile
import warnings

try:
    from . import _gpuga
except ImportError as missing:  # the package's source without its compiled half
    raise ImportError(
        f"gpuga's compiled module (_gpuga) is not beside {os.path.dirname(__file__)}: install "
        "the package (pip install ./python) or build gpuga with GPUGA_PYTHON=ON and put "
        "BUILD/python on PYTHONPATH") from missing
from ._gpuga import check, devices, options, read_puzzles, score, verify

__all__ = ["Result", "solve", "batch", "sweep", "bench", "generate", "rate", "read_runs", "plot", "read_puzzles",
           "check", "verify", "score", "devices", "options"]


class Result:
    """A run's result (the fields below, the library's list), with grid (the grid as numpy rows),
    config (the effective configuration) and, with history=True, history (a DataFrame, one row
    per generation)."""

    def __init__(self, fields):
        rows = fields.pop("history")
        self.__dict__.update(fields)
        self.history = None
        if rows:
            import pandas as pd
            self.history = pd.DataFrame(rows)

    def __repr__(self):
        state = "solved" if self.solved else f"not solved (best fitness {self.best_fitness})"
        return (f"<gpuga.Result {state} after {self.generations} generations, "
                f"{self.seconds:.3f} s, seed {self.seed}, stop {self.stop!r}>")


Result.__doc__ += "\n" + "\n".join(f"    {f['name']}: {f['meaning']}" for f in _gpuga.result_fields() if f["python"])


def read_runs(path):
    """A batch or sweep CSV as a DataFrame, as batch() returns one; the columns a CSV written by
    an older gpuga names otherwise (final_fitness, time_seconds, population_size, ...) take their
    names now, as gpuga report reads them."""
    import pandas as pd
    return pd.read_csv(path, keep_default_na=False).rename(columns=_gpuga.former_columns())


def solve(puzzle, *, callback=None, every=None, history=False, progress=False, **options):
    """Solves one puzzle: a string in any format gpuga reads, or rows of numbers (a list of
    lists or a numpy array, 0 for a blank). callback(report) is called every `every`
    generations (1 by default) with best, mean, worst, diversity, restarts, evaluations and
    elapsed; returning False stops the run as Ctrl-C does, and an exception it raises stops the
    run and is raised here. Ctrl-C stops the run at the end of its epoch and raises
    KeyboardInterrupt. progress=True shows a tqdm bar of the best fitness so far (without tqdm
    installed, a warning says so and the run goes on without it)."""
    if progress:
        callback = _progress_bar(callback)
    if every is None:
        every = 1 if callback is not None or history else 0
    return Result(_gpuga.solve(puzzle, callback, every, history, **options))


def _progress_bar(callback):
    try:
        from tqdm.auto import tqdm
    except ImportError:
        warnings.warn("progress=True: tqdm is not installed, so no progress bar is shown "
                      "(pip install tqdm)", stacklevel=3)
        return callback
    bar = tqdm(desc="best fitness", unit=" generations")

    def show(report):
        bar.update(1)
        bar.set_postfix(best=report["best_so_far"])
        if report["best_so_far"] == 0:
            bar.close()
        return callback(report) if callback is not None else True
    return show


def _files(puzzles, scratch):
    """Puzzle files for a batch: paths as they are, puzzle strings written to one file."""
    if isinstance(puzzles, (str, os.PathLike)) and os.path.exists(puzzles):
        return [os.fspath(puzzles)]
    if isinstance(puzzles, (str, os.PathLike)):
        puzzles = [puzzles]
    if all(os.path.exists(p) for p in puzzles):
        return [os.fspath(p) for p in puzzles]
    path = os.path.join(scratch, "puzzles.txt")
    with open(path, "w") as f:
        f.write("\n".join(str(p) for p in puzzles) + "\n")
    return [path]


def _run(puzzles, configs, csv, trace, **setup):
    """gpuga batch's runs of `configs` into a DataFrame; setup: runs, concurrent, resume, sample,
    trace_every, as the command line's."""
    import pandas as pd
    with tempfile.TemporaryDirectory() as scratch:
        out = os.fspath(csv) if csv is not None else os.path.join(scratch, "runs.csv")
        _gpuga.batch(_files(puzzles, scratch), out, trace=os.fspath(trace) if trace is not None else "",
                     configs=configs, **setup)
        return read_runs(out)


def batch(puzzles, runs=1, seed=None, csv=None, concurrent=0, resume=False, sample=0, trace=None,
          trace_every=1, **options):
    """Runs every puzzle `runs` times (seeds derived from `seed`) with gpuga batch's engine and
    returns its rows as a DataFrame with exactly the CSV's columns; csv= also keeps the CSV.
    `puzzles`: a file, a list of files, or puzzle strings. sample=N draws N puzzles at random
    (seeded); trace=DIR writes every trace_every-th generation of each run to DIR/traces.csv, as
    gpuga batch --trace does."""
    if seed is not None:
        options["seed"] = seed
    return _run(puzzles, [options], csv, trace, runs=runs, concurrent=concurrent, resume=resume,
                sample=sample, trace_every=trace_every)


def sweep(grid, puzzles, runs=1, seed=None, csv=None, concurrent=0, resume=False, sample=0,
          trace=None, trace_every=1, **options):
    """A batch for every combination of the values in `grid` ({"pop": [1000, 2000], ...}), all
    with the same seed, into one DataFrame (gpuga sweep); sample and trace as batch's."""
    import itertools
    options["seed"] = seed if seed is not None else random.getrandbits(64)
    names = list(grid)
    configs = [dict(options, **dict(zip(names, values)))
               for values in itertools.product(*(grid[n] for n in names))]
    return _run(puzzles, configs, csv, trace, runs=runs, concurrent=concurrent, resume=resume,
                sample=sample, trace_every=trace_every)


def plot(runs=None, traces=None, out="plots"):
    """The pictures of gpuga plot, into the folder `out`: convergence from `traces` (the folder
    given to trace=, or to --trace), and from `runs` (a DataFrame batch() or sweep() returned,
    or their CSV files) the share solved against time and evaluations, solved runs and the
    settings' effects. Returns the paths written; ValueError names an input that is not
    gpuga's."""
    from . import plots
    traces = os.fspath(traces) if traces is not None else None
    if runs is None or isinstance(runs, (str, os.PathLike)):
        return plots.draw([runs] if runs is not None else [], traces, out)
    if not hasattr(runs, "to_csv"):
        return plots.draw(list(runs), traces, out)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "runs.csv")
        runs.to_csv(path, index=False)
        return plots.draw([path], traces, out)


def generate(size=9, count=1, seed=1, fill=None, unique=False, rating=None):
    """Puzzles made to order, as `gpuga generate` makes them (the same arguments, the same
    puzzles): a list of strings, each one line. fill: the fraction of cells given; unique: givens
    removed only while exactly one solution remains (with fill: down to it, else a minimal
    puzzle). A fill uniqueness does not allow raises ValueError saying what it reached.
    rating: "LO-HI" (e.g. "7-8") or a word (easy, medium, hard, very hard, extreme): minimal
    puzzles whose rating score lies in it, each as (line, score, technique); a band no puzzle
    reaches raises ValueError."""
    return _gpuga.generate(size, count, seed, fill, unique, rating)


def rate(puzzles, runs=10, seed=None, concurrent=0, **options):
    """How hard each puzzle is for the engine, as `gpuga rate` measures it: a DataFrame, one row
    a puzzle (success rate, median and 90th percentile generations, evaluations and seconds, what
    propagation fills, the exact solver's conflicts, the rating). `puzzles`: a file, a list of
    files, or puzzle strings; the options are gpuga solve's."""
    import pandas as pd
    if seed is not None:
        options["seed"] = seed
    with tempfile.TemporaryDirectory() as scratch:
        rows = _gpuga.rate(_files(puzzles, scratch), runs, concurrent, **options)
    return pd.DataFrame(rows)  # None (a percentile on an unsolved run): NaN


def bench(backend="auto", pop=None, island_size=None, generations=None, repeats=None,
          warmup=None, seed=None, threads=0, device=0, puzzles=None, **options):
    """gpuga bench as a DataFrame: evaluations/s of every pair of `pop` and `island_size` (lists
    or numbers, as gpuga bench --pop and --island-size take them: an island size of 0 is the
    plan's for the pop, one equal to the pop a single island), or of the backend's default table
    for the work's GA. backend: "cpu", "cuda", or "auto" (as the command line: the CPU's rows, then a
    GPU's where there is one). The options are gpuga solve's that shape the work (algorithm,
    repair, local_search, the operators...); generations, repeats, warmup and seed are gpuga
    bench's, its defaults where None. puzzles= (a file, files or puzzle strings of one size), as
    gpuga bench --puzzles: a row a backend, the puzzles solved many at once at solve's plan,
    puzzles a second and evaluations a second."""
    import pandas as pd
    backends = [backend] if backend != "auto" else ["cpu"] + (["cuda"] if devices() else [])
    if puzzles is not None:
        with tempfile.TemporaryDirectory() as scratch:
            files = _files(puzzles, scratch)
            return pd.DataFrame([_gpuga.bench_puzzles(name, files, seed, threads, device, **options)
                                 for name in backends])
    texts = lambda v: [] if v is None else [str(x) for x in (v if isinstance(v, (list, tuple)) else [v])]
    rows = []
    for name in backends:
        rows += _gpuga.bench(name, texts(pop), texts(island_size), generations, repeats, warmup, seed,
                             threads, device, **options)
    return pd.DataFrame(rows)
