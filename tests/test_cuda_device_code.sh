#!/usr/bin/env bash
# The device code of sizes a build leaves out of GPUGA_CUDA_SIZES through nvcc's front end and
# NVVM, to PTX at -O0, with the CUDA library's own flags: what those two refuse in code that only
# those sizes instantiate (from 36x36 a set of values is a 64-bit word, with branches of its own)
# fails here in seconds a size, where the optimised compile and ptxas take minutes. ptxas's
# figures are checked at the sizes a build compiles (kernel_resources), every size at
# `bench/gpu-check.sh build`.
# Usage: test_cuda_device_code.sh NVCC CUDA_DIR ARCH SIZE... -- FLAG... (ARCH: the build's first,
# 90 or 90-real, say; one that names no number, native or all, leaves nvcc its default)
set -uo pipefail
nvcc=$1 cuda_dir=$2 arch=${3%%-*}
shift 3
fail() { echo "FAIL: $*" >&2; exit 1; }
sizes=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do sizes+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the --
[ ${#sizes[@]} -gt 0 ] || fail "no size given"
case $arch in
  '' | *[!0-9]*) arch_flag=() ;;
  *) arch_flag=(-arch="compute_$arch") ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in "${sizes[@]}"; do
  "$nvcc" -ptx -Xcicc -O0 "${arch_flag[@]}" "$@" "$cuda_dir/engine_cuda_$size.cu" -o "$tmp/$size.ptx" ||
    fail "nvcc refuses the device code of $size (cuda/engine_cuda_$size.cu)"
  # Every step's kernels, not an empty unit: the searched GA's is the largest.
  grep -q "searched_ga_segment_step" "$tmp/$size.ptx" || fail "$size's PTX holds no kernel of the searched GA"
  echo "$size: the device code compiles to PTX ($(wc -c <"$tmp/$size.ptx") bytes)"
done
