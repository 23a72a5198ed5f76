#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of collide's fuzz targets. Honours the variables those
# builders set: $CC, $CXX, $CFLAGS, $CXXFLAGS (sanitizer and coverage flags), $LIB_FUZZING_ENGINE
# (the fuzzing engine to link), $OUT (where fuzzers, seed corpora and dictionaries go), $SRC
# and $WORK. Run locally by `make fuzz-cfl-check` (scripts/fuzz/cfl-check.sh).
#
# Produces, per fuzz target T (every fuzz/fuzz_T.c but fuzz_common.c, as the Makefile finds
# them, with its parts fuzz/T/*.c if any): $OUT/fuzz_T, $OUT/fuzz_T_seed_corpus.zip,
# $OUT/fuzz_T.dict and $OUT/fuzz_T.options.
# The flags are the Makefile's, asked from make (one definition): the bit-exact contract's flags
# and include folders, the scalar backend (scalar.c) with its own, each ISA file with its own
# flags only (scripts/build/isa-list.sh) and again emulated, both with -DCOL_ISA=<its name>, the
# harness's folder and libraries. USER_KERNELS and USER_CFLAGS bring in user kernels as they do
# for make. The workflows that run it are in .github/workflows/cflite_*.yml.

set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${SRC:+$SRC/collide}
[ -n "$repo" ] && [ -d "$repo/core" ] || repo=$(dirname "$here")
cd "$repo"
obj=${WORK:-/tmp}/collide-cfl-obj
rm -rf "$obj"
mkdir -p "$obj" "$OUT"

# The Makefile's variables for this $CC, one a line, read without the caller's make state or
# the builder's CFLAGS (they come on top below). PIC_FLAGS left out: these objects are linked
# only into the fuzzers. VALIDATE=1: fuzzing builds check the kept structures (core/src/validate.h).
# shellcheck disable=SC2016 # the $(...) are make's, expanded by make
makefile_vars=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory CC="$CC" O="$obj" \
  CFLAGS= PIC_FLAGS= SANITIZE= VALIDATE=1 USER_KERNELS= USER_CFLAGS= \
  --eval 'cfl-vars: ; @printf "%s\n" "$(REQUIRED_FLAGS) $(VALIDATE_FLAGS)" "$(SCALAR_FLAGS)" "$(EMU_FLAGS)" "$(HARNESS_INC)" "$(HARNESS_LIBS)" "$(CORE_SRC)"' \
  cfl-vars)
mapfile -t var <<<"$makefile_vars"
if [ "${#var[@]}" -ne 6 ] || [ -z "${var[0]}" ]; then
  echo "build.sh: make did not give the Makefile's flags" >&2
  exit 1
fi
# The bit-exact contract's flags come on top of the builder's (DESIGN.md 3).
flags="$CFLAGS ${var[0]}"
scalar_flags=${var[1]}
emu=${var[2]}
harness_inc=${var[3]}
harness_libs=${var[4]}
# The ISA lists the registry, CPU tests and ISA files include (isa_list.h), as the Makefile
# generates them into $(O)/gen (on the include path above), for this compiler's target.
mkdir -p "$obj/gen"
bash scripts/build/isa-list.sh header "$($CC -dumpmachine)" >"$obj/gen/isa_list.h"

for src in ${var[5]}; do
  name=$(echo "${src#core/src/}" | tr / -)
  scalar=$([ "$src" = core/src/scalar.c ] && echo "$scalar_flags" || true)
  $CC $flags $scalar -c "$src" -o "$obj/${name%.c}.o"
done
# The ISA files and their flags: the collide-isa line of each, as the Makefile reads them.
for src in $(bash scripts/build/isa-list.sh native "$($CC -dumpmachine)"); do
  # shellcheck disable=SC2046 # the flags are words
  $CC $flags $(bash scripts/build/isa-list.sh flags "$src") -DCOL_ISA="$(basename "$src" .c)" -c "$src" \
    -o "$obj/$(basename "$src" .c).o"
done
for src in $(bash scripts/build/isa-list.sh emulated); do
  $CC $flags $emu -DCOL_ISA="$(basename "$src" .c)" -c "$src" -o "$obj/$(basename "$src" .c)-emu.o"
done
ar rcs "$obj/libcollide.a" "$obj"/*.o

# User kernels (USER_KERNELS="a.c b.c", as for make): each file's col_user_register renamed
# per file, and the generated caller the harness runs at start (harness/user_kernels.h).
user_objs=("$obj/user_register.o")
i=0
for src in ${USER_KERNELS:-}; do
  i=$((i + 1))
  $CC $flags ${USER_CFLAGS:-} -Dcol_user_register=col_user_register_$i -c "$src" \
    -o "$obj/user_$i.o"
  user_objs+=("$obj/user_$i.o")
done
# shellcheck disable=SC2086 # the file list is words
bash scripts/build/user-register.sh ${USER_KERNELS:-} >"$obj/user_register.c"
$CC $flags $harness_inc -c "$obj/user_register.c" -o "$obj/user_register.o"
$CC $flags $harness_inc -c fuzz/fuzz_common.c -o "$obj/fuzz_common.o"
$CC $flags $harness_inc -c harness/sweep_exact.c -o "$obj/sweep_exact.o"
$CC $flags $harness_inc -c harness/slab_exact.c -o "$obj/slab_exact.o"
# The peers target's harness (bench/kernel-peers/: the registry, inputs, rules and judges, with
# the digest's generators): no peer library is in the image, so the registry's list header says
# none is built (KP_DISABLE=1) and the target runs no kernel.
# shellcheck disable=SC2016 # the $(...) are make's, expanded by make
kp_src=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory CC="$CC" O="$obj" \
  KP_DISABLE=1 USER_KERNELS= --eval 'cfl-kp: $(O)/kpeers_list.h ; @echo $(KP_HARNESS_SRC) harness/circle_exact.c $(filter-out tools/digest/main.c,$(wildcard tools/digest/*.c))' cfl-kp)
kp_objs=()
for src in $kp_src; do
  $CC $flags $harness_inc -I"$obj" -Ibench/kernel-peers -Itools/digest -c "$src" -o "$obj/kp_$(basename "$src" .c).o"
  kp_objs+=("$obj/kp_$(basename "$src" .c).o")
done
targets=$(bash scripts/fuzz/fuzz-targets.sh)
for target in $targets; do
  extra=()
  [ "$target" != peers ] || extra=("${kp_objs[@]}")
  $CC $flags $harness_inc -Ibench/kernel-peers -Itools/digest -I"$obj" -c "fuzz/fuzz_$target.c" -o "$obj/fuzz_$target.o"
  # A target's further parts: fuzz/<target>/*.c (as the Makefile finds them).
  parts=()
  for src in fuzz/"$target"/*.c; do
    [ -f "$src" ] || continue
    $CC $flags $harness_inc -c "$src" -o "$obj/fuzz_${target}_$(basename "$src" .c).o"
    parts+=("$obj/fuzz_${target}_$(basename "$src" .c).o")
  done
  ${CXX:-$CC} ${CXXFLAGS:-$CFLAGS} "$obj/fuzz_$target.o" "${parts[@]}" "$obj/fuzz_common.o" "$obj/sweep_exact.o" "$obj/slab_exact.o" \
    "${user_objs[@]}" "$obj/libcollide.a" "${extra[@]}" "$obj/libcollide.a" $LIB_FUZZING_ENGINE $(bash scripts/fuzz/fuzz-targets.sh link-flags) \
    $harness_libs -lm -o "$OUT/fuzz_$target"
  rm -f "$OUT/fuzz_${target}_seed_corpus.zip"
  zip -q -j "$OUT/fuzz_${target}_seed_corpus.zip" fuzz/corpus/"$target"/*
  cp fuzz/collide.dict "$OUT/fuzz_$target.dict"
  printf '[libfuzzer]\nmax_len = 8192\n' >"$OUT/fuzz_$target.options"
done
