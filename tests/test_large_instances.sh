#!/usr/bin/env bash
# bench/instances/ is what its headers say: a file made again by the command on its first line
# is the same bytes (36x36 at 0.70, the quickest to make), and every set holds puzzles of its
# folder's size, as many as its header asks.
# Usage: test_large_instances.sh SOURCE_DIR GPUGA
set -euo pipefail
src=$1 gpuga=$2
file=$src/bench/instances/36x36/fill-0.70.txt
read -r -a command < <(head -1 "$file" | sed 's/^# gpuga //; s/  (gpuga .*)$//')
diff <("$gpuga" "${command[@]}" 2>/dev/null) "$file" >/dev/null ||
  { echo "FAIL: $file is not what '${command[*]}' makes" >&2; exit 1; }
sets=0
for size in 36 49 64; do
  for set in "$src/bench/instances/${size}x$size"/fill-*.txt; do
    header=$(head -1 "$set")
    [[ $header == "# gpuga generate --size $size --count "* ]] ||
      { echo "FAIL: $set starts '$header'; expected its gpuga generate command" >&2; exit 1; }
    count=$(sed 's/.* --count \([0-9]*\) .*/\1/' <<<"$header")
    lengths=$(grep -v '^#' "$set" | awk '{ print length($0) }' | sort -u)
    [ "$lengths" = $((size * size)) ] && [ "$(grep -vc '^#' "$set")" = "$count" ] ||
      { echo "FAIL: $set: lines of $lengths characters; expected $count of $((size * size))" >&2; exit 1; }
    sets=$((sets + 1))
  done
done
echo "bench/instances: $sets sets of their sizes; 36x36 at 0.70 made again byte for byte"
