#!/usr/bin/env bash
# The GPU procedure in two halves (bench/README.md, "On a GPU"), shaped by the device machine's
# limits: one command of at most 10 minutes, 64 MiB carried in, 8 files back, no compiler and no
# package registry there.
#
#   bench/gpu-check.sh build DIR [ARCHS]
#       On any machine with nvcc (this one, CI): builds the CUDA binaries for sm_90 (ARCHS, for
#       example "80;90", adds others) in DIR/build, then packs them as `pack` does.
#   bench/gpu-check.sh pack TREE DIR
#       Packs DIR/gpuga-gpu-bundle.tar.gz, under 60 MiB, from TREE, a CUDA build that is already
#       there (CI's own): gpuga, every test binary with its ctest files, the files their commands
#       name (tests/*.sh, the puzzles), every shared library they need beyond glibc, libstdc++
#       and the NVIDIA driver (lib/), the commit and the build flags. It refuses a bundle in
#       which a test the tests stage runs names a file the bundle lacks.
#   bench/gpu-check.sh check STAGE
#       The checks pack makes, on an unpacked bundle (STAGE: its gpuga-gpu-bundle directory).
#   bench/gpu-check.sh baseline COMMIT DIR [ARCHS]
#       Builds gpuga alone at COMMIT (from `git archive`, in DIR/src and DIR/build) and packs it
#       as pack-baseline does: the build the compare stage measures the bundle against.
#   bench/gpu-check.sh pack-baseline TREE DIR
#       Packs DIR/gpuga-baseline.tar.gz (a few MiB) from TREE, a CUDA build: its gpuga, the
#       libraries it needs beyond the system's, its commit.
#   bench/gpu-check.sh run BUNDLE [STAGE...]
#       On the GPU machine: unpacks BUNDLE and runs its stages, each step under its own time
#       limit: tests, bench, solve, sanitize (the default: all four, in that order, the most
#       valuable first), defaults (named alone: the defaults' times on every dev set, a call
#       of its own), choices (named alone: what the 9x9 defaults would be with the choices the
#       CPU cannot make, on the hard sets: runs of 256 islands of 32, of 16, 64 or 128 islands
#       of 128 or 64 of 256 many at once, 264, 528 or 1056 islands for one puzzle) and compare (named alone, with
#       BASELINE=a baseline's tarball: the bench's GA, sa and hc rows at 528 islands and more,
#       the memetic default on norvig_top95 and the forum files many at once, the bundle's gpuga
#       and the baseline's alternating, three rounds). Writes into $OUT (default
#       ./gpu-check-out) at most 8 files: summary.txt (written first, appended after every
#       step), logs.tar.gz (every step's log, packed after every step), bench.json,
#       bench-sa.json, bench-hc.json, solve.json, dev-sets-9x9.md and dev-sets-large.md, or
#       (choices) choices-many.md and choices-one.md, or (compare) compare.md.
#
# Exit status: 0 every step passed; 1 some step failed or ran out of time; 2 bad usage, a bundle
# that does not unpack, or no GPU (the summary says which).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle_name=gpuga-gpu-bundle
max_bundle_mib=60
# Where the bundle's ctest files name the build and the source tree; run puts its own paths there.
build_mark=@GPUGA_BUNDLE_BUILD@
source_mark=@GPUGA_BUNDLE_SOURCE@

# Tests the tests stage leaves out, by label, and why (printed by pack and by run).
left_out_labels='install|python|structure'
left_out_why="install: needs cmake and a compiler; python: needs Debian's python3 with numpy, pandas \
and matplotlib, and tests no GPU code; structure: checks the build's libraries, not in the bundle"

# Shared libraries every machine that runs the bundle has: glibc's, the C++ runtime and the
# NVIDIA driver's. Every other library a bundled binary needs travels in lib/.
system_libs='^(linux-vdso\.so|ld-linux-x86-64\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libnvidia-)'

usage() {
  sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# build DIR [ARCHS], pack TREE DIR

build() {
  local dir=$1 archs=${2:-90}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 2
  local tree=$dir/build t0=$SECONDS
  cmake -S "$root" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" >"$dir/configure.log" || { cat "$dir/configure.log"; return 1; }
  cmake --build "$tree" -j "$(nproc)" || return 1
  echo "gpu-check: built in $((SECONDS - t0)) s"
  pack "$tree" "$dir"
}

# The shared libraries that `ldd` resolves for FILE... (the bundle's lib/ first), one path a line.
needed_libs() {
  local f
  for f in "$@"; do is_elf "$f" && ldd "$f"; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u
}

# Whether FILE is an executable ELF binary (not a ctest file beside it).
is_elf() { [ -x "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = ELF ]; }

# Every library the bundled binaries need beyond the system's, into the stage's lib/, with the
# libraries those need in turn (ldd lists the whole closure).
copy_libs() {
  local stage=$1
  shift
  mkdir -p "$stage/lib"
  local lib
  while read -r lib; do
    basename "$lib" | grep -Eq "$system_libs" || cp -L "$lib" "$stage/lib/"
  done < <(needed_libs "$@")
}

# Fails, naming them, on any library a bundled binary needs that is neither in lib/ nor the
# system's; on a bundle in which a test the stage runs names a missing file.
check_stage() {
  local stage=$1 bad=0 f
  for f in "$stage/build/gpuga" "$stage"/build/tests/test_*; do
    is_elf "$f" || continue
    local name arrow path rest
    while read -r name arrow path rest; do
      [ "$arrow" = "=>" ] || continue  # the vdso and the loader
      if [ "$path" = not ]; then
        echo "gpu-check: $(basename "$f") needs $name, not found" >&2; bad=1
      elif [[ $path != "$stage/lib/"* ]] && ! grep -Eq "$system_libs" <<<"$name"; then
        echo "gpu-check: $(basename "$f") needs $name ($path), not in the bundle" >&2; bad=1
      fi
    done < <(LD_LIBRARY_PATH=$stage/lib ldd "$f")
  done
  # The tests the stage runs, relocated into a copy of the stage: every path they name is there.
  local probe
  probe=$(mktemp -d) || return 1
  cp -r "$stage/build" "$stage/src" "$probe/"
  find "$probe/build" -name '*.cmake' -exec sed -i "s|$build_mark|$probe/build|g; s|$source_mark|$probe/src|g" {} +
  ctest --test-dir "$probe/build" --show-only=json-v1 -LE "$left_out_labels" >"$probe/tests.json" || bad=1
  python3 - "$probe" "$probe/tests.json" <<'PY' || bad=1
import json, os, sys
probe, listing = sys.argv[1], sys.argv[2]
missing = set()
for test in json.load(open(listing))["tests"]:
    for arg in test.get("command", []):
        if arg.startswith(probe) and not os.path.exists(arg):
            missing.add((test["name"], arg[len(probe) + 1:]))
for name, path in sorted(missing):
    print(f"gpu-check: test {name} names {path}, which the bundle lacks", file=sys.stderr)
sys.exit(1 if missing else 0)
PY
  rm -rf "$probe"
  return $bad
}

pack() {
  local tree dir
  tree=$(cd "$1" && pwd) && mkdir -p "$2" && dir=$(cd "$2" && pwd) || return 2
  [ -x "$tree/gpuga" ] && [ -x "$tree/tests/test_engine_device" ] &&
    grep -q '^CMAKE_CUDA_ARCHITECTURES:' "$tree/CMakeCache.txt" ||
    { echo "gpu-check: $tree is not a CUDA build of gpuga" >&2; return 2; }
  local stage=$dir/$bundle_name
  rm -rf "$stage" && mkdir -p "$stage/build/tests" "$stage/src/tests" "$stage/src/bench"
  cp "$tree/gpuga" "$tree/CTestTestfile.cmake" "$stage/build/"
  cp "$tree"/tests/*.cmake "$stage/build/tests/"
  find "$tree/tests" -maxdepth 1 -type f -name 'test_*' -perm -u+x -exec cp {} "$stage/build/tests/" \;
  # The other directories' tests are the build's own (the bundle, the Python module): an empty
  # ctest file keeps subdirs() happy.
  local sub
  for sub in $(sed -n 's/^subdirs("\([^"]*\)")$/\1/p' "$tree/CTestTestfile.cmake"); do
    [ "$sub" = tests ] || { mkdir -p "$stage/build/$sub" && : >"$stage/build/$sub/CTestTestfile.cmake"; }
  done
  find "$stage/build" -name '*.cmake' -exec sed -i "s|$tree|$build_mark|g; s|$root|$source_mark|g" {} +
  # What the tests' commands name: their scripts, the puzzles they read.
  cp "$root"/tests/*.sh "$stage/src/tests/"
  cp "$root"/bench/throughput.sh "$root"/bench/dev-sets.sh "$root"/bench/summarize.py "$root"/bench/compare.py \
    "$stage/src/bench/"
  cp -r "$root/puzzles" "$stage/src/"
  cp "$0" "$stage/"
  copy_libs "$stage" "$stage/build/gpuga" "$stage"/build/tests/test_*
  {
    echo "commit $(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(
      git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo "-dirty")"
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores from $tree"
    echo "cuda_architectures $(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$tree/CMakeCache.txt")"
    echo "libraries $(ls "$stage/lib" | tr '\n' ' ')"
    "$tree/gpuga" --version
    grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CUDA_COMPILER|CMAKE_CUDA_FLAGS|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS)(_RELEASE)?:' \
      "$tree/CMakeCache.txt"
  } >"$stage/BUNDLE.txt"
  echo "gpu-check: the tests stage leaves out labels $left_out_labels ($left_out_why)"
  check_stage "$stage" || { echo "gpu-check: the bundle is not self-contained" >&2; return 1; }
  tar -C "$dir" -czf "$dir/$bundle_name.tar.gz" "$bundle_name" || return 1
  local mib=$(( $(stat -c %s "$dir/$bundle_name.tar.gz") >> 20 ))
  echo "gpu-check: $dir/$bundle_name.tar.gz is $mib MiB (limit $max_bundle_mib)"
  [ "$mib" -lt "$max_bundle_mib" ] || { echo "gpu-check: the bundle is over $max_bundle_mib MiB" >&2; return 1; }
}

# ---------------------------------------------------------------------------------------------
# baseline COMMIT DIR [ARCHS], pack-baseline TREE DIR

baseline_name=gpuga-baseline

baseline() {
  local commit=$1 dir=$2 archs=${3:-90}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 2
  local src=$dir/src tree=$dir/build sha
  sha=$(git -C "$root" rev-parse --short=12 "$commit^{commit}") || return 2
  rm -rf "$src" && mkdir -p "$src" && git -C "$root" archive "$sha" | tar -C "$src" -x || return 1
  cmake -S "$src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=ON -DGPUGA_MPI=OFF \
    -DGPUGA_PYTHON=OFF -DCMAKE_CUDA_ARCHITECTURES="$archs" >"$dir/configure.log" ||
    { cat "$dir/configure.log"; return 1; }
  cmake --build "$tree" -j "$(nproc)" --target gpuga || return 1
  echo "$sha" >"$tree/baseline-commit"
  pack_baseline "$tree" "$dir"
}

pack_baseline() {
  local tree dir
  tree=$(cd "$1" && pwd) && mkdir -p "$2" && dir=$(cd "$2" && pwd) || return 2
  [ -x "$tree/gpuga" ] && grep -q '^CMAKE_CUDA_ARCHITECTURES:' "$tree/CMakeCache.txt" ||
    { echo "gpu-check: $tree is not a CUDA build of gpuga" >&2; return 2; }
  local stage=$dir/$baseline_name
  rm -rf "$stage" && mkdir -p "$stage"
  cp "$tree/gpuga" "$stage/"
  copy_libs "$stage" "$stage/gpuga"
  {
    echo "commit $(cat "$tree/baseline-commit" 2>/dev/null ||
                   git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) from $tree"
    echo "cuda_architectures $(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$tree/CMakeCache.txt")"
    "$tree/gpuga" --version
  } >"$stage/BASELINE.txt"
  tar -C "$dir" -czf "$dir/$baseline_name.tar.gz" "$baseline_name" || return 1
  echo "gpu-check: $dir/$baseline_name.tar.gz is $(( $(stat -c %s "$dir/$baseline_name.tar.gz") >> 20 )) MiB"
}

# ---------------------------------------------------------------------------------------------
# run BUNDLE [STAGE...]

# Each step's time limit in seconds: what the step took on an H100 at b7e73ec (in brackets;
# bench/results/h100-2026-11-24-b7e73ec) with margin, or predicted (throughput). They add up to
# 550, leaving 50 s of the device tool's 600 for unpacking, the device query and packing the logs.
declare -A budget=(
  [tests]=150                                  # [55, without the MPI and checkpoint scripts]
  [bench-ga]=45 [bench-sa]=35 [bench-hc]=35    # [6, 24, 20 for a table a third the size]
  [batch]=20                                   # [1]
  [solve-hardest]=20 [solve-sets]=25           # [1, 1]
  [throughput]=20                              # [predicted: under 5]
  # The defaults stage, a call of its own: every 9x9 set at 2 s a puzzle; 16x16 at 5 s and the
  # first 3 of each 25x25 file at 15 s. [predicted: 10; 5 + 60]
  [defaults-9x9]=60 [defaults-large]=240
  # The choices stage, a call of its own: five run sizes on three files, both ways; three island
  # counts on five sets at 2 s a puzzle. [predicted: 40; 3 x 10]
  [choices-many]=150 [choices-one]=120
  [solve-same-ga]=30 [solve-same-sa]=35 [solve-same-hc]=35  # [under 30, 60, 60 for 95 puzzles]
  [memcheck-ga]=20 [racecheck-ga]=25 [memcheck-sa]=20 [racecheck-sa]=35  # [1, 9, 1, 21]
  # The compare stage, a call of its own: three rounds of both builds. [predicted: 20 a round]
  [compare]=400
)

# step NAME COMMAND...: runs COMMAND under NAME's time limit, logs it and appends a line to the
# summary; the logs are packed after every step, so a call cut off early keeps what it measured.
step() {
  local name=$1 limit=${budget[$1]}
  shift
  local t0=$SECONDS rc
  echo "== $name: $*" >>"$logs/$name.log"
  if [ "$(type -t "$1")" = function ]; then  # timeout runs programs: a function runs in a bash
    export -f "$1" measured
    set -- bash -c '"$@"' "$name" "$@"
  fi
  timeout --kill-after=5 "$limit" "$@" >>"$logs/$name.log" 2>&1
  rc=$?
  local took=$((SECONDS - t0)) verdict=ok
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then verdict=TIMEOUT; status=1
  elif [ $rc -ne 0 ]; then verdict=FAILED; status=1; fi
  printf '%-8s %-14s %4d s of %4d s  exit %d\n' "$verdict" "$name" "$took" "$limit" "$rc" >>"$summary"
  tail -n 3 "$logs/$name.log" | sed 's/^/         | /' >>"$summary"
  tar -C "$logs/.." -czf "$OUT/logs.tar.gz" "$(basename "$logs")" 2>/dev/null
}

# A command whose exit status 1 (some puzzle unsolved within its limits) is still a measurement.
measured() { "$@"; [ $? -le 1 ]; }

stage_tests() {
  echo "tests: left out, by label: $left_out_why" >>"$summary"
  step tests ctest --test-dir "$work/build" -j "$(nproc)" --timeout 120 --output-on-failure \
    -LE "$left_out_labels"
}

stage_bench() {
  step bench-ga "$gpuga" bench --json "$OUT/bench.json"
  # sa and hc: a generation is a move per free cell per chain, so fewer generations a row.
  step bench-sa "$gpuga" bench --backend cuda --algorithm sa --generations 20 --repeats 3 \
    --json "$OUT/bench-sa.json"
  step bench-hc "$gpuga" bench --backend cuda --algorithm hc --generations 20 --repeats 3 \
    --json "$OUT/bench-hc.json"
  # Many runs at once against one at a time: batch prints the wall time per run, amortised.
  batch_pair() {
    local label
    for label in one-at-a-time many-at-once; do
      local extra=()
      [ $label = one-at-a-time ] && extra=(--concurrent 1)
      echo "== $label"
      rm -f "$work/batch-$label.csv"
      measured "$gpuga" batch --backend cuda --runs 1 --seed 1 --max-generations 200 --time-limit 0 \
        --csv "$work/batch-$label.csv" "${extra[@]}" "$src/puzzles/qqwing_expert_50.txt" || return 1
    done
  }
  step batch batch_pair
}

stage_solve() {
  # solve --pop 100000 (800 islands of 125) on the hardest dev set: every puzzle must solve.
  step solve-hardest "$gpuga" solve --backend cuda --pop 100000 --seed 1 --time-limit 10 \
    --report-every 0 --format line "$src/puzzles/norvig_hardest.txt"
  # The one-puzzle defaults (--pop 0: the defaults table) on hard sets, 2 s a puzzle, one at a
  # time: each puzzle's seconds are its time to a solution.
  solve_json() { "$gpuga" "$@" >"$OUT/solve.json"; [ $? -le 1 ]; }
  step solve-sets solve_json solve --backend cuda --seed 1 --time-limit 2 --report-every 0 --json \
    --concurrent 1 "$src/puzzles/famous_named.txt" "$src/puzzles/norvig_top95.txt"
  # Puzzles a second, many at once against one at a time, on hard 9x9 sets.
  step throughput env GPUGA="$gpuga" "$src/bench/throughput.sh" "$src/puzzles/norvig_top95.txt" \
    "$src/puzzles/forum_hardest_1106_50.txt" "$src/puzzles/forum_hardest_1905_11plus_50.txt" \
    -- --backend cuda
  # The same seed on CPU and GPU, generation-limited: ga, sa and hc print the same grids, on
  # the first 40 puzzles of norvig_top95 (the CPU's side is the slow one), each a step.
  head -n 40 "$src/puzzles/norvig_top95.txt" >"$work/top40.txt"
  same_output() {
    # One configuration on both, the GPU's many runs at once against the CPU's: every setting the
    # defaults table resolves by backend given (the GA's local search and restart; its islands
    # grow, so that growth runs on the GPU too).
    local algorithm=$1
    shift
    local run=(solve --algorithm "$algorithm" --pop 2000 --island-size 1000 --seed 1 "$@"
               --max-generations 60 --time-limit 0 --report-every 0 --format line)
    cmp <("$gpuga" "${run[@]}" --backend cuda "$work/top40.txt" 2>/dev/null) \
        <("$gpuga" "${run[@]}" --backend cpu "$work/top40.txt" 2>/dev/null) \
      || { echo "$algorithm: CPU and GPU differ"; return 1; }
    echo "$algorithm: CPU == GPU on the first 40 of norvig_top95"
  }
  step solve-same-ga same_output ga --local-search 200 --restart-after 10 --grow-after 20
  step solve-same-sa same_output sa
  step solve-same-hc same_output hc
}

# The one-puzzle defaults (the defaults table) on every dev set, one puzzle at a time, as
# bench/README.md's "Defaults by backend and size" predicts them.
stage_defaults() {
  dev_sets() {
    local name=$1
    shift
    (cd "$src" && GPUGA="$gpuga" GPUGA_BACKEND=cuda "$@" bench/dev-sets.sh "$work/$name") &&
      cp "$work/$name/summary.md" "$OUT/$name.md"
  }
  export -f dev_sets  # step runs a function in a bash of its own
  step defaults-9x9 dev_sets dev-sets-9x9 env TIME_LIMIT=2
  large() { dev_sets dev-sets-16x16 env SETS=16x16 TIME_LIMIT=5 &&
            dev_sets dev-sets-25x25 env SETS=25x25 FIRST=3 TIME_LIMIT=15 &&
            cat "$OUT/dev-sets-16x16.md" "$OUT/dev-sets-25x25.md" >"$OUT/dev-sets-large.md" &&
            rm "$OUT/dev-sets-16x16.md" "$OUT/dev-sets-25x25.md"; }
  step defaults-large large
}

# The 9x9 defaults' choices that CPU runs cannot settle (bench/README.md, "Many puzzles at once"
# and "Defaults by backend and size"), measured on the hard sets: many at once, the table's runs
# of 256 islands of 32 growing after 6 against runs of 64 islands of 128 growing after 20 (the
# table before), 16 and 128 of them, and 64 of 256 (whether 256 children on a team of 256 cost
# what 128 do); one puzzle, the table's 264
# islands of 128 against 528 and 1056 (four and eight a multiprocessor: the GA's step at 64
# registers on blocks of 128 holds eight).
stage_choices() {
  local sets=("$src/puzzles/norvig_top95.txt" "$src/puzzles/forum_hardest_1106_50.txt"
              "$src/puzzles/forum_hardest_1905_11plus_50.txt")
  many() {
    local label options
    for label in "256x32 (the table)|" \
                 "64x128 (the table before)|--pop 8192 --restart-after 5 --grow-after 20" \
                 "16x128|--pop 2048 --island-size 128 --grow-after 20" \
                 "128x128|--pop 16384 --island-size 128 --grow-after 20" \
                 "64x256|--pop 16384 --island-size 256 --grow-after 20"; do
      options=${label#*|}
      echo "### runs of ${label%%|*}"
      # shellcheck disable=SC2086  # the options are words
      GPUGA="$gpuga" "$src/bench/throughput.sh" "$@" -- --backend cuda $options || return 1
    done >"$OUT/choices-many.md"
  }
  step choices-many many "${sets[@]}"
  one() {
    export GPUGA=$gpuga GPUGA_BACKEND=cuda TIME_LIMIT=2 \
      SETS="famous_named norvig_top95 forum_hardest_1106_50 forum_hardest_1905_11plus_50 royle_17clue_50"
    (cd "$src" && bench/dev-sets.sh "$work/one-264" &&
       bench/dev-sets.sh "$work/one-528" --pop 67584 --island-size 128 --grow-after 20 &&
       bench/dev-sets.sh "$work/one-1056" --pop 135168 --island-size 128 --grow-after 20) &&
    { echo "### 264 islands of 128 (the table)"; cat "$work/one-264/summary.md";
      echo "### 528 islands of 128"; cat "$work/one-528/summary.md";
      echo "### 1056 islands of 128"; cat "$work/one-1056/summary.md"; } >"$OUT/choices-one.md"
  }
  step choices-one one
}

# The bundle's gpuga against the baseline's (BASELINE), alternating within each of three rounds,
# so that the device's drift falls on both: the bench's plain GA at 528 islands of 256, 512 and
# 1000 and 1056 of 128, sa and hc at 528 islands of 512 and sa at 528 of 128 (islands narrower
# than a block of 256: team_threads), the memetic default on norvig_top95 one puzzle at a
# time, and the two forum files many at once in runs of 64 islands of 128 that grow after 20
# (explicit options, today's 9x9 table, so that both builds run the same runs; a baseline
# without --grow-after skips them). bench/compare.py tabulates the medians in $OUT/compare.md.
stage_compare() {
  tar -C "$work" -xzf "$BASELINE" && [ -f "$work/$baseline_name/BASELINE.txt" ] ||
    { echo "gpu-check: $BASELINE is not a tarball from 'gpu-check.sh baseline'" >>"$summary"; status=1; return; }
  { echo "baseline:"; sed 's/^/  /' "$work/$baseline_name/BASELINE.txt"; } >>"$summary"
  export old_gpuga=$work/$baseline_name/gpuga old_libs=$work/$baseline_name/lib \
    old_info=$work/$baseline_name/BASELINE.txt
  mkdir -p "$work/compare"
  compare_rounds() {
    local round side row file old_one=(--concurrent 1) old_many=1 old_help
    local old_run=(env "LD_LIBRARY_PATH=$old_libs:$LD_LIBRARY_PATH" "$old_gpuga")
    old_help=$("${old_run[@]}" solve --help)
    grep -q -- --concurrent <<<"$old_help" || old_one=()  # before many at once: one at a time
    grep -q -- --grow-after <<<"$old_help" || old_many=0
    # Bench rows, NAME|options: the files compare.py reads are SIDE-bench-NAME-ROUND.json.
    local rows=("ga256|--pop 135168 --island-size 256" "ga512|--pop 270336 --island-size 512"
                "ga1000|--pop 528000 --island-size 1000" "ga128|--pop 135168 --island-size 128"
                "sa|--algorithm sa --pop 270336 --island-size 512 --generations 20"
                "hc|--algorithm hc --pop 270336 --island-size 512 --generations 20"
                "sa128|--algorithm sa --pop 67584 --island-size 128 --generations 20")
    local many=(--backend cuda --seed 1 --time-limit 5 --report-every 0 --json --pop 8192
                --island-size 128 --local-search 200 --restart-after 5 --grow-after 20)
    for round in 1 2 3; do
      for side in new old; do
        local g=("$gpuga") at="$work/compare/$side" one=(--concurrent 1)
        [ $side = old ] && g=("${old_run[@]}") one=("${old_one[@]}")
        for row in "${rows[@]}"; do
          # shellcheck disable=SC2086  # the options are words
          "${g[@]}" bench --backend cuda ${row#*|} --repeats 3 --json "$at-bench-${row%%|*}-$round.json" ||
            return 1
        done
        "${g[@]}" solve --backend cuda --seed 1 --time-limit 2 --report-every 0 --json "${one[@]}" \
          "$src/puzzles/norvig_top95.txt" >"$at-solve-norvig_top95-$round.json"
        [ $? -le 1 ] || return 1
        [ $side = old ] && [ $old_many = 0 ] && continue
        for file in forum_hardest_1106_50 forum_hardest_1905_11plus_50; do
          "${g[@]}" solve "${many[@]}" "$src/puzzles/$file.txt" >"$at-many-$file-$round.json"
          [ $? -le 1 ] || return 1
        done
      done
    done
    python3 "$src/bench/compare.py" "$work/compare" "$(sed -n 's/^commit //p' "$work/BUNDLE.txt")" \
      "$(sed -n 's/^commit //p' "$old_info")" >"$OUT/compare.md"
  }
  step compare compare_rounds
}

stage_sanitize() {
  local sanitizer
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  # Islands of 512, staged in shared memory (where racecheck looks), with migration, restarts and
  # a little local search, on AI Escargot (unsolved: exit status 1 passes, the sanitizer's 90
  # fails); then chains.
  local ga=(solve --backend cuda --pop 1024 --island-size 512 --seed 1 --max-generations 12
            --migration-interval 5 --restart-after 3 --local-search 5 --report-every 0 --format line)
  local sa=(solve --backend cuda --algorithm sa --pop 1024 --island-size 512 --seed 1
            --max-generations 6 --report-every 0 --format line)
  sanitized() { head -n 1 "$src/puzzles/famous_named.txt" | "$@" -; [ $? -le 1 ]; }
  step memcheck-ga sanitized "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 "$gpuga" "${ga[@]}"
  step racecheck-ga sanitized "$sanitizer" --tool racecheck --error-exitcode 90 "$gpuga" "${ga[@]}"
  step memcheck-sa sanitized "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 "$gpuga" "${sa[@]}"
  step racecheck-sa sanitized "$sanitizer" --tool racecheck --error-exitcode 90 "$gpuga" "${sa[@]}"
}

# The bundle's libraries that this machine lacks, in lib-used/: a machine's own library of the
# same name goes with the rest of its installation (its Open MPI with its mpirun), and the
# bundle's fill in where it has none, so that a machine with only glibc, libstdc++ and the
# driver runs everything.
use_libs() {
  mkdir -p "$work/lib-used"
  local lib name own=() mine=()
  for lib in "$work"/lib/*; do
    [ -e "$lib" ] || continue
    name=$(basename "$lib")
    if ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$name "; then own+=("$name")
    else ln -s "$lib" "$work/lib-used/$name"; mine+=("$name"); fi
  done
  echo "libraries: the bundle's ${mine[*]:-none}; this machine's own ${own[*]:-none}" >>"$summary"
}

run() {
  local bundle=$1
  shift
  local stages=("$@")
  [ ${#stages[@]} -gt 0 ] || stages=(tests bench solve sanitize)
  local s
  for s in "${stages[@]}"; do
    case $s in tests|bench|solve|sanitize|defaults|choices|compare) ;; *) echo "gpu-check: unknown stage '$s'; expected tests, bench, solve, sanitize, defaults, choices or compare" >&2; return 2;; esac
    if [ "$s" = compare ] && [ ! -f "${BASELINE:-}" ]; then
      echo "gpu-check: the compare stage needs BASELINE, a tarball from 'gpu-check.sh baseline COMMIT DIR' (given: '${BASELINE:-}')" >&2
      return 2
    fi
  done
  OUT=${OUT:-$PWD/gpu-check-out}
  mkdir -p "$OUT"
  summary=$OUT/summary.txt
  {
    echo "gpu-check run $(date -u +%Y-%m-%dT%H:%M:%SZ): stages ${stages[*]}"
  } >"$summary"
  work=$(mktemp -d "${TMPDIR:-/tmp}/gpuga-gpu-check.XXXXXX")
  # The unpacked bundle goes at the end: what a run keeps is in $OUT.
  trap 'rm -rf "'"$work"'"' EXIT
  if ! tar -C "$work" -xzf "$bundle" 2>>"$summary" || [ ! -f "$work/$bundle_name/BUNDLE.txt" ]; then
    echo "gpu-check: $bundle is not a bundle from 'gpu-check.sh build'" | tee -a "$summary" >&2
    return 2
  fi
  work=$work/$bundle_name
  cat "$work/BUNDLE.txt" >>"$summary"
  # The bundle was built elsewhere: its ctest files name the build's paths, and the tests find
  # their puzzles and the gpuga binary through these.
  find "$work/build" -name '*.cmake' -exec sed -i "s|$build_mark|$work/build|g; s|$source_mark|$work/src|g" {} +
  export GPUGA_TEST_SOURCE_DIR=$work/src GPUGA_TEST_BINARY=$work/build/gpuga
  use_libs
  export LD_LIBRARY_PATH=$work/lib-used${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export gpuga=$work/build/gpuga src=$work/src work OUT
  logs=$work/logs
  mkdir -p "$logs"
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
    "$gpuga" devices
  } >>"$summary" 2>&1
  if ! "$gpuga" devices --json | grep -q '"index"'; then
    echo "gpu-check: no GPU here ($("$gpuga" devices 2>&1 | head -n 1)); nothing was run" | tee -a "$summary" >&2
    return 2
  fi
  status=0
  for s in "${stages[@]}"; do "stage_$s"; done
  echo "gpu-check: done, exit $status" >>"$summary"
  return $status
}

case ${1:-} in
  build) [ $# -ge 2 ] && [ $# -le 3 ] || usage; shift; build "$@" ;;
  pack) [ $# -eq 3 ] || usage; shift; pack "$@" ;;
  check) [ $# -eq 2 ] || usage; check_stage "$2" ;;
  baseline) [ $# -ge 3 ] && [ $# -le 4 ] || usage; shift; baseline "$@" ;;
  pack-baseline) [ $# -eq 3 ] || usage; shift; pack_baseline "$@" ;;
  run) [ $# -ge 2 ] || usage; shift; run "$@" ;;
  *) usage ;;
esac
