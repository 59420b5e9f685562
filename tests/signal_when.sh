#!/usr/bin/env bash
# signal_when.sh FILE PATTERN SIGNAL COMMAND...: runs COMMAND (its stdin, stdout and stderr this
# script's), and once FILE (stdout or stderr: the file it goes to) holds a line matching PATTERN
# (grep -E), sends it SIGNAL; exits with its status. Tests stop a run at a point of its own (a row written, a progress line) with it,
# not after a time that a fast machine outruns. Waits at most 120 s for the line.
set -u
file=$1 pattern=$2 signal=$3
shift 3
case $file in stdout) file=$(readlink "/proc/$$/fd/1") ;; stderr) file=$(readlink "/proc/$$/fd/2") ;; esac
"$@" &
pid=$!
for _ in $(seq 12000); do
  grep -Eq "$pattern" "$file" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break  # ended before the line: its status tells
  sleep 0.01
done
kill -"$signal" "$pid" 2>/dev/null
wait "$pid"
