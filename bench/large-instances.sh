#!/usr/bin/env bash
# The instance sets beyond 25x25, made the way Lloyd & Amos made theirs (a random full grid, cells
# kept uniformly at random): 36x36 at fills 0.30 to 0.70 by 0.05, 20 a fill; 49x49 and 64x64 at
# 0.30 to 0.60, 10 a fill. Each file's first line is the gpuga generate command that makes it,
# seed included (SIZE * 1000 + the fill in percent), so that a set is made again byte for byte.
#
# Usage: [GPUGA=build/gpuga] bench/large-instances.sh [OUTDIR]
#   OUTDIR (default bench/instances) gets SIZExSIZE/fill-F.txt, the folders
#   bench/phase-transition.sh reads as PUZZLES.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gpuga=${GPUGA:-$here/../build/gpuga}
out=${1:-$here/instances}
make_set() {  # SIZE COUNT FILLS...
  local size=$1 count=$2
  shift 2
  mkdir -p "$out/${size}x$size"
  for percent in "$@"; do
    local fill seed
    fill=$(printf '0.%02d' "$percent")
    seed=$((size * 1000 + percent))
    "$gpuga" generate --size "$size" --count "$count" --seed "$seed" --fill "$fill" \
      >"$out/${size}x$size/fill-$fill.txt"
  done
  echo "large-instances: ${size}x$size, $count a fill at ${*/%/ %}" >&2
}
make_set 36 20 30 35 40 45 50 55 60 65 70
make_set 49 10 30 35 40 45 50 55 60
make_set 64 10 30 35 40 45 50 55 60
