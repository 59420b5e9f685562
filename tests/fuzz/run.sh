#!/usr/bin/env bash
# Runs one fuzz target for SECONDS: run.sh BINARY SEEDS WORK SECONDS [libFuzzer flags...]. New inputs go to
# WORK/corpus (the seeds are only read), a crash's input to WORK/crashes/. Exits non-zero on a
# crash, a leak, a timeout (one input over 10 s) or undefined behaviour, after libFuzzer's report.
set -euo pipefail
binary=$1 seeds=$2 work=$3 seconds=$4
shift 4
mkdir -p "$work/corpus" "$work/crashes"
# The targets write their inputs as files (the readers take paths): in a folder of the run's own.
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$@" "$work/corpus" "$seeds"
