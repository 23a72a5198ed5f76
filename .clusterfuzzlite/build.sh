#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of collide's fuzz targets. Honours the variables those
# builders set: $CC, $CXX, $CFLAGS, $CXXFLAGS (sanitizer and coverage flags), $LIB_FUZZING_ENGINE
# (the fuzzing engine to link), $OUT (where fuzzers, seed corpora and dictionaries go), $SRC
# and $WORK. Run locally by `make fuzz-cfl-check` (scripts/cfl-check.sh).
#
# Produces, per fuzz target T (every fuzz/fuzz_T.c but fuzz_common.c, as the Makefile finds
# them): $OUT/fuzz_T, $OUT/fuzz_T_seed_corpus.zip, $OUT/fuzz_T.dict and $OUT/fuzz_T.options.
# The flags are the Makefile's: the scalar sources with -fno-tree-vectorize, each ISA file with
# its own -m flag only and again emulated (SIMDE_NO_NATIVE). The workflows that run it are in
# .github/workflows/cflite_*.yml.

set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${SRC:+$SRC/collide}
[ -n "$repo" ] && [ -d "$repo/core" ] || repo=$(dirname "$here")
cd "$repo"
obj=${WORK:-/tmp}/collide-cfl-obj
rm -rf "$obj"
mkdir -p "$obj" "$OUT"

# The bit-exact contract's flags come on top of the builder's (DESIGN.md 3).
flags="$CFLAGS -std=c11 -ffp-contract=off -fno-fast-math -Icore/include -Icore/src"
emu="-DSIMDE_NO_NATIVE -DCOL_EMULATED -Wno-psabi"

for src in core/src/*.c core/src/broadphase/*.c; do
  name=$(echo "${src#core/src/}" | tr / -)
  $CC $flags -fno-tree-vectorize -c "$src" -o "$obj/${name%.c}.o"
done
case "$($CC -dumpmachine)" in
  x86_64* | i?86*)
    $CC $flags -msse2 -c core/src/x86/sse2.c -o "$obj/sse2.o"
    $CC $flags -mavx2 -c core/src/x86/avx2.c -o "$obj/avx2.o"
    $CC $flags -mavx512f -c core/src/x86/avx512.c -o "$obj/avx512.o"
    $CC $flags -O3 -march=x86-64-v3 -c core/src/x86/autovec.c -o "$obj/autovec.o"
    ;;
  aarch64*)
    $CC $flags -c core/src/arm/neon.c -o "$obj/neon.o"
    ;;
esac
for isa in x86/sse2 x86/avx2 x86/avx512 arm/neon; do
  $CC $flags $emu -c "core/src/$isa.c" -o "$obj/$(basename "$isa")-emu.o"
done
ar rcs "$obj/libcollide.a" "$obj"/*.o

$CC $flags -c fuzz/fuzz_common.c -o "$obj/fuzz_common.o"
targets=$(bash scripts/fuzz-targets.sh)
for target in $targets; do
  $CC $flags -c "fuzz/fuzz_$target.c" -o "$obj/fuzz_$target.o"
  ${CXX:-$CC} ${CXXFLAGS:-$CFLAGS} "$obj/fuzz_$target.o" "$obj/fuzz_common.o" \
    "$obj/libcollide.a" $LIB_FUZZING_ENGINE -lm -o "$OUT/fuzz_$target"
  rm -f "$OUT/fuzz_${target}_seed_corpus.zip"
  zip -q -j "$OUT/fuzz_${target}_seed_corpus.zip" fuzz/corpus/"$target"/*
  cp fuzz/collide.dict "$OUT/fuzz_$target.dict"
  printf '[libfuzzer]\nmax_len = 8192\n' >"$OUT/fuzz_$target.options"
done
