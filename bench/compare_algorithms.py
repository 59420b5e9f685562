#!/usr/bin/env python3
"""One table per budget from bench/algorithms.sh's CSVs: per puzzle set and algorithm, the runs
solved and the median time and evaluations (sa, hc: moves) of the solved runs. Evaluations are
counted to the generation the solution appeared (the CSV's count goes on to the halt check, up
to 9 generations later: 1e6 moves for 2000 chains, 18000 GA evaluations).

    bench/compare_algorithms.py OUT_DIR > OUT_DIR/summary.md
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

BUDGETS = {"evals.csv": "the same evaluations per run (5e7: GA 50 generations of 2000 children "
                        "with 500 local-search moves each; sa/hc 430 sweeps of 2000 chains)",
           "wall.csv": "the same wall-clock time per run, one at a time"}


def to_solution(row):
    """Evaluations up to the generation the solution appeared: the initial population, then per
    generation one per GA child and its local-search moves (the elite's aside: one an island of
    1000), or one move per free cell per chain."""
    pop, generation = int(row["pop"]), int(row["generations"])
    if row["algorithm"] == "ga":
        moves = int(row.get("local_search") or 0)
        elite = int(row["elite"]) * pop // int(row.get("island_size") or pop)
        return pop + generation * (pop + (pop - elite) * moves)
    return pop + pop * sum(c in ".0" for c in row["puzzle"]) * generation


def table(path):
    groups = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            puzzle_set = Path(row["puzzle_id"].rsplit("#", 1)[0]).stem
            groups[(puzzle_set, row["algorithm"])].append(row)
    lines = ["| set | algorithm | solved | median s (solved) | median evaluations to the solution |",
             "|---|---|---:|---:|---:|"]
    for (puzzle_set, algorithm), rows in sorted(groups.items()):
        solved = [r for r in rows if r["solved"] == "1"]
        secs = statistics.median(float(r["seconds"]) for r in solved) if solved else 0
        evals = statistics.median(to_solution(r) for r in solved) if solved else 0
        lines.append(f"| {puzzle_set} | {algorithm} | {len(solved)}/{len(rows)} | {secs:.3f} | "
                     f"{evals:.3g} |")
    return "\n".join(lines)


def main():
    out = Path(sys.argv[1])
    for name, what in BUDGETS.items():
        if (out / name).exists():  # (before-local-search/: 25000 generations, no local search)
            print(f"## {what} (`{name}`)\n\n{table(out / name)}\n")


if __name__ == "__main__":
    main()
