#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as ClusterFuzzLite would (its variables set to an
# address-sanitizer libFuzzer build, output in build/cfl/out), then checks every fuzzer, seed
# corpus, dictionary and options file is there and that each fuzzer runs its seeds cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf build/cfl
mkdir -p build/cfl/out build/cfl/work
sanitize="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
env CC=clang CXX=clang++ CFLAGS="$sanitize" CXXFLAGS="$sanitize" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$PWD/build/cfl/out" WORK="$PWD/build/cfl/work" \
  SRC= bash .clusterfuzzlite/build.sh
for t in aabb mtd sprite sweep broadphase mask move circle sim; do
  for f in "fuzz_$t" "fuzz_${t}_seed_corpus.zip" "fuzz_$t.dict" "fuzz_$t.options"; do
    [ -s "build/cfl/out/$f" ] || { echo "cfl-check: build/cfl/out/$f is missing" >&2; exit 1; }
  done
  mkdir -p "build/cfl/seeds/$t"
  unzip -q -o "build/cfl/out/fuzz_${t}_seed_corpus.zip" -d "build/cfl/seeds/$t"
  seeds=$(ls "build/cfl/seeds/$t" | wc -l)
  [ "$seeds" -eq "$(ls "fuzz/corpus/$t" | wc -l)" ] || { echo "cfl-check: $t seed zip is incomplete" >&2; exit 1; }
  "build/cfl/out/fuzz_$t" -runs=500 -dict="build/cfl/out/fuzz_$t.dict" "build/cfl/seeds/$t" \
    >"build/cfl/fuzz_$t.log" 2>&1 || { echo "cfl-check: fuzz_$t failed; see build/cfl/fuzz_$t.log" >&2; exit 1; }
  echo "cfl-check: fuzz_$t built by build.sh, $seeds seeds zipped, 500 runs clean"
done
