#!/usr/bin/env bash
# bench/gpu-check.sh on a machine without a GPU (CI): the bundle builds, stays under its size
# limit and holds what a run needs; its run says at once that there is no GPU, in its summary
# too, with a non-zero exit and at most 8 files in $OUT. Exit 77 (skipped) where a GPU is present.
# Usage: test_gpu_bundle.sh DIR (a directory for the bundle's build, kept between runs).
set -uo pipefail
dir=$1
check=$(dirname "$0")/../bench/gpu-check.sh
fail() { echo "FAIL: $*" >&2; exit 1; }

bash "$check" build "$dir" || fail "gpu-check.sh build exited $?"
bundle=$dir/gpuga-gpu-bundle.tar.gz
mib=$(( $(stat -c %s "$bundle") >> 20 ))
[ "$mib" -lt 60 ] || fail "the bundle is $mib MiB; expected under 60"
listing=$(tar -tzf "$bundle")
for f in gpuga-gpu-bundle/BUNDLE.txt gpuga-gpu-bundle/build/gpuga \
         gpuga-gpu-bundle/build/tests/test_engine_device gpuga-gpu-bundle/build/tests/test_cuda_faults \
         gpuga-gpu-bundle/build/tests/CTestTestfile.cmake gpuga-gpu-bundle/src/puzzles/norvig_top95.txt; do
  grep -qx "$f" <<<"$listing" || fail "the bundle lacks $f"
done
if "$dir/build/gpuga" devices --json | grep -q '"index"'; then
  echo "a GPU is present: the run without one is not tested here"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
OUT=$out bash "$check" run "$bundle" 2>"$out.err"
rc=$?
[ $rc -eq 2 ] || fail "run without a GPU exited $rc; expected 2"
grep -q "no GPU here" "$out.err" || fail "no message on stderr: $(cat "$out.err")"
grep -q "no GPU here" "$out/summary.txt" || fail "the summary does not say there is no GPU"
grep -q "^commit " "$out/summary.txt" || fail "the summary does not name the bundle's commit"
files=$(find "$out" -type f | wc -l)
[ "$files" -le 8 ] || fail "$files files in \$OUT; expected at most 8"
rm -f "$out.err"
echo "bundle of $mib MiB; run without a GPU: exit 2, summary written, $files file(s) in \$OUT"
