#!/usr/bin/python3
"""Plots from gpuga batch/sweep CSVs and traces.

    bench/plot.py RUNS.csv [RUNS2.csv ...] [--traces DIR] --out DIR

writes into DIR:
  convergence.png   best fitness against generation, each run thin and the median bold
                    (needs --traces DIR, as `gpuga batch --trace DIR` writes it)
  solved.png        solved and unsolved runs per puzzle set, or per value of a swept parameter
  time_cdf.png      fraction of runs solved within t seconds, per configuration
  parameters.png    success rate and median time to solve against each swept parameter
                    (parameters that take more than one value in the CSVs), and against the
                    puzzle size when the CSVs hold runs of more than one size
"""
import argparse
import collections
import csv
import re
import statistics
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# A batch CSV's columns that are the run's own (host/run/batch_csv.cpp); every other column is the
# configuration's, whatever options a version records. `size` (9x9, 16x16, ...) is the puzzle's,
# but runs of two sizes are compared like two configurations: success and time against size.
RUN_COLUMNS = {"puzzle_id", "solved", "best_fitness", "seconds", "generations",
               "puzzle", "run", "seed", "restarts", "evaluations", "growths", "backend", "device",
               "ranks", "gpuga_version", "grid", "stop", "config_id"}
REQUIRED_COLUMNS = ["puzzle_id", "solved", "seconds"]
# The columns CSVs of older versions named otherwise, by their names now (gpuga's
# former_columns(), which the Python tests hold this to).
FORMER_COLUMNS = {"final_fitness": "best_fitness", "time_seconds": "seconds",
                  "generations_run": "generations", "population_size": "pop",
                  "restart_after_n_stagnant": "restart_after", "propagate": "presolve"}


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(out / name, dpi=120)
    plt.close(fig)


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            names = [FORMER_COLUMNS.get(c, c) for c in reader.fieldnames or []]
            missing = [c for c in REQUIRED_COLUMNS if c not in names]
            if missing:
                sys.exit(f"{path}:1: missing columns {', '.join(missing)}; "
                         "expected a gpuga batch CSV")
            rows.extend({FORMER_COLUMNS.get(k, k): v for k, v in r.items()} for r in reader)
    if not rows:
        sys.exit("no runs in " + ", ".join(map(str, paths)))
    return rows


def puzzle_set(row):
    return Path(row["puzzle_id"].rsplit("#", 1)[0]).name


def swept(rows):
    """The configuration columns that take more than one value, in the CSV's order (a column
    that some CSVs lack, written before it existed, is left out)."""
    columns = [c for c in rows[0] if c not in RUN_COLUMNS and all(c in r for r in rows)]
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


def plot_convergence(trace_dir, rows, columns, out):
    """Best fitness found so far against generation: each run thin, the median of the runs
    still going bold, one colour per configuration."""
    labels = {r["config_id"]: config_label(r, columns) for r in rows}
    runs = collections.defaultdict(list)
    with open(Path(trace_dir) / "traces.csv", newline="") as f:
        for r in csv.DictReader(f):
            runs[(r["config_id"], r["puzzle_id"], r["run"])].append(
                (int(r["generation"]), int(r["best"])))
    fig, ax = plt.subplots(figsize=(8, 5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, config in enumerate(sorted({key[0] for key in runs}, key=lambda c: sort_key(labels.get(c, c)))):
        colour = colours[k % len(colours)]
        curves = []
        for key, points in runs.items():
            if key[0] != config:
                continue
            best, so_far = [], 1 << 30
            for _, b in points:
                so_far = min(so_far, b)
                best.append(so_far)
            curves.append(([g for g, _ in points], best))
            ax.plot(curves[-1][0], best, color=colour, alpha=0.12, linewidth=0.7)
        length = max(len(g) for g, _ in curves)
        median = [statistics.median([b[i] for _, b in curves if i < len(b)]) for i in range(length)]
        xs = next(g for g, _ in curves if len(g) == length)
        ax.plot(xs, median, color=colour, linewidth=2,
                label=f"{labels.get(config, config)} ({len(curves)} runs)")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("generation")
    ax.set_ylabel("best fitness so far (conflicts)")
    ax.set_title("Convergence: each run, and the median of the runs still going")
    ax.legend(fontsize="small")
    save(fig, out, "convergence.png")


def plot_solved(rows, columns, out):
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
    save(fig, out, "solved.png")


def plot_time_cdf(rows, columns, out):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[config_label(r, columns)].append(r)
    fig, ax = plt.subplots(figsize=(8, 5))
    for label in sorted(groups, key=sort_key):
        runs = groups[label]
        times = sorted(float(r["seconds"]) for r in runs if r["solved"] == "1")
        if not times:
            continue
        ax.step(times, [(i + 1) / len(runs) for i in range(len(times))], where="post", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("time to solve (s)")
    ax.set_ylabel("fraction of runs solved")
    ax.set_ylim(0, 1.02)
    ax.set_title("Time-to-solve distribution")
    ax.legend(fontsize="small")
    save(fig, out, "time_cdf.png")


def plot_parameters(rows, columns, out):
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
    fig.suptitle("Parameter effects")
    save(fig, out, "parameters.png")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", nargs="+", help="CSV files written by gpuga batch or sweep")
    parser.add_argument("--traces", help="folder given to gpuga batch --trace")
    parser.add_argument("--out", required=True, help="folder for the PNGs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = read_rows(args.csv)
    columns = swept(rows)
    if args.traces:
        plot_convergence(args.traces, rows, columns, out)
    plot_solved(rows, columns, out)
    plot_time_cdf(rows, columns, out)
    plot_parameters(rows, columns, out)
    print("wrote " + ", ".join(sorted(p.name for p in out.glob("*.png"))))


if __name__ == "__main__":
    main()
