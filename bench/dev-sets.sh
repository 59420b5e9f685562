#!/usr/bin/env bash
# Success rate and time-to-solve on the dev sets with default settings: one `gpuga solve --json`
# per set, then a table. Usage: [SETS="..."] bench/dev-sets.sh [OUTDIR] [extra solve options...]
# Defaults: 60 s per puzzle, seed 1, the CPU backend (GPUGA_BACKEND=cuda for the GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/dev-sets}
shift || true
mkdir -p "$out"
# Every dev set, easy to hardest; SETS="a b" picks some by name.
sets=(norvig_easy50 qqwing_simple_50 qqwing_easy_50 qqwing_intermediate_50 qqwing_expert_50
      norvig_hardest famous_named norvig_top95 forum_hardest_1106_50 forum_hardest_1905_11plus_50
      magictour_top1465_100 royle_17clue_50)
if [ -n "${SETS:-}" ]; then read -r -a sets <<<"$SETS"; fi
for s in "${sets[@]}"; do
  build/gpuga solve --backend "${GPUGA_BACKEND:-cpu}" --seed 1 --time-limit 60 --report-every 0 \
    --json "$@" "puzzles/$s.txt" >"$out/$s.json" 2>"$out/$s.log" || true
  echo "done $s" >&2
done
python3 bench/summarize.py "$out"/*.json | tee "$out/summary.md"
