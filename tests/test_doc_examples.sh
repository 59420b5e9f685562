#!/usr/bin/env bash
# The shell examples of the README and docs/ run: every block fenced as ```sh ci, each in a
# scratch directory whose build/ is the build tree and whose puzzles/, bench/ and examples/ are
# the source's, under bash -e; a failure names the page and the block's first line. A block that
# runs mpirun is skipped where this build has no MPI or the machine no mpirun.
# Usage: test_doc_examples.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
export PATH=/usr/bin:$PATH  # Debian's python3 (matplotlib) before any other
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=PASSIVE
mpi=1
"$build/gpuga" --version | grep -q "MPI" && ! "$build/gpuga" --version | grep -q "no MPI" &&
  command -v mpirun >/dev/null || mpi=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ran=0 skipped=0
for page in "$src/README.md" "$src"/docs/*.md; do
  # Each block to a file of its own: PAGE-N.sh.
  awk -v out="$tmp/$(basename "$page" .md)" '
    /^```sh ci[[:space:]]*$/ { n++; file = out "-" n ".sh"; inside = 1; next }
    /^```/ && inside { inside = 0; next }
    inside { print > file }' "$page"
done
for block in "$tmp"/*.sh; do
  [ -e "$block" ] || continue
  name=$(basename "$block" .sh)
  if grep -q "mpirun" "$block" && [ "$mpi" = 0 ]; then
    echo "skipped $name: no MPI here"; skipped=$((skipped + 1)); continue
  fi
  work=$tmp/work-$name
  mkdir -p "$work"
  ln -s "$build" "$work/build"
  for d in puzzles bench examples; do ln -s "$src/$d" "$work/$d"; done
  (cd "$work" && bash -e "$block") >"$work.log" 2>&1 ||
    { tail -30 "$work.log"; fail "$name: the block that starts '$(head -n 1 "$block")'"; }
  echo "ran $name"
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || fail "no block fenced as \`\`\`sh ci found"
echo "$ran blocks ran, $skipped skipped"
