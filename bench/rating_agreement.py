"""Spearman's rho of gpuga rate's columns against Sudoku Explainer's rating (bench/rating-agreement.sh).

Beside rate's own columns it measures candidate scores: the deduction rung (the strongest
technique of rate's ladder a puzzle needs), then rate's p90 evaluations or the exact solver's
conflicts to order the puzzles of one rung.

Usage: rating_agreement.py SE_RATED_TSV RATE_CSV OUTDIR OPTIONS_TEXT
"""
import math
import sys

import pandas as pd


def main(rated_path, rate_path, out, options):
    rated = pd.read_csv(rated_path, sep="\t", comment="#", header=None, names=["puzzle", "se", "source"])
    rate = pd.read_csv(rate_path)
    if len(rate) != len(rated):
        sys.exit(f"rating_agreement: {rate_path} has {len(rate)} rows; expected {len(rated)}")
    rate["se"] = rated["se"].values
    # The baseline: the cells singles leave open (fewer givens and fills: harder).
    rate["cells_singles_leave"] = 81 - rate["givens"] - rate["propagation_fills"]
    # A rung first, then the figure: scaled past any figure, so that a rung always ranks higher.
    rung = rate["deduction_rung"]
    rate["rung_then_p90_evaluations"] = rung * 1e12 + rate["p90_evaluations"].fillna(1e11)
    rate["rung_then_exact_conflicts"] = rung * 1e12 + rate["exact_conflicts"]
    columns = ["median_evaluations", "p90_evaluations", "median_generations", "median_seconds",
               "exact_conflicts", "cells_singles_leave", "deduction_rung",
               "rung_then_p90_evaluations", "rung_then_exact_conflicts"]
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
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    evals = rate["p90_evaluations"].fillna(rate["p90_evaluations"].max())
    # Each rung a band one high, the puzzles within it by log p90 evaluations.
    score = rate["deduction_rung"] + (evals + 1).apply(lambda e: min(0.9, math.log10(e) / 10))
    for ax, y, label, column in ((axes[0], evals + 1, "p90 evaluations + 1", "p90_evaluations"),
                                 (axes[1], score, "deduction rung, then p90 evaluations",
                                  "rung_then_p90_evaluations")):
        ax.scatter(rate["se"], y, s=10)
        ax.set_xlabel("Sudoku Explainer rating")
        ax.set_ylabel(label)
        rho = rate["se"].corr(rate[column], method="spearman")
        ax.set_title(f"rho {rho:.2f}")
    axes[0].set_yscale("log")
    fig.tight_layout()
    fig.savefig(f"{out}/scatter.png", dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:5])
