#!/usr/bin/env bash
# Registers, stack frame and spills of every island kernel, per box size and architecture, as
# ptxas reported them at the build's last compile (cmake/ptxas-log.sh keeps each report beside
# its object), and the occupancy they allow for the defaults table's islands, as a Markdown
# table: the check after any change to device code (no new spills or local memory; ctest's
# kernel_resources checks it against cuda/kernel-resources.txt), and docs/benchmarks.md's table.
# Usage: bench/ptxas-table.sh [BUILD_DIR] (a CUDA build; default build/). SIZES="16x16 25x25"
# limits it to those sizes (default: every size the build compiled, GPUGA_CUDA_SIZES).
set -euo pipefail
build=${1:-build}
reports=()
for size in ${SIZES:-4x4 9x9 16x16 25x25 36x36 49x49 64x64}; do
  report=$build/cuda/CMakeFiles/gpuga_cuda.dir/engine_cuda_$size.cu.o.ptxas
  [ -n "${SIZES:-}" ] || [ -f "$report" ] && reports+=("$report")
done
exec "$build/bench/gpuga_kernel_table" "${reports[@]}"
