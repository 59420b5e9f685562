#!/usr/bin/env bash
# gpuga beside ACS, Lloyd & Amos's ant colony system with constraint propagation
# (huwlloyd-mmu/sudoku_acs, built outside this repository: never commit its code), one thread
# each, on the same puzzles: ACS, gpuga at the defaults (singles first), gpuga with --presolve
# none (the search alone).
# Usage: [SETS=...] [FIRST=n] [TIME_LIMIT=s] bench/acs-side-by-side.sh ACS_BINARY [OUTDIR]
# SETS: set names under puzzles/ (default: the five hard 9x9 sets); FIRST: the first n puzzles
# of each set only; TIME_LIMIT: seconds per puzzle for both solvers (default 60).
# ACS seeds itself from std::random_device: its column is one draw, not a seeded run.
set -euo pipefail
cd "$(dirname "$0")/.."
acs=${1:?usage: bench/acs-side-by-side.sh ACS_BINARY [OUTDIR]}
out=${2:-bench/results/acs-side-by-side}
limit=${TIME_LIMIT:-60}
read -r -a sets <<<"${SETS:-norvig_top95 forum_hardest_1106_50 forum_hardest_1905_11plus_50 magictour_top1465_100 royle_17clue_50}"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in "${sets[@]}"; do
  file="$work/$s.txt"
  if [ -n "${FIRST:-}" ]; then head -n "$FIRST" "puzzles/$s.txt" >"$file"; else cp "puzzles/$s.txt" "$file"; fi
  # ACS prints 0 (solved) or 1, then its solving time in seconds.
  echo "set,puzzle,solved,seconds" >"$out/$s.acs.csv"
  i=0
  while IFS= read -r puzzle; do
    mapfile -t res < <("$acs" --puzzle "$puzzle" --timeout "$limit")
    echo "$s,$i,$((1 - res[0])),${res[1]}" >>"$out/$s.acs.csv"
    i=$((i + 1))
  done <"$file"
  for prop in none singles; do
    status=0
    "${GPUGA:-build/gpuga}" solve --backend cpu --threads 1 --seed 1 --time-limit "$limit" \
      --report-every 0 --presolve "$prop" --json "$file" >"$out/$s.$prop.json" 2>"$work/log" || status=$?
    if [ "$status" -gt 1 ]; then cat "$work/log" >&2; exit 1; fi
  done
  echo "done $s" >&2
done
/usr/bin/python3 bench/acs_table.py "$out" "${sets[@]}" | tee "$out/summary.md"
