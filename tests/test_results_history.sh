#!/usr/bin/env bash
# bench/results/ stays readable (docs/benchmarks.md): one folder of runs a device kind (its latest),
# each named in HISTORY.md, at most 60 files in all.
# Usage: test_results_history.sh SOURCE_DIR
set -uo pipefail
cd "$1/bench/results" || exit 1
history=HISTORY.md
[ -f "$history" ] || { echo "FAIL: bench/results/$history is missing" >&2; exit 1; }
fail=0
files=$(find . -type f | wc -l)
if [ "$files" -gt 60 ]; then
  echo "FAIL: bench/results holds $files files; at most 60 (older runs belong in $history and git)" >&2
  fail=1
fi
declare -A kind_folder
for dir in */; do
  folder=${dir%/}
  # A run on a device is named KIND-DATE-COMMIT; other folders hold studies, not device runs.
  [[ $folder =~ ^[a-z0-9]+-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9a-f]{7,40}$ ]] || continue
  kind=${folder%%-2[0-9][0-9][0-9]-*}
  if [ -n "${kind_folder[$kind]:-}" ]; then
    echo "FAIL: two folders of kind $kind: ${kind_folder[$kind]} and $folder; keep the latest" >&2
    fail=1
  fi
  kind_folder[$kind]=$folder
  if ! grep -q "$folder" "$history"; then
    echo "FAIL: $folder has no row in $history" >&2
    fail=1
  fi
done
[ "$fail" -eq 0 ] && echo "${#kind_folder[@]} kinds, $files files, each folder in $history"
exit "$fail"
