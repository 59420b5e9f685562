#!/usr/bin/env bash
# One call on a GPU machine: build for the GPU, run every test there (GPU tests included),
# compute-sanitizer (memcheck and racecheck) on a short solve, gpuga bench (the island table),
# solve --pop 100000 and the defaults on hard dev sets, and batch timings. Logs and JSON go under $OUT (8 files, the most the device tool
# returns). Dependencies the machine lacks come from .gpu-deps/ (bench/stage-gpu-deps.sh).
# Exit status: 0 when every step passed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: >"$summary"
status=0

step() {
  local name=$1
  shift
  local t0=$SECONDS
  if "$@" >>"$OUT/$name.log" 2>&1; then
    echo "ok      $name ($((SECONDS - t0)) s)" | tee -a "$summary"
  else
    echo "FAILED  $name ($((SECONDS - t0)) s): see $name.log" | tee -a "$summary"
    status=1
  fi
}

# Without .git here, the commit bench/stage-gpu-deps.sh recorded (cmake/version.cmake reads it).
if ! git rev-parse HEAD >/dev/null 2>&1 && [ -f .gpu-deps/commit ]; then
  export GPUGA_GIT_COMMIT=$(cat .gpu-deps/commit)
fi
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo "${GPUGA_GIT_COMMIT:-unknown}")"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -n 2
} >>"$summary" 2>&1

deps=()
if [ -d .gpu-deps ]; then
  d=$PWD/.gpu-deps/usr
  deps=(-DCMAKE_PREFIX_PATH="$d;$d/lib/x86_64-linux-gnu/cmake;$d/share/cmake"
        -DCMAKE_CXX_FLAGS="-isystem $d/include" -DCMAKE_CUDA_FLAGS="-isystem $d/include")
fi
arch=${GPUGA_CUDA_ARCH:-90}
step build cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" "${deps[@]}"
step build cmake --build build-gpu -j "$(nproc)"
step test ctest --test-dir build-gpu -j 4 --output-on-failure
# Islands of 512 (staged in shared memory, where racecheck looks) with migration, restarts and
# a little local search (the default 500 moves a child would take the sanitizers hours), on AI
# Escargot (unsolved in 60 generations: exit status 1 passes, the sanitizer's 90 fails).
solve=(build-gpu/gpuga solve --backend cuda --pop 4096 --island-size 512 --seed 1
       --max-generations 60 --migration-interval 7 --restart-after 5 --local-search 5
       --report-every 0 --format line -)
sanitized() { head -n 1 puzzles/famous_named.txt | "$@"; [ $? -le 1 ]; }
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
step sanitizer sanitized "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 "${solve[@]}"
step sanitizer sanitized "$sanitizer" --tool racecheck --error-exitcode 90 "${solve[@]}"
# Chains (staged: 512 of them in 110.5 KiB) under both tools.
chains=(build-gpu/gpuga solve --backend cuda --algorithm sa --pop 2048 --island-size 512 --seed 1
        --max-generations 20 --report-every 0 --format line -)
step sanitizer sanitized "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 "${chains[@]}"
step sanitizer sanitized "$sanitizer" --tool racecheck --error-exitcode 90 "${chains[@]}"
# The island table (islands of 500 and 1000, 132 to 2112 of them, and panmictic rows) and the
# CPU's, with each island's placement and islands per multiprocessor.
step bench build-gpu/gpuga bench --json "$OUT/bench.json"
# Annealing and hill climbing: moves/s per island count (issue 10's target: 2e10 on the GPU).
for algorithm in sa hc; do
  step bench build-gpu/gpuga bench --backend cuda --algorithm "$algorithm" \
    --json "$OUT/bench-$algorithm.json"
done
# solve --pop 100000 (100 islands of 1000) on the hardest dev set: every puzzle must solve.
step solve build-gpu/gpuga solve --backend cuda --pop 100000 --seed 1 --time-limit 10 \
  --report-every 0 --format line puzzles/norvig_hardest.txt
# Hard dev sets at the defaults (--pop 0: two islands per multiprocessor), 2 s per puzzle: a
# measurement (exit status 1, some unsolved, still passes); --json is a flag, the JSON is stdout.
measurement_json() { "$@" >"$OUT/solve.json"; [ $? -le 1 ]; }
step solve measurement_json build-gpu/gpuga solve --backend cuda --seed 1 --time-limit 2 \
  --report-every 0 --json puzzles/famous_named.txt puzzles/norvig_top95.txt \
  puzzles/forum_hardest_1106_50.txt
# The same seed on CPU and GPU, generation-limited: sa and hc give the same output (issue 10).
same_output() {
  local a
  for a in sa hc; do
    cmp <(build-gpu/gpuga solve --algorithm "$a" --backend cuda --pop 2000 --seed 1 \
            --max-generations 200 --time-limit 0 --report-every 0 --format line \
            puzzles/norvig_top95.txt 2>/dev/null) \
        <(build-gpu/gpuga solve --algorithm "$a" --backend cpu --pop 2000 --seed 1 \
            --max-generations 200 --time-limit 0 --report-every 0 --format line \
            puzzles/norvig_top95.txt 2>/dev/null) || return 1
    echo "$a: CPU == GPU on norvig_top95"
  done
}
step solve same_output
# Many runs at once against one at a time, and the cost of traces (issue 5): the same 100 runs
# each way; batch prints the wall time per run, amortised.
time_batch() {  # $1: a label; the rest: batch options
  local label=$1
  shift
  rm -rf "build-gpu/batch-$label.csv" "build-gpu/traces-$label"
  echo "== $label"
  build-gpu/gpuga batch --backend cuda --runs 2 --seed 1 --max-generations 3000 --time-limit 0 \
    --csv "build-gpu/batch-$label.csv" "$@" puzzles/qqwing_expert_50.txt
  [ $? -le 1 ]  # 1: some run unsolved within its generations, still a measurement
}
step bench time_batch one-at-a-time --concurrent 1
step bench time_batch default-lanes
step bench time_batch default-lanes-traced --trace build-gpu/traces-default-lanes-traced
exit $status
