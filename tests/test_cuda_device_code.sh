#!/usr/bin/env bash
# The device code of sizes a build leaves out of GPUGA_CUDA_SIZES through nvcc's front end and
# NVVM, to PTX at -O0: code that only those sizes take (from 36x36 a set of values is a 64-bit
# word, with branches of its own) is refused here as the product's build would refuse it, in
# seconds a size where the optimised compile and ptxas take minutes. ptxas's figures are checked
# at the sizes a build compiles (kernel_resources), every size at `bench/gpu-check.sh build`.
# Usage: test_cuda_device_code.sh NVCC SOURCE_DIR ARCH SIZE... (ARCH: the build's first, 90 or
# 90-real, say; one that names no number, native or all, leaves nvcc its default)
set -uo pipefail
nvcc=$1 src=$2 arch=${3%%-*}
shift 3
case $arch in
  '' | *[!0-9]*) arch_flag=() ;;
  *) arch_flag=(-arch="compute_$arch") ;;
esac
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $# -gt 0 ] || fail "no size given"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size; do
  "$nvcc" -ptx -Xcicc -O0 -std=c++20 --expt-relaxed-constexpr "${arch_flag[@]}" -DGPUGA_HAVE_CUDA=1 \
    -I"$src/cuda" -I"$src/engine" -I"$src/include" "$src/cuda/engine_cuda_$size.cu" -o "$tmp/$size.ptx" ||
    fail "nvcc refuses the device code of $size (cuda/engine_cuda_$size.cu)"
  # Every step's kernels, not an empty unit: the searched GA's is the largest.
  grep -q "searched_ga_segment_step" "$tmp/$size.ptx" || fail "$size's PTX holds no kernel of the searched GA"
  echo "$size: the device code compiles to PTX ($(wc -c <"$tmp/$size.ptx") bytes)"
done
