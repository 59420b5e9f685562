#!/usr/bin/env python3
"""The ant colony solver's published instances (huwlloyd-mmu/sudoku_acs, instances/general) for
bench/acs-instances.sh, and its table.

  acs_instances.py convert INSTANCES SIZE K DIR
      instances 0 to K-1 of every fill of SIZE (9, 16 or 25) as puzzle lines (9x9: 1-9, 16x16:
      numbers 1 to 16, 25x25: a-y; a blank '.', or 0 among numbers), one file a fill:
      DIR/fill-0.45.txt.
  acs_instances.py table OUT SIZE...
      OUT/summary.md: for each size and fill, gpuga's GA and ACS side by side (success rate and
      median seconds over OUT/SIZExSIZE/runs.csv, an unsolved run at the time it ran), the ratio
      of the medians, and where gpuga's success rate is below ACS's or, at fills 0.35 to 0.55 of
      16x16 and 25x25, its median above ACS's.

An instance file (inst9x9_45_3.txt: 9x9, 45 % of cells given, instance 3) holds the box size, a
line we skip (1), then the rows, -1 for a blank.
"""
import csv
import os
import statistics
import sys

ALPHABETS = {9: "123456789", 16: "0123456789abcdef", 25: "abcdefghijklmnopqrstuvwxy"}
HARD_FILLS = (0.35, 0.55)  # where the phase transition's hard region lies (Lewis 2007)


def puzzle_line(path, size):
    """The instance as a line: 9x9 and 25x25 in characters, 16x16 in numbers (0 a blank), since
    a 16x16 line of characters with no 0 and no a-f (the empty grid) could be either alphabet."""
    words = open(path).read().split()
    if int(words[0]) ** 2 != size:
        raise SystemExit(f"{path}: box size {words[0]}; expected {size}x{size}")
    values = [int(w) for w in words[2:2 + size * size]]
    if len(values) != size * size:
        raise SystemExit(f"{path}: {len(values)} cells; expected {size * size}")
    if size == 16:
        return " ".join(str(max(v, 0)) for v in values)
    return "".join("." if v < 0 else ALPHABETS[size][v - 1] for v in values)


def convert(instances, size, k, out):
    os.makedirs(out, exist_ok=True)
    made = 0
    for fill in range(0, 100, 5):  # 100 %: the whole grid given, nothing to solve
        lines = []
        for i in range(k):
            path = os.path.join(instances, f"inst{size}x{size}_{fill}_{i}.txt")
            if not os.path.exists(path):
                raise SystemExit(f"{path}: not found; expected sudoku_acs's instances/general")
            lines.append(puzzle_line(path, size))
        with open(os.path.join(out, f"fill-{fill / 100:.2f}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        made += 1
    print(f"acs_instances: {made} fills of {k} {size}x{size} instances in {out}", file=sys.stderr)


def summary(rows):
    times = [r["seconds"] for r in rows]
    return sum(r["solved"] for r in rows) / len(rows), statistics.median(times)


def table(out, sizes):
    lines = ["gpuga's GA at its defaults (one puzzle at a time, the CPU's threads) beside ACS (one "
             "thread) on the ant colony's published instances: success rate and median seconds "
             "per fill, an unsolved run at the time it ran; ratio: gpuga's median over ACS's.", ""]
    for size in sizes:
        with open(os.path.join(out, f"{size}x{size}", "runs.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            r["solved"], r["seconds"] = int(r["solved"]), float(r["seconds"])
        fills = sorted({r["fill"] for r in rows}, key=float)
        lines += [f"## {size}x{size}", "",
                  "| fill | gpuga | ACS | exact | gpuga / ACS | short of ACS |",
                  "|---|---|---|---|---|---|"]
        for fill in fills:
            cell = {}
            for solver in ("ga", "acs", "exact"):
                runs = [r for r in rows if r["solver"] == solver and r["fill"] == fill]
                cell[solver] = summary(runs) if runs else None
            text = {s: f"{c[0]:.0%} {c[1]:.3g} s" if c else "-" for s, c in cell.items()}
            ratio, short = "-", ""
            if cell["ga"] and cell["acs"]:
                ratio = f"{cell['ga'][1] / max(cell['acs'][1], 1e-6):.2g}"
                if cell["ga"][0] < cell["acs"][0]:
                    short = "success"
                elif (size > 9 and HARD_FILLS[0] <= float(fill) <= HARD_FILLS[1]
                      and cell["ga"][1] > cell["acs"][1]):
                    short = "median"
            lines.append(f"| {fill} | {text['ga']} | {text['acs']} | {text['exact']} | {ratio} | {short} |")
        lines.append("")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "convert":
        convert(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif len(sys.argv) >= 4 and sys.argv[1] == "table":
        table(sys.argv[2], [int(s) for s in sys.argv[3:]])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
