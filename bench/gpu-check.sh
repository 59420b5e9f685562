#!/usr/bin/env bash
# Is this build of gpuga right on this NVIDIA GPU, and how fast is it? (docs/checking-a-gpu.md.)
#
#   bench/gpu-check.sh run BUILD|BUNDLE [--out DIR] [--dry] [STAGE...]
#       Runs the check on this machine's GPU: BUILD is a CUDA build tree of gpuga (run in place),
#       BUNDLE a tarball from `build` or `pack` (unpacked into a temporary directory). Each step
#       runs under its own time limit, and writes its log (DIR/logs/STEP.log) and results into DIR
#       (default ./gpu-check-out, which must be empty or new) as it goes; DIR/summary.txt gets a
#       line after every step. SIGINT or SIGTERM ends the running step and still writes the
#       summary. --dry runs every step against the CPU backend on tiny inputs, with no GPU and no
#       compute-sanitizer: the check's own plumbing (ctest gpu_check_dry runs it in CI); its
#       stage hold is a step that waits for SIGINT or SIGTERM.
#       The default stages, in this order, fit 8 minutes on an H100 by their steps' limits:
#         correctness  the CUDA tests (CPU == GPU in every combination, occupancy; ctest, the MPI
#                      tests apart), compute-sanitizer memcheck and racecheck on each kernel
#                      shape the defaults use;
#         solves       CPU == GPU grids for ga (islands that grow), sa and hc; the hard 9x9 sets
#                      one puzzle at a time and two files many at once, at the defaults;
#         throughput   `gpuga bench` GA, sa and hc rows up to the device's full width;
#         mpi          the MPI tests, ranks sharing the GPU.
#       Named alone (longer studies): defaults (about 5 minutes: every dev set at the defaults),
#       choices (about 5 minutes: the 9x9 defaults' choices only a GPU settles), large (at most
#       about 9 minutes: 36x36 to 64x64, CPU == GPU grids, the sanitizers, a timed generation and
#       the first puzzles at 45 % on both backends), compare (about 7 minutes, with BASELINE=a
#       tarball from `baseline`: this build against another, alternating).
#   bench/gpu-check.sh build DIR [ARCHS]
#       On any machine with nvcc: builds gpuga for CUDA architecture 90 (ARCHS, for example
#       "80;90", for others) in DIR/build, checks every kernel's ptxas figures against
#       cuda/kernel-resources.txt (ctest kernel_resources), then packs it as `pack` does.
#   bench/gpu-check.sh pack BUILD DIR
#       Packs DIR/gpuga-gpu-bundle.tar.xz from BUILD, a CUDA build, to copy to a GPU machine that
#       has no compiler (a cluster's compute node): gpuga, every test binary with its ctest
#       files, the files their commands name (tests/*.sh, the puzzles, the bench scripts), every
#       shared library they need beyond glibc, libstdc++ and the NVIDIA driver (lib/), the commit
#       and the build flags. It refuses a bundle in which a test the check runs names a file the
#       bundle lacks, or a binary needs a library it lacks.
#   bench/gpu-check.sh check STAGE
#       The checks pack makes, on an unpacked bundle (STAGE: its gpuga-gpu-bundle directory).
#   bench/gpu-check.sh baseline COMMIT DIR [ARCHS]
#       Builds gpuga alone at COMMIT (from `git archive`) and packs it as pack-baseline does.
#   bench/gpu-check.sh pack-baseline BUILD DIR
#       Packs DIR/gpuga-baseline.tar.gz from BUILD: its gpuga, the libraries it needs, its commit.
#
# Exit status: 0 every step passed; 1 some step failed or ran out of time; 2 bad usage, a build or
# bundle that is not one, or no GPU (the summary says which); 130 or 143 stopped by SIGINT or
# SIGTERM.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle_name=gpuga-gpu-bundle
# A bundle stays small enough to copy to a compute node in seconds.
max_bundle_mib=60
xz_window=192MiB
# Where the bundle's ctest files name the build and the source tree; run puts its own paths there.
build_mark=@GPUGA_BUNDLE_BUILD@
source_mark=@GPUGA_BUNDLE_SOURCE@

# Tests the tests step leaves out, by label, and why (printed by pack and by run).
left_out_labels='mpi|install|python|structure|gpu_check'
left_out_why="mpi: a step of its own; install: needs cmake and a compiler; python: needs Debian's \
python3 with numpy, pandas and matplotlib, and tests no GPU code; structure: checks the build's \
files, not the GPU; gpu_check: this check's own plumbing"

# Shared libraries every machine that runs the bundle has: glibc's, the C++ runtime and the
# NVIDIA driver's. Every other library a bundled binary needs travels in lib/.
system_libs='^(linux-vdso\.so|ld-linux-x86-64\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so|libnvidia-)'

usage() {
  sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# build DIR [ARCHS], pack BUILD DIR, check STAGE

build() {
  local dir=$1 archs=${2:-90}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 2
  local tree=$dir/build t0=$SECONDS
  cmake -S "$root" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUGA_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" >"$dir/configure.log" || { cat "$dir/configure.log"; return 1; }
  cmake --build "$tree" -j "$(nproc)" || return 1
  echo "gpu-check: built in $((SECONDS - t0)) s"
  # Every size's ptxas figures against cuda/kernel-resources.txt (the suite's build compiles 9x9
  # alone): a bundle whose kernels spill or lose occupancy is not packed.
  ctest --test-dir "$tree" -R '^kernel_resources$' --no-tests=error --output-on-failure >"$dir/kernel-resources.log" ||
    { cat "$dir/kernel-resources.log"; echo "gpu-check: the kernels' resources are not those recorded" >&2; return 1; }
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
# system's; on a bundle in which a test the check runs names a missing file.
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
  # The tests the check runs, relocated into a copy of the stage: every path they name is there.
  local probe
  probe=$(mktemp -d) || return 1
  cp -r "$stage/build" "$stage/src" "$probe/"
  find "$probe/build" -name '*.cmake' -exec sed -i "s|$build_mark|$probe/build|g; s|$source_mark|$probe/src|g" {} +
  ctest --test-dir "$probe/build" --show-only=json-v1 -LE 'install|python|structure' >"$probe/tests.json" || bad=1
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
  is_cuda_build "$tree" || { echo "gpu-check: $tree is not a CUDA build of gpuga" >&2; return 2; }
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
  # What the tests' commands and the studies name: their scripts (and ctest's of their properties),
  # the puzzles and instances they read.
  cp "$root"/tests/*.sh "$root"/tests/*.cmake "$stage/src/tests/"
  cp "$root"/bench/throughput.sh "$root"/bench/dev-sets.sh "$root"/bench/summarize.py "$root"/bench/compare.py \
    "$stage/src/bench/"
  cp -r "$root/puzzles" "$stage/src/"
  cp -r "$root/bench/instances" "$stage/src/bench/"
  cp -r "$root/tests/data" "$stage/src/tests/"
  cp "$0" "$stage/"
  copy_libs "$stage" "$stage/build/gpuga" "$stage"/build/tests/test_*
  {
    echo "commit $(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(
      git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo "-dirty")"
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores from $tree"
    build_flags "$tree"
    echo "libraries $(ls "$stage/lib" | tr '\n' ' ')"
  } >"$stage/BUNDLE.txt"
  local bad=0 path
  # The files the test binaries open by their source path (tests' source_path("...")): there too.
  while read -r path; do
    [ -e "$stage/src/$path" ] || { echo "gpu-check: the tests read $path, which the bundle lacks" >&2; bad=1; }
  done < <(grep -oh 'source_path("[^"]*")' "$root"/tests/*.cpp | sed 's/^source_path("\(.*\)")$/\1/' | sort -u)
  [ $bad -eq 0 ] && check_stage "$stage" || { echo "gpu-check: the bundle is not self-contained" >&2; return 1; }
  # xz with a window wider than a binary: each binary holds the same kernels (tens of MiB at
  # every box size), which gzip's 32 KiB window compresses once a binary. Its fastest preset
  # finds those copies too, in a fraction of its default's time (docs/decisions.md).
  tar -C "$dir" -cf - "$bundle_name" | xz -T1 --lzma2=preset=1,dict=$xz_window >"$dir/$bundle_name.tar.xz" || return 1
  local mib=$(( $(stat -c %s "$dir/$bundle_name.tar.xz") >> 20 ))
  echo "gpu-check: $dir/$bundle_name.tar.xz is $mib MiB (limit $max_bundle_mib)"
  [ "$mib" -lt "$max_bundle_mib" ] || { echo "gpu-check: the bundle is over $max_bundle_mib MiB" >&2; return 1; }
}

# The CUDA architectures a build's gpuga says it was compiled for ("... CUDA 13.0 for sm 80,90"),
# none for a CPU-only one: the binary's word, whatever configured it (a preset, or cmake with
# the project's own defaults, which the cache does not hold).
cuda_archs_of() {
  "$1/gpuga" --version 2>/dev/null | sed -n 's/.*CUDA [0-9.]* for sm \([0-9]\+\(,[0-9]\+\)*\).*/\1/p' | tr , ';'
}

is_cuda_build() {
  [ -x "$1/gpuga" ] && [ -x "$1/tests/test_engine_device" ] && [ -n "$(cuda_archs_of "$1")" ]
}

# The build's architectures, gpuga's own account of itself and the compilers' flags.
build_flags() {
  echo "cuda_architectures $(cuda_archs_of "$1")"
  "$1/gpuga" --version
  grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CUDA_COMPILER|CMAKE_CUDA_FLAGS|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS)(_RELEASE)?:' \
    "$1/CMakeCache.txt"
}

# ---------------------------------------------------------------------------------------------
# baseline COMMIT DIR [ARCHS], pack-baseline BUILD DIR

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
  [ -x "$tree/gpuga" ] && [ -n "$(cuda_archs_of "$tree")" ] ||
    { echo "gpu-check: $tree is not a CUDA build of gpuga" >&2; return 2; }
  local stage=$dir/$baseline_name
  rm -rf "$stage" && mkdir -p "$stage"
  cp "$tree/gpuga" "$stage/"
  copy_libs "$stage" "$stage/gpuga"
  {
    echo "commit $(cat "$tree/baseline-commit" 2>/dev/null ||
                   git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) from $tree"
    echo "cuda_architectures $(cuda_archs_of "$tree")"
    "$tree/gpuga" --version
  } >"$stage/BASELINE.txt"
  tar -C "$dir" -czf "$dir/$baseline_name.tar.gz" "$baseline_name" || return 1
  echo "gpu-check: $dir/$baseline_name.tar.gz is $(( $(stat -c %s "$dir/$baseline_name.tar.gz") >> 20 )) MiB"
}

# ---------------------------------------------------------------------------------------------
# run BUILD|BUNDLE [--out DIR] [--dry] [STAGE...]

# Each step's time limit in seconds. The default stages' add up to 471, which with the device
# query and unpacking a bundle fits 8 minutes. [In brackets: what the step or its forerunner took
# on an H100 at b7e73ec (bench/results/HISTORY.md), where it ran.]
declare -A budget=(
  # correctness
  [tests]=80                             # [47-56 at ad625e0 and 763f1d7]
  [memcheck]=25 [racecheck]=50           # [9 and over 30 on an H200 at 2086100, with shapes then solved at generation 0]
  # solves: the CPU's side of CPU == GPU is the slow one (2-4 s a step on 2 cores)
  [same-ga]=12 [same-sa]=12 [same-hc]=12  # [1-2 on an H200 at 2086100]
  [solve-hard]=15 [solve-many]=10        # [1 and 0 on an H200 at 2086100]
  # throughput
  # [bench-ga over 30 at ad625e0 with the plain GA's table: repaired children cost ~100 plain
  # ones, and its table is now the repaired island sizes'; sa and hc 12 and 11]
  [bench-ga]=45 [bench-sa]=30 [bench-hc]=30
  # the plain GA's table (--repair none), half the generations and three repeats
  [bench-plain-ga]=20
  # puzzles a second: a hard 9x9 file and ten 25x25 at 40 % many at once, on the GPU and on the
  # machine's CPU cores (2-core CPU: 1 s and 1 s)
  [bench-puzzles]=15
  [mpi]=115                              # [47 on 2 CPU cores without a GPU; past 60 on an H100's host]
  # defaults, a stage of its own: every 9x9 set at 2 s a puzzle; 16x16 at 5 s and the first 3
  # of each 25x25 file at 15 s
  [defaults-9x9]=60 [defaults-large]=240
  # choices, a stage of its own: five run sizes on three files, both ways; three island counts
  # on five sets at 2 s a puzzle
  [choices-many]=150 [choices-one]=120
  # large, a stage of its own: CPU == GPU at 36x36, 49x49 and 64x64 (the CPU's side: seconds a
  # generation at 64x64); the sanitizers on small islands (memcheck: an engine whose tiles grow,
  # too); a generation timed at 36x36 and 64x64 on each backend; three 36x36 puzzles at 15 s and
  # one 64x64 at 30 s, on each backend [on an H200 at 2086100: 50 s for same-large's runs,
  # memcheck 68 s, synccheck 2 s]
  [same-large]=90 [memcheck-large]=120 [racecheck-large]=60 [synccheck-large]=30 [time-large]=60
  [solve-large]=160
  # compare, a stage of its own: three rounds of both builds
  [compare]=400
  # hold, --dry only: a step that waits for a signal
  [hold]=120
)
stage_list='correctness, solves, throughput, mpi, defaults, choices, large or compare'

# Appends a line to the summary and says it on stdout.
say() { echo "$*" | tee -a "$summary"; }

# step NAME COMMAND...: runs COMMAND under NAME's time limit (in its own process group, which a
# time-out or a signal ends whole), its output straight into logs/NAME.log; then a line in the
# summary with the log's last lines. A function runs in a bash of its own.
step() {
  local name=$1 limit=${budget[$1]}
  shift
  local log=$OUT/logs/$name.log t0=$SECONDS rc
  echo "== $name (limit $limit s): $*" >"$log"
  # declare -F, not a command substitution: a trap that fires while bash parses one fails
  # ("unexpected EOF"), and the signal would be lost.
  if declare -F "$1" >/dev/null; then
    export -f "$1" measured run_ctest
    set -- bash -c '"$@"' "$name" "$@"
  fi
  export STEP_LIMIT=$limit
  timeout --kill-after=5 "$limit" "$@" >>"$log" 2>&1 &
  running=$!
  # A signal that came before the step began found nothing to end (on_signal): end it now,
  # or the stage would wait out the step's whole limit.
  [ -z "$stopped" ] || kill -TERM "$running" 2>/dev/null
  wait "$running"
  rc=$?
  if [ -n "$stopped" ]; then  # a signal: end the step, keep what it wrote
    kill -TERM "$running" 2>/dev/null
    wait "$running"
    rc=$?
  fi
  running=
  local took=$((SECONDS - t0)) verdict=ok
  if [ -n "$stopped" ]; then verdict=KILLED; status=1
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then verdict=TIMEOUT; status=1
  elif [ $rc -ne 0 ]; then verdict=FAILED; status=1; fi
  say "$(printf '%-8s %-15s %4d s of %4d s  exit %d' "$verdict" "$name" "$took" "$limit" "$rc")"
  tail -n 3 "$log" | sed 's/^/         | /' >>"$summary"
  [ -z "$stopped" ]  # the stages stop at a signal
}

# A command whose exit status 1 (some puzzle unsolved within its limits) is still a measurement.
measured() { "$@"; [ $? -le 1 ]; }

# ctest over the build, ending by itself (with its summary) 10 s before the step's limit: a
# test's own TIMEOUT property would outlast the step, and a killed ctest prints no summary.
run_ctest() {
  local stop
  stop=$(date -u -d "+$((STEP_LIMIT - 10)) seconds" '+%H:%M:%S +0000')
  ctest --test-dir "$tree" -j "$(nproc)" --output-on-failure --stop-time "$stop" "$@"
}

# sanitize TOOL SHAPE...: compute-sanitizer's TOOL over gpuga on each SHAPE (as words: solve, a
# puzzle file and options; or bench and options; --dry: gpuga alone). Exit status 1 (unsolved in
# so few generations) passes; the sanitizer's 90 fails.
sanitize() {
  local tool=$1 shape sanitizer
  shift
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  local run=("$sanitizer" --tool "$tool" --error-exitcode 90)
  [ "$tool" = memcheck ] && run+=(--leak-check full)
  [ -n "$dry" ] && run=()
  for shape in "$@"; do
    echo "== $tool: $shape"
    # shellcheck disable=SC2086  # the shape is words
    local words=($shape) quiet=(--repeats 1 --warmup 1)
    [ "${words[0]}" = solve ] && quiet=(--seed 1 --report-every 0 --format line)
    measured "${run[@]}" "$gpuga" "${words[@]}" --backend "$backend" "${quiet[@]}" || return 1
  done
}
export -f sanitize

# The staged kernel shapes as gpuga bench runs, one a line: GA islands of 32, 128 and 512 (POP32,
# POP128 and POP512 individuals of them) with GA_OPTIONS, sa chains of 128 (POP128) and hc chains
# of 512 (POP512).
kernel_shapes() {
  local ga=$1 pop32=$2 pop128=$3 pop512=$4
  printf '%s\n' "bench --pop $pop32 --island-size 32 $ga" "bench --pop $pop128 --island-size 128 $ga" \
    "bench --pop $pop512 --island-size 512 $ga" \
    "bench --algorithm sa --pop $pop128 --island-size 128 --generations 2" \
    "bench --algorithm hc --pop $pop512 --island-size 512 --generations 2"
}

stage_correctness() {
  if [ -n "$dry" ]; then  # the plumbing: a few quick tests
    step tests run_ctest -LE "$left_out_labels" -R '^(PhaseLedger|TeamThreads)\.' || return
  else
    step tests run_ctest -LE "$left_out_labels" || return
  fi
  # Each kernel shape the defaults use, a few generations: gpuga bench's GA on its puzzle
  # without a solution (so that every generation breeds: the repaired GA solves the famous hard
  # puzzles at generation 0, and a solve refuses a puzzle that singles show to have none), in
  # islands of 32 (many 9x9 puzzles at once), 128 (one 9x9 puzzle) and 512, staged in shared
  # memory with migration and local search; chains of 128 and 512 staged; and islands too large
  # to stage, from device memory (a 25x25 island grown to 256, 1,200 sa chains). Racecheck,
  # slower still, takes fewer islands and generations.
  local twenty_five=$work/25x25.txt
  grep -m 1 -v '^#' "$src/puzzles/acs_25x25_fixed040_inst00-09.txt" >"$twenty_five"
  local staged few
  mapfile -t staged < <(kernel_shapes "--migration-interval 2 --local-search 5 --generations 6" 256 512 1024)
  local unstaged=(
    "solve $twenty_five --pop 512 --island-size 256 --local-search 5 --max-generations 2"
    "bench --algorithm sa --pop 2400 --island-size 1200 --generations 1")
  step memcheck sanitize memcheck "${staged[@]}" "${unstaged[@]}" || return
  mapfile -t few < <(kernel_shapes "--migration-interval 1 --local-search 5 --generations 2" 64 256 512)
  step racecheck sanitize racecheck "${few[@]}"  # races are in shared memory
}

# same_output FILE OPTIONS...: the same seed on CPU and GPU (dry: the CPU on one thread and on
# two), generation-limited, gives the same grids.
same_output() {
  local file=$1
  shift
  local run=(solve --seed 1 --time-limit 0 --report-every 0 --format line "$@" "$file")
  local one=(--backend cuda) other=(--backend cpu)
  [ -n "$dry" ] && one=(--backend cpu --threads 1) other=(--backend cpu --threads 2)
  cmp <("$gpuga" "${run[@]}" "${one[@]}" 2>/dev/null) <("$gpuga" "${run[@]}" "${other[@]}" 2>/dev/null) ||
    { echo "${one[*]} and ${other[*]} differ: $file $*"; return 1; }
  echo "${one[*]} == ${other[*]}: $file $*"
}

stage_solves() {
  local top=$src/puzzles/norvig_top95.txt forum=$src/puzzles/forum_hardest_1106_50.txt
  local forum2=$src/puzzles/forum_hardest_1905_11plus_50.txt
  if [ -n "$dry" ]; then
    head -n 3 "$top" >"$work/top3.txt"
    top=$work/top3.txt forum=$work/top3.txt forum2=$work/top3.txt
  fi
  # ga in islands of 32 that grow twice, sa chains of 128, hc chains of 512.
  local generations=30
  [ -n "$dry" ] && generations=3
  step same-ga same_output "$top" --pop 1024 --island-size 32 --grow-after 3 --local-search 50 \
    --restart-after 10 --max-generations $generations || return
  step same-sa same_output "$top" --algorithm sa --pop 1024 --island-size 128 --max-generations $generations || return
  step same-hc same_output "$top" --algorithm hc --pop 2048 --island-size 512 --max-generations $generations || return
  # The defaults (the defaults table): one puzzle at a time, each puzzle's seconds its time to a
  # solution; then two files many at once. JSON into NAME.json as it is written.
  solve_json() {
    local name=$1
    shift
    "$gpuga" solve --backend "$backend" --seed 1 --report-every 0 --json "$@" >"$OUT/$name.json"
    [ $? -le 1 ]
  }
  export -f solve_json
  step solve-hard solve_json solve-hard --time-limit 2 --concurrent 1 "$top" "$forum" || return
  step solve-many solve_json solve-many --time-limit 5 "$forum" "$forum2"
}

stage_throughput() {
  local small=()
  [ -n "$dry" ] && small=(--pop 400 --island-size 100 --generations 2 --repeats 1 --warmup 1)
  step bench-ga "$gpuga" bench --backend "$backend" "${small[@]}" --json "$OUT/bench-ga.json" || return
  local plain=(--generations 50 --repeats 3)
  [ -n "$dry" ] && plain=("${small[@]}")
  step bench-plain-ga "$gpuga" bench --backend "$backend" --repair none "${plain[@]}" \
    --json "$OUT/bench-plain-ga.json" || return
  # sa and hc: a generation is a move per free cell per chain, so fewer generations a row.
  local chains=(--generations 20 --repeats 3)
  [ -n "$dry" ] && chains=("${small[@]}")
  step bench-sa "$gpuga" bench --backend "$backend" --algorithm sa "${chains[@]}" \
    --json "$OUT/bench-sa.json" || return
  step bench-hc "$gpuga" bench --backend "$backend" --algorithm hc "${chains[@]}" \
    --json "$OUT/bench-hc.json" || return
  # Puzzles a second, many at once, beside the same machine's CPU backend: bench-puzzles-9x9.json
  # (forum hardest 1905) and bench-puzzles-25x25.json (the ant colony's 25x25 at 40 %).
  local nine=$src/puzzles/forum_hardest_1905_11plus_50.txt
  local large=$src/puzzles/acs_25x25_fixed040_inst00-09.txt
  if [ -n "$dry" ]; then
    head -n 3 "$nine" >"$work/nine3.txt"
    nine=$work/nine3.txt large=$work/nine3.txt
  fi
  local backends=$backend
  [ "$backend" = cpu ] || backends=$backend,cpu
  bench_puzzles() {
    measured "$gpuga" bench --backend "$backends" --puzzles "$nine" --json "$OUT/bench-puzzles-9x9.json" &&
      measured "$gpuga" bench --backend "$backends" --puzzles "$large" --json "$OUT/bench-puzzles-25x25.json"
  }
  export -f bench_puzzles
  export backends nine large
  step bench-puzzles bench_puzzles
}

stage_mpi() {
  if [ -n "$dry" ]; then  # the plumbing: the MPI tests listed, not run
    step mpi run_ctest -L mpi -N
  else
    step mpi run_ctest -L mpi
  fi
}

# The one-puzzle defaults (the defaults table) on every dev set, one puzzle at a time, as
# docs/benchmarks.md's "The defaults, by backend and size" predicts them.
stage_defaults() {
  dev_sets() {
    local name=$1
    shift
    (cd "$src" && GPUGA="$gpuga" GPUGA_BACKEND=$backend "$@" bench/dev-sets.sh "$work/$name") &&
      cp "$work/$name/summary.md" "$OUT/$name.md"
  }
  export -f dev_sets
  step defaults-9x9 dev_sets dev-sets-9x9 env TIME_LIMIT=2 || return
  large() { dev_sets dev-sets-16x16 env SETS=16x16 TIME_LIMIT=5 &&
            dev_sets dev-sets-25x25 env SETS=25x25 FIRST=3 TIME_LIMIT=15; }
  step defaults-large large
}

# The 9x9 defaults' choices that CPU runs cannot settle (docs/decisions.md), measured on the
# hard sets: many at once, the table's runs
# of 256 islands of 32 growing after 6 against runs of 64 islands of 128 growing after 20, 16 and
# 128 of them, and 64 of 256; one puzzle, the table's 264 islands of 128 against 528 and 1056.
stage_choices() {
  local sets=("$src/puzzles/norvig_top95.txt" "$src/puzzles/forum_hardest_1106_50.txt"
              "$src/puzzles/forum_hardest_1905_11plus_50.txt")
  many() {
    local label options
    for label in "256x32 (the table)|" \
                 "64x128|--pop 8192 --restart-after 5 --grow-after 20" \
                 "16x128|--pop 2048 --island-size 128 --grow-after 20" \
                 "128x128|--pop 16384 --island-size 128 --grow-after 20" \
                 "64x256|--pop 16384 --island-size 256 --grow-after 20"; do
      options=${label#*|}
      echo "### runs of ${label%%|*}"
      # shellcheck disable=SC2086  # the options are words
      GPUGA="$gpuga" "$src/bench/throughput.sh" "$@" -- --backend "$backend" $options || return 1
    done >"$OUT/choices-many.md"
  }
  step choices-many many "${sets[@]}" || return
  one() {
    export GPUGA=$gpuga GPUGA_BACKEND=$backend TIME_LIMIT=2 \
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

# --dry only: one step that waits until a signal ends it (or its limit), so that a test of the
# check's SIGTERM stops a step that is surely running, however fast the machine.
stage_hold() {
  step hold sleep "${budget[hold]}"
}

# Beyond 25x25 (a build whose GPUGA_CUDA_SIZES holds 36x36 to 64x64): the repaired GA's grids on
# the GPU are the CPU's at 36x36, 49x49 and 64x64, for one plan on both (the backends' defaults
# differ): 132 islands of 32 unsearched, and two islands of 32 tabu-searched;
# compute-sanitizer finds no memory error in searched islands at 49x49 and 64x64, nor on a lone
# 9x9 island (a cooperative grid), nor where an engine's second run brings a 36x36 puzzle with
# more free cells than its first (its launch's tiles grow), no race in two repaired 36x36
# islands of 8 (a block of eight tiles each), and no barrier misuse in a repaired 36x36 island
# too large to stage; one generation is timed at 36x36 and 64x64 on the GPU and on this
# machine's CPU cores (gpuga bench: 132 islands of 32 unsearched into time-large-SIZE.json, and
# at 36x36 264, which run two blocks of eight tiles a multiprocessor, into
# time-large-36x36-paired.json; two islands of 8 searched, a
# fortieth of the defaults' steps a grid, into time-large-SIZE-searched.json); and
# the first puzzles at 45 % given (the hard band, docs/benchmarks.md's "Beyond 25x25") are
# solved one at a time at the defaults on both (JSON into large-SIZE-BACKEND.json). Dry: puzzles
# the CPU solves at once (36x36 and 49x49 at 60 %, 64x64 at 75 %), two generations, small
# populations.
stage_large() {
  local p36=$src/bench/instances/36x36/fill-0.45.txt p49=$src/bench/instances/49x49/fill-0.45.txt
  local p64=$src/bench/instances/64x64/fill-0.45.txt
  local first36=3 limit36=15 limit64=30 generations=3 wide=4224
  if [ -n "$dry" ]; then
    p36=$src/bench/instances/36x36/fill-0.60.txt p49=$src/bench/instances/49x49/fill-0.60.txt
    p64=$src/puzzles/gpuga_64x64_fill075.txt
    first36=1 limit36=5 limit64=5 generations=2 wide=64
  fi
  grep -v '^#' "$p36" | head -n "$first36" >"$work/36x36.txt"
  grep -v '^#' "$p49" | head -n 1 >"$work/49x49.txt"
  grep -v '^#' "$p64" | head -n 1 >"$work/64x64.txt"
  head -n 1 "$work/36x36.txt" >"$work/36x36-first.txt"
  { grep -v '^#' "$src/bench/instances/36x36/fill-0.60.txt" | head -n 1
    grep -v '^#' "$src/bench/instances/36x36/fill-0.45.txt" | head -n 1; } >"$work/36x36-growing.txt"
  same_large() {
    local puzzle searches=(--pop 64 --island-size 32 --tabu 2000 --max-generations 2)
    [ -n "$dry" ] && searches=(--pop 16 --island-size 8 --tabu 200 --max-generations 1)
    for puzzle in 36x36-first 49x49 64x64; do
      same_output "$work/$puzzle.txt" --pop "$wide" --island-size 32 --tabu 0 --max-generations "$generations" &&
        same_output "$work/$puzzle.txt" "${searches[@]}" || return 1
    done
  }
  time_large() {
    local puzzle backends=$backend
    [ "$backend" = cpu ] || backends=$backend,cpu
    measured "$gpuga" bench --backend "$backends" --puzzle "$work/36x36-first.txt" --pop $((2 * wide)) \
      --island-size 32 --tabu 0 --generations 1 --repeats 3 --warmup 1 \
      --json "$OUT/time-large-36x36-paired.json" || return 1
    for puzzle in 36x36-first 64x64; do
      measured "$gpuga" bench --backend "$backends" --puzzle "$work/$puzzle.txt" --pop "$wide" \
        --island-size 32 --tabu 0 --generations 1 --repeats 3 --warmup 1 \
        --json "$OUT/time-large-${puzzle%-first}.json" &&
        measured "$gpuga" bench --backend "$backends" --puzzle "$work/$puzzle.txt" --pop 16 \
          --island-size 8 --tabu 5000 --generations 1 --repeats 1 --warmup 1 \
          --json "$OUT/time-large-${puzzle%-first}-searched.json" || return 1
    done
  }
  solve_large() {
    local b backends=$backend
    [ "$backend" = cpu ] || backends="$backend cpu"
    for b in $backends; do
      measured "$gpuga" solve --backend "$b" --seed 1 --report-every 0 --concurrent 1 --time-limit "$limit36" \
        --json "$work/36x36.txt" >"$OUT/large-36x36-$b.json" &&
        measured "$gpuga" solve --backend "$b" --seed 1 --report-every 0 --concurrent 1 --time-limit "$limit64" \
          --json "$work/64x64.txt" >"$OUT/large-64x64-$b.json" || return 1
    done
  }
  export -f same_output same_large time_large solve_large
  export generations limit36 limit64 wide
  local searched=(--pop 16 --island-size 8 --tabu 100 --max-generations 1)
  local unstaged="solve $work/36x36-first.txt --pop 256 --island-size 128 --tabu 0 --max-generations 1"
  step same-large same_large || return
  step memcheck-large sanitize memcheck "solve $work/49x49.txt ${searched[*]}" "solve $work/64x64.txt ${searched[*]}" \
    "bench --pop 3000 --island-size 3000 --generations 2" \
    "solve $work/36x36-growing.txt --concurrent 2 --pop 16 --island-size 8 --tabu 0 --max-generations 1" || return
  step racecheck-large sanitize racecheck "solve $work/36x36-first.txt --pop 16 --island-size 8 --tabu 0 --max-generations 1" ||
    return
  step synccheck-large sanitize synccheck "$unstaged" || return
  step time-large time_large || return
  step solve-large solve_large
}

# This build's gpuga against the baseline's (BASELINE), alternating within each of three rounds,
# so that the device's drift falls on both: the bench's plain GA at 528 islands of 256, 512 and
# 1000 and 1056 of 128, sa and hc at 528 islands of 512 and sa at 528 of 128, the memetic default
# on norvig_top95 one puzzle at a time, and the two forum files many at once in runs of 64
# islands of 128 that grow after 20 (explicit options, so that both builds run the same runs; a
# baseline without --grow-after skips them). bench/compare.py tabulates the medians in
# compare.md.
stage_compare() {
  tar -C "$work" -xzf "$BASELINE" && [ -f "$work/$baseline_name/BASELINE.txt" ] ||
    { say "gpu-check: $BASELINE is not a tarball from 'gpu-check.sh baseline'"; status=1; return; }
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
    python3 "$src/bench/compare.py" "$work/compare" "$commit" \
      "$(sed -n 's/^commit //p' "$old_info")" >"$OUT/compare.md"
  }
  step compare compare_rounds
}

# The bundle's libraries that this machine lacks, in lib-used/: a machine's own library of the
# same name goes with the rest of its installation (its Open MPI with its mpirun), and the
# bundle's fill in where it has none, so that a machine with only glibc, libstdc++ and the
# driver runs everything.
use_libs() {
  mkdir -p "$work/lib-used"
  local lib name own=() mine=()
  for lib in "$work"/$bundle_name/lib/*; do
    [ -e "$lib" ] || continue
    name=$(basename "$lib")
    if ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$name "; then own+=("$name")
    else ln -s "$lib" "$work/lib-used/$name"; mine+=("$name"); fi
  done
  echo "libraries: the bundle's ${mine[*]:-none}; this machine's own ${own[*]:-none}" >>"$summary"
  export LD_LIBRARY_PATH=$work/lib-used${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}

# TARBALL unpacked into DIR: by tar, or where tar has no xz to call, by Python's tarfile.
unpack() {
  tar -C "$2" -xf "$1" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"
}

# Sets tree, src, gpuga and commit from a build tree in place or a bundle unpacked into $work;
# writes what it is into the summary.
open_target() {
  local target=$1
  if [ -d "$target" ] && is_cuda_build "$target"; then
    tree=$(cd "$target" && pwd)
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$tree/CMakeCache.txt")
    commit=$("$tree/gpuga" --version | sed -n 's/.*(commit \([0-9a-f]*\).*/\1/p')
    { echo "build $tree (in place)"; build_flags "$tree"; } >>"$summary"
  elif [ -f "$target" ] && unpack "$target" "$work" 2>>"$summary" &&
       [ -f "$work/$bundle_name/BUNDLE.txt" ]; then
    tree=$work/$bundle_name/build src=$work/$bundle_name/src
    commit=$(sed -n 's/^commit //p' "$work/$bundle_name/BUNDLE.txt")
    cat "$work/$bundle_name/BUNDLE.txt" >>"$summary"
    # Built elsewhere: its ctest files name the build's paths; the tests find their puzzles and
    # the gpuga binary through these.
    find "$tree" -name '*.cmake' -exec sed -i "s|$build_mark|$tree|g; s|$source_mark|$src|g" {} +
    export GPUGA_TEST_SOURCE_DIR=$src GPUGA_TEST_BINARY=$tree/gpuga
    use_libs
  else
    return 1
  fi
  gpuga=$tree/gpuga
}

# At SIGINT or SIGTERM: the running step ends (step() kills it) and the stages stop.
on_signal() {
  stopped=$1
  [ -n "$running" ] && kill -TERM "$running" 2>/dev/null
}

run() {
  local target=$1
  shift
  local stages=() s
  OUT=$PWD/gpu-check-out dry=
  while [ $# -gt 0 ]; do
    case $1 in
      --out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
      --dry) dry=1; shift ;;
      -*) echo "gpu-check: unknown option '$1'; expected --out DIR or --dry" >&2; return 2 ;;
      *) stages+=("$1"); shift ;;
    esac
  done
  [ ${#stages[@]} -gt 0 ] || stages=(correctness solves throughput mpi)
  for s in "${stages[@]}"; do
    [ "$s" = hold ] && [ -z "$dry" ] && { echo "gpu-check: the hold stage is --dry's alone" >&2; return 2; }
    case $s in correctness|solves|throughput|mpi|defaults|choices|large|compare|hold) ;;
      *) echo "gpu-check: unknown stage '$s'; expected $stage_list" >&2; return 2 ;; esac
    if [ "$s" = compare ] && [ ! -f "${BASELINE:-}" ]; then
      echo "gpu-check: the compare stage needs BASELINE, a tarball from 'gpu-check.sh baseline COMMIT DIR' (given: '${BASELINE:-}')" >&2
      return 2
    fi
  done
  if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
    echo "gpu-check: $OUT is not empty; give --out a new or empty directory, so that nothing is overwritten" >&2
    return 2
  fi
  mkdir -p "$OUT/logs" && OUT=$(cd "$OUT" && pwd) || return 2
  summary=$OUT/summary.txt
  echo "gpu-check run $(date -u +%Y-%m-%dT%H:%M:%SZ): stages ${stages[*]}${dry:+ (dry: the CPU backend, tiny inputs)}" >"$summary"
  work=$(mktemp -d "${TMPDIR:-/tmp}/gpuga-gpu-check.XXXXXX")
  trap 'rm -rf "'"$work"'"' EXIT
  if ! open_target "$target"; then
    say "gpu-check: $target is neither a CUDA build of gpuga nor a bundle from 'gpu-check.sh build'"
    return 2
  fi
  backend=cuda
  [ -n "$dry" ] && backend=cpu
  export gpuga src work OUT tree dry backend commit
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
    "$gpuga" devices
  } >>"$summary" 2>&1
  if [ -z "$dry" ] && ! "$gpuga" devices --json | grep -q '"index"'; then
    say "gpu-check: no GPU here ($("$gpuga" devices 2>&1 | head -n 1)); nothing was run" >&2
    return 2
  fi
  status=0 stopped= running=
  trap 'on_signal INT' INT
  trap 'on_signal TERM' TERM
  for s in "${stages[@]}"; do
    "stage_$s"
    [ -z "$stopped" ] || break
  done
  if [ -n "$stopped" ]; then
    say "gpu-check: stopped by SIG$stopped; what ran is in $OUT"
    [ "$stopped" = INT ] && return 130
    return 143
  fi
  say "gpu-check: done, exit $status; results in $OUT"
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
