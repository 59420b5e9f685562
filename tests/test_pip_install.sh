#!/usr/bin/env bash
# pip install . into a virtual environment that sees the system's packages (Debian's setuptools,
# numpy, pandas, pybind11), offline: --no-build-isolation, setup.py driving CMake; then import gpuga
# from it and solve. Built from a copy of the source tree, so that the build leaves nothing in it;
# for the CPU backend, unoptimised (CMAKE_BUILD_TYPE=None), so that it costs the suite a third of
# its time on two cores and tests the same steps: the optimised build is the tests' own.
# Usage: test_pip_install.sh SOURCE_DIR
set -uo pipefail
src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
python3=/usr/bin/python3
[ -x "$python3" ] && "$python3" -c "import venv, setuptools, wheel, pip" 2>/dev/null ||
  { echo "skipped: no Debian python3 with venv, setuptools, wheel and pip (scripts/setup installs them)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$src" ls-files -z --cached --others --exclude-standard | (cd "$src" && xargs -0 cp --parents -t "$tmp/src")
else
  cp -r "$src"/. "$tmp/src" && rm -rf "$tmp"/src/build*
fi
# Without a pip of its own (ensurepip's copy): Debian's, seen through the system's packages, installs
# into the environment that runs it.
"$python3" -m venv --without-pip --system-site-packages "$tmp/venv" || fail "python3 -m venv"
GPUGA_CUDA=OFF CMAKE_BUILD_TYPE=None "$tmp/venv/bin/python" -m pip install --no-build-isolation --no-deps -q "$tmp/src" >"$tmp/pip.log" 2>&1 ||
  { tail -40 "$tmp/pip.log"; fail "pip install --no-build-isolation ."; }
cd "$tmp" || exit 1  # not the source tree: the installed package is the one imported
"$tmp/venv/bin/python" - <<'PY' || fail "the installed package does not solve"
import warnings
import gpuga
assert gpuga.__file__.startswith(__import__("sys").prefix), gpuga.__file__
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    r = gpuga.solve("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
                    seed=1, pop=1000, max_generations=300)
assert r.solved and gpuga.verify("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1", r.text)[0], r
# Without a CUDA backend, auto runs on the CPU and says so as a warning, not on stderr.
assert r.backend == "cpu" and any(issubclass(w.category, RuntimeWarning) for w in seen), seen
print("installed:", gpuga.__file__, r)
PY
