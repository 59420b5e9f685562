#!/usr/bin/python3
"""Table of success rate and time-to-solve from `gpuga solve --json` outputs, one row per file."""
import json
import statistics
import sys
from pathlib import Path


def row(path):
    doc = json.loads(Path(path).read_text())
    results = doc["results"]
    solved = [r for r in results if r["solved"]]
    times = sorted(r["seconds"] for r in solved)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else float("nan")
    return (Path(path).stem, len(solved), len(results),
            statistics.median(times) if times else float("nan"), p95,
            max(times) if times else float("nan"),
            statistics.median(r["generations"] for r in results), doc["config"])


def main(paths):
    rows = [row(p) for p in paths]
    print("| set | solved | median s | p95 s | max s | median generations |")
    print("|---|---|---|---|---|---|")
    for name, ok, n, med, p95, mx, gens, _ in rows:
        print(f"| {name} | {ok}/{n} | {med:.3f} | {p95:.3f} | {mx:.3f} | {gens:.0f} |")
    # One line per configuration (defaults such as --local-search auto differ between sizes).
    configs = {}
    for name, *_, cfg in rows:
        line = " ".join(f"{k}={v}" for k, v in sorted(cfg.items()) if k != "seed")
        configs.setdefault(line, []).append(name)
    for line, names in configs.items():
        print(f"\nconfig{'' if len(configs) == 1 else ' (' + ', '.join(names) + ')'}: {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
