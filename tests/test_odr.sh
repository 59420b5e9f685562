#!/usr/bin/env bash
# One name, one definition: the CUDA backend's library and the OpenMP twin's (the same engine
# compiled for Thrust's OpenMP system, which tests link beside it) must not both define an entity
# of the device system or of a Thrust system. When they did (b7e73ec), the linker kept one copy
# of each inline member and the CUDA engine ran the twin's code: 40 CUDA tests failed on a GPU
# while CI, which has none, stayed green. The other names both define come from the same host
# code (strings, errors, the random stream) and are listed for the record.
# Usage: test_odr.sh CUDA_LIBRARY TWIN_LIBRARY
set -uo pipefail
cuda=$1 twin=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Defined symbols with a size, as "name<TAB>size", demangled.
defined() {
  nm -S -C --defined-only "$1" 2>/dev/null |
    sed -nE 's/^[0-9a-f]+ ([0-9a-f]+) [A-Za-z] (.*)$/\2\t\1/p' | sort -u >"$2"
}
defined "$cuda" "$tmp/cuda" && defined "$twin" "$tmp/twin"
[ -s "$tmp/cuda" ] && [ -s "$tmp/twin" ] || fail "no symbols read from $cuda or $twin"
grep -q 'gpuga::device_system' "$tmp/cuda" && grep -q 'gpuga::device_system' "$tmp/twin" ||
  fail "the device system is in neither library's symbols: the check would see nothing"
comm -12 <(cut -f1 "$tmp/cuda" | sort -u) <(cut -f1 "$tmp/twin" | sort -u) >"$tmp/both"
if grep -E 'device_system|thrust::' "$tmp/both" >"$tmp/clash"; then
  echo "defined in both $(basename "$cuda") and $(basename "$twin"), with their sizes:" >&2
  while IFS= read -r name; do
    printf '  %s\n    sizes %s / %s\n' "$name" "$(grep -F "$name" "$tmp/cuda" | head -n 1 | cut -f2)" \
      "$(grep -F "$name" "$tmp/twin" | head -n 1 | cut -f2)" >&2
  done < <(head -n 20 "$tmp/clash")
  fail "$(wc -l <"$tmp/clash") name(s) of the device system or Thrust defined by both libraries"
fi
echo "ok: no entity of the device system or Thrust defined by both; the names both define:"
grep '^gpuga::\|gpuga::' "$tmp/both" | sed 's/^/  /'
