#!/usr/bin/env bash
# bench/phase-transition.sh end to end on a small sweep (4x4 and 9x9, two puzzles a fill, fills
# 0 to 0.75 by 0.25): every solver has a row for every puzzle of every fill, the table has every
# fill, the plot is drawn, and the puzzles read back at their fill.
# Usage: test_phase_transition.sh GPUGA
set -uo pipefail
gpuga=$1
script=$(dirname "$0")/../bench/phase-transition.sh
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in 4 9; do
  out=$tmp/$size
  K=2 TIME_LIMIT=2 STEP=0.25 GPUGA=$gpuga bash "$script" "$size" "$out" --threads 2 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "$size x $size: the script failed"; }
  rows=$(($(wc -l <"$out/runs.csv") - 1))
  [ "$rows" = $((4 * 4 * 2)) ] || fail "$size x $size: $rows rows; expected 4 solvers x 4 fills x 2 puzzles"
  for solver in ga sa hc exact; do
    [ "$(grep -c "^$solver,$size," "$out/runs.csv")" = 8 ] || fail "$size x $size: $solver has not 8 rows"
  done
  for fill in 0.00 0.25 0.50 0.75; do
    grep -q "^| $fill |" "$out/summary.md" || fail "$size x $size: no row for fill $fill in the table"
    clues=$("$gpuga" check "$out/fills/fill-$fill.txt" | awk '/clues/ {print $5}' | sort -u)
    cells=$((size * size))
    want=$(awk -v f="$fill" -v n="$cells" 'BEGIN { printf "%d", f * n + 0.5 }')
    [ "$clues" = "$want" ] || fail "$size x $size fill $fill: clues $clues; expected $want"
  done
  [ -s "$out/phase-transition.png" ] || fail "$size x $size: no plot"
done
# A folder of puzzles (PUZZLES), K of each file: the first K, every fill, and the exact solver.
K=1 TIME_LIMIT=2 SOLVERS="ga exact" PUZZLES=$tmp/9/fills GPUGA=$gpuga bash "$script" 9 "$tmp/folder" \
  --threads 2 2>"$tmp/err" || { cat "$tmp/err"; fail "PUZZLES: the script failed"; }
[ "$(grep -c '^ga,9,' "$tmp/folder/runs.csv")" = 4 ] || fail "PUZZLES with K=1: not one ga row a fill"
[ "$(grep -c '^exact,9,[0-9.]*,0,' "$tmp/folder/runs.csv")" = 4 ] || fail "PUZZLES with K=1: not one exact row a fill"
# SOLVERS without exact: the GA's rows alone.
K=1 TIME_LIMIT=2 SOLVERS=ga PUZZLES=$tmp/9/fills GPUGA=$gpuga bash "$script" 9 "$tmp/ga-only" \
  --threads 2 2>"$tmp/err" || { cat "$tmp/err"; fail "SOLVERS=ga: the script failed"; }
[ "$(grep -c '^ga,9,' "$tmp/ga-only/runs.csv")" = 4 ] || fail "SOLVERS=ga: not one ga row a fill"
! grep -q '^exact,' "$tmp/ga-only/runs.csv" || fail "SOLVERS=ga: the exact solver ran"
for fill in 0.00 0.25 0.50 0.75; do
  cmp -s <(grep -v '^#' "$tmp/folder/fills/fill-$fill.txt") <(grep -v '^#' "$tmp/9/fills/fill-$fill.txt" | head -1) ||
    fail "PUZZLES with K=1: fill $fill is not the folder's first puzzle"
done
# The same command with a larger K into the same folder continues: the first puzzle's runs are
# not run again (their rows stay as they were), the second puzzle's are added.
grep '^ga,\|^exact,' "$tmp/folder/runs.csv" | sort >"$tmp/first"
K=2 TIME_LIMIT=2 SOLVERS="ga exact" PUZZLES=$tmp/9/fills GPUGA=$gpuga bash "$script" 9 "$tmp/folder" \
  --threads 2 2>"$tmp/err" || { cat "$tmp/err"; fail "K=2 again: the script failed"; }
[ "$(($(wc -l <"$tmp/folder/batch-ga.csv") - 1))" = 8 ] || fail "K=2 again: not 8 rows in the batch's CSV"
[ "$(grep -c '^ga,9,' "$tmp/folder/runs.csv")" = 8 ] || fail "K=2 again: not two ga rows a fill"
[ "$(grep -c '^exact,9,' "$tmp/folder/runs.csv")" = 8 ] || fail "K=2 again: not two exact rows a fill"
[ "$(grep -c '^exact,' "$tmp/folder/others.csv")" = 8 ] || fail "K=2 again: an exact run ran twice"
grep ',0,[01],' "$tmp/folder/runs.csv" | sort | cmp -s - "$tmp/first" || fail "K=2 again: the first puzzle's rows changed"
# Another time limit into that folder is refused, its runs left as they were.
cp "$tmp/folder/runs.csv" "$tmp/before"
! K=2 TIME_LIMIT=3 SOLVERS="ga exact" PUZZLES=$tmp/9/fills GPUGA=$gpuga bash "$script" 9 "$tmp/folder" \
  --threads 2 2>"$tmp/err" || fail "another TIME_LIMIT: the script went on"
grep -q "settings:1: its runs are of 'TIME_LIMIT=2 " "$tmp/err" || { cat "$tmp/err"; fail "another TIME_LIMIT: no word on the settings"; }
cmp -s "$tmp/folder/runs.csv" "$tmp/before" || fail "another TIME_LIMIT: the runs changed"
# SIGTERM in a GA run: status 4, the run in flight kept (a 36x36 puzzle that takes generations;
# its first checkpoint, a second in, says that the run is under way).
mkdir "$tmp/hard"
sed -n 8p "$(dirname "$0")/../bench/instances/36x36/fill-0.50.txt" >"$tmp/hard/fill-0.50.txt"
CHECKPOINT_EVERY=1 SOLVERS=ga TIME_LIMIT=60 PUZZLES=$tmp/hard GPUGA=$gpuga bash "$script" 36 \
  "$tmp/stopped" --threads 2 2>"$tmp/err" &
script_pid=$!
for _ in $(seq 300); do [ -n "$(ls "$tmp/stopped/batch-ga.csv.checkpoints" 2>/dev/null)" ] && break; sleep 0.1; done
kill -TERM "$script_pid"
status=0
wait "$script_pid" || status=$?
[ "$status" = 4 ] || { cat "$tmp/err"; fail "SIGTERM: status $status; expected 4"; }
grep -q "the same command again continues" "$tmp/err" || fail "SIGTERM: no word on continuing"
[ -n "$(ls "$tmp/stopped/batch-ga.csv.checkpoints")" ] || fail "SIGTERM: the run in flight was not saved"
# SIGTERM in the exact solver's phase: status 5 at once (nothing saved to resume), the run in
# flight ended and without a row, the runs before it kept (36x36: a puzzle at 0.40 that it solves
# in a second, then one at 0.50 that it does not solve in a minute).
mkdir "$tmp/exact"
instances=$(dirname "$0")/../bench/instances/36x36
grep -v '^#' "$instances/fill-0.40.txt" | sed -n 3p >"$tmp/exact/fill-0.40.txt"
grep -v '^#' "$instances/fill-0.50.txt" | sed -n 3p >"$tmp/exact/fill-0.50.txt"
SOLVERS=exact TIME_LIMIT=120 PUZZLES=$tmp/exact GPUGA=$gpuga bash "$script" 36 "$tmp/exact-stopped" \
  2>"$tmp/err" &
script_pid=$!
for _ in $(seq 600); do
  grep -q '^exact,0.40,0,1,' "$tmp/exact-stopped/others.csv" 2>/dev/null && pgrep -P "$script_pid" >/dev/null && break
  sleep 0.1
done
check_pid=$(pgrep -P "$script_pid") || fail "exact: no run of the second puzzle"
started=$SECONDS
kill -TERM "$script_pid"
status=0
wait "$script_pid" || status=$?
[ "$status" = 5 ] || { cat "$tmp/err"; fail "SIGTERM in the exact solver: status $status; expected 5"; }
[ $((SECONDS - started)) -lt 20 ] || fail "SIGTERM in the exact solver: the script went on for the run's limit"
! kill -0 "$check_pid" 2>/dev/null || fail "SIGTERM in the exact solver: its run goes on"
grep -q "the exact solver's runs so far are in .*: the same command again continues" "$tmp/err" ||
  { cat "$tmp/err"; fail "SIGTERM in the exact solver: no word on continuing"; }
[ "$(cut -d, -f1-4 "$tmp/exact-stopped/others.csv")" = "exact,0.40,0,1" ] ||
  fail "SIGTERM in the exact solver: others.csv is not the first puzzle's row alone"
# The table and plot again from a runs.csv with rows added by hand for one fill of another solver.
cp -r "$tmp/ga-only" "$tmp/again"
echo "ga-other,9,0.25,0,1,0.5," >>"$tmp/again/runs.csv"
rm "$tmp/again/phase-transition.png"
/usr/bin/python3 "$(dirname "$0")/../bench/phase_plot.py" --again "$tmp/again" || fail "--again: failed"
grep -q '^| 0.25 | .* | 100% 0.5 s |$' "$tmp/again/summary.md" || fail "--again: no cell for the added fill"
grep -q '^| 0.50 | .* | - |$' "$tmp/again/summary.md" || fail "--again: no '-' where the added solver has no run"
[ -s "$tmp/again/phase-transition.png" ] || fail "--again: no plot"
echo "phase transition: 4x4 and 9x9, 4 solvers x 4 fills x 2 puzzles each, table and plot; a folder, its first puzzle a fill; continued with a larger K, not with another limit; stopped by SIGTERM in a batch and in the exact solver"
