#!/usr/bin/env bash
# gpuga solve --checkpoint: SIGTERM (and SIGUSR1) write a checkpoint at the end of the epoch and
# exit with status 4 within seconds; the same command continues the run and prints what the
# uninterrupted run prints (the grid, generations, restarts, evaluations; SIGUSR1 cuts a run whose
# islands have grown); a checkpoint of another configuration is refused (exit 2, a message) and
# left as it was; a finished solve removes it.
# batch --checkpoint-every does the same for its runs in flight (files beside the CSV).
# Usage: test_checkpoint_cli.sh GPUGA SOURCE_DIR
set -uo pipefail
gpuga=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
python3=$(command -v /usr/bin/python3 || command -v python3) || fail "no python3 on this machine"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n 1 "$src/puzzles/acs_16x16_fixed040_inst00-09.txt" >"$tmp/p.txt"
# The plain GA on a 16x16 puzzle it does not solve: many cheap generations with restarts and
# migration, ended by the generation limit (no time limit: a loaded machine must not end it).
# SIGUSR1's run has islands that grow (--grow-after): twice within its first 0.3 s, so that the
# cut falls in its last stage, with twice and four times the islands' size.
plain=(--max-generations 6000)
growing=(--max-generations 8000 --grow-after 500)
summary() { grep "^puzzle 1" "$1" | sed 's/, [0-9.]* s (.*//'; }
source "$(dirname "$0")/wait_for.sh"

for sig in TERM USR1; do
  if [ "$sig" = TERM ]; then limits=("${plain[@]}"); else limits=("${growing[@]}"); fi
  run=(--backend cpu --threads 1 --seed 5 --time-limit 0 --report-every 500 --format line
       --pop 400 --island-size 100 --local-search 0 --repair none --migration-interval 20
       "${limits[@]}")
  "$gpuga" solve "${run[@]}" "$tmp/p.txt" >"$tmp/whole.out" 2>"$tmp/whole.err"
  [ $? -eq 1 ] || { cat "$tmp/whole.err"; fail "SIG$sig: the uninterrupted run"; }
  ck="$tmp/run-$sig.ckpt"
  # A log for each signal: the progress lines of the run before would end the wait before this
  # run had its handlers in place.
  "$gpuga" solve "${run[@]}" --checkpoint "$ck" "$tmp/p.txt" >"$tmp/cut.out" 2>"$tmp/cut-$sig.err" &
  pid=$!
  # SIGUSR1's cut past generation 1000, where the islands have grown twice.
  if [ "$sig" = TERM ]; then wait_for "$tmp/cut-$sig.err" "^gen "; else wait_for "$tmp/cut-$sig.err" "^gen [1-9][0-9]{3}"; fi
  kill -"$sig" "$pid"
  start=$SECONDS
  wait "$pid"
  rc=$?
  [ "$rc" -eq 4 ] || { cat "$tmp/cut-$sig.err"; fail "SIG$sig: exit $rc, expected 4"; }
  [ $((SECONDS - start)) -le 10 ] || fail "SIG$sig: $((SECONDS - start)) s to checkpoint"
  [ -s "$ck" ] && [ ! -e "$ck.tmp" ] || fail "SIG$sig: no checkpoint"
  [ ! -s "$tmp/cut.out" ] || fail "SIG$sig: a result printed for a run not finished"
  grep -q "checkpointed to $ck at generation" "$tmp/cut-$sig.err" || fail "SIG$sig: no message"

  # Another configuration is refused, and the checkpoint stays as it was.
  cp "$ck" "$tmp/before"
  "$gpuga" solve "${run[@]}" --mutation-rate 0.9 --checkpoint "$ck" "$tmp/p.txt" >/dev/null 2>"$tmp/other.err"
  [ $? -eq 2 ] || fail "SIG$sig: another configuration not refused"
  grep -q "a checkpoint of another configuration" "$tmp/other.err" || { cat "$tmp/other.err"; fail "no message"; }
  cmp -s "$ck" "$tmp/before" || fail "SIG$sig: the refused checkpoint was changed"

  "$gpuga" solve "${run[@]}" --checkpoint "$ck" "$tmp/p.txt" >"$tmp/resumed.out" 2>"$tmp/resumed.err"
  [ $? -eq 1 ] || { cat "$tmp/resumed.err"; fail "SIG$sig: the resumed run"; }
  grep -q "continuing puzzle 1 from $ck at generation" "$tmp/resumed.err" || fail "SIG$sig: not resumed"
  cmp "$tmp/whole.out" "$tmp/resumed.out" || fail "SIG$sig: the resumed run printed another grid"
  [ "$(summary "$tmp/whole.err")" = "$(summary "$tmp/resumed.err")" ] ||
    fail "SIG$sig: $(summary "$tmp/resumed.err") against $(summary "$tmp/whole.err")"
  [ ! -e "$ck" ] || fail "SIG$sig: the finished solve left its checkpoint"
  if [ "$sig" = USR1 ]; then  # cut in the last stage, and continued there
    at=$(sed -n 's/.*checkpointed to .* at generation \([0-9]*\).*/\1/p' "$tmp/cut-$sig.err")
    [ "${at:-0}" -ge 1000 ] || fail "SIG$sig: cut at generation ${at:-?}, before the islands grew twice"
    grep -q "islands grew 2 time(s)" "$tmp/resumed.err" || fail "SIG$sig: the resumed run did not grow twice"
  fi
  echo "ok: SIG$sig, checkpointed and resumed to the uninterrupted result"
done

# batch --checkpoint-every: SIGTERM saves the runs in flight beside the CSV (status 4, no row for
# them); --resume continues them and writes the rows of the uninterrupted batch; the files go.
b=(--backend cpu --threads 2 --seed 7 --max-generations 4000 --time-limit 0 --pop 400 --island-size 100
   --local-search 0 --repair none --migration-interval 20 --runs 3 --concurrent 2)
"$gpuga" batch "${b[@]}" --csv "$tmp/whole.csv" "$tmp/p.txt" 2>/dev/null
"$gpuga" batch "${b[@]}" --csv "$tmp/cut.csv" --checkpoint-every 1000 "$tmp/p.txt" 2>"$tmp/batch.err" &
pid=$!
wait_for "$tmp/cut.csv" "^puzzle_id"  # the batch is under way, its handlers in place
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 4 ] || { cat "$tmp/batch.err"; fail "batch: SIGTERM, exit $rc, expected 4"; }
[ "$(ls "$tmp/cut.csv.checkpoints" | wc -l)" -eq 2 ] || fail "batch: not two runs in flight saved"
# A damaged one blocks --resume, and the message names the file to delete.
cp -r "$tmp/cut.csv.checkpoints" "$tmp/saved.checkpoints"
first=$(ls "$tmp/cut.csv.checkpoints" | head -n 1)
printf 'damaged' >"$tmp/cut.csv.checkpoints/$first"
"$gpuga" batch "${b[@]}" --csv "$tmp/cut.csv" --checkpoint-every 1000 --resume "$tmp/p.txt" 2>"$tmp/damaged.err"
[ $? -eq 2 ] || { cat "$tmp/damaged.err"; fail "batch: a damaged checkpoint not refused"; }
grep -q "delete $tmp/cut.csv.checkpoints/$first to run that run again" "$tmp/damaged.err" ||
  { cat "$tmp/damaged.err"; fail "batch: the message names no file to delete"; }
rm -rf "$tmp/cut.csv.checkpoints" && mv "$tmp/saved.checkpoints" "$tmp/cut.csv.checkpoints"
"$gpuga" batch "${b[@]}" --csv "$tmp/cut.csv" --checkpoint-every 1000 --resume "$tmp/p.txt" 2>"$tmp/batch2.err"
[ $? -eq 1 ] || { cat "$tmp/batch2.err"; fail "batch --resume from checkpoints"; }
grep -q "batch: 2 run(s) continued from their checkpoints" "$tmp/batch2.err" ||
  { cat "$tmp/batch2.err"; fail "batch: the runs did not continue from their checkpoints"; }
rows() {
  "$python3" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r.pop("seconds")
print("\n".join(sorted(repr(sorted(r.items())) for r in rows)))' "$1"
}
diff <(rows "$tmp/whole.csv") <(rows "$tmp/cut.csv") || fail "batch: resumed rows differ"
[ "$(ls "$tmp/cut.csv.checkpoints" | wc -l)" -eq 0 ] || fail "batch: checkpoints left after the runs ended"
echo "ok: batch checkpointed at SIGTERM and resumed to the uninterrupted rows"
