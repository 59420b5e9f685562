"""Spearman's rho of gpuga rate's columns against Sudoku Explainer's rating (bench/rating-agreement.sh).

Usage: rating_agreement.py SE_RATED_TSV RATE_CSV OUTDIR OPTIONS_TEXT
"""
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
    columns = ["median_evaluations", "p90_evaluations", "median_generations", "median_seconds",
               "exact_conflicts", "cells_singles_leave"]
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
