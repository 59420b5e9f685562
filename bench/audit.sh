#!/usr/bin/env bash
# The audit of solved grids: many short, generation-limited runs across sizes 4x4 to
# 16x16, the three algorithms, every encoding and selection, with and without propagation, and
# every grid reported solved checked by bench/audit_verify.py, written apart from gpuga.
#
# Usage: bench/audit.sh [GPUGA] [OUT_DIR]   (defaults: build/gpuga, build/audit)
# AUDIT_SCALE=K multiplies the runs per puzzle (default 1: 137,760 runs, 17 minutes on the
# 2-core CPU VM beside a fuzzer). Writes OUT_DIR/*.csv (one per sweep), OUT_DIR/summary.json and the
# verifier's line; exits 1 if any grid fails.
set -euo pipefail
cd "$(dirname "$0")/.."
gpuga=${1:-build/gpuga}
out=${2:-build/audit}
scale=${AUDIT_SCALE:-1}
mkdir -p "$out"
rm -f "$out"/*.csv "$out"/*.checkpoints 2>/dev/null || true

# 4x4 puzzles: no public set holds them, so 40 are drawn here (seeded) from relabelled, permuted
# solutions with half their cells blanked; solvable by construction, not always uniquely.
/usr/bin/python3 - "$out/4x4.txt" <<'PY'
import random, sys
rng = random.Random(26)
base = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
with open(sys.argv[1], "w") as f:
    f.write("# 40 4x4 puzzles drawn by bench/audit.sh (random.Random(26))\n")
    for _ in range(40):
        label = rng.sample(range(1, 5), 4)
        bands = rng.sample([0, 1], 2)
        rows = [b * 2 + r for b in bands for r in rng.sample([0, 1], 2)]
        stacks = rng.sample([0, 1], 2)
        cols = [s * 2 + c for s in stacks for c in rng.sample([0, 1], 2)]
        grid = [label[base[r][c] - 1] for r in rows for c in cols]
        blanks = set(rng.sample(range(16), rng.randint(6, 11)))
        f.write("".join("." if i in blanks else str(v) for i, v in enumerate(grid)) + "\n")
PY

# Every encoding and selection for the GA (memetic and plain), every encoding for sa and hc,
# each with and without propagation.
ga_grid="encoding=box,row,cell selection=tournament,rank,truncation local-search=auto,0 presolve=none,singles"
chain_grid="algorithm=sa,hc encoding=box,row,cell presolve=none,singles"
common=(--backend cpu --time-limit 0 --seed 26)

sweep() {  # NAME PUZZLES RUNS MAX_GENERATIONS POP GRID
  local name=$1 puzzles=$2 runs=$(( $3 * scale )) gens=$4 pop=$5 grid=$6
  echo "audit: $name: $runs run(s) per puzzle and configuration, $gens generations, pop $pop" >&2
  "$gpuga" sweep "${common[@]}" --csv "$out/$name.csv" --runs "$runs" --max-generations "$gens" \
    --pop "$pop" --island-size "$pop" --grid "$grid" "$puzzles" 2>"$out/$name.log" || [ $? -eq 1 ]
}

for algo in ga chain; do
  grid_var=${algo}_grid
  sweep "4x4-$algo" "$out/4x4.txt" 40 20 40 "${!grid_var}"
  sweep "9x9-easy-$algo" puzzles/qqwing_easy_50.txt 20 30 100 "${!grid_var}"
  sweep "9x9-hard-$algo" puzzles/norvig_top95.txt 2 10 100 "${!grid_var}"
  sweep "16x16-$algo" puzzles/acs_16x16_fixed050_inst00-09.txt 8 10 100 "${!grid_var}"
done
/usr/bin/python3 bench/audit_verify.py --json "$out/summary.json" "$out"/*.csv
