#!/usr/bin/env bash
# Success rate and time-to-solve on the dev sets with default settings: one `gpuga solve --json`
# per set, then a table. Usage: bench/dev-sets.sh [OUTDIR] [extra solve options...]
# Defaults: 60 s per puzzle, seed 1, the CPU backend (GPUGA_BACKEND=cuda for the GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/dev-sets}
shift || true
mkdir -p "$out"
sets=(norvig_easy50 qqwing_simple_50 qqwing_easy_50 qqwing_intermediate_50 qqwing_expert_50
      norvig_hardest famous_named)
for s in "${sets[@]}"; do
  build/gpuga solve --backend "${GPUGA_BACKEND:-cpu}" --seed 1 --time-limit 60 --report-every 0 \
    --json "$@" "puzzles/$s.txt" >"$out/$s.json" 2>"$out/$s.log" || true
  echo "done $s" >&2
done
python3 bench/summarize.py "$out"/*.json | tee "$out/summary.md"
