#!/usr/bin/python3
"""Checks every grid that gpuga batch CSVs report as solved, independently of gpuga's code.

Usage: audit_verify.py CSV... [--json OUT]

For each row: the puzzle is read again from its file (puzzle_id is FILE#K, the K-th puzzle of
FILE, one per line), the grid column is decoded in the file's alphabet, and a row with solved=1
must hold a grid of values 1..n that keeps every given and whose n rows, n columns and n boxes
each hold 1..n once. A row with solved=0 must not hold such a grid (that would be a solve gone
unreported). Exits 1 if any row fails, naming it. Written apart from gpuga (bench/audit.sh runs
it), so that a fault in gpuga's own verify_solution cannot hide itself.
"""
import csv
import json
import math
import sys
from collections import Counter

csv.field_size_limit(1 << 24)

HEX_ZERO = "0123456789abcdef"   # 16x16: 1..16
ALNUM_ONE = "123456789ABCDEFG"  # 16x16: 1..16
DIGITS = "123456789"            # 4x4, 9x9


def alphabet_of(lines, n):
    """The characters for 1..n that a file of one-line puzzles of side n is written in."""
    if n <= 9:
        return DIGITS[:n]
    text = "".join(lines)
    if n == 16:
        return HEX_ZERO if any(c in "0abcdef" for c in text) else ALNUM_ONE
    return "abcdefghijklmnopqrstuvwxy" if any(c.islower() for c in text) else "ABCDEFGHIJKLMNOPQRSTUVWXY"


def decode(text, n, alphabet):
    """Values of a one-line grid: characters, or n*n whitespace-separated numbers; 0 a blank."""
    tokens = text.split()
    if len(tokens) == n * n:
        return [0 if t == "." else int(t) for t in tokens]
    if len(text) != n * n:
        raise ValueError(f"{len(text)} characters for a {n}x{n} grid")
    values = []
    for c in text:
        if c == "." or (c == "0" and alphabet is not HEX_ZERO):
            values.append(0)
        elif c in alphabet:
            values.append(alphabet.index(c) + 1)
        else:
            raise ValueError(f"character {c!r} outside the alphabet")
    return values


class PuzzleFiles:
    def __init__(self):
        self.files = {}

    def puzzle(self, puzzle_id, n):
        path, k = puzzle_id.rsplit("#", 1)
        if path not in self.files:
            with open(path) as f:
                lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
            self.files[path] = (lines, alphabet_of(lines, n))
        lines, alphabet = self.files[path]
        return decode(lines[int(k) - 1], n, alphabet), alphabet


def fault(puzzle, grid, n):
    """Why `grid` is not a solution of `puzzle`, or None."""
    box = math.isqrt(n)
    if len(grid) != n * n or any(not 1 <= v <= n for v in grid):
        return "values outside 1..n or a grid of another size"
    for i, (p, g) in enumerate(zip(puzzle, grid)):
        if p and p != g:
            return f"given r{i // n + 1}c{i % n + 1}={p} changed to {g}"
    want = set(range(1, n + 1))
    for u in range(n):
        row = {grid[u * n + k] for k in range(n)}
        col = {grid[k * n + u] for k in range(n)}
        r0, c0 = u // box * box, u % box * box
        blk = {grid[(r0 + k // box) * n + c0 + k % box] for k in range(n)}
        for kind, seen in (("row", row), ("column", col), ("box", blk)):
            if seen != want:
                return f"{kind} {u + 1} is not a permutation of 1..{n}"
    return None


def main(argv):
    out_json = None
    if "--json" in argv:
        i = argv.index("--json")
        out_json = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    files = PuzzleFiles()
    counts = Counter()
    per_size = Counter()
    failures = []
    for path in argv:
        with open(path, newline="") as f:
            for line_no, row in enumerate(csv.DictReader(f), start=2):
                n = int(row["size"].split("x")[0])
                puzzle, alphabet = files.puzzle(row["puzzle_id"], n)
                try:
                    grid = decode(row["grid"], n, alphabet)
                    why = fault(puzzle, grid, n)
                except ValueError as e:
                    why = str(e)
                counts["runs"] += 1
                per_size[row["size"]] += 1
                if row["solved"] == "1":
                    counts["solved"] += 1
                    counts["by_propagation"] += row["stop"] == "propagation"
                    if why:
                        failures.append(f"{path}:{line_no}: reported solved, but {why}")
                elif row["solved"] == "0":
                    if not why:
                        failures.append(f"{path}:{line_no}: reported unsolved, but its grid is a solution")
                else:
                    failures.append(f"{path}:{line_no}: solved is {row['solved']!r}")
    summary = {"runs": counts["runs"], "solved": counts["solved"],
               "solved_by_propagation": counts["by_propagation"], "invalid": len(failures),
               "runs_per_size": dict(per_size), "csv_files": len(argv)}
    print(f"audit: {summary['runs']} runs, {summary['solved']} reported solved "
          f"({summary['solved_by_propagation']} by propagation alone), "
          f"{len(failures)} invalid; runs per size {dict(per_size)}")
    for f in failures[:20]:
        print(f, file=sys.stderr)
    if out_json:
        with open(out_json, "w") as f:
            json.dump(summary, f, indent=2)
    return 1 if failures or not counts["runs"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
