#!/usr/bin/env bash
# No tracked file holds the words below (patterns): a line that must quote one ends with
# "words: ok".
# Usage: test_product_words.sh SOURCE_DIR
set -uo pipefail
src=$1
cd "$src" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -type f -not -path './build*' -not -path './.git/*')
fi
patterns='\bsessions?\b|\bissues? #?[0-9]+|\(issue\b|\bdevice (tool|machine)\b|\bcarry=|run\(command=|\bfiles? (brought )?back\b|\b(seventh|eighth|ninth|tenth|eleventh|twelfth) (session|turn)\b'
# One grep over every file, not a process a file: -I skips binaries, -s a file listed but gone;
# this file, which spells the patterns out, is left out of the hits.
hits=$(grep -s -I -n -i -H -E "$patterns" -- "${files[@]}" |
  grep -v -e 'words: ok$' -e '^\(\./\)\?tests/test_product_words\.sh:')
if [ -n "$hits" ]; then
  echo "$hits" | head -40
  echo "FAIL: $(echo "$hits" | wc -l) line(s) speak of how gpuga was made, not of gpuga" >&2
  exit 1
fi
echo "${#files[@]} files: none speaks of how gpuga was made"
