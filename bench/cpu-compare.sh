#!/usr/bin/env bash
# Two builds side by side on the CPU, alternating: in each round, each set solved by the new
# build and then by the old one (`gpuga solve --backend cpu --seed 1 --json`, one puzzle at a
# time), so that this machine's drift (20 % or more over an hour) falls on both; then
# bench/compare.py's table of each set's median seconds a puzzle, every round's figure, and new
# over old (above 1: the new build is faster).
#
#   bench/cpu-compare.sh DIR OLD [NEW]
#
# OLD, NEW: a gpuga executable, or a commit, built CPU-only from `git archive` in DIR/COMMIT
# (NEW: build/gpuga by default). Environment: SETS, set names of puzzles/ or puzzle files' paths
# in the tree (default: the hard 9x9 sets, norvig_top95, the two forum files,
# magictour_top1465_100 and royle_17clue_50); FIRST, the first n puzzles of each set only; ROUNDS (3); TIME_LIMIT (60 s a puzzle); SEED (1). Writes
# DIR/{new,old}-solve-SET-ROUND.json and DIR/compare.md, and prints the table.
#
# Exit status: 0 done; 1 a solve failed (its log in DIR); 2 bad usage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# A commit's gpuga, CPU only (the CPU backend is what is compared), built once in DIR/COMMIT.
build_commit() {
  local commit=$1 dir=$2/$1
  if [ ! -x "$dir/build/gpuga" ]; then
    mkdir -p "$dir/src" &&
      git -C "$root" archive "$commit" | tar -x -C "$dir/src" &&
      cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=OFF \
        -DGPUGA_MPI=OFF -DGPUGA_PYTHON=OFF -DBUILD_TESTING=OFF >"$dir/configure.log" 2>&1 &&
      cmake --build "$dir/build" --target gpuga >"$dir/build.log" 2>&1 ||
      { echo "cpu-compare: building $commit failed; see $dir/*.log" >&2; return 1; }
  fi
  echo "$dir/build/gpuga"
}

# A build's gpuga from an argument: an executable as it is, or a commit built.
gpuga_of() {
  if [ -f "$1" ] && [ -x "$1" ]; then
    echo "$1"
  elif git -C "$root" rev-parse --verify --quiet "$1^{commit}" >/dev/null; then
    build_commit "$(git -C "$root" rev-parse --short "$1^{commit}")" "$2"
  else
    echo "cpu-compare: '$1' is neither an executable nor a commit of $root" >&2
    return 2
  fi
}

# What compare.py names a side: the commit it was given, or the one `gpuga --version` names, or
# the executable's path.
label_of() {
  if git -C "$root" rev-parse --verify --quiet "$1^{commit}" >/dev/null && [ ! -f "$1" ]; then
    git -C "$root" rev-parse --short "$1^{commit}"
  else
    "$2" --version 2>/dev/null | grep -o 'commit [0-9a-f]\{7,\}' | cut -d' ' -f2 | grep . ||
      echo "$1"
  fi
}

# One puzzle at a time: a build that runs many at once is told so; an older one does it anyway.
one_at_a_time() {
  "$1" solve --help | grep -q -- --concurrent && echo --concurrent 1
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
dir=$1
mkdir -p "$dir" || exit 2
old=$(gpuga_of "$2" "$dir") || exit $?
new_arg=${3:-$root/build/gpuga}
new=$(gpuga_of "$new_arg" "$dir") || exit $?
read -r -a new_one <<<"$(one_at_a_time "$new")"
read -r -a old_one <<<"$(one_at_a_time "$old")"
sets=(norvig_top95 forum_hardest_1106_50 forum_hardest_1905_11plus_50 magictour_top1465_100
      royle_17clue_50)
[ -n "${SETS:-}" ] && read -r -a sets <<<"$SETS"
mkdir -p "$dir/sets"
names=()
for s in "${sets[@]}"; do
  # A set of puzzles/ by its name, or any puzzle file of the tree by its path (bench/instances'
  # 36x36 to 64x64), named by that path with its slashes as dashes.
  file=$root/puzzles/$s.txt name=$s
  if [[ $s == */* ]]; then file=$root/$s name=$(basename "${s//\//-}" .txt); fi
  [ -f "$file" ] || { echo "cpu-compare: no puzzle set $s (puzzles/NAME or a file's path)" >&2; exit 2; }
  # The set as both builds solve it: whole, or a copy of its first FIRST puzzles.
  awk -v n="${FIRST:-0}" '/^#/ { next } n == 0 || k < n { print; k++ }' "$file" >"$dir/sets/$name.txt"
  names+=("$name")
done
sets=("${names[@]}")

for round in $(seq 1 "${ROUNDS:-3}"); do
  for s in "${sets[@]}"; do
    for side in new old; do
      gpuga=$new one=("${new_one[@]}")
      [ $side = old ] && gpuga=$old one=("${old_one[@]}")
      json=$dir/$side-solve-$s-$round.json
      "$gpuga" solve --backend cpu --seed "${SEED:-1}" --time-limit "${TIME_LIMIT:-60}" \
        --report-every 0 --json "${one[@]}" "$dir/sets/$s.txt" >"$json" 2>"${json%.json}.log"
      # Exit status 1: some puzzle unsolved within the limit, still a figure.
      [ $? -le 1 ] && [ -s "$json" ] ||
        { echo "cpu-compare: $side failed on $s; see ${json%.json}.log" >&2; exit 1; }
    done
  done
  echo "cpu-compare: round $round done" >&2
done
python3 "$root/bench/compare.py" "$dir" "$(label_of "$new_arg" "$new")" "$(label_of "$2" "$old")" |
  tee "$dir/compare.md"
