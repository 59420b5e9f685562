#!/usr/bin/env python3
"""Two gpuga builds side by side, from the files gpu-check.sh's compare stage (GPU) or
cpu-compare.sh (CPU) writes.

    compare.py DIR NEW_LABEL OLD_LABEL

DIR holds, for SIDE in new and old and each round R, SIDE-bench-NAME-R.json (gpuga bench --json),
SIDE-solve-NAME-R.json (gpuga solve --json, one puzzle at a time) and SIDE-many-NAME-R.json
(gpuga solve --json, a file's puzzles many at once). Prints a Markdown table: for each bench row
(algorithm, population, island size) its evaluations (sa, hc: moves) a second, for each solve
file the median of its puzzles' seconds, and for each many file its puzzles a second over the
solve's own seconds (a build before that figure gives none, and the row is left out), as the
median of the rounds on each side, every round's figure, and new over old (above 1: the new
build is faster).
"""
import glob
import json
import os
import re
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def bench_rows(path):
    """(label, evaluations a second) for each row of a bench JSON."""
    doc = load(path)
    algorithm = (doc["options"]["config"] or {}).get("algorithm", "-")  # null: every row skipped
    for row in doc["results"]:
        yield f"bench {algorithm} pop {row['pop']} island {row['island_size']}", row["evaluations_per_s"]


def solve_median(path):
    """The median of a solve --json file's puzzles' seconds."""
    doc = load(path)
    return statistics.median(r["seconds"] for r in doc["results"])


def many_rate(path):
    """Puzzles a second over a solve --json file's own seconds (None where it has none)."""
    doc = load(path)
    return len(doc["results"]) / doc["seconds"] if doc.get("seconds") else None


def collect(directory, side):
    """{label: [figure per round]} for one side, with whether higher is better."""
    figures, higher = {}, {}

    def add(label, value, higher_is_better):
        figures.setdefault(label, []).append(value)
        higher[label] = higher_is_better

    for path in sorted(glob.glob(os.path.join(directory, f"{side}-*-*.json"))):
        kind, name = re.match(rf"{side}-(bench|solve|many)-(.+)-\d+\.json$", os.path.basename(path)).groups()
        if kind == "bench":
            for label, value in bench_rows(path):
                add(label, value, True)
        elif kind == "many":
            rate = many_rate(path)
            if rate is not None:
                add(f"solve {name}, many at once: puzzles a second", rate, True)
        else:
            add(f"solve {name}: median s a puzzle", solve_median(path), False)
    return figures, higher


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    directory, new_label, old_label = argv
    new, higher = collect(directory, "new")
    old, _ = collect(directory, "old")
    print(f"| measure | new ({new_label}) | old ({old_label}) | new over old |")
    print("|---|---|---|---:|")
    for label in new:
        if label not in old:
            continue
        a, b = statistics.median(new[label]), statistics.median(old[label])
        faster, slower = (a, b) if higher[label] else (b, a)
        # A median of 0 s has no ratio to show (builds before bafb8dc timed a run that propagation
        # completes as 0 s).
        ratio = f"{faster / slower:.2f}" if slower else "-"
        rounds = lambda xs: ", ".join(f"{x:.3g}" for x in xs)
        print(f"| {label} | {a:.3g} ({rounds(new[label])}) | {b:.3g} ({rounds(old[label])}) | {ratio} |")
    print()
    print("Medians of the rounds, each round's figure in brackets; the two builds alternate within "
          "a round. new over old: above 1, the new build is faster (-: a median of 0 s, no ratio).")


if __name__ == "__main__":
    main(sys.argv[1:])
