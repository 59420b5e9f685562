"""Spearman's rho of gpuga rate's columns against Sudoku Explainer's rating (bench/rating-agreement.sh).

Beside rate's own columns it measures candidate scores: the deduction rung (the strongest
technique of rate's ladder a puzzle needs), then rate's p90 evaluations or the exact solver's
conflicts to order the puzzles of one rung.

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
    # A rung first, then the figure: scaled past any figure, so that a rung always ranks higher.
    rung = rate["deduction_rung"]
    rate["rung_then_p90_evaluations"] = rung * 1e12 + rate["p90_evaluations"].fillna(1e11)
    rate["rung_then_exact_conflicts"] = rung * 1e12 + rate["exact_conflicts"]
    columns = ["score", "median_evaluations", "p90_evaluations", "median_generations",
               "median_seconds", "exact_conflicts", "cells_singles_leave", "deduction_rung",
               "rung_then_p90_evaluations", "rung_then_exact_conflicts"]
    lines = [f"Spearman's rho against SE on {len(rate)} puzzles of puzzles/se_rated.tsv; "
             f"gpuga rate {options}", "", "| column | rho |", "|---|---|"]
    for c in columns:
        lines.append(f"| {c} | {rate['se'].corr(rate[c], method='spearman'):.3f} |")
    # qqwing's own classes for the puzzles it made (simple < easy < intermediate < expert).
    classes = {"qqwing_simple_50.txt": 1, "qqwing_easy_50.txt": 2, "qqwing_intermediate_50.txt": 3,
               "qqwing_expert_50.txt": 4}
    made = rate[rated["source"].isin(classes).values].copy()
    made["qqwing_class"] = rated["source"][rated["source"].isin(classes)].map(classes).values
    lines += ["", f"Against qqwing's difficulty classes ({len(made)} of its puzzles): score "
              f"{made['qqwing_class'].corr(made['score'], method='spearman'):.3f}, SE "
              f"{made['qqwing_class'].corr(made['se'], method='spearman'):.3f}, exact conflicts "
              f"{made['qqwing_class'].corr(made['exact_conflicts'], method='spearman'):.3f}."]
    lines += ["", "| SE band | puzzles | median score | ratings |", "|---|---|---|---|"]
    for band, group in rate.groupby(rate["se"].astype(int)):
        words = ", ".join(f"{w} {n}" for w, n in group["rating"].value_counts().items())
        lines.append(f"| {band} | {len(group)} | {group['score'].median():.2f} | {words} |")
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
    for ax, y, label, column in ((axes[0], evals + 1, "p90 evaluations + 1", "p90_evaluations"),
                                 (axes[1], rate["score"], "score: the deduction rung, then p90 evaluations",
                                  "score")):
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
