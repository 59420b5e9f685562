# Sourced by the tests that signal a run: wait_for FILE PATTERN waits, at most 120 s, for a line
# matching PATTERN (grep -E) in FILE, such as a run's first progress line, which says it is past
# its start with its signal handlers in place; rather than guessing how long a start takes. The
# sourcing script defines fail.
wait_for() {
  local file=$1 pattern=$2
  for _ in $(seq 2400); do
    grep -Eq "$pattern" "$file" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "waited 120 s for '$pattern' in $file"
}
