#!/usr/bin/env bash
# How well gpuga rate's columns agree with Sudoku Explainer's rating: rates the puzzles of a
# rated set (RATED, default puzzles/se_rated.tsv: 232 puzzles, SE 1 to 11+; or
# puzzles/se_rated_holdout.tsv, graded apart: 265, mostly SE 4 to 11+) with the given rate
# options, then writes OUTDIR/rate.csv, OUTDIR/summary.md (Spearman's rho of each column against
# SE, on every puzzle and on those of SE 4 and up, beside the cells singles leave and the exact
# solver's conflicts) and OUTDIR/scatter.png (the score against SE).
# Usage: [GPUGA=build/gpuga] [RATED=file.tsv] bench/rating-agreement.sh OUTDIR [gpuga rate options]
set -euo pipefail
out=${1:?usage: [RATED=file.tsv] bench/rating-agreement.sh OUTDIR [gpuga rate options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
gpuga=${GPUGA:-$here/../build/gpuga}
python3=$(command -v /usr/bin/python3 || command -v python3)
rated=${RATED:-$here/../puzzles/se_rated.tsv}
mkdir -p "$out"
grep -v '^#' "$rated" | cut -f1 >"$out/puzzles.txt"
status=0
"$gpuga" rate "$@" "$out/puzzles.txt" >"$out/rate.csv" || status=$?
[ "$status" -le 1 ] || exit "$status"
"$python3" "$here/rating_agreement.py" "$rated" "$out/rate.csv" "$out" "$*"
