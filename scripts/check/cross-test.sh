#!/usr/bin/env bash
# Bit for bit on another architecture, under qemu-user:
#   scripts/check/cross-test.sh ARCH      (make cross-test ARCH=...)
# ARCH is a row of scripts/check/cross-targets.list (the one list of targets: its compiler
# triple, emulator, CFLAGS, link and stages; scripts/check/cross_targets.py reads it); wasm32
# is handed to scripts/check/cross-test-wasm.sh. Installs what the row needs
# (install-deps.sh cross-ARCH: the cross gcc with its C library, the sanitizer and C++ runtimes
# where its stages use them, qemu-user); the foreign GMP, Criterion and clang runtimes are
# unpacked into a private sysroot build/sysroot-ARCH (scripts/check/cross-test-sysroot.sh),
# never installed. A static row links -static: nothing of the sysroot is needed at run time.
# Then the row's stages (CROSS_STAGES: a subset, or ci for the list's ci column; default all),
# each timed, with the last run's stage times as an overall ETA; replays and fuzzers two at a
# time (qemu runs one thread), every input through every backend:
#  unit      the unit suite once per backend (arm64: native neon, scalar and the emulated
#            twins); unit:native (CI) only on the ISAs built natively for the target
#  replay    every corpus through gcc's build
#  digest    the golden digest (tools/digest/golden.txt) of gcc's build, its progress shown
#  clang     clang-14 --target=<triple>, linking with the gcc cross toolchain (OUT/clang): the
#            same sources with the same -Werror flags, the corpora and the digest again
#  sanitize  gcc with the sanitizers that work under qemu (OUT/sanitize): the corpora. Each
#            is first tried on a small program under qemu; one that fails there is left out with
#            its error (qemu 7.2: arm64 runs ASan and UBSan, s390x UBSan only; LeakSanitizer
#            cannot start its thread; a Criterion test under ASan stops at start: DESIGN.md 2).
#  fuzz      libFuzzer (clang, OUT/fuzz; UBSan, and ASan where clang's runs under qemu too):
#            each target CROSS_FUZZ_SECONDS (default 10) from a fixed sample of its corpus (at
#            most CROSS_FUZZ_SEEDS inputs, default 64); nothing may be found. A target that
#            cannot run under qemu is named with the reason, and its corpus plus
#            CROSS_FUZZ_GENERATED (default 256) inputs made from it with a fixed seed go through
#            the sanitized replay driver instead.
#  emulation the benchmarks' emulation check must refuse under qemu (check-emulation.sh)
# qemu 7.2 computes s390x's MDEB/MDEBR (float times float into a double) wrongly (3 * 3 = 96);
# clang emits it for (double)a * (double)b, gcc does not. On s390x a probe checks that, and a
# clang-built program containing it is not run under qemu (said so; in fuzz, replayed instead).
# Exits non-zero on any failure or disagreement, with the end of the step's log and its path.
# TEST_LIMIT (seconds per suite run, default 600) bounds a hang; TEST_ARGS passes Criterion
# options (e.g. --filter='mask/*'). CROSS_CFLAGS (formerly CROSS_EXTRA_CFLAGS) is appended to
# the CFLAGS of every build (your own flags, a seeded bug); CROSS_O replaces the output folder
# build/cross-ARCH (OUT, relative to the tree; the sysroot stays build/sysroot-ARCH);
# SIMDE_NATIVE=1 checks that variant (the emulated twins on SIMDe's native mappings, in
# build/cross-ARCH-simde-native; the digest alone): its disagreements are the verdict;
# CROSS_ONLY: see below.
# shellcheck disable=SC2046 # $(goals_in ...) and the like are lists of words
set -euo pipefail
cd "$(dirname "$0")/../.."

arch=${1:-}
python=${PYTHON:-/usr/bin/python3}
row=$("$python" scripts/check/cross_targets.py shell "$arch") || exit 2
eval "$row"
[ "$runner" != node ] || exec bash scripts/check/cross-test-wasm.sh # WebAssembly under Node
qemu=$runner
multiarch=${triple/#i686-/i386-} # Debian's folder names: i386-linux-gnu for i686-linux-gnu
native_isa=$(bash scripts/build/isa-list.sh native "$triple" | xargs -r -n1 basename -s .c | paste -s -d ' ')
variant=
[ "${SIMDE_NATIVE:-0}" = 0 ] || variant=SIMDE_NATIVE=1
stages=$("$python" scripts/check/cross_targets.py stages "$arch" "${CROSS_STAGES:-${variant:+digest}}") ||
  exit 2
[ -n "$stages" ] || stages=$("$python" scripts/check/cross_targets.py stages "$arch" all)
unit_only= # unit:native: the unit suite on the natively built ISAs only
requested=${CROSS_STAGES:-}
[ "$requested" != ci ] || requested=$ci
[[ " ${requested//,/ } " != *" unit:native "* ]] || unit_only=${native_isa:-none}
has_stage() { [[ " $stages " == *" $1 "* ]]; }
out=${CROSS_O:-build/cross-$arch${variant:+-simde-native}}
sysroot=$PWD/build/sysroot-$arch
limit=${TEST_LIMIT:-600}
fuzz_seconds=${CROSS_FUZZ_SECONDS:-10}
fuzz_seeds=${CROSS_FUZZ_SEEDS:-64}
fuzz_generated=${CROSS_FUZZ_GENERATED:-256}
jobs=$(nproc)
started=$SECONDS
notes=() # what was left out and why, repeated before the verdict
fail() {
  echo "cross-test $arch: FAILED: $*" >&2
  exit 1
}
took() { printf '%d:%02d' $(((SECONDS - $1) / 60)) $(((SECONDS - $1) % 60)); }
leave_out() {
  echo "cross-test $arch: $*"
  notes+=("$*")
}
for v in CROSS_FUZZ_SECONDS CROSS_FUZZ_SEEDS CROSS_FUZZ_GENERATED; do
  [[ ${!v:-1} =~ ^[1-9][0-9]*$ ]] || fail "$v=${!v}: must be a whole number of at least 1"
done
[ -n "$note" ] || note=
echo "cross-test $arch: $cpu under $qemu, $triple-gcc${flags:+ $flags}, $link; stages: $stages" \
  "${variant:+(the variant $variant)}"

bash scripts/build/install-deps.sh || fail "the native packages could not be installed"
bash scripts/build/install-deps.sh "cross-$arch" || fail "the cross packages could not be installed"

# The helpers: build, run, spread, each_target, replay_one, digest_one, probe, has_insn,
# runnable, fuzz_one, fallback_one, fallback, stage; make_sysroot.
. scripts/check/cross-test-lib.sh
. scripts/check/cross-test-sysroot.sh
stage_times_load

# The Makefile's own CFLAGS, then the row's and the user's; the sysroot's headers before
# /usr/include (which the cross compilers and clang --target also search: SIMDe comes from
# there). Link flags apart (clang's -Werror refuses them on a compile step): the sysroot's
# libraries for the link and, linked dynamically, as the run path (qemu -L looks them up under
# its prefix first, then as they are).
base_cflags=$(make -s --no-print-directory --eval 'cross-cflags: ; @echo $(CFLAGS)' cross-cflags SIMDE_NATIVE=)
extra_cflags=${CROSS_CFLAGS:-${CROSS_EXTRA_CFLAGS:-}}
cflags="$base_cflags${flags:+ $flags}${extra_cflags:+ $extra_cflags}"
targets=$(bash scripts/fuzz/fuzz-targets.sh)
needs_libs=no
for s in unit replay clang sanitize fuzz; do ! has_stage "$s" || needs_libs=yes; done
[ -n "$deb" ] || needs_libs=no
unit=skipped fuzz=skipped ldflags=
if [ "$needs_libs" = yes ]; then
  make_sysroot
  cflags+=" -isystem $sysroot/usr/include -isystem $sysroot/usr/include/$multiarch"
  ldflags="-L$libdir"
fi
if [ "$link" = static ]; then
  ldflags+="${ldflags:+ }-static"
elif [ "$needs_libs" = yes ]; then
  ldflags+=" -Wl,-rpath-link=$libdir -Wl,--disable-new-dtags"
  ldflags+=" -Wl,-rpath=$libdir:$sysroot/lib/$multiarch" # RPATH: also for the libraries' own needs
fi
plain_ldflags=$ldflags
mkdir -p "$out/probe"
if [ "$unit" = yes ]; then
  # Criterion's workers are started by execve() of the test binary, which needs binfmt_misc to
  # reach qemu; harness/qemu_exec.c sends that execve to qemu instead (COLLIDE_QEMU below): in
  # the links of the builds with the unit suite.
  out_abs=$(cd "$out" && pwd)
  "$triple-gcc" -std=c11 -O2 -Wall -Wextra -Werror -c harness/qemu_exec.c -o "$out/qemu_exec.o" ||
    fail "harness/qemu_exec.c did not compile"
  plain_ldflags="$ldflags -Wl,$out_abs/qemu_exec.o"
fi
clang_cc="clang-14 --target=$triple"
fuzz_cc="$clang_cc -resource-dir=${resource:-}"
# The replays the target's compiler can build: a fuzz target whose exact check needs IEEE quad
# (fuzz/fuzz_circle.c: long double, else __float128) is left out where gcc has neither (armhf).
if has_stage replay && ! printf '#include <float.h>\n#if LDBL_MANT_DIG < 113\n__float128 q;\n#endif\n' |
  "$triple-gcc" -x c -c -o /dev/null - 2> /dev/null; then
  dropped=$(for t in $targets; do ! grep -qs __float128 "fuzz/fuzz_$t.c" fuzz/"$t"/*.c || echo "$t"; done | paste -s -d ' ')
  targets=$(for t in $targets; do [[ " $dropped " == *" $t "* ]] || echo "$t"; done | paste -s -d ' ')
  [ -z "$dropped" ] || leave_out "replays of $dropped left out: their exact checks need IEEE quad (long double or __float128), which $triple-gcc has not"
fi
# CROSS_ONLY="aabb sweep": the gcc build's replays of those corpora only (a quick check: no
# unit suite, no digest, clang, sanitizer or fuzzing step; make cross-selftest uses it).
[ -z "${CROSS_ONLY:-}" ] || targets=$CROSS_ONLY unit=skipped stages=replay
goals_in() { # FOLDER gcc|clang|sanitize: what the stages run from that build (clang: the unit
  local t #   suite too, built as a -Werror check, where the gcc build runs it)
  if [ "$2" != gcc ] || has_stage replay; then
    for t in $targets; do echo "$1/replay_$t"; done
  fi
  if [ "$2" = clang ] || { [ "$2" = gcc ] && has_stage digest; }; then echo "$1/collide-digest"; fi
  [ "$2" = sanitize ] || [ "$unit" != yes ] || echo "$1/collide-tests"
  echo "$1/libcollide.a"
}
make_vars=(${variant:+"$variant"})

# gcc: the library, the unit suite, the replay drivers and the digest that the stages use.
stage build
build "the library$(has_stage unit && echo ', unit suite'), replay drivers and digest with $triple-gcc into $out" \
  "$out.build.log" CC="$triple-gcc" O="$out" CFLAGS="$cflags" LDFLAGS="$plain_ldflags" \
  "${make_vars[@]}" $(goals_in "$out" gcc)
backends=
first=$(set -- $targets && echo "$1")
if [ -e "$out/replay_$first" ]; then
  backends=$(run "$out/replay_$first" --list-backends | paste -s -d ' ') ||
    fail "$out/replay_$first --list-backends did not run under $qemu"
fi
if has_stage unit && [ "$unit" = yes ]; then
  stage unit
  t0=$SECONDS
  unit_backends=$backends
  if [ -n "$unit_only" ]; then
    unit_backends=$(for b in $backends; do [[ " $unit_only " != *" $b "* ]] || echo "$b"; done | paste -s -d ' ')
    leave_out "unit suite on the natively built ISAs only ($unit_backends; CROSS_STAGES=$CROSS_STAGES):" \
      "the other backends' code is the same C as on x86 (the replays and the digest run them all)"
  fi
  set -- $unit_backends
  k=0
  for b in $unit_backends; do
    if [ "$k" -gt 0 ]; then
      eta=" ETA $(((SECONDS - t0) * ($# - k) / k / 60)):$(printf %02d $(((SECONDS - t0) * ($# - k) / k % 60)))"
    else eta=""; fi
    k=$((k + 1))
    echo "== $out/collide-tests under $qemu with COLLIDE_BACKEND=$b (backend $k of $#, $(took $t0) so far$eta)"
    COLLIDE_BACKEND=$b COLLIDE_QEMU="$(command -v "$qemu") -L /usr/$triple" \
      bash scripts/check/run-tests.sh "$limit" "$qemu" -L "/usr/$triple" "$out/collide-tests" \
      ${TEST_ARGS:-} || fail "unit suite on $b"
  done
  echo "cross-test $arch: unit suite on $unit_backends in $(took $t0)"
elif has_stage unit; then
  leave_out "unit suite not run: Debian 12 has no libcriterion-dev for $deb"
fi
if has_stage replay; then
  stage replay
  t0=$SECONDS
  echo "== replays under $qemu, every input through: $backends"
  each_target "$out/replay" replay "$targets" replay_one "$out"
  replays_counted "$out/replay" "$targets"
  echo "cross-test $arch: corpora replayed in $(took $t0)"
fi
if [ -n "${CROSS_ONLY:-}" ]; then
  echo "cross-test $arch: passed in $(took $started), CROSS_ONLY=$CROSS_ONLY: the gcc build's" \
    "replays of those corpora only (backends: $backends)"
  exit 0
fi
if has_stage digest; then
  stage digest
  digest_one "$out" "gcc build"
  [ -n "$backends" ] || backends=$(awk '!/^#/ && $2 != "-" && !s[$2]++ { print $2 }' "$out/digest.txt" | paste -s -d ' ')
fi

# clang: every source above with -Werror, and the corpora and the digest through its code.
if has_stage clang; then
  stage clang
  if [ "$arch" = s390x ]; then
    cat > "$out/probe/mdeb.c" << 'EOC'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  const float a = strtof(argc > 1 ? argv[1] : "3", NULL);
  printf("%g\n", (double)a * (double)a);
  return 0;
}
EOC
    probe mdeb "$out/probe/mdeb.c" "$clang_cc" -O2 || true
    if has_insn 'mdebr?' "$out/probe/mdeb" &&
      [ "$(run "$out/probe/mdeb")" != 9 ]; then
      untrusted='mdebr?'
      echo "cross-test $arch: $qemu computes MDEBR wrongly: (double)3.0f * 3.0f = $(run "$out/probe/mdeb")"
    fi
  fi
  build "the same with $clang_cc into $out/clang" "$out/clang.build.log" CC="$clang_cc" \
    O="$out/clang" CFLAGS="$cflags" LDFLAGS="$plain_ldflags" "${make_vars[@]}" $(goals_in "$out/clang" clang)
  t0=$SECONDS
  runnable "$out/clang/replay_" "replay (clang)" "$targets"
  echo "== replays of the clang build under $qemu, every input through: $backends"
  each_target "$out/clang/replay" "replay (clang)" "$runnable" replay_one "$out/clang"
  replays_counted "$out/clang/replay" "$runnable"
  echo "cross-test $arch: corpora replayed (clang build) in $(took $t0)"
  runnable "$out/clang/collide-" "digest (clang)" digest
  if [ -n "$runnable" ]; then digest_one "$out/clang" "clang build"; fi
fi

# Which sanitizers run under qemu here: UBSan, then ASan for each compiler, then
# LeakSanitizer (ASan's runtime, the same code in gcc's and clang's).
sanitizers='' fuzz_sanitizers='' leak=0
sanitized=$out # the replay drivers of the fuzz stage's fallback
if has_stage sanitize || has_stage fuzz; then
cat > "$out/probe/probe.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int *v = malloc(16 * sizeof *v);
  if (v == NULL) return 2;
  for (int i = 0; i < 16; i++) v[i] = argc * i;
  printf("%s %d\n", argv[0], v[15]);
  free(v);
  return 0;
}
EOF
sanitizers='' fuzz_sanitizers='' leak_cc=''
if probe ubsan "$out/probe/probe.c" "$triple-gcc" -fsanitize=undefined -fno-sanitize-recover=all; then
  sanitizers=undefined,float-divide-by-zero,float-cast-overflow
  fuzz_sanitizers=undefined,float-divide-by-zero
else
  leave_out "UBSan left out: under $qemu: $why"
fi
if ASAN_OPTIONS=detect_leaks=0 probe asan-gcc "$out/probe/probe.c" "$triple-gcc" -fsanitize=address; then
  sanitizers=address${sanitizers:+,$sanitizers} leak_cc=$triple-gcc
else
  leave_out "AddressSanitizer left out (gcc): under $qemu: $why"
fi
if [ "$fuzz" = yes ]; then
  if ASAN_OPTIONS=detect_leaks=0 probe asan-clang "$out/probe/probe.c" "$fuzz_cc" -fsanitize=address; then
    fuzz_sanitizers=address${fuzz_sanitizers:+,$fuzz_sanitizers} leak_cc=${leak_cc:-$fuzz_cc}
  else
    leave_out "AddressSanitizer left out (clang, the fuzzers): under $qemu: $why"
  fi
fi
leak=0
if [ -n "$leak_cc" ]; then
  # (verbose: the reason is only printed then)
  if LSAN_OPTIONS=verbosity=1 probe leak "$out/probe/probe.c" "$leak_cc" -fsanitize=address; then
    leak=1
  else
    leave_out "LeakSanitizer left out: under $qemu: $why"
  fi
fi
export ASAN_OPTIONS=detect_leaks=$leak # (the fuzzers' quarantine setting is fuzz_common.c's)
export UBSAN_OPTIONS=print_stacktrace=1

# The corpora through gcc's sanitized code.
if has_stage sanitize && [ -n "$sanitizers" ]; then
  stage sanitize
  build "the replay drivers with $triple-gcc -fsanitize=$sanitizers into $out/sanitize" \
    "$out/sanitize.build.log" CC="$triple-gcc" O="$out/sanitize" SANITIZE=1 \
    SANITIZERS="$sanitizers" CFLAGS="$cflags" LDFLAGS="$ldflags" "${make_vars[@]}" $(goals_in "$out/sanitize" sanitize)
  t0=$SECONDS
  echo "== sanitized replays under $qemu ($sanitizers), every input through: $backends"
  each_target "$out/sanitize/replay" "sanitized replay" "$targets" replay_one "$out/sanitize"
  replays_counted "$out/sanitize/replay" "$targets"
  echo "cross-test $arch: corpora replayed sanitized in $(took $t0)"
  sanitized=$out/sanitize
fi
if has_stage sanitize && [ "$unit" = yes ]; then
  printf '#include <criterion/criterion.h>\nTest(probe, runs) { cr_assert(1); }\n' \
    > "$out/probe/criterion.c"
  # shellcheck disable=SC2086 # the flags are words
  if [ "${sanitizers#address}" != "$sanitizers" ] &&
    ! ASAN_OPTIONS=detect_leaks=0 COLLIDE_QEMU="$(command -v "$qemu") -L /usr/$triple" \
      probe criterion "$out/probe/criterion.c" "$triple-gcc" -isystem "$sysroot/usr/include" \
      -isystem "$sysroot/usr/include/$triple" -fsanitize=address $plain_ldflags -lcriterion; then
    leave_out "unit suite not run sanitized: under $qemu a Criterion test with ASan stops at" \
      "start: $why (its arena lies above 2^45, ASan there shadows 39 bits); the sanitized" \
      "replays ran every backend"
  else
    leave_out "unit suite not run sanitized (a build and six runs more); the sanitized replays" \
      "ran every backend"
  fi
fi

fi

[ "$fuzz" != yes ] || [ -n "$fuzz_sanitizers" ] ||
  fuzz="fuzzing not run: neither ASan nor UBSan runs under $qemu here"
if [ "$fuzz" = yes ]; then
  stage fuzz
  build "the fuzzers with $clang_cc -fsanitize=fuzzer,$fuzz_sanitizers into $out/fuzz" \
    "$out/fuzz.build.log" CC="$fuzz_cc" O="$out/fuzz" SANITIZE=fuzz \
    FUZZ_SANITIZERS="$fuzz_sanitizers" CFLAGS="$cflags" LDFLAGS="$ldflags -L$resource/link" \
    $(for t in $targets; do echo "$out/fuzz/fuzz_$t"; done)
  t0=$SECONDS
  runnable "$out/fuzz/fuzz_" fuzz "$targets"
  echo "== fuzzing under $qemu, ${fuzz_seconds}s per target; every input through: $backends"
  spread "$out/fuzz-run" "$runnable" fuzz_one
  for t in $targets; do
    if [[ " $runnable " != *" $t "* ]]; then
      fallback "$t"
      continue
    fi
    log=$out/fuzz-run/$t.log
    case $(cat "$out/fuzz-run/$t.rc") in
      0)
        stats=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 |
          sed -nE 's/^#([0-9]+).*cov: ([0-9]+).* exec\/s: ([0-9]+).*/\1 execs (\3\/s), cov \2/p')
        echo "fuzz $t: nothing found; ${stats:-no status line}; from $(cat "$out/fuzz-run/$t/seeds.txt")" \
          "corpus inputs"
        ;;
      3)
        crash=$(find "$out/fuzz-run/$t/artifacts" -type f -print -quit)
        tail -n 40 "$log" >&2
        echo "fuzz $t: the failing input: $crash; replay it:" >&2
        echo "  $qemu -L /usr/$triple $out/fuzz/fuzz_$t -runs=1 $crash" >&2
        echo "  on this machine's CPU: make fuzz-repro FUZZ_TARGETS=$t INPUT=$crash" >&2
        fail "fuzz $t found a failing input under $qemu (log: $log)"
        ;;
      4)
        why=$(grep -m1 -E 'ERROR|[Ee]rror|fatal|[Cc]ould not' "$log" || tail -n 1 "$log")
        why=$(sed -E 's/^==[0-9]+==//' <<< "${why:-exit status $(cat "$out/fuzz-run/$t/rc"), no output}")
        leave_out "fuzz $t did not start under $qemu: $why; its corpus and $fuzz_generated" \
          "inputs made from it are replayed instead"
        fallback "$t"
        ;;
      5)
        tail -n 40 "$log" >&2
        fail "fuzz $t did not stop within $((fuzz_seconds * 3 + 120)) s under $qemu (log: $log)"
        ;;
      *)
        tail -n 40 "$log" >&2
        fail "fuzz $t: the fuzzer failed under $qemu without a failing input (log: $log)"
        ;;
    esac
  done
  echo "cross-test $arch: fuzzed in $(took $t0)"
elif has_stage fuzz; then
  leave_out "$fuzz"
fi

# No timings under emulation: the benchmarks' emulation check, built for this target, must
# refuse under qemu (scripts/check/check-emulation.sh).
if has_stage emulation; then
  stage emulation
  t0=$SECONDS
  bash scripts/check/check-emulation.sh "$arch" > "$out/check-emulation.log" 2>&1 ||
    { tail -n 20 "$out/check-emulation.log" >&2; fail "check-emulation (log: $out/check-emulation.log)"; }
  echo "cross-test $arch: the benchmarks refuse to run under $qemu (checked in $(took $t0))"
fi
stage done

[ -z "$note" ] || leave_out "$note"
left=$("$python" scripts/check/cross_targets.py stages "$arch" all)
for s in $left; do has_stage "$s" || leave_out "stage $s not run (CROSS_STAGES=${CROSS_STAGES:-})"; done
for n in "${notes[@]}"; do echo "cross-test $arch: note: $n"; done
echo "cross-test $arch: passed in $(took $started) (stages: $stages${variant:+; the variant $variant};" \
  "backends: $backends)"
