#!/usr/bin/env bash
# The GPU procedure in two halves (bench/README.md, "On a GPU"), shaped by the device machine's
# limits: one command of at most 10 minutes, 64 MiB carried in, 8 files back, no compiler and no
# package registry there.
#
#   bench/gpu-check.sh build DIR [ARCHS]
#       On any machine with nvcc (this one, CI): builds the CUDA binaries for sm_90 (ARCHS, for
#       example "80;90", adds others) in DIR/build and packs DIR/gpuga-gpu-bundle.tar.gz, under
#       60 MiB: gpuga, every test binary with its ctest files, the puzzles, the commit and the
#       build flags.
#   bench/gpu-check.sh run BUNDLE [STAGE...]
#       On the GPU machine: unpacks BUNDLE and runs its stages, each step under its own time
#       limit: tests, bench, solve, sanitize (the default: all four, in that order, the most
#       valuable first). Writes into $OUT (default ./gpu-check-out) at most 6 files: summary.txt
#       (written first, appended after every step), logs.tar.gz (every step's log, packed after
#       every step), bench.json, bench-sa.json, bench-hc.json and solve.json.
#
# Exit status: 0 every step passed; 1 some step failed or ran out of time; 2 bad usage, a bundle
# that does not unpack, or no GPU (the summary says which).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle_name=gpuga-gpu-bundle
max_bundle_mib=60

usage() {
  sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# build DIR [ARCHS]

build() {
  local dir=$1 archs=${2:-90}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 2
  local tree=$dir/build stage=$dir/$bundle_name t0=$SECONDS
  cmake -S "$root" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" >"$dir/configure.log" || { cat "$dir/configure.log"; return 1; }
  cmake --build "$tree" -j "$(nproc)" || return 1
  local seconds=$((SECONDS - t0))
  rm -rf "$stage" && mkdir -p "$stage/build/tests" "$stage/src/tests"
  cp "$tree/gpuga" "$stage/build/"
  cp "$tree/CTestTestfile.cmake" "$stage/build/"
  cp "$tree"/tests/CTestTestfile.cmake "$tree"/tests/*.cmake "$stage/build/tests/"
  find "$tree/tests" -maxdepth 1 -type f -name 'test_*' -perm -u+x -exec cp {} "$stage/build/tests/" \;
  # The other directories' ctest files are empty: an empty one keeps subdirs() happy.
  local sub
  for sub in cuda host bench; do mkdir -p "$stage/build/$sub" && : >"$stage/build/$sub/CTestTestfile.cmake"; done
  # The OpenMP runtime, in case the GPU machine's image lacks it (glibc and libstdc++ it has, newer).
  mkdir -p "$stage/lib"
  cp -L "$(ldd "$tree/gpuga" | awk '/libgomp/ {print $3}')" "$stage/lib/"
  cp -r "$root/puzzles" "$stage/src/"
  cp "$0" "$stage/"
  {
    echo "commit $(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(
      git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo "-dirty")"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores in ${seconds} s"
    echo "build_root $tree"
    echo "source_root $root"
    echo "cuda_architectures $archs"
    "$tree/gpuga" --version
    grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CUDA_COMPILER|CMAKE_CUDA_FLAGS|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS)(_RELEASE)?:' \
      "$tree/CMakeCache.txt"
  } >"$stage/BUNDLE.txt"
  tar -C "$dir" -czf "$dir/$bundle_name.tar.gz" "$bundle_name" || return 1
  local mib=$(( $(stat -c %s "$dir/$bundle_name.tar.gz") >> 20 ))
  echo "gpu-check: built in ${seconds} s; $dir/$bundle_name.tar.gz is $mib MiB (limit $max_bundle_mib)"
  [ "$mib" -lt "$max_bundle_mib" ] || { echo "gpu-check: the bundle is over $max_bundle_mib MiB" >&2; return 1; }
}

# ---------------------------------------------------------------------------------------------
# run BUNDLE [STAGE...]

# Each step's time limit in seconds; they add up to 530, leaving 70 s of the device tool's 600
# for unpacking, the device query and packing the logs.
declare -A budget=(
  [tests]=160
  [bench-ga]=75 [bench-sa]=30 [bench-hc]=30 [batch]=35
  [solve-hardest]=30 [solve-sets]=40 [solve-same]=30
  [memcheck-ga]=25 [racecheck-ga]=25 [memcheck-sa]=25 [racecheck-sa]=25
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
  # plot_py needs matplotlib, which the GPU machine's Python may lack; it tests no GPU code.
  step tests ctest --test-dir "$work/build" -j "$(nproc)" --timeout 120 --output-on-failure \
    -E '^plot_py$'
}

stage_bench() {
  step bench-ga "$gpuga" bench --json "$OUT/bench.json"
  step bench-sa "$gpuga" bench --backend cuda --algorithm sa --json "$OUT/bench-sa.json"
  step bench-hc "$gpuga" bench --backend cuda --algorithm hc --json "$OUT/bench-hc.json"
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
  # solve --pop 100000 (100 islands of 1000) on the hardest dev set: every puzzle must solve.
  step solve-hardest "$gpuga" solve --backend cuda --pop 100000 --seed 1 --time-limit 10 \
    --report-every 0 --format line "$src/puzzles/norvig_hardest.txt"
  # The defaults (--pop 0: as many islands as run at once) on hard sets, 2 s a puzzle.
  solve_json() { "$gpuga" "$@" >"$OUT/solve.json"; [ $? -le 1 ]; }
  step solve-sets solve_json solve --backend cuda --seed 1 --time-limit 2 --report-every 0 --json \
    "$src/puzzles/famous_named.txt" "$src/puzzles/norvig_top95.txt"
  # The same seed on CPU and GPU, generation-limited: ga, sa and hc print the same grids.
  same_output() {
    local a
    for a in ga sa hc; do
      cmp <("$gpuga" solve --algorithm "$a" --backend cuda --pop 2000 --seed 1 --max-generations 60 \
              --time-limit 0 --report-every 0 --format line "$src/puzzles/norvig_top95.txt" 2>/dev/null) \
          <("$gpuga" solve --algorithm "$a" --backend cpu --pop 2000 --seed 1 --max-generations 60 \
              --time-limit 0 --report-every 0 --format line "$src/puzzles/norvig_top95.txt" 2>/dev/null) \
        || { echo "$a: CPU and GPU differ"; return 1; }
      echo "$a: CPU == GPU on norvig_top95"
    done
  }
  step solve-same same_output
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

run() {
  local bundle=$1
  shift
  local stages=("$@")
  [ ${#stages[@]} -gt 0 ] || stages=(tests bench solve sanitize)
  local s
  for s in "${stages[@]}"; do
    case $s in tests|bench|solve|sanitize) ;; *) echo "gpu-check: unknown stage '$s'; expected tests, bench, solve or sanitize" >&2; return 2;; esac
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
  local build_root source_root
  build_root=$(sed -n 's/^build_root //p' "$work/BUNDLE.txt")
  source_root=$(sed -n 's/^source_root //p' "$work/BUNDLE.txt")
  find "$work/build" -name '*.cmake' -exec sed -i "s|$build_root|$work/build|g; s|$source_root|$work/src|g" {} +
  export GPUGA_TEST_SOURCE_DIR=$work/src GPUGA_TEST_BINARY=$work/build/gpuga
  export LD_LIBRARY_PATH=$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
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
  run) [ $# -ge 2 ] || usage; shift; run "$@" ;;
  *) usage ;;
esac
