#!/usr/bin/env bash
# make tsan-selftest: make tsan must fail on a seeded race, with ThreadSanitizer's own report.
# The race is the fuzz self-test's par-shared-counter (scripts/fuzz/fuzz-selftest.sh holds the one
# copy of its sed): the parallel sweep's tasks append their pairs through the list's shared
# count. A copy of the tree in build/tsan-selftest/ gets the bug and build/tsan's objects (only
# the changed file is rebuilt), then runs make tsan there.
set -euo pipefail
cd "$(dirname "$0")/../.."
spec=$(grep -o '"par-shared-counter@[^"]*"' scripts/fuzz/fuzz-selftest.sh | tr -d '"')
IFS='@' read -r _ file _ expr _ <<<"$spec"
[ -n "$expr" ] || { echo "tsan-selftest: no par-shared-counter in scripts/fuzz/fuzz-selftest.sh" >&2; exit 2; }
dir=build/tsan-selftest
rm -rf --one-file-system "$dir"
scripts/build/copy-sources.sh . "$dir"
[ -d build/tsan ] && cp -a build/tsan "$dir/build/tsan"
sed -i -e "$expr" "$dir/$file"
if cmp -s "$file" "$dir/$file"; then
  echo "tsan-selftest: the seeded race no longer applies to $file: update par-shared-counter in scripts/fuzz/fuzz-selftest.sh" >&2
  exit 2
fi
if make -C "$dir" --no-print-directory tsan >"$dir/tsan.log" 2>&1; then
  echo "tsan-selftest: make tsan PASSED with the seeded race in $file (see $dir/tsan.log)" >&2
  exit 1
fi
if ! grep -q '^WARNING: ThreadSanitizer: data race' "$dir/tsan.log"; then
  echo "tsan-selftest: make tsan failed, but without ThreadSanitizer's report of the race:" >&2
  grep -v '^gcc\|^clang\|^ar \|^rm ' "$dir/tsan.log" | tail -n 15 >&2
  exit 1
fi
echo "tsan-selftest: the seeded race makes make tsan fail: $(grep -m1 '^SUMMARY: ThreadSanitizer' "$dir/tsan.log")"
