#!/usr/bin/env bash
# bench/cpu-compare.sh with one build on both sides: it refuses what is neither an executable nor
# a commit, and otherwise writes each side's solve per set and round (of the sets' first FIRST
# puzzles) and compare.py's table with a row for each set and its ratio (norvig_easy50:
# propagation completes every puzzle, timed in microseconds; norvig_hardest: a search).
# Usage: test_cpu_compare.sh GPUGA
set -uo pipefail
gpuga=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$root/bench/cpu-compare.sh" "$work/bad" no-such-build 2>"$work/bad.err"
[ $? -eq 2 ] || fail "a bad OLD did not exit 2"
grep -q "'no-such-build' is neither an executable nor a commit" "$work/bad.err" ||
  fail "a bad OLD's message: $(cat "$work/bad.err")"

SETS="norvig_easy50 norvig_hardest" FIRST=5 ROUNDS=2 TIME_LIMIT=10 \
  "$root/bench/cpu-compare.sh" "$work/out" "$gpuga" "$gpuga" >"$work/table.md" 2>"$work/err" ||
  fail "cpu-compare failed: $(cat "$work/err")"
for side in new old; do
  for set in norvig_easy50 norvig_hardest; do
    for round in 1 2; do
      json=$work/out/$side-solve-$set-$round.json
      [ -s "$json" ] || fail "no $side-solve-$set-$round.json"
      [ "$(grep -o '"index":' "$json" | wc -l)" -eq 5 ] ||
        fail "$json does not hold FIRST=5 puzzles"
    done
  done
done
cmp -s "$work/table.md" "$work/out/compare.md" || fail "the printed table is not compare.md"
figure='[0-9.e-]+ \(.*\)'
for set in norvig_easy50 norvig_hardest; do
  grep -Eq "^\| solve $set: median s a puzzle \| $figure \| $figure \| [0-9]+\.[0-9]{2} \|\$" \
    "$work/table.md" || fail "no $set row with a ratio: $(cat "$work/table.md")"
done
commit=$("$gpuga" --version | grep -o 'commit [0-9a-f]*' | cut -d' ' -f2)
[ "$commit" = unknown ] || grep -q "new ($commit)" "$work/table.md" ||
  fail "the table does not name the build's commit $commit"
echo "cpu-compare: refusal, files, table and labels as expected"
