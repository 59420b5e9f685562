#!/usr/bin/env bash
# Puzzles a second: `gpuga solve` on whole files, many at once (--concurrent 0: as many runs as
# fill the backend, each sized for throughput by the defaults table) against one at a time
# (--concurrent 1: each run the one-puzzle default). Two rates: over the wall time of the whole
# command (the process, reading the files and the device's first touch included), and over the
# solve's own seconds (its JSON's `seconds`: from the first run's start to the last result), which
# is what a long stream of puzzles sees. One line per file and mode, with each run's population.
# Usage: [GPUGA=build/gpuga] bench/throughput.sh FILE... [-- solve options]
# Defaults: seed 1, 10 s a puzzle, the backend auto picks (--backend cpu|cuda after --).
set -euo pipefail
gpuga=${GPUGA:-build/gpuga}
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#files[@]} -gt 0 ] || { echo "usage: bench/throughput.sh FILE... [-- solve options]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| file | mode | puzzles | solved | command s | puzzles/s | solve s | puzzles/s, solve | pop per run | backend |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n'
for f in "${files[@]}"; do
  for mode in many-at-once one-at-a-time; do
    concurrent=0
    [ $mode = one-at-a-time ] && concurrent=1
    t0=$(date +%s.%N)
    status=0
    "$gpuga" solve --seed 1 --time-limit 10 --report-every 0 --json --concurrent $concurrent "$@" \
      "$f" >"$tmp/out.json" 2>"$tmp/err.txt" || status=$?
    t1=$(date +%s.%N)
    # 1: some puzzle unsolved within its limit (still a measurement); anything else an error.
    [ $status -le 1 ] || { cat "$tmp/err.txt" >&2; exit 1; }
    python3 - "$f" "$mode" "$t0" "$t1" "$tmp/out.json" <<'EOF'
import json, sys
f, mode, t0, t1, path = sys.argv[1:]
d = json.load(open(path))
seconds = float(t1) - float(t0)
n = len(d["results"])
solved = sum(r["solved"] for r in d["results"])
solving = d["seconds"]
print(f"| {f.split('/')[-1]} | {mode} | {n} | {solved} | {seconds:.2f} | {n / seconds:.0f} | "
      f"{solving:.4f} | {n / solving:.0f} | {d['config']['pop']} | {d['config']['backend']} |")
EOF
  done
done
