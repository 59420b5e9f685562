#!/usr/bin/env bash
# Registers, stack frame and spills of every kernel, per box size and architecture, as ptxas
# reports them (-Xptxas -v), as a Markdown table: the check after any change to device code
# (no new spills or local memory), and bench/README.md's table.
# Usage: bench/ptxas-table.sh [BUILD_DIR] (a configured CUDA build; default build/). It compiles
# each box size's translation unit again with -Xptxas -v, for the build's architectures, into a
# temporary file; the build itself is untouched. SIZES="16x16 25x25" limits it to those sizes.
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| box | arch | kernel | registers | stack (B) | spill stores (B) | spill loads (B) |"
echo "|---|---|---|---|---|---|---|"
for size in ${SIZES:-4x4 9x9 16x16 25x25}; do
  object=cuda/CMakeFiles/gpuga_cuda.dir/engine_cuda_$size.cu.o
  command=$(ninja -C "$build" -t commands "$object" | tail -n 1)
  # The same compile, verbose, into a scratch object (and without the dependency file).
  command=$(sed -e "s| -o [^ ]*| -o $tmp/out.o|" -e 's| -MD -MT [^ ]* -MF [^ ]*||' <<<"$command")
  (cd "$build" && eval "$command -Xptxas -v") 2>"$tmp/ptxas.txt" >/dev/null
  # ptxas: "Compiling entry function 'NAME' for 'sm_XX'", then its stack frame and spills, then
  # its registers.
  awk -v size="$size" '
    /Compiling entry function/ { split($0, q, "'"'"'"); name = q[2]; arch = q[4]; next }
    /bytes stack frame/ && name != "" { stack = $1; stores = $5; loads = $9; next }
    /Used [0-9]+ registers/ && name != "" {
      match($0, /Used [0-9]+ registers/); regs = substr($0, RSTART + 5, RLENGTH - 15)
      print size "\t" arch "\t" name "\t" regs "\t" stack "\t" stores "\t" loads; name = ""
    }' "$tmp/ptxas.txt" | while IFS=$'\t' read -r box arch name regs stack stores loads; do
    kernel=$(c++filt "$name" | sed -E 's/gpuga::device_system::(thrust_cuda::)?|gpuga::|void |\(.*\)$//g; s/<([a-z_]+)<[0-9]>>/<\1>/')
    [[ $kernel == island_kernel* || $kernel == grid_kernel* ]] || continue  # not Thrust's fills
    echo "| $box | ${arch#sm_} | $kernel | $regs | $stack | $stores | $loads |"
  done
done
