#!/usr/bin/env python3
"""gpuga plot: pictures of runs, from batch and sweep CSVs and from traces.

    gpuga plot [RUNS.csv ...] [--traces DIR] --out DIR

writes into DIR:
  convergence.png  (--traces: the folder batch, sweep or solve --trace wrote) per configuration,
                   the median best fitness so far against generation with its interquartile
                   band, and the median of the population's best now (dashed) and mean (dotted).
                   Every run counts to the last generation: a run that ended keeps its last
                   figures, and, with the CSVs, a run that propagation solved counts as 0.
  success.png      (CSVs) the share of all runs solved within t seconds and within e
                   evaluations, per configuration, with the interquartile band over the puzzles
  solved.png       (CSVs) solved and unsolved runs per configuration, or per puzzle set
  parameters.png   (CSVs) success rate and median time to solve against each setting that varies,
                   and against the puzzle size when the CSVs hold runs of more than one

Exit status: 0 drawn; 2 an input that is not gpuga's; 3 a folder or picture that cannot be
written (those written before it kept); 5 interrupted (likewise).

From Python: gpuga.plot(runs, traces=, out=). This file needs matplotlib and numpy only, not
gpuga's compiled module, so that the gpuga command can run it as a script.
"""
import argparse
import collections
import csv
import re
import statistics
import sys
from pathlib import Path

# A batch CSV's columns that are the run's own (gpuga's batch_csv.cpp); every other column is the
# configuration's, whatever options a version records. `size` (9x9, 16x16, ...) is the puzzle's,
# but runs of two sizes are compared like two configurations.
RUN_COLUMNS = {"puzzle_id", "solved", "best_fitness", "seconds", "generations",
               "puzzle", "run", "seed", "restarts", "evaluations", "growths", "backend", "device",
               "ranks", "gpuga_version", "grid", "stop", "config_id"}
REQUIRED_COLUMNS = ["puzzle_id", "solved", "seconds"]
TRACE_COLUMNS = ["config_id", "puzzle_id", "run", "generation", "best", "mean"]
# The columns CSVs of older versions named otherwise, by their names now (gpuga's
# former_columns(), which the Python tests hold this to).
FORMER_COLUMNS = {"final_fitness": "best_fitness", "time_seconds": "seconds",
                  "generations_run": "generations", "population_size": "pop",
                  "restart_after_n_stagnant": "restart_after", "propagate": "presolve"}


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ValueError(f"gpuga plot needs matplotlib, which {sys.executable} lacks: install it "
                         "(Debian: python3-matplotlib), or set GPUGA_PYTHON3 to a Python that "
                         "has it") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def read_rows(paths):
    """The rows of batch or sweep CSVs, as dicts of text under today's column names."""
    rows = []
    for path in paths:
        try:
            with open(path, newline="") as f:
                reader = csv.DictReader(f)
                names = [FORMER_COLUMNS.get(c, c) for c in reader.fieldnames or []]
                missing = [c for c in REQUIRED_COLUMNS if c not in names]
                if missing:
                    raise ValueError(f"{path}:1: missing columns {', '.join(missing)}; "
                                     "expected a gpuga batch CSV")
                rows.extend({FORMER_COLUMNS.get(k, k): v for k, v in r.items()} for r in reader)
        except OSError as e:
            raise ValueError(f"{path}: {e.strerror}; expected a gpuga batch CSV") from None
    if paths and not rows:
        raise ValueError("no runs in " + ", ".join(map(str, paths)))
    return rows


def read_traces(folder):
    """Each traced run's rows, (config_id, puzzle_id, run) -> rows in generation order."""
    path = Path(folder) / "traces.csv"
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in TRACE_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"{path}:1: missing columns {', '.join(missing)}; expected "
                                 "the traces gpuga batch, sweep or solve --trace writes")
            runs = collections.defaultdict(list)
            for r in reader:
                runs[(r["config_id"], r["puzzle_id"], r["run"])].append(r)
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}; expected the folder given to --trace") from None
    for rows in runs.values():
        rows.sort(key=lambda r: int(r["generation"]))
    return runs


def swept(rows):
    """The configuration columns that take more than one value, in the CSV's order (a column
    that some CSVs lack, written before it existed, is left out)."""
    columns = [c for c in rows[0] if c not in RUN_COLUMNS and all(c in r for r in rows)] if rows else []
    return [c for c in columns if len({r[c] for r in rows}) > 1]


def config_label(row, columns):
    return ", ".join(f"{c}={row[c]}" for c in columns) or "all runs"


def sort_key(value):
    """Numbers, sizes like 16x16, and labels like pop=300, in numeric order."""
    number = re.fullmatch(r"([0-9.]+)(x[0-9]+)?", value.rsplit("=", 1)[-1])
    try:
        return (0, float(number.group(1)), value)
    except (AttributeError, ValueError):
        return (1, 0.0, value)


def puzzle_set(row):
    return Path(row["puzzle_id"].rsplit("#", 1)[0]).name


def carried(runs, generations, column):
    """Each run's `column` at every one of `generations`, its last value carried past its end."""
    import numpy as np
    out = np.empty((len(runs), len(generations)))
    for k, rows in enumerate(runs):
        gens = np.array([int(r["generation"]) for r in rows])
        values = np.array([float(r[column]) for r in rows])
        out[k] = values[np.clip(np.searchsorted(gens, generations, side="right") - 1, 0, None)]
    return out


def with_best_so_far(rows):
    """The rows with best_so_far, computed from best where older traces lack it."""
    if rows and "best_so_far" in rows[0] and rows[0]["best_so_far"] != "":
        return rows
    best, out = float("inf"), []
    for r in rows:
        best = min(best, float(r["best"]))
        out.append({**r, "best_so_far": str(best)})
    return out


def convergence(traces, rows):
    """Per configuration: (generations, the runs' best so far, best now and mean at each), every
    run carried to the last generation, and the runs the CSVs record without a trace (propagation
    solved them before generation 0) at 0 throughout."""
    import numpy as np
    by_config = collections.defaultdict(list)
    for key, run in traces.items():
        by_config[key[0]].append(with_best_so_far(run))
    for r in rows:
        if r["config_id"] in by_config and r["solved"] == "1" and \
                (r["config_id"], r["puzzle_id"], r["run"]) not in traces:
            by_config[r["config_id"]].append([{"generation": "0", "best": "0", "mean": "0",
                                               "best_so_far": "0"}])
    curves = {}
    for config, runs in by_config.items():
        generations = np.array(sorted({int(r["generation"]) for run in runs for r in run}))
        curves[config] = (generations, carried(runs, generations, "best_so_far"),
                          carried(runs, generations, "best"), carried(runs, generations, "mean"))
    return curves


def plot_convergence(plt, traces, rows, columns, out):
    import numpy as np
    labels = {r["config_id"]: config_label(r, columns) for r in rows}
    puzzles = collections.defaultdict(set)  # traces alone (solve's): a lone puzzle names them
    for config, puzzle, _ in traces:
        puzzles[config].add(puzzle)
    for config, names in puzzles.items():
        labels.setdefault(config, next(iter(names)) if len(names) == 1 else config)
    curves = convergence(traces, rows)
    last = 0
    fig, ax = plt.subplots(figsize=(8, 5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, config in enumerate(sorted(curves, key=lambda c: sort_key(labels.get(c, c)))):
        generations, so_far, now, mean = curves[config]
        colour = colours[k % len(colours)]
        low, median, high = np.percentile(so_far, [25, 50, 75], axis=0)
        ax.fill_between(generations, low, high, color=colour, alpha=0.2, linewidth=0)
        runs = f"{len(so_far)} run" + ("s" if len(so_far) > 1 else "")
        ax.plot(generations, median, color=colour, linewidth=2,
                label=f"{labels.get(config, config)} ({runs})")
        last = max(last, generations[-1])
        ax.plot(generations, np.median(now, axis=0), color=colour, linewidth=0.8, linestyle="--")
        ax.plot(generations, np.median(mean, axis=0), color=colour, linewidth=0.8, linestyle=":")
    if last > 100:
        ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("generation")
    ax.set_ylabel("fitness (conflicts)")
    ax.set_title("Best so far: median and interquartile band; dashed: best now; dotted: mean")
    ax.legend(fontsize="small")
    return save(plt, fig, out, "convergence.png")


def share_solved(runs, figure, points):
    """The share of `runs` solved within each of `points` of `figure` (seconds, evaluations)."""
    import numpy as np
    done = np.sort([float(r[figure]) for r in runs if r["solved"] == "1"])
    return np.searchsorted(done, points, side="right") / len(runs)


def plot_success(plt, rows, columns, out):
    import numpy as np
    groups = collections.defaultdict(list)
    for r in rows:
        groups[config_label(r, columns)].append(r)
    figures = [f for f in ("seconds", "evaluations") if all(f in r and r[f] != "" for r in rows)]
    fig, axes = plt.subplots(1, len(figures), figsize=(6 * len(figures), 5), squeeze=False)
    for ax, figure in zip(axes[0], figures):
        solved = [float(r[figure]) for r in rows if r["solved"] == "1" and float(r[figure]) > 0]
        if not solved:
            continue
        points = np.geomspace(min(solved), max(solved) * 1.01, 200)
        for label in sorted(groups, key=sort_key):
            runs = groups[label]
            line = ax.step(points, share_solved(runs, figure, points), where="post", label=label)
            puzzles = collections.defaultdict(list)
            for r in runs:
                puzzles[r["puzzle_id"]].append(r)
            if len(puzzles) > 1:
                each = np.array([share_solved(p, figure, points) for p in puzzles.values()])
                low, high = np.percentile(each, [25, 75], axis=0)
                ax.fill_between(points, low, high, step="post", alpha=0.15,
                                color=line[0].get_color(), linewidth=0)
        ax.set_xscale("log")
        ax.set_xlabel(figure + " to solve")
        ax.set_ylabel("share of all runs solved")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize="small")
    fig.suptitle("Runs solved within a budget (band: the middle half of the puzzles)")
    return save(plt, fig, out, "success.png")


def plot_solved(plt, rows, columns, out):
    key = (lambda r: config_label(r, columns)) if columns else puzzle_set
    counts = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        counts[key(r)][0 if r["solved"] == "1" else 1] += 1
    labels = sorted(counts, key=sort_key)
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(labels)), 5))
    solved = [counts[k][0] for k in labels]
    unsolved = [counts[k][1] for k in labels]
    ax.bar(labels, solved, color="tab:green", label="solved")
    ax.bar(labels, unsolved, bottom=solved, color="tab:red", label="not solved")
    ax.set_ylabel("runs")
    ax.set_title("Solved and unsolved runs per " + ("configuration" if columns else "puzzle set"))
    ax.legend()
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    return save(plt, fig, out, "solved.png")


def plot_parameters(plt, rows, columns, out):
    columns = columns or ["pop"]
    fig, axes = plt.subplots(2, len(columns), figsize=(5 * len(columns), 7), squeeze=False)
    for i, column in enumerate(columns):
        groups = collections.defaultdict(list)
        for r in rows:
            groups[r[column]].append(r)
        values = sorted(groups, key=sort_key)
        rate = [sum(r["solved"] == "1" for r in groups[v]) / len(groups[v]) for v in values]
        median = [statistics.median([float(r["seconds"]) for r in groups[v]
                                     if r["solved"] == "1"] or [float("nan")]) for v in values]
        axes[0][i].plot(values, rate, marker="o")
        axes[0][i].set_ylim(0, 1.05)
        axes[0][i].set_ylabel("success rate")
        axes[1][i].plot(values, median, marker="o", color="tab:orange")
        axes[1][i].set_ylabel("median time to solve (s)")
        axes[1][i].set_xlabel(column)
    fig.suptitle("Settings' effects")
    return save(plt, fig, out, "parameters.png")


def save(plt, fig, out, name):
    fig.tight_layout()
    fig.savefig(out / name, dpi=120)
    plt.close(fig)
    return out / name


def draw(csvs=(), traces=None, out="."):
    """Every picture the inputs allow, into `out`; the paths written. ValueError for an input
    that is not gpuga's, naming the file."""
    if not csvs and traces is None:
        raise ValueError("nothing to draw; expected batch CSVs, --traces DIR, or both")
    rows = read_rows(list(csvs))
    runs = read_traces(traces) if traces is not None else {}
    plt = _pyplot()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    columns = swept(rows)
    written = []
    if traces is not None:
        written.append(plot_convergence(plt, runs, rows, columns, out))
    if rows:
        written += [plot_success(plt, rows, columns, out), plot_solved(plt, rows, columns, out),
                    plot_parameters(plt, rows, columns, out)]
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(prog="gpuga plot", description=__doc__.split("\n")[0],
                                     epilog="\n\n".join(__doc__.split("\n\n")[2:4]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="*", help="CSV files written by gpuga batch or sweep")
    parser.add_argument("--traces", help="the folder given to --trace (batch, sweep or solve)")
    parser.add_argument("--out", required=True, help="folder for the PNGs")
    args = parser.parse_args(argv)
    try:
        written = draw(args.csv, args.traces, args.out)
    except ValueError as e:
        print(f"gpuga plot: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # the inputs were read: a folder or a picture that cannot be written
        print(f"gpuga plot: failure: {e.filename or args.out}: cannot write ({e.strerror}); the "
              "pictures written before it are kept", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("gpuga plot: interrupted; the pictures written before it are kept", file=sys.stderr)
        return 5
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
