#!/usr/bin/env bash
# Success rate and time-to-solve on the dev sets with default settings: one `gpuga solve --json`
# per set, one puzzle at a time (--concurrent 1: each puzzle's seconds are its own), then a
# table. Usage: [SETS=...] [FIRST=n] [TIME_LIMIT=s] bench/dev-sets.sh [OUTDIR] [solve options]
# FIRST: the first n puzzles of each set only (CPU runs of GPU-sized configurations).
# SETS: set names, or `9x9` (the default), `16x16`, `25x25`, `large` (both) or `all`.
# Defaults: 60 s per puzzle, seed 1 (SEED=n for another), the CPU backend (GPUGA_BACKEND=cuda
# for the GPU), and build/gpuga (GPUGA=path for another build).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/dev-sets}
shift || true
mkdir -p "$out"
subsets=$(mktemp -d)
trap 'rm -rf "$subsets"' EXIT
# Easy to hardest within each size.
sets9=(norvig_easy50 qqwing_simple_50 qqwing_easy_50 qqwing_intermediate_50 qqwing_expert_50
       norvig_hardest famous_named norvig_top95 forum_hardest_1106_50 forum_hardest_1905_11plus_50
       magictour_top1465_100 royle_17clue_50)
sets16=(acs_16x16_unique_fixed055-060 acs_16x16_fixed050_inst00-09 acs_16x16_fixed045_inst00-09
        acs_16x16_fixed040_inst00-09)
sets25=(acs_25x25_unique_fixed065-070 acs_25x25_fixed050_inst00-09 acs_25x25_fixed045_inst00-09
        acs_25x25_fixed040_inst00-09)
case "${SETS:-9x9}" in
  9x9) sets=("${sets9[@]}") ;;
  16x16) sets=("${sets16[@]}") ;;
  25x25) sets=("${sets25[@]}") ;;
  large) sets=("${sets16[@]}" "${sets25[@]}") ;;
  all) sets=("${sets9[@]}" "${sets16[@]}" "${sets25[@]}") ;;
  *) read -r -a sets <<<"$SETS" ;;
esac
for s in "${sets[@]}"; do
  file=puzzles/$s.txt
  if [ -n "${FIRST:-}" ]; then  # a copy of the set's first n, named as the set, for this run only
    file=$subsets/$s.txt
    awk -v n="$FIRST" '!/^#/ && k < n { print; k++ }' "puzzles/$s.txt" >"$file"
  fi
  # Exit status 1 means some puzzle was not solved; anything else is an error.
  status=0
  "${GPUGA:-build/gpuga}" solve --backend "${GPUGA_BACKEND:-cpu}" --seed "${SEED:-1}" --time-limit "${TIME_LIMIT:-60}" \
    --report-every 0 --json --concurrent 1 "$@" "$file" >"$out/$s.json" 2>"$out/$s.log" || status=$?
  if [ "$status" -gt 1 ] || [ ! -s "$out/$s.json" ]; then
    echo "gpuga solve failed on $file (exit $status):" >&2
    cat "$out/$s.log" >&2
    exit 1
  fi
  echo "done $s" >&2
done
jsons=()
for s in "${sets[@]}"; do jsons+=("$out/$s.json"); done
python3 bench/summarize.py "${jsons[@]}" | tee "$out/summary.md"
