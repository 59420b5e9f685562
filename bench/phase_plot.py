#!/usr/bin/env python3
"""The phase transition's table and plot (bench/phase-transition.sh): from the batch CSVs of
ga, sa and hc (OUT/batch-ALGORITHM.csv) and the exact solver's and ACS's rows (OUT/others.csv:
solver, fill, instance, solved, seconds), OUT/runs.csv (one row a run), OUT/summary.md (success
rate and median seconds per fill and solver) and OUT/phase-transition.png (both against fill, a
line per solver, time on a log scale). The median time counts an unsolved run at the time it
ran (the limit), so that it never hides a failure.

Usage: phase_plot.py SIZE OUT
       phase_plot.py --again OUT    (the table and plot again from OUT/runs.csv)
"""
import csv
import os
import re
import statistics
import sys

FILL = re.compile(r"fill-([0-9.]+)\.txt#([0-9]+)$")


def batch_rows(path, solver, size):
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            m = FILL.search(row["puzzle_id"])
            yield {"solver": solver, "size": size, "fill": m.group(1),
                   "instance": int(m.group(2)) - 1, "solved": int(row["solved"]),
                   "seconds": float(row["seconds"]), "generations": row["generations"]}


def other_rows(path, size):
    with open(path, newline="") as f:
        for solver, fill, instance, solved, seconds in csv.reader(f):
            yield {"solver": solver, "size": size, "fill": fill, "instance": int(instance),
                   "solved": int(solved), "seconds": float(seconds), "generations": ""}


def read_runs(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["solved"], r["seconds"] = int(r["solved"]), float(r["seconds"])
    return rows


def table_and_plot(size, rows, out):
    solvers = sorted({r["solver"] for r in rows})
    fills = sorted({r["fill"] for r in rows}, key=float)
    table = {}
    for s in solvers:
        for fill in fills:
            runs = [r for r in rows if r["solver"] == s and r["fill"] == fill]
            if runs:  # a solver run at some fills only (rows added by hand) has none at others
                table[s, fill] = (sum(r["solved"] for r in runs) / len(runs),
                                  statistics.median(r["seconds"] for r in runs))
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(f"{size}x{size}: success rate and median seconds per fill (an unsolved run at "
                f"the time it ran)\n\n| fill | " + " | ".join(solvers) + " |\n|---|" +
                "---|" * len(solvers) + "\n")
        for fill in fills:
            cells = [f"{table[s, fill][0]:.0%} {table[s, fill][1]:.3g} s" if (s, fill) in table
                     else "-" for s in solvers]
            f.write(f"| {fill} | " + " | ".join(cells) + " |\n")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 7), sharex=True)
    for s in solvers:
        at = [(float(fill), *table[s, fill]) for fill in fills if (s, fill) in table]
        top.plot([a[0] for a in at], [a[1] for a in at], marker="o", label=s)
        bottom.plot([a[0] for a in at], [max(a[2], 1e-4) for a in at], marker="o", label=s)
    top.set_ylabel("success rate")
    top.set_ylim(-0.05, 1.05)
    top.set_title(f"{size}x{size}: the phase transition in the fraction of givens")
    top.legend()
    bottom.set_yscale("log")
    bottom.set_ylabel("median seconds")
    bottom.set_xlabel("fraction of cells given")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "phase-transition.png"), dpi=100)


def main():
    if sys.argv[1] == "--again":
        out = sys.argv[2]
        rows = read_runs(os.path.join(out, "runs.csv"))
        table_and_plot(rows[0]["size"], rows, out)
        return
    size, out = sys.argv[1], sys.argv[2]
    rows = []
    for solver in ("ga", "sa", "hc"):
        if os.path.exists(os.path.join(out, f"batch-{solver}.csv")):
            rows += list(batch_rows(os.path.join(out, f"batch-{solver}.csv"), solver, size))
    rows += list(other_rows(os.path.join(out, "others.csv"), size))
    rows.sort(key=lambda r: (r["solver"], float(r["fill"]), r["instance"]))
    columns = ["solver", "size", "fill", "instance", "solved", "seconds", "generations"]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, columns)
        w.writeheader()
        w.writerows(rows)
    table_and_plot(size, rows, out)


if __name__ == "__main__":
    main()
