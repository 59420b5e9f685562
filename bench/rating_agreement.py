"""Spearman's rho of gpuga rate's columns against Sudoku Explainer's rating (bench/rating-agreement.sh).

Beside rate's own columns it measures a candidate the product does not have yet: the strongest
of a ladder of 9x9 deductions a puzzle needs (hidden singles, naked singles, locked candidates,
pairs and X-wings, triples, quads; 7 beyond them), alone and with rate's p90 evaluations or the
exact solver's conflicts to order the puzzles of one rung.

Usage: rating_agreement.py SE_RATED_TSV RATE_CSV OUTDIR OPTIONS_TEXT
"""
import itertools
import sys

import pandas as pd

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)]
         for br in range(3) for bc in range(3)]
UNITS = ROWS + COLS + BOXES
PEERS = [set().union(*(u for u in UNITS if i in u)) - {i} for i in range(81)]
BEYOND = 7  # the rung of a puzzle the ladder does not finish


def place(grid, cands, i, v):
    grid[i] = v
    cands[i] = set()
    for j in PEERS[i]:
        cands[j].discard(v)


def single(grid, cands, hidden):
    """Places one hidden (or naked) single; whether it found one."""
    if hidden:
        for unit in UNITS:
            for v in range(1, 10):
                spots = [i for i in unit if v in cands[i]]
                if len(spots) == 1:
                    place(grid, cands, spots[0], v)
                    return True
        return False
    for i in range(81):
        if not grid[i] and len(cands[i]) == 1:
            place(grid, cands, i, next(iter(cands[i])))
            return True
    return False


def locked(cands):
    """Pointing and claiming: a value confined to a box's line, or a line's box."""
    changed = False
    for a_units, b_units in ((BOXES, ROWS + COLS), (ROWS + COLS, BOXES)):
        for a in a_units:
            for v in range(1, 10):
                spots = [i for i in a if v in cands[i]]
                for b in b_units:
                    if spots and all(i in b for i in spots):
                        for j in b:
                            if j not in a and v in cands[j]:
                                cands[j].discard(v)
                                changed = True
    return changed


def subsets(grid, cands, n):
    """Naked and hidden subsets of n cells in a unit."""
    changed = False
    for unit in UNITS:
        empty = [i for i in unit if not grid[i]]
        for cells in itertools.combinations(empty, n):
            values = set().union(*(cands[i] for i in cells))
            if len(values) == n:
                for j in empty:
                    if j not in cells and cands[j] & values:
                        cands[j] -= values
                        changed = True
        for values in map(set, itertools.combinations(range(1, 10), n)):
            spots = [i for i in empty if cands[i] & values]
            if len(spots) == n and all(any(v in cands[i] for i in spots) for v in values):
                for i in spots:
                    if cands[i] - values:
                        cands[i] &= values
                        changed = True
    return changed


def xwing(cands):
    changed = False
    for lines in (ROWS, COLS):
        for v in range(1, 10):
            pairs = [(k, tuple(p for p, i in enumerate(line) if v in cands[i])) for k, line in enumerate(lines)]
            pairs = [(k, p) for k, p in pairs if len(p) == 2]
            for (a, pa), (b, pb) in itertools.combinations(pairs, 2):
                if pa != pb:
                    continue
                for k, line in enumerate(lines):
                    for p in pa:
                        if k not in (a, b) and v in cands[line[p]]:
                            cands[line[p]].discard(v)
                            changed = True
    return changed


def rung(puzzle):
    """The strongest deduction of the ladder the puzzle needs, 1 to 6, or BEYOND."""
    grid = [int(ch) if ch not in ".0" else 0 for ch in puzzle]
    cands = [set() if grid[i] else set(range(1, 10)) - {grid[j] for j in PEERS[i]} for i in range(81)]
    needed = 0
    steps = [(1, lambda: single(grid, cands, True)), (2, lambda: single(grid, cands, False)),
             (3, lambda: locked(cands)), (4, lambda: subsets(grid, cands, 2) or xwing(cands)),
             (5, lambda: subsets(grid, cands, 3)), (6, lambda: subsets(grid, cands, 4))]
    while 0 in grid:
        for level, step in steps:
            if step():
                needed = max(needed, level)
                break
        else:
            return BEYOND
    return needed


def main(rated_path, rate_path, out, options):
    rated = pd.read_csv(rated_path, sep="\t", comment="#", header=None, names=["puzzle", "se", "source"])
    rate = pd.read_csv(rate_path)
    if len(rate) != len(rated):
        sys.exit(f"rating_agreement: {rate_path} has {len(rate)} rows; expected {len(rated)}")
    rate["se"] = rated["se"].values
    # The baseline: the cells singles leave open (fewer givens and fills: harder).
    rate["cells_singles_leave"] = 81 - rate["givens"] - rate["propagation_fills"]
    rate["ladder"] = [rung(p) for p in rate["puzzle"]]
    # A rung first, then the figure: scaled past any figure, so that a rung always ranks higher.
    rate["ladder_then_p90_evaluations"] = rate["ladder"] * 1e12 + rate["p90_evaluations"].fillna(1e11)
    rate["ladder_then_exact_conflicts"] = rate["ladder"] * 1e12 + rate["exact_conflicts"]
    columns = ["median_evaluations", "p90_evaluations", "median_generations", "median_seconds",
               "exact_conflicts", "cells_singles_leave", "ladder", "ladder_then_p90_evaluations",
               "ladder_then_exact_conflicts"]
    lines = [f"Spearman's rho against SE on {len(rate)} puzzles of puzzles/se_rated.tsv; "
             f"gpuga rate {options}", "", "| column | rho |", "|---|---|"]
    for c in columns:
        lines.append(f"| {c} | {rate['se'].corr(rate[c], method='spearman'):.3f} |")
    lines += ["", "| SE band | puzzles | median of median_evaluations |", "|---|---|---|"]
    for band, group in rate.groupby(rate["se"].astype(int)):
        lines.append(f"| {band} | {len(group)} | {group['median_evaluations'].median():g} |")
    text = "\n".join(lines) + "\n"
    open(f"{out}/summary.md", "w").write(text)
    print(text, end="")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("rating_agreement: no matplotlib; no scatter.png", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(rate["se"], rate["median_evaluations"] + 1, s=10)
    ax.set_yscale("log")
    ax.set_xlabel("Sudoku Explainer rating")
    ax.set_ylabel("median evaluations + 1")
    rho = rate["se"].corr(rate["median_evaluations"], method="spearman")
    ax.set_title(f"gpuga rate against SE (rho {rho:.2f})")
    fig.tight_layout()
    fig.savefig(f"{out}/scatter.png", dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:5])
