#!/usr/bin/env bash
# Stages the Debian development packages gpuga builds with (headers, CMake configs, GoogleTest's
# static libraries) into .gpu-deps/, for the GPU machine, which reaches no package registry.
# Run here, then: device run(command="bash bench/gpu-check.sh", carry=[".gpu-deps"]).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup >/dev/null
rm -rf .gpu-deps
mkdir -p .gpu-deps
for pkg in libcli11-dev librandom123-dev nlohmann-json3-dev libgtest-dev; do
  dpkg -L "$pkg" | while read -r f; do
    if [ -f "$f" ]; then cp --parents "$f" .gpu-deps/; fi
  done
done
du -sh .gpu-deps
