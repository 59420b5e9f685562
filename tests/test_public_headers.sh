#!/usr/bin/env bash
# The library's public face stays light: a program that only solves (gpuga/solve.hpp, the batch's
# gpuga/batch_runner.hpp) must not compile the device operators and their random numbers
# (include/gpuga/device/ beyond its plain data, Random123). Of include/gpuga/device/ they may
# include island_params.hpp only. Checked on the preprocessor's list of the headers
# each one includes; the check must see the operators when a header does bring them (rng.hpp).
# Usage: test_public_headers.sh CXX INCLUDE_DIR GENERATED_DIR
set -uo pipefail
cxx=$1 include=$2 generated=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
headers_of() {  # the headers a file including <$1> reads, one a line
  echo "#include <$1>" | "$cxx" -std=c++20 -x c++ -M -I "$include" -I "$generated" - 2>&1 |
    tr ' \\' '\n\n' | grep -E '\.(h|hpp|hh)$'
}
allowed='gpuga/device/island_params\.hpp$'
probe=$(headers_of gpuga/device/rng.hpp)
[[ "$probe" == *Random123* ]] ||
  fail "gpuga/device/rng.hpp does not seem to bring Random123: the check would see nothing"
for h in gpuga/solve.hpp gpuga/batch_runner.hpp gpuga/run_config.hpp gpuga/driver.hpp gpuga/engine.hpp; do
  list=$(headers_of "$h") || fail "$h does not compile: $list"
  [ -n "$list" ] || fail "no headers listed for $h"
  bad=$(echo "$list" | grep -E 'gpuga/device/|Random123' | grep -Ev "$allowed")
  [ -z "$bad" ] || fail "$h brings the device operators:
$bad"
  echo "$h: $(echo "$list" | grep -c 'gpuga/') gpuga headers, none of the operators"
done
