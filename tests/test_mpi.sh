#!/usr/bin/env bash
# One run's islands over MPI ranks: `mpirun -np N gpuga solve` writes what one process writes for
# the same seed (grids, generations, evaluations, restarts, the island that solved), for the
# repaired GA of the defaults, the memetic GA, the plain GA migrating every few generations (so
# that the ring crosses the ranks many times), sa, a 16x16 puzzle, a file of three sizes, and one
# island a rank; batch and sweep sharing out their runs
# (and --resume on another rank count); a rank count that does not divide the
# islands is refused before any run, with a message; rank 0 alone writes; a seed drawn (none given)
# is rank 0's on every rank.
# With a GPU, ranks that outnumber the GPUs share them round-robin, with the same results.
# Skipped (77), saying why, without mpirun or a python3 (the GPU bundle's machine may lack them).
# Usage: test_mpi.sh GPUGA SOURCE_DIR
set -uo pipefail
gpuga=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$(dirname "$0")/wait_for.sh"
command -v mpirun >/dev/null || { echo "skipped: no mpirun on this machine"; exit 77; }
python3=$(command -v /usr/bin/python3 || command -v python3) ||
  { echo "skipped: no python3 on this machine"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi() { local n=$1; shift; timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$n" "$@"; }
# The results, less what depends on the clock or the machine.
strip() {
  "$python3" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    for k in ("seconds", "time"):
        r.pop(k, None)
print(json.dumps(doc["results"], sort_keys=True, indent=1))' "$1"
}
same() {  # name ranks options...: one process against `ranks` ranks
  local name=$1 n=$2; shift 2
  "$gpuga" solve --backend cpu --threads 2 --json "$@" >"$tmp/$name.1.json" 2>"$tmp/$name.1.err"
  local rc1=$?
  mpi "$n" "$gpuga" solve --backend cpu --json "$@" >"$tmp/$name.n.json" 2>"$tmp/$name.n.err"
  local rcn=$?
  [ "$rc1" -le 1 ] || { cat "$tmp/$name.1.err"; fail "$name: one process exited $rc1"; }
  [ "$rcn" = "$rc1" ] || { cat "$tmp/$name.n.err"; fail "$name: $n ranks exited $rcn, one process $rc1"; }
  diff <(strip "$tmp/$name.1.json") <(strip "$tmp/$name.n.json") >"$tmp/$name.diff" ||
    { cat "$tmp/$name.diff"; fail "$name: $n ranks differ from one process"; }
  # Rank 0 alone writes: one summary line a puzzle.
  local lines puzzles
  lines=$(grep -c "^puzzle " "$tmp/$name.n.err")
  puzzles=$("$python3" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$tmp/$name.n.json")
  [ "$lines" = "$puzzles" ] || fail "$name: $lines summary lines for $puzzles puzzles"
  echo "ok: $name on $n ranks"
}
nine="$tmp/nine.txt"
sed -n '1,3p' "$src/puzzles/norvig_top95.txt" >"$nine"
sixteen="$tmp/sixteen.txt"
sed -n '1p' "$src/puzzles/acs_16x16_unique_fixed055-060.txt" >"$sixteen"

# Four hard puzzles that islands on both ranks solve (seed 2: islands 0, 1 and 2 of 4).
four="$tmp/four.txt"
sed -n '1,4p' "$src/puzzles/norvig_top95.txt" >"$four"
same memetic 2 --repair none --pop 400 --island-size 100 --local-search 100 --migration-interval 3 --seed 2 --max-generations 200 "$four"
"$python3" -c '
import json, sys
islands = [r["island"] for r in json.load(open(sys.argv[1]))["results"] if r["solved"]]
sys.exit(0 if any(k >= 2 for k in islands) else 1)' "$tmp/memetic.n.json" || fail "memetic: no solution from rank 1"
# The repaired GA of the defaults, its small islands on both ranks.
same repaired 2 --pop 32 --island-size 8 --seed 3 --max-generations 200 "$four"
"$python3" -c '
import json, sys
islands = [r["island"] for r in json.load(open(sys.argv[1]))["results"] if r["solved"]]
sys.exit(0 if len(islands) == 4 and any(k >= 2 for k in islands) else 1)' "$tmp/repaired.n.json" ||
  fail "repaired: not every puzzle solved, or none from rank 1"
same plain-ga 2 --repair none --pop 400 --island-size 100 --local-search 0 --migration-interval 10 --seed 4 --max-generations 300 "$nine"
same one-island-a-rank 4 --repair none --pop 400 --island-size 100 --local-search 20 --migration-interval 1 --seed 5 --max-generations 30 "$nine"
same sa 2 --algorithm sa --pop 8 --island-size 4 --seed 6 --max-generations 200 "$nine"
same sixteen 2 --repair none --pop 200 --island-size 50 --local-search 100 --migration-interval 3 --seed 7 --max-generations 10 "$sixteen"
# A file of 9x9, 4x4 and 16x16 puzzles: each size's plan (its local search and restart) on every
# rank, as one process plans them.
same mixed-sizes 2 --pop 200 --island-size 50 --presolve none --seed 9 --max-generations 12 "$src/puzzles/mixed_sizes.txt"
"$python3" -c '
import json, sys
got = {r["size"]: r["config"]["local_search"] for r in json.load(open(sys.argv[1]))["results"]}
sys.exit(0 if len(got) == 3 and got["16x16"] != got["9x9"] else 1)' "$tmp/mixed-sizes.n.json" ||
  fail "mixed-sizes: the sizes did not each get their own plan"
# Islands that grow (--grow-after): every rank starts each stage together, its islands larger.
same growing 2 --repair none --pop 40 --island-size 10 --local-search 20 --migration-interval 3 --grow-after 3 --seed 8 --max-generations 60 "$four"
"$python3" -c '
import json, sys
sys.exit(0 if any(r["growths"] > 0 for r in json.load(open(sys.argv[1]))["results"]) else 1)' "$tmp/growing.n.json" || fail "growing: no run grew"

# No seed given: every rank runs with the one rank 0 drew, so that the run is the one its recorded
# seed gives.
mpi 2 "$gpuga" solve --backend cpu --json --repair none --pop 400 --island-size 100 --local-search 0 \
  --max-generations 20 "$nine" >"$tmp/drawn.n.json" 2>"$tmp/drawn.n.err"
[ $? -le 1 ] || { cat "$tmp/drawn.n.err"; fail "a drawn seed on 2 ranks"; }
seed=$("$python3" -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["seed"])' "$tmp/drawn.n.json")
"$gpuga" solve --backend cpu --threads 2 --json --repair none --pop 400 --island-size 100 --local-search 0 \
  --max-generations 20 --seed "$seed" "$nine" >"$tmp/drawn.1.json" 2>/dev/null
diff <(strip "$tmp/drawn.1.json") <(strip "$tmp/drawn.n.json") ||
  fail "a drawn seed on 2 ranks: not the run its recorded seed $seed gives"
echo "ok: a drawn seed is rank 0's on every rank"

# On a GPU: more ranks than GPUs share them (local rank modulo the devices), said once, recorded
# in the JSON, with what one process computes on the GPU.
if "$gpuga" devices --json | grep -q '"index"'; then
  gpus=$("$gpuga" devices --json | grep -c '"index"')
  n=$((gpus + 1))
  run=(solve --backend cuda --json --pop $((n * 1000)) --island-size 500 --seed 3 --max-generations 30 "$four")
  "$gpuga" "${run[@]}" >"$tmp/gpu.1.json" 2>"$tmp/gpu.1.err" ; rc1=$?
  mpi "$n" "$gpuga" "${run[@]}" >"$tmp/gpu.n.json" 2>"$tmp/gpu.n.err" ; rcn=$?
  [ "$rc1" -le 1 ] && [ "$rcn" = "$rc1" ] || { cat "$tmp/gpu.n.err"; fail "cuda on $n ranks exited $rcn, one process $rc1"; }
  diff <(strip "$tmp/gpu.1.json") <(strip "$tmp/gpu.n.json") || fail "cuda: $n ranks on $gpus GPU(s) differ from one process"
  [ "$(grep -c "share $gpus CUDA device(s)" "$tmp/gpu.n.err")" = 1 ] || { cat "$tmp/gpu.n.err"; fail "cuda: the sharing is not said once"; }
  "$python3" -c 'import json,sys; assert json.load(open(sys.argv[1]))["config"]["rank_devices"] == "local rank % " + sys.argv[2]' \
    "$tmp/gpu.n.json" "$gpus" || fail "cuda: the JSON does not record how ranks took devices"
  echo "ok: $n ranks shared $gpus GPU(s)"
else
  echo "no GPU: ranks sharing GPUs not tested here (the mapping is test_devices')"
fi

# What solve prints on stdout (--format line: the grids, or the best one labelled), byte for byte.
same_text() {  # name ranks options...
  local name=$1 n=$2; shift 2
  "$gpuga" solve --backend cpu --threads 2 --format line "$@" >"$tmp/$name.1.txt" 2>"$tmp/$name.1.err"
  mpi "$n" "$gpuga" solve --backend cpu --format line "$@" >"$tmp/$name.n.txt" 2>"$tmp/$name.n.err"
  cmp "$tmp/$name.1.txt" "$tmp/$name.n.txt" || fail "$name: stdout on $n ranks differs"
  [ -s "$tmp/$name.1.txt" ] || fail "$name: no output"
  grep -q "  ranks $n  " "$tmp/$name.n.err" || fail "$name: the summary line does not say $n ranks"
  echo "ok: $name, stdout on $n ranks"
}
same_text ga-restarts 3 --repair none --pop 300 --island-size 100 --local-search 50 --migration-interval 2 --restart-after 5 --seed 8 --max-generations 60 "$four"
same_text one-rank 1 --pop 300 --island-size 100 --local-search 50 --migration-interval 2 --seed 8 --max-generations 30 "$four"
same_text hc 3 --algorithm hc --pop 6 --island-size 2 --seed 11 --max-generations 100 "$four"
same_text sixteen-text 2 --repair none --pop 200 --island-size 50 --local-search 100 --seed 12 --max-generations 10 "$sixteen"
"$python3" -c 'import json,sys; assert json.load(open(sys.argv[1]))["config"]["ranks"] == 2' "$tmp/memetic.n.json" ||
  fail "solve --json does not record 2 ranks"
mpi 2 "$gpuga" solve --pop 400 --print-config "$four" >"$tmp/config.toml" || fail "--print-config on 2 ranks"
grep -qx "# ranks = 2 (MPI ranks; set by mpirun, not an option)" "$tmp/config.toml" ||
  fail "--print-config does not record 2 ranks"

# Three ranks cannot share four islands: every rank refuses before any run.
mpi 3 "$gpuga" solve --backend cpu --pop 400 --island-size 100 --seed 1 "$nine" >"$tmp/three.out" 2>"$tmp/three.err"
rc=$?
[ "$rc" -ne 0 ] || fail "3 ranks for 4 islands: exit 0"
grep -q "a run of 4 island(s) over 3 ranks; expected a number of ranks that divides the islands" "$tmp/three.err" ||
  { cat "$tmp/three.err"; fail "3 ranks for 4 islands: no message"; }
[ ! -s "$tmp/three.out" ] || fail "3 ranks for 4 islands: wrote results"
echo "ok: refused on 3 ranks"

# batch and sweep: the ranks share out the runs and rank 0 writes every row, each the row one
# process writes for that run (in the order runs end); --resume goes on with any rank count.
rows() {  # the CSV's rows less the time, sorted
  "$python3" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r.pop("seconds"), r.pop("ranks")
print("\n".join(sorted(repr(sorted(r.items())) for r in rows)))
print(len(rows), "rows")' "$1"
}
batch=(--backend cpu --pop 200 --island-size 100 --local-search 20 --max-generations 30 --seed 9)
"$gpuga" batch "${batch[@]}" --runs 3 --csv "$tmp/one.csv" "$four" 2>"$tmp/one.err"
[ $? -le 1 ] || { cat "$tmp/one.err"; fail "batch: one process"; }
mpi 2 "$gpuga" batch "${batch[@]}" --runs 3 --csv "$tmp/two.csv" "$four" 2>"$tmp/two.err"
[ $? -le 1 ] || { cat "$tmp/two.err"; fail "batch: 2 ranks"; }
diff <(rows "$tmp/one.csv") <(rows "$tmp/two.csv") || fail "batch: 2 ranks wrote other rows"
[ "$(grep -c "runs to do" "$tmp/two.err")" = 1 ] || fail "batch: more than rank 0 wrote"
echo "ok: batch on 2 ranks"
head -n 6 "$tmp/one.csv" >"$tmp/resumed.csv"  # a header and five runs done
mpi 3 "$gpuga" batch "${batch[@]}" --runs 3 --csv "$tmp/resumed.csv" --resume "$four" 2>"$tmp/resume.err"
[ $? -le 1 ] || { cat "$tmp/resume.err"; fail "batch --resume: 3 ranks"; }
grep -q "7 runs to do in 1 configuration(s) (5 recorded already), over 3 processes" "$tmp/resume.err" ||
  { cat "$tmp/resume.err"; fail "batch --resume: not 7 runs to do"; }
diff <(rows "$tmp/one.csv") <(rows "$tmp/resumed.csv") || fail "batch --resume on 3 ranks: other rows"
echo "ok: batch --resume on 3 ranks"
sweep=(--backend cpu --pop 200 --island-size 100 --max-generations 20 --seed 10 --grid "local-search=0,10")
"$gpuga" sweep "${sweep[@]}" --runs 2 --csv "$tmp/sweep1.csv" "$four" 2>"$tmp/sweep1.err"
mpi 2 "$gpuga" sweep "${sweep[@]}" --runs 2 --csv "$tmp/sweep2.csv" "$four" 2>"$tmp/sweep2.err"
diff <(rows "$tmp/sweep1.csv") <(rows "$tmp/sweep2.csv") || fail "sweep: 2 ranks wrote other rows"
echo "ok: sweep on 2 ranks"

# bench, weak scaling: each row on rank 0 alone, then on both ranks as one run (the ring across).
mpi 2 "$gpuga" bench --backend cpu --pop 400 --island-size 100 --generations 20 --repeats 2 \
  --warmup 5 --json "$tmp/bench.json" >"$tmp/bench.out" 2>"$tmp/bench.err" ||
  { cat "$tmp/bench.err"; fail "bench on 2 ranks"; }
"$python3" -c '
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
assert [r["ranks"] for r in rows] == [1, 2], rows
one, two = rows
assert one["islands"] == two["islands"] == 4 and one["evaluations_per_s"] > 0, rows
assert two["efficiency"] > 0 and two["ms_per_phase"]["ring"] > 0, two  # figures: bench/, not here
assert one["ms_per_phase"]["ring"] == 0, one' "$tmp/bench.json" || fail "bench on 2 ranks: $(cat "$tmp/bench.json")"
[ "$(grep -c "^the genetic algorithm" "$tmp/bench.out")" = 1 ] || fail "bench: more than one table"
echo "ok: bench on 2 ranks"

# A batch whose rank is killed keeps its finished rows; --resume completes it, no run twice.
long=(--backend cpu --repair none --pop 200 --island-size 100 --local-search 100 --max-generations 400 --time-limit 0 --seed 13)
"$gpuga" batch "${long[@]}" --runs 4 --csv "$tmp/whole.csv" "$four" 2>/dev/null
mpi 2 "$gpuga" batch "${long[@]}" --runs 4 --csv "$tmp/killed.csv" --concurrent 1 "$four" 2>/dev/null &
launcher=$!
for _ in $(seq 300); do
  [ "$(wc -l 2>/dev/null <"$tmp/killed.csv" || echo 0)" -ge 3 ] && break
  sleep 0.1
done
pkill -9 -f "^$gpuga batch .*--seed 13" -n
wait "$launcher" && fail "batch: a killed rank, exit 0"
kept=$(($(wc -l <"$tmp/killed.csv") - 1))
[ "$kept" -ge 2 ] && [ "$kept" -lt 16 ] || fail "batch: $kept rows kept of 16"
mpi 2 "$gpuga" batch "${long[@]}" --runs 4 --csv "$tmp/killed.csv" --resume "$four" 2>"$tmp/killed.err" ||
  [ $? -eq 1 ] || { cat "$tmp/killed.err"; fail "batch --resume after a killed rank"; }
diff <(rows "$tmp/whole.csv") <(rows "$tmp/killed.csv") || fail "batch --resume after a killed rank: other rows"
echo "ok: batch resumed after a killed rank ($kept of 16 rows kept)"

# SIGTERM to one rank stops every rank cleanly, as Ctrl-C does: rank 0 reports the best so far.
mpi 2 "$gpuga" solve --backend cpu --repair none --pop 400 --island-size 100 --local-search 0 --seed 434343 --time-limit 120 \
  --report-every 1 --format line "$src/puzzles/acs_25x25_fixed040_inst00-09.txt" >"$tmp/term.out" 2>"$tmp/term.err" &
launcher=$!
wait_for "$tmp/term.err" "^gen "
pkill -TERM -f "^$gpuga solve .*--seed 434343" -n
start=$SECONDS
wait "$launcher"
rc=$?
[ "$rc" = 5 ] || { cat "$tmp/term.err"; fail "SIGTERM to a rank: exit $rc, expected 5 (interrupted)"; }
[ $((SECONDS - start)) -le 30 ] || fail "SIGTERM to a rank: $((SECONDS - start)) s to stop"
grep -q "interrupted after" "$tmp/term.err" || { cat "$tmp/term.err"; fail "SIGTERM: no interrupted summary"; }
grep -q "9 of 10 puzzles not run" "$tmp/term.err" || { cat "$tmp/term.err"; fail "SIGTERM: the puzzles not run not said"; }
grep -q "^# puzzle 1 .* not solved" "$tmp/term.out" || fail "SIGTERM: no best grid on stdout"
echo "ok: SIGTERM to a rank stopped the run in $((SECONDS - start)) s"

# --checkpoint over ranks: SIGTERM to one rank checkpoints the whole run (rank 0 writes it) and
# every rank exits with status 4; it resumes on 2 ranks, and on one process, to what one process
# prints uninterrupted. The run is long (6,000 generations, a second or more on a fast machine)
# so that the signal, sent within 50 ms of the first progress line, lands before the generation
# limit does. Each cut writes a log of its own: a log of the cut before would show a progress
# line before this cut's ranks had started.
head -n 1 "$src/puzzles/acs_16x16_fixed040_inst00-09.txt" >"$tmp/unsolved.txt"  # not within these runs
ck=(--backend cpu --seed 5 --max-generations 6000 --time-limit 0 --report-every 1000 --format line --pop 400
    --island-size 100 --local-search 0 --repair none --migration-interval 20 "$tmp/unsolved.txt")
"$gpuga" solve --threads 2 "${ck[@]}" >"$tmp/ck-whole.out" 2>"$tmp/ck-whole.err"
for resume_on in 2 1; do
  rm -f "$tmp/run.ckpt"
  cut="$tmp/ck-cut-$resume_on.err"
  mpi 2 "$gpuga" solve "${ck[@]}" --checkpoint "$tmp/run.ckpt" >"$tmp/ck-cut.out" 2>"$cut" &
  launcher=$!
  wait_for "$cut" "^gen "
  pkill -TERM -f "^$gpuga solve .*--checkpoint $tmp/run.ckpt" -n
  wait "$launcher"
  rc=$?
  [ "$rc" -eq 4 ] || { cat "$cut"; fail "checkpoint over 2 ranks: exit $rc, expected 4"; }
  [ "$(grep -c "checkpointed to" "$cut")" = 1 ] || fail "checkpoint: not one message"
  if [ "$resume_on" = 1 ]; then
    "$gpuga" solve --threads 2 "${ck[@]}" --checkpoint "$tmp/run.ckpt" >"$tmp/ck-res.out" 2>"$tmp/ck-res.err"
  else
    mpi 2 "$gpuga" solve "${ck[@]}" --checkpoint "$tmp/run.ckpt" >"$tmp/ck-res.out" 2>"$tmp/ck-res.err"
  fi
  grep -q "continuing puzzle 1" "$tmp/ck-res.err" || { cat "$tmp/ck-res.err"; fail "not resumed on $resume_on"; }
  cmp "$tmp/ck-whole.out" "$tmp/ck-res.out" || fail "checkpoint over 2 ranks, resumed on $resume_on: other output"
  [ "$(grep "^puzzle 1" "$tmp/ck-whole.err" | sed 's/, [0-9.]* s (.*//')" = \
    "$(grep "^puzzle 1" "$tmp/ck-res.err" | sed 's/, [0-9.]* s (.*//')" ] || fail "resumed on $resume_on: another summary"
  echo "ok: checkpointed on 2 ranks, resumed on $resume_on to the uninterrupted result"
done

# A rank that dies (SIGKILL) ends the others within seconds, with a non-zero exit: no hang.
mpi 2 "$gpuga" solve --backend cpu --pop 400 --island-size 100 --seed 424242 --time-limit 120 \
  --report-every 1 "$src/puzzles/acs_25x25_fixed040_inst00-09.txt" >"$tmp/kill.out" 2>&1 &
launcher=$!
wait_for "$tmp/kill.out" "^gen "
ranks=$(pgrep -f "^$gpuga solve .*--seed 424242" | tail -n 1)  # a rank, not the launcher
[ -n "$ranks" ] || fail "no rank to kill"
kill -9 "$ranks"
start=$SECONDS
wait "$launcher"
rc=$?
[ "$rc" -ne 0 ] || fail "a killed rank: exit 0"
[ $((SECONDS - start)) -le 20 ] || fail "a killed rank: the others went on for $((SECONDS - start)) s"
echo "ok: a killed rank ended the run in $((SECONDS - start)) s (exit $rc)"
