#!/usr/bin/env bash
# bench/gpu-check.sh's bundle on a machine without a GPU (CI): it packs from the build that is
# already there, stays under its size limit and holds what a check needs: every library its
# binaries need beyond glibc, libstdc++ and the driver (the ldd closure; a bundle missing one is
# refused), and every file the tests it runs name; the compare stage's baseline packs beside it,
# and compare without one is refused. A run of the bundle says at once that there is no GPU, in
# its summary too, with exit status 2. Exit 77 (skipped) where a GPU is present.
# Usage: test_gpu_bundle.sh BUILD_TREE DIR (a CUDA build of gpuga; a directory for the bundle)
set -uo pipefail
tree=$1 dir=$2
check=$(dirname "$0")/../bench/gpu-check.sh
fail() { echo "FAIL: $*" >&2; exit 1; }

bash "$check" pack "$tree" "$dir" || fail "gpu-check.sh pack exited $?"
bundle=$dir/gpuga-gpu-bundle.tar.xz
mib=$(( $(stat -c %s "$bundle") >> 20 ))
[ "$mib" -lt 60 ] || fail "the bundle is $mib MiB; expected under 60"
listing=$(tar -tJf "$bundle")
for f in gpuga-gpu-bundle/BUNDLE.txt gpuga-gpu-bundle/build/gpuga \
         gpuga-gpu-bundle/build/tests/test_engine_device gpuga-gpu-bundle/build/tests/test_cuda_faults \
         gpuga-gpu-bundle/build/tests/CTestTestfile.cmake gpuga-gpu-bundle/src/puzzles/norvig_top95.txt \
         gpuga-gpu-bundle/src/tests/test_checkpoint_cli.sh gpuga-gpu-bundle/src/bench/compare.py; do
  grep -qx "$f" <<<"$listing" || fail "the bundle lacks $f"
done
# The libraries beyond the system's: the OpenMP runtime always, Open MPI's where gpuga has MPI.
grep -q '^gpuga-gpu-bundle/lib/libgomp\.so' <<<"$listing" || fail "the bundle lacks libgomp"
if ldd "$tree/gpuga" | grep -q libmpi; then
  grep -q '^gpuga-gpu-bundle/lib/libmpi\.so' <<<"$listing" || fail "the bundle lacks libmpi"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The closure check fails on a bundle without its OpenMP runtime, naming what is missing.
tar -C "$out" -xJf "$bundle" && rm "$out"/gpuga-gpu-bundle/lib/libgomp*
bash "$check" check "$out/gpuga-gpu-bundle" 2>"$out/check.err" &&
  fail "a bundle without libgomp passed the closure check"
grep -q "libgomp.* not in the bundle\|libgomp.*not found" "$out/check.err" ||
  fail "the closure check did not name libgomp: $(cat "$out/check.err")"
rm -rf "$out/gpuga-gpu-bundle" "$out/check.err"
# The baseline the compare stage measures against: gpuga and the libraries it needs, a few MiB.
# compare without one is refused before anything runs.
bash "$check" pack-baseline "$tree" "$dir" || fail "gpu-check.sh pack-baseline exited $?"
baseline=$dir/gpuga-baseline.tar.gz
baseline_listing=$(tar -tzf "$baseline")
for f in gpuga-baseline/gpuga gpuga-baseline/BASELINE.txt; do
  grep -qx "$f" <<<"$baseline_listing" || fail "the baseline lacks $f"
done
grep -q '^gpuga-baseline/lib/libgomp\.so' <<<"$baseline_listing" || fail "the baseline lacks libgomp"
baseline_mib=$(( $(stat -c %s "$baseline") >> 20 ))
BASELINE= bash "$check" run "$bundle" compare 2>"$out/compare.err"
rc=$?
[ $rc -eq 2 ] || fail "compare without a baseline exited $rc; expected 2"
grep -q "needs BASELINE" "$out/compare.err" || fail "compare without a baseline: $(cat "$out/compare.err")"
rm -f "$out/compare.err"
# A stage run does not know is refused before anything runs, naming those it knows.
bash "$check" run "$bundle" correctness nonsense 2>"$out/stage.err"
rc=$?
[ $rc -eq 2 ] || fail "an unknown stage exited $rc; expected 2"
grep -q "unknown stage 'nonsense'; expected correctness, solves, throughput, mpi, defaults, choices, large or compare" \
  "$out/stage.err" || fail "an unknown stage: $(cat "$out/stage.err")"
rm -f "$out/stage.err"
if "$tree/gpuga" devices --json | grep -q '"index"'; then
  echo "a GPU is present: the run without one is not tested here"
  exit 77
fi
bash "$check" run "$bundle" --out "$out/run" >/dev/null 2>"$out.err"
rc=$?
[ $rc -eq 2 ] || fail "run without a GPU exited $rc; expected 2"
grep -q "no GPU here" "$out.err" || fail "no message on stderr: $(cat "$out.err")"
grep -q "no GPU here" "$out/run/summary.txt" || fail "the summary does not say there is no GPU"
grep -q "^commit " "$out/run/summary.txt" || fail "the summary does not name the bundle's commit"
rm -f "$out.err"
# A machine whose tar finds no xz (a cluster's compute node may lack it): Python unpacks it.
# A PATH of links to every command but xz's, the first of each name in PATH's order, made by
# one ln: a machine holds thousands of commands, and a process for each is the suite's time.
noxz=$(mktemp -d)
declare -A seen=()
commands=()
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
  name=${f##*/}
  case $name in xz|unxz|xzcat|xzdec|lzma|unlzma|lzcat) continue ;; esac
  [ -n "${seen[$name]:-}" ] && continue
  seen[$name]=1
  commands+=("$f")
done
ln -s "${commands[@]}" "$noxz/"
PATH=$noxz bash "$check" run "$bundle" --out "$out/noxz" >/dev/null 2>&1
rc=$?
rm -rf "$noxz"
[ $rc -eq 2 ] && grep -q "^commit " "$out/noxz/summary.txt" ||
  fail "a machine without xz did not unpack the bundle (exit $rc): $(cat "$out/noxz/summary.txt")"
echo "bundle of $mib MiB, baseline of $baseline_mib MiB; run without a GPU: exit 2, summary written, also where tar finds no xz"
