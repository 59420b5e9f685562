#!/usr/bin/env bash
# One run's islands over MPI ranks: `mpirun -np N gpuga solve` writes what one process writes for
# the same seed (grids, generations, evaluations, restarts, the island that solved), for the
# memetic GA, the plain GA migrating every few generations (so that the ring crosses the ranks
# many times), sa, a 16x16 puzzle, and one island a rank; batch and sweep sharing out their runs
# (and --resume on another rank count); a rank count that does not divide the
# islands is refused before any run, with a message; rank 0 alone writes.
# Usage: test_mpi.sh GPUGA SOURCE_DIR
set -uo pipefail
gpuga=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpi() { local n=$1; shift; timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$n" "$@"; }
# The results, less what depends on the clock or the machine.
strip() {
  /usr/bin/python3 -c '
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
  puzzles=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$tmp/$name.n.json")
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
same memetic 2 --pop 400 --island-size 100 --local-search 100 --migration-interval 3 --seed 2 --max-generations 200 "$four"
/usr/bin/python3 -c '
import json, sys
islands = [r["island"] for r in json.load(open(sys.argv[1]))["results"] if r["solved"]]
sys.exit(0 if any(k >= 2 for k in islands) else 1)' "$tmp/memetic.n.json" || fail "memetic: no solution from rank 1"
same plain-ga 2 --pop 400 --island-size 100 --local-search 0 --migration-interval 10 --seed 4 --max-generations 300 "$nine"
same one-island-a-rank 4 --pop 400 --island-size 100 --local-search 20 --migration-interval 1 --seed 5 --max-generations 30 "$nine"
same sa 2 --algorithm sa --pop 8 --island-size 4 --seed 6 --max-generations 200 "$nine"
same sixteen 2 --pop 200 --island-size 50 --local-search 100 --migration-interval 3 --seed 7 --max-generations 10 "$sixteen"

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
  /usr/bin/python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r.pop("time_seconds")
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
/usr/bin/python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
assert [r["ranks"] for r in rows] == [1, 2], rows
one, two = rows
assert one["islands"] == two["islands"] == 4 and one["evaluations_per_s"] > 0, rows
assert 0 < two["efficiency"] <= 2.5 and two["ms_per_phase"]["ring"] > 0, two
assert one["ms_per_phase"]["ring"] == 0, one' "$tmp/bench.json" || fail "bench on 2 ranks: $(cat "$tmp/bench.json")"
[ "$(grep -c "^the genetic algorithm" "$tmp/bench.out")" = 1 ] || fail "bench: more than one table"
echo "ok: bench on 2 ranks"

# A rank that dies (SIGKILL) ends the others within seconds, with a non-zero exit: no hang.
mpi 2 "$gpuga" solve --backend cpu --pop 400 --island-size 100 --seed 424242 --time-limit 120 \
  --report-every 0 "$src/puzzles/acs_25x25_fixed040_inst00-09.txt" >"$tmp/kill.out" 2>&1 &
launcher=$!
for _ in $(seq 100); do
  ranks=$(pgrep -f "^$gpuga solve .*--seed 424242" | tail -n 1)  # a rank, not the launcher
  [ -n "$ranks" ] && break
  sleep 0.1
done
[ -n "$ranks" ] || fail "no rank to kill"
sleep 1
kill -9 "$ranks"
start=$SECONDS
wait "$launcher"
rc=$?
[ "$rc" -ne 0 ] || fail "a killed rank: exit 0"
[ $((SECONDS - start)) -le 20 ] || fail "a killed rank: the others went on for $((SECONDS - start)) s"
echo "ok: a killed rank ended the run in $((SECONDS - start)) s (exit $rc)"
