#!/usr/bin/python3
"""The side-by-side table of bench/acs-side-by-side.sh: per set and solver, success, median, p95
and max seconds over the solved puzzles, and the ratio of medians to ACS's."""
import csv
import json
import statistics
import sys
from pathlib import Path


def stats(rows):
    """rows: (solved, seconds) pairs -> (solved, n, median, p95, max) over the solved ones."""
    times = sorted(t for ok, t in rows if ok)
    if not times:
        return sum(ok for ok, _ in rows), len(rows), *([float("nan")] * 3)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return len(times), len(rows), statistics.median(times), p95, times[-1]


def acs_rows(path):
    with open(path, newline="") as f:
        return [(r["solved"] == "1", float(r["seconds"])) for r in csv.DictReader(f)]


def gpuga_rows(path):
    return [(r["solved"], r["seconds"]) for r in json.loads(Path(path).read_text())["results"]]


def main(out, sets):
    out = Path(out)
    print("| set | solver | solved | median s | p95 s | max s | median / ACS |")
    print("|---|---|---|---|---|---|---|")
    for s in sets:
        acs = stats(acs_rows(out / f"{s}.acs.csv"))
        for name, st in (("ACS", acs),
                         ("gpuga (defaults: singles)", stats(gpuga_rows(out / f"{s}.singles.json"))),
                         ("gpuga --presolve none", stats(gpuga_rows(out / f"{s}.none.json")))):
            ok, n, med, p95, mx = st
            print(f"| {s} | {name} | {ok}/{n} | {med:.4f} | {p95:.4f} | {mx:.4f} | {med / acs[2]:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
