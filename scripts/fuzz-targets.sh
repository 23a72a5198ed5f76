#!/usr/bin/env bash
# Prints collide's fuzz targets, one a line: every fuzz/fuzz_<target>.c but fuzz_common.c. The
# one definition the Makefile, scripts/fuzz.sh, scripts/cfl-check.sh and
# .clusterfuzzlite/build.sh use.
set -euo pipefail
cd "$(dirname "$0")/.."
for f in fuzz/fuzz_*.c; do
  t=${f#fuzz/fuzz_}
  t=${t%.c}
  [ "$t" = common ] || echo "$t"
done
