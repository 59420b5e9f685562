#!/usr/bin/env bash
# The easy-hard-easy phase transition in the fraction of givens (Lewis 2007; Lloyd & Amos 2019):
# for one puzzle size, K puzzles generated at each fill from 0 to 0.95 (gpuga generate, seeded),
# solved by the GA, annealing and hill climbing at their defaults (gpuga batch, one run a puzzle,
# one at a time, each under the same time limit), by the exact solver (gpuga check), and by the
# ant colony solver of Lloyd & Amos when ACS names its binary (built apart from gpuga); one CSV
# row a run, and a plot of success rate and median time against fill, a line per solver.
#
# Usage: [K=10] [TIME_LIMIT=10] [STEP=0.05] [SEED=1] [SOLVERS="ga sa hc exact"] [ACS=path]
#        [PUZZLES=dir] [CHECKPOINT_EVERY=60] [GPUGA=build/gpuga] bench/phase-transition.sh SIZE OUTDIR [gpuga batch options]
#   SIZE: 4, 9, 16, 25, 36, 49 or 64. SOLVERS names fewer (exact: gpuga check). OUTDIR gets fills/fill-F.txt (the puzzles), runs.csv (solver,
#   size, fill, instance, solved, seconds, generations), summary.md and phase-transition.png.
#   PUZZLES: a folder of fill-F.txt files (F as 0.45) to solve instead of generating them (STEP
#   then unused; K, when set, takes the first K puzzles of each file): bench/acs-instances.sh gives it the ant colony's published instances,
#   bench/instances/36x36 (49x49, 64x64) the sets beyond 25x25.
# The exact solver is `gpuga check` under the same limit (killed at it: unsolved, at the limit). The
# ant colony reads 9x9 to 25x25 as published; from 36x36 its reader maps only 'a' onwards, so it
# must be built with a reader of gpuga's alphabet (0-9, A-Z, a-z, +, / for 1 to 64) for its rows to
# mean anything. A run it does not solve counts at the limit (it reports 0 seconds then).
# Generation is refused where a fill cannot be made; every other failure ends the script.
# OUTDIR keeps every run as it ends (batch-ga.csv, batch-sa.csv, batch-hc.csv: gpuga batch's rows;
# others.csv: the exact solver's and ACS's), and the batch's runs in flight are saved every
# CHECKPOINT_EVERY seconds (60). SIGTERM or SIGINT stops the script as gpuga stops: status 4 where
# the batch saved its runs in flight, 5 where an exact or ACS run in flight was ended (it leaves no
# row and runs again) or none had begun.
# The same command again continues: recorded runs are skipped, saved ones resumed, and a larger K
# adds the next puzzles with the seeds an uninterrupted run would have given them. SOLVERS and K
# may change from one command to the next; the limit, seed, step and batch options may not
# (OUTDIR/settings holds them), since runs of other settings would sit beside them in one table.
set -euo pipefail
size=${1:?usage: bench/phase-transition.sh SIZE OUTDIR [gpuga batch options]}
out=${2:?usage: bench/phase-transition.sh SIZE OUTDIR [gpuga batch options]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
gpuga=${GPUGA:-$here/../build/gpuga}
k=${K:-10} limit=${TIME_LIMIT:-10} step=${STEP:-0.05} seed=${SEED:-1}
python3=$(command -v /usr/bin/python3 || command -v python3)
mkdir -p "$out/fills"
settings="TIME_LIMIT=$limit SEED=$seed STEP=$step options: $*"
if [ -s "$out/settings" ] && [ "$(cat "$out/settings")" != "$settings" ]; then
  echo "phase-transition: $out/settings:1: its runs are of '$(cat "$out/settings")'; expected" \
    "'$settings' to continue them: name another OUTDIR" >&2
  exit 1
fi
echo "$settings" >"$out/settings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# SIGTERM and SIGINT: the run in flight (a batch, an exact or ACS run, each started in the
# background so that the signal is heard at once) gets SIGTERM, and the script stops once it has
# ended (stopped_at STATUS WHAT, where a phase ends).
child= stopped=
trap 'stopped=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null' TERM INT
stopped_at() {
  [ -n "$stopped" ] || return 0
  echo "phase-transition: stopped; $2: the same command again continues" >&2
  exit "$1"
}
# run_child COMMAND...: runs it in the background, apart from the terminal's process group
# (setsid: out of reach of its Ctrl-C, which would end the run before it could save), reading the
# caller's standard input (a background command's would be /dev/null), and waits for it to end,
# the script's traps heard meanwhile; its status is in child_status.
run_child() {
  setsid "$@" <&0 &
  child=$!
  child_status=0
  wait "$child" || child_status=$?
  # A signal ends the first wait early; the second waits for the child to end.
  if kill -0 "$child" 2>/dev/null; then child_status=0; wait "$child" || child_status=$?; fi
  child=
}

# The fills: 0, STEP, ... up to 0.95, generated; or those of the files in PUZZLES, copied.
if [ -n "${PUZZLES:-}" ]; then
  mapfile -t fills < <(ls "$PUZZLES" | sed -n 's/^fill-\([0-9.]*\)\.txt$/\1/p' | sort -n)
  [ "${#fills[@]}" -gt 0 ] || { echo "phase-transition: no fill-F.txt in $PUZZLES" >&2; exit 1; }
else
  mapfile -t fills < <("$python3" -c "
import sys
step = float(sys.argv[1])
n = int(0.95 / step + 1e-9)
print('\n'.join(f'{i * step:.2f}' for i in range(n + 1)))" "$step")
fi
files=()
for f in "${fills[@]}"; do
  file="$out/fills/fill-$f.txt"
  if [ -n "${PUZZLES:-}" ]; then
    if [ -n "${K:-}" ]; then
      awk -v k="$k" '/^#/ || /^$/ { print; next } ++n <= k' "$PUZZLES/fill-$f.txt" >"$file"
    else
      cp "$PUZZLES/fill-$f.txt" "$file"
    fi
  else
    "$gpuga" generate --size "$size" --count "$k" --seed "$seed" --fill "$f" >"$file"
  fi
  files+=("$file")
done

# The GA, sa and hc (SOLVERS names fewer): one batch each over every fill's puzzles; SIGTERM makes
# the batch save its runs in flight and exit with status 4.
solvers=${SOLVERS:-ga sa hc exact}
for algorithm in $solvers; do
  [ "$algorithm" != exact ] || continue
  stopped_at 5 "no run of $algorithm began"
  run_child "$gpuga" batch --algorithm "$algorithm" --runs 1 --seed "$seed" --time-limit "$limit" \
    --concurrent 1 --csv "$out/batch-$algorithm.csv" --resume \
    --checkpoint-every "${CHECKPOINT_EVERY:-60}" "$@" "${files[@]}" 2>"$work/$algorithm.log"
  [ "$child_status" != 4 ] ||
    stopped_at 4 "$algorithm's runs so far are in $out/batch-$algorithm.csv and those in flight saved"
  [ "$child_status" -le 1 ] || { cat "$work/$algorithm.log" >&2; exit 1; }
  echo "phase-transition: $algorithm done" >&2
done

# The exact solver and ACS: each puzzle timed alone (the process's start included), a row a run
# appended to others.csv as it ends; a puzzle with a solver's row there already is not run again.
recorded() { grep -q "^$1,$2,$3," "$out/others.csv"; }
exact_and_acs() {
  local file=$1 fill=$2 i=0 puzzle t0 t1
  while IFS= read -r puzzle; do
    [[ $puzzle == \#* ]] && continue
    if [[ " $solvers " == *" exact "* ]] && ! recorded exact "$fill" "$i"; then
      t0=$(date +%s%N)
      run_child timeout "$limit" "$gpuga" check - <<<"$puzzle" >/dev/null
      t1=$(date +%s%N)
      stopped_at 5 "the exact solver's runs so far are in $out/others.csv"
      if [ "$child_status" = 124 ]; then
        echo "exact,$fill,$i,0,$limit"
      else
        [ "$child_status" = 0 ] || { echo "phase-transition: gpuga check failed on fill $fill puzzle $i" >&2; exit 1; }
        echo "exact,$fill,$i,1,$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.6f", ns / 1e9 }')"
      fi
    fi
    if [ -n "${ACS:-}" ] && ! recorded acs "$fill" "$i"; then
      # ACS reads one line of characters (16x16: 0-f for 1..16): a line of numbers converted.
      [[ $puzzle == *" "* ]] && puzzle=$(awk '{ for (i = 1; i <= NF; i++)
        printf "%s", $i == 0 ? "." : substr("0123456789abcdefghijklmnop", $i, 1) }' <<<"$puzzle")
      # ACS prints 0 (solved) or 1, then its solving time in seconds; anything else (it
      # mistakes an empty 16x16 grid for a full one) counts as unsolved at the limit.
      run_child "$ACS" --puzzle "$puzzle" --timeout "$limit" >"$work/acs.out"
      stopped_at 5 "ACS's runs so far are in $out/others.csv"
      mapfile -t res <"$work/acs.out"
      if [[ ${res[0]:-} == 0 ]]; then
        echo "acs,$fill,$i,1,${res[1]}"
      elif [[ ${res[0]:-} == 1 ]]; then
        echo "acs,$fill,$i,0,$limit"
      else
        echo "phase-transition: ACS on fill $fill puzzle $i: '${res[0]:-}'; counted unsolved" >&2
        echo "acs,$fill,$i,0,$limit"
      fi
    fi
    i=$((i + 1))
  done <"$file"
}
touch "$out/others.csv"
stopped_at 5 "no exact or ACS run began"
for f in "${fills[@]}"; do exact_and_acs "$out/fills/fill-$f.txt" "$f" >>"$out/others.csv"; done

"$python3" "$here/phase_plot.py" "$size" "$out"
