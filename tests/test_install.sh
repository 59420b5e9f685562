#!/usr/bin/env bash
# cmake --install gives a package that an outside program builds against, and a gpuga plot that
# finds its script: the build installed into a temporary prefix, examples/solve.cpp configured
# with find_package(gpuga), built, and run on a puzzle (it prints a verified grid). The installed
# library names neither CLI11 nor JSON.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >"$prefix/install.log" || { cat "$prefix/install.log"; fail "install"; }
[ -x "$prefix/bin/gpuga" ] || fail "no gpuga in $prefix/bin"
[ -f "$prefix/include/gpuga/run_config.hpp" ] || fail "no public headers"
[ -f "$prefix/include/gpuga/version.hpp" ] || fail "no version header"
# gpuga plot finds its script under the prefix, however the command is called.
"$prefix/bin/gpuga" plot --help | grep -q "usage: gpuga plot" || fail "gpuga plot from $prefix/bin"
targets=$(cat "$prefix"/lib*/cmake/gpuga/gpugaTargets*.cmake)
if grep -qiE "CLI11|nlohmann" <<<"$targets"; then fail "the installed library links CLI11 or JSON"; fi
cmake -S "$src/examples" -B "$prefix/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$prefix/configure.log" || { cat "$prefix/configure.log"; fail "configure"; }
cmake --build "$prefix/example" || fail "build"
out=$("$prefix/example/solve" "$src/puzzles/example.txt") || fail "solve exited $?: $out"
grep -q "^solved after" <<<"$out" || fail "no solved grid: $out"
echo "$out"
# The Python package, where it was built (GPUGA_PYTHON): importable from where it was installed.
site=$(ls -d "$prefix"/lib*/python3*/dist-packages 2>/dev/null | head -n 1)
if [ -f "$build/python/gpuga/__init__.py" ]; then
  [ -n "$site" ] && [ -f "$site/gpuga/__init__.py" ] || fail "no gpuga package under $prefix"
  grid=$(PYTHONPATH="$site" /usr/bin/python3 -c "import gpuga; print(gpuga.solve(gpuga.read_puzzles('$src/puzzles/example.txt')[0], seed=1).text)") ||
    fail "import gpuga from the installed package"
  echo "python: $grid"
fi
