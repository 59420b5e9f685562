#!/usr/bin/env bash
# bench/gpu-check.sh's plumbing without a GPU (CI): `run BUILD --dry` runs every default step
# against the CPU backend on tiny inputs, each step's log and results straight into --out as it
# goes, and the summary after every step; the results parse; so do the large stage's (its
# comparisons at 36x36 to 64x64, sanitizer runs, timed generations and solves). SIGTERM in the middle of a step ends
# it (the hold stage's, which waits for it), and the summary still says what ran and that it was stopped. A non-empty --out is refused.
# A CUDA build is known by what its gpuga says, however it was configured.
# Usage: test_gpu_check_dry.sh BUILD_TREE (a CUDA build of gpuga)
set -uo pipefail
tree=$1
check=$(dirname "$0")/../bench/gpu-check.sh
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null; rm -rf "$tmp"' EXIT

out=$tmp/dry
bash "$check" run "$tree" --dry --out "$out" >"$tmp/stdout" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/stdout" "$out/summary.txt"; fail "the dry run exited $rc; expected 0"; }
steps=(tests memcheck racecheck same-ga same-sa same-hc solve-hard solve-many bench-ga
       bench-plain-ga bench-sa bench-hc bench-puzzles mpi)
for s in "${steps[@]}"; do
  grep -Eq "^ok +$s +[0-9]+ s of +[0-9]+ s  exit 0$" "$out/summary.txt" ||
    { cat "$out/summary.txt"; fail "the summary has no 'ok' line for $s"; }
  [ -s "$out/logs/$s.log" ] || fail "no log for $s"
done
[ "$(grep -Ec '^(ok|FAILED|TIMEOUT|KILLED) ' "$out/summary.txt")" = ${#steps[@]} ] ||
  fail "the summary has other steps than the default ${steps[*]}"
grep -q "^gpu-check: done, exit 0" "$out/summary.txt" || fail "the summary does not end with the exit"
grep -q "tests passed" "$out/logs/tests.log" || fail "ctest's summary is not in the tests step's log"
grep -q "cpu --threads 1 == --backend cpu --threads 2" "$out/logs/same-hc.log" ||
  fail "same-hc did not compare: $(cat "$out/logs/same-hc.log")"
/usr/bin/python3 - "$out" <<'PY' || fail "the results do not parse as expected"
import json, sys
out = sys.argv[1]
for name, puzzles in (("solve-hard", 6), ("solve-many", 6)):
    doc = json.load(open(f"{out}/{name}.json"))
    results = doc["results"]
    assert len(results) == puzzles, (name, len(results))
    assert all(r["backend"] == "cpu" for r in results), name
for name, repair in (("bench-ga", "propagate"), ("bench-plain-ga", "none"), ("bench-sa", "none"),
                     ("bench-hc", "none")):
    doc = json.load(open(f"{out}/{name}.json"))
    rows = doc["results"]
    assert rows and all(r["backend"] == "cpu" for r in rows), name
    assert all(r["evaluations_per_s"] > 0 for r in rows), name
    assert doc["options"]["config"]["repair"] == repair, (name, doc["options"]["config"])
for name, puzzles in (("bench-puzzles-9x9", 3), ("bench-puzzles-25x25", 3)):
    rows = json.load(open(f"{out}/{name}.json"))["puzzles"]
    assert [r["backend"] for r in rows] == ["cpu"], name
    assert all(r["puzzles"] == puzzles and r["solved"] == puzzles for r in rows), (name, rows)
    assert all(r["puzzles_per_s"] > 0 for r in rows), name
PY

# The large stage, named alone: 36x36 and 64x64 compared and solved, the results written.
bash "$check" run "$tree" --dry --out "$tmp/large" large >"$tmp/large.stdout" 2>&1 ||
  { cat "$tmp/large.stdout"; fail "the dry large stage failed"; }
for s in same-large memcheck-large racecheck-large synccheck-large time-large solve-large; do
  grep -Eq "^ok +$s +[0-9]+ s of +[0-9]+ s  exit 0$" "$tmp/large/summary.txt" ||
    { cat "$tmp/large/summary.txt"; fail "the summary has no 'ok' line for $s"; }
done
for size in 36x36 49x49 64x64; do
  grep -q "^--backend cpu --threads 1 == --backend cpu --threads 2: .*$size" "$tmp/large/logs/same-large.log" ||
    fail "same-large did not compare $size: $(cat "$tmp/large/logs/same-large.log")"
done
grep -q "== memcheck: solve .*36x36-growing.txt --concurrent 2" "$tmp/large/logs/memcheck-large.log" ||
  fail "memcheck-large did not run the engine whose tiles grow: $(cat "$tmp/large/logs/memcheck-large.log")"
grep -q "== synccheck: .*36x36.*--island-size 128" "$tmp/large/logs/synccheck-large.log" ||
  fail "synccheck-large did not run the unstaged 36x36 island: $(cat "$tmp/large/logs/synccheck-large.log")"
/usr/bin/python3 - "$tmp/large" <<'PY' || fail "the large stage's results do not parse as expected"
import json, sys
for size in ("36x36", "64x64"):
    results = json.load(open(f"{sys.argv[1]}/large-{size}-cpu.json"))["results"]
    assert len(results) == 1 and results[0]["solved"], (size, results)
    for kind, island_size in (("", 32), ("-searched", 8)):
        rows = json.load(open(f"{sys.argv[1]}/time-large-{size}{kind}.json"))["results"]
        assert [(r["backend"], r["island_size"]) for r in rows] == [("cpu", island_size)], (size, kind, rows)
PY

# Stopped in the middle of a step: the hold stage's step waits for the signal, so that it is
# surely running when the signal comes (a real step may end first on a fast machine); the
# solves stage after it must not start.
out=$tmp/stopped
bash "$check" run "$tree" --dry --out "$out" hold solves >"$tmp/stopped.stdout" 2>&1 &
pid=$!
for _ in $(seq 300); do
  [ -s "$out/logs/hold.log" ] && break
  sleep 0.2
done
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ $rc -eq 143 ] || { cat "$tmp/stopped.stdout"; fail "a run stopped by SIGTERM exited $rc; expected 143"; }
grep -Eq "^KILLED +hold " "$out/summary.txt" ||
  { cat "$out/summary.txt"; fail "the summary does not say the running step was killed"; }
grep -q "^gpu-check: stopped by SIGTERM" "$out/summary.txt" || fail "the summary does not say it was stopped"
grep -q "same-ga" "$out/summary.txt" && fail "a step ran after the signal"
[ -s "$out/logs/hold.log" ] || fail "the killed step's log is gone"

# A non-empty --out is refused before anything runs.
bash "$check" run "$tree" --dry --out "$out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is not empty" "$tmp/err" || fail "a non-empty --out: exit $rc, $(cat "$tmp/err")"
# A tree configured without a preset (cmake -S . -B DIR) holds no CUDA architectures in its
# cache: the check asks the build's gpuga what it is. Stand-ins that say what a CUDA build's and a
# CPU-only build's gpuga say, in trees whose caches name no architecture.
stand_in() {  # DIR VERSION_LINE
  mkdir -p "$1/tests"
  printf '#!/bin/sh\necho "%s"\n' "$2" >"$1/gpuga"
  cp "$1/gpuga" "$1/tests/test_engine_device"
  chmod +x "$1/gpuga" "$1/tests/test_engine_device"
  grep '^CMAKE_HOME_DIRECTORY:' "$tree/CMakeCache.txt" >"$1/CMakeCache.txt"
}
stand_in "$tmp/no-preset" "gpuga 0.1.0 (commit 0; Release, GNU 12.2.0, CUDA 13.0.88 for sm 80,90, MPI 3.1)"
bash "$check" run "$tmp/no-preset" --dry --out "$tmp/no-preset-out" solves >/dev/null 2>&1
rc=$?
[ $rc -ne 2 ] && grep -q "^cuda_architectures 80;90$" "$tmp/no-preset-out/summary.txt" ||
  fail "a CUDA build configured without a preset: exit $rc, $(cat "$tmp/no-preset-out/summary.txt")"
stand_in "$tmp/cpu-only" "gpuga 0.1.0 (commit 0; Release, GNU 12.2.0, no CUDA backend, MPI 3.1)"
bash "$check" run "$tmp/cpu-only" --dry --out "$tmp/cpu-only-out" >"$tmp/stdout" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "neither a CUDA build" "$tmp/stdout" ||
  fail "a CPU-only build: exit $rc, $(cat "$tmp/stdout")"
echo "dry run: ${#steps[@]} steps ok; stopped by SIGTERM: exit 143, the step KILLED, the summary written; a build without a preset taken, a CPU-only one refused"
