#!/usr/bin/env bash
# Stages the Debian development packages gpuga builds with (headers, CMake configs, GoogleTest's
# static libraries) into .gpu-deps/, for the GPU machine, which reaches no package registry.
# Run here, then: device run(command="bash bench/gpu-check.sh", carry=[".gpu-deps"]).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup >/dev/null
rm -rf .gpu-deps
mkdir -p .gpu-deps
for pkg in libcli11-dev librandom123-dev nlohmann-json3-dev libgtest-dev libcadical-dev; do
  dpkg -L "$pkg" | while read -r f; do
    if [ -f "$f" ]; then cp --parents "$f" .gpu-deps/; fi
  done
done
# The GPU machine gets the tree without .git: the commit travels here (run this right before).
commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- || commit="$commit-dirty"
echo "$commit" >.gpu-deps/commit
du -sh .gpu-deps
