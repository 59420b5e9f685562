"""Spearman's rho of gpuga rate's columns against Sudoku Explainer's rating (bench/rating-agreement.sh).

Each column is measured on every puzzle of the rated set and on those SE rates 4 and up (where
singles and subsets no longer tell puzzles apart), beside two baselines: the cells singles leave
and the exact solver's conflicts.

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
    columns = ["score", "deduction", "median_evaluations", "p90_evaluations", "median_generations",
               "median_seconds", "exact_conflicts", "cells_singles_leave"]
    hard = rate[rate["se"] >= 4]
    name = rated_path.split("/")[-1]
    lines = [f"Spearman's rho against SE on the {len(rate)} puzzles of {name} and on its {len(hard)} "
             f"of SE 4 and up; gpuga rate {options}", "",
             "| column | rho, all | rho, SE 4 and up |", "|---|---|---|"]
    for c in columns:
        if rate[c].notna().sum() < 2:
            continue
        lines.append(f"| {c} | {rate['se'].corr(rate[c], method='spearman'):.3f} | "
                     f"{hard['se'].corr(hard[c], method='spearman'):.3f} |")
    # qqwing's own classes for the puzzles it made (simple < easy < intermediate < expert).
    classes = {"qqwing_simple_50.txt": 1, "qqwing_easy_50.txt": 2, "qqwing_intermediate_50.txt": 3,
               "qqwing_expert_50.txt": 4}
    made = rate[rated["source"].isin(classes).values].copy()
    if len(made):
        made["qqwing_class"] = rated["source"][rated["source"].isin(classes)].map(classes).values
        lines += ["", f"Against qqwing's difficulty classes ({len(made)} of its puzzles): score "
                  f"{made['qqwing_class'].corr(made['score'], method='spearman'):.3f}, SE "
                  f"{made['qqwing_class'].corr(made['se'], method='spearman'):.3f}, exact conflicts "
                  f"{made['qqwing_class'].corr(made['exact_conflicts'], method='spearman'):.3f}."]
    lines += ["", "| SE band | puzzles | median score | within 0.5 of SE | ratings |", "|---|---|---|---|---|"]
    for band, group in rate.groupby(rate["se"].astype(int)):
        words = ", ".join(f"{w} {n}" for w, n in group["rating"].value_counts().items())
        close = ((group["score"] - group["se"]).abs() <= 0.5).sum()
        lines.append(f"| {band} | {len(group)} | {group['score'].median():.2f} | {close} | {words} |")
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
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    ax.scatter(rate["se"], rate["score"], s=10, alpha=0.5)
    top = max(rate["se"].max(), rate["score"].max()) + 0.5
    ax.plot([1, top], [1, top], color="grey", linewidth=0.5)
    ax.set_xlabel("Sudoku Explainer rating")
    ax.set_ylabel("gpuga rate's score")
    ax.set_title(f"{name}: rho {rate['se'].corr(rate['score'], method='spearman'):.3f}, "
                 f"SE 4 and up {hard['se'].corr(hard['score'], method='spearman'):.3f}")
    fig.tight_layout()
    fig.savefig(f"{out}/scatter.png", dpi=100)


if __name__ == "__main__":
    main(*sys.argv[1:5])
