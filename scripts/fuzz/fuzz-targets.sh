#!/usr/bin/env bash
# Prints collide's fuzz targets, one a line: every fuzz/fuzz_<target>.c but fuzz_common.c. The
# one definition the Makefile, scripts/fuzz/fuzz.sh, scripts/fuzz/cfl-check.sh and
# .clusterfuzzlite/build.sh use.
# With "link-flags": the flags every link of fuzz_common.c needs (the allocator wrapped, for
# fz_fail_allocation), the one copy the Makefile and .clusterfuzzlite/build.sh use.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = link-flags ]; then
  echo "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc"
  exit 0
fi
for f in fuzz/fuzz_*.c; do
  t=${f#fuzz/fuzz_}
  t=${t%.c}
  [ "$t" = common ] || echo "$t"
done
