#!/usr/bin/env bash
# The GA, simulated annealing and hill climbing side by side on the dev sets, each at
# its defaults on the same engine, backend and population (--pop 2000: two islands of 1000 GA
# individuals or chains), with the same seeds:
#   evals.csv  the same budget of about 5e7 evaluations per run (a move's fitness change counts
#              as one): 50 GA generations of 2000 children with 500 local-search moves each,
#              or 430 sweeps of 2000 chains (one move per free cell: 5e7 moves at 58 free
#              cells); generation limits, so the result does not depend on the machine;
#   wall.csv   the same wall-clock budget per puzzle (SECONDS, one run at a time).
# Then report.md and plots of each, and summary.md. Usage: bench/algorithms.sh [OUT_DIR]
# (runs already in OUT_DIR's CSVs are skipped: remove them to start afresh)
# Environment: GPUGA (default build/gpuga), BACKEND (cpu), SAMPLE (puzzles per set, 20),
# SECONDS_PER_PUZZLE (5).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/algorithms}
gpuga=${GPUGA:-build/gpuga}
backend=${BACKEND:-cpu}
sample=${SAMPLE:-20}
seconds=${SECONDS_PER_PUZZLE:-5}
sets="norvig_easy50 qqwing_expert_50 norvig_top95 forum_hardest_1106_50 royle_17clue_50"
mkdir -p "$out"
# Exit status 1 (some run unsolved) is a measurement; the CSVs resume where a stopped run left.
measure() { "$@" || [ $? -le 1 ]; }
common="--backend $backend --pop 2000 --seed 10 --sample $sample"

for set in $sets; do
  for algorithm in ga sa hc; do
    generations=$([ "$algorithm" = ga ] && echo 50 || echo 430)
    measure "$gpuga" batch $common --algorithm "$algorithm" --max-generations "$generations" \
      --time-limit 0 --resume --csv "$out/evals.csv" "puzzles/$set.txt"
  done
  measure "$gpuga" sweep $common --grid 'algorithm=ga,sa,hc' --time-limit "$seconds" --concurrent 1 \
    --resume --csv "$out/wall.csv" "puzzles/$set.txt"
done

for budget in evals wall; do
  measure "$gpuga" report "$out/$budget.csv" > "$out/report-$budget.md"
  mkdir -p "$out/$budget"
  "$gpuga" plot "$out/$budget.csv" --out "$out/$budget"
done
"${PYTHON:-/usr/bin/python3}" bench/compare_algorithms.py "$out" > "$out/summary.md"
