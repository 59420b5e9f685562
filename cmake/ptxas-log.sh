#!/usr/bin/env bash
# The CUDA compiler launcher of gpuga_cuda (cuda/CMakeLists.txt): runs the compile it is given
# (compiled with -Xptxas -v) and keeps ptxas's report of every kernel (registers, stack frame,
# spills) in OBJECT.ptxas beside the object, out of the build's output; any other message of
# the compiler goes through. bench/kernel_table reads those files (bench/ptxas-table.sh, and
# the kernel_resources test).
out=
prev=
for arg in "$@"; do
  [ "$prev" = -o ] && out=$arg
  prev=$arg
done
log=$(mktemp)
"$@" 2>"$log"
status=$?
report='^ptxas info|^ +[0-9]+ bytes stack frame'
grep -Ev "$report" "$log" >&2
[ -n "$out" ] && [ $status -eq 0 ] && grep -E "$report" "$log" >"$out.ptxas"
rm -f "$log"
exit $status
