#!/usr/bin/env bash
# Bit for bit on another architecture, under qemu-user:
#   scripts/check/cross-test.sh ARCH      (ARCH: arm64 or s390x; make cross-test ARCH=...)
# Installs what it needs (install-deps.sh cross-ARCH: the cross gcc with its C library and
# sanitizer runtimes, qemu-user; the foreign GMP, Criterion and clang runtimes (libFuzzer,
# sanitizers) with their dependencies are unpacked into a private sysroot build/sysroot-ARCH,
# never installed: their -dev packages conflict with the native ones). Then, each step timed,
# replays and fuzzers two at a time (qemu runs one thread), every input through every backend:
#  1. gcc (build/cross-ARCH): the unit suite once per backend the target supports (arm64:
#     native neon, scalar and the emulated twins; s390x: scalar and the twins), the corpora.
#  2. clang-14 --target=<triple>, linking with the gcc cross toolchain (OUT/clang): the same
#     sources with the same -Werror flags, and the corpora again through that code.
#  3. gcc with the sanitizers that work under qemu (OUT/sanitize): the corpora. Each sanitizer
#     is first tried on a small program under qemu, and one that fails there is left out with
#     the error it printed. Found with Debian 12's qemu 7.2 on x86-64: arm64 runs ASan and
#     UBSan, LeakSanitizer cannot start its tracer thread (clone: errno 22); s390x runs UBSan
#     only, ASan cannot reserve its shadow (2^49 bytes) in qemu's address space. The unit suite
#     is not run sanitized: with ASan a Criterion test stops at start (a probe shows it; its
#     arena sits at fixed addresses above 2^45, ASan under qemu shadows 39 bits).
#  4. libFuzzer (clang, OUT/fuzz; UBSan, and ASan where clang's runs under qemu too): each
#     target CROSS_FUZZ_SECONDS (default 10) from a fixed sample of its corpus (at most
#     CROSS_FUZZ_SEEDS inputs, default 64: the whole corpora ran in 1-3); nothing may be found.
#     A target that cannot run under qemu is named with the reason, and its corpus plus
#     CROSS_FUZZ_GENERATED (default 256) inputs made from it with a fixed seed go through the
#     sanitized replay driver instead.
# qemu 7.2 computes s390x's MDEB/MDEBR (float times float into a double) wrongly (3 * 3 = 96);
# clang emits it for (double)a * (double)b, gcc does not. On s390x a probe checks that, and a
# clang-built program containing it is not run under qemu (said so; in 4, replayed instead).
# Exits non-zero on any failure or disagreement, with the end of the step's log and its path.
# Debian 12 has no Criterion for s390x (its BoxFort has no s390x port): the unit suite is left
# out there. TEST_LIMIT (seconds per suite run, default 600) bounds a hang; TEST_ARGS passes
# Criterion options (e.g. --filter='mask/*'). CROSS_EXTRA_CFLAGS is appended to the CFLAGS of
# every build above (a seeded bug, say); CROSS_O replaces the output folder build/cross-ARCH
# (OUT, relative to the tree; the sysroot stays build/sysroot-ARCH); CROSS_ONLY: see below.
# shellcheck disable=SC2046 # $(goals_in ...) and the like are lists of words
set -euo pipefail
cd "$(dirname "$0")/../.."

arch=${1:-}
case "$arch" in
  arm64) triple=aarch64-linux-gnu qemu=qemu-aarch64 ;;
  s390x) triple=s390x-linux-gnu qemu=qemu-s390x ;;
  wasm32) exec bash scripts/check/cross-test-wasm.sh ;; # WebAssembly under Node: its own script
  *)
    echo "usage: scripts/check/cross-test.sh arm64|s390x|wasm32" >&2
    exit 2
    ;;
esac
out=${CROSS_O:-build/cross-$arch}
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

bash scripts/build/install-deps.sh || fail "the native packages could not be installed"
bash scripts/build/install-deps.sh "cross-$arch" || fail "the cross packages could not be installed"

# The sysroot: the runtime closure of the libraries we link, and their -dev packages for the
# headers and link names. The C library and libgcc come with the cross compiler.
dev=(libgmp-dev)
runtime=(libgmp10)
if apt-cache show "libcriterion-dev:$arch" > /dev/null 2>&1; then
  dev+=(libcriterion-dev) runtime+=(libcriterion3) unit=yes
else
  unit=no
fi
if apt-cache show "libclang-rt-14-dev:$arch" > /dev/null 2>&1; then
  dev+=(libclang-rt-14-dev) fuzz=yes
else
  fuzz="fuzzing not run: Debian 12 has no libclang-rt-14-dev (libFuzzer) for $arch"
fi
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "${runtime[@]/%/:$arch}" | sed -n "s/^\([a-z0-9][^ ]*\):$arch\$/\1/p" |
  grep -vxE 'libc6|libgcc-s1|gcc-12-base' | sort -u) ||
  fail "apt-cache cannot resolve ${runtime[*]} for $arch"
wanted=$(printf '%s\n' "${dev[@]}" $closure | sort -u | tr '\n' ' ')
if [ "$(cat "$sysroot/.packages" 2> /dev/null || true)" != "$wanted" ]; then
  echo "== cross-test $arch: sysroot $sysroot: $wanted"
  rm -rf "$sysroot" "$out/debs"
  mkdir -p "$sysroot" "$out/debs"
  # shellcheck disable=SC2086 # one word per package
  (cd "$out/debs" && apt-get download -q $(printf "%s:$arch " $wanted) > download.log 2>&1) ||
    { cat "$out/debs/download.log" >&2; fail "apt-get download of the $arch libraries"; }
  for deb in "$out"/debs/*.deb; do dpkg -x "$deb" "$sysroot" || fail "dpkg -x $deb"; done
  echo "$wanted" > "$sysroot/.packages"
fi
libdir=$sysroot/usr/lib/$triple
[ -e "$libdir/libgmp.so" ] || fail "$libdir/libgmp.so missing from the sysroot"
# clang's resource folder for this target: the host's headers, the target's runtimes from the
# sysroot, and a link name for the C++ runtime libFuzzer needs (the cross package ships only
# libstdc++.so.6).
resource=$sysroot/clang-resource
if [ "$fuzz" = yes ]; then
  version_dir=$(clang-14 -print-resource-dir)
  rm -rf "$resource"
  mkdir -p "$resource/lib" "$resource/link"
  ln -s "$version_dir/include" "$resource/include"
  ln -s "$version_dir/share" "$resource/share"
  ln -s "$sysroot/usr/lib/llvm-14/lib/clang/$(basename "$version_dir")/lib/linux" "$resource/lib/linux"
  ln -s "/usr/$triple/lib/libstdc++.so.6" "$resource/link/libstdc++.so"
  [ -e "$resource/lib/linux/libclang_rt.fuzzer-${triple%%-*}.a" ] ||
    fuzz="fuzzing not run: libclang-rt-14-dev:$arch has no libFuzzer for $triple"
fi

# The Makefile's own CFLAGS, plus the sysroot: its headers before /usr/include (which the
# cross compilers and clang --target also search: SIMDe comes from there). Link flags apart
# (clang's -Werror refuses them on a compile step): the sysroot's libraries for the link and
# as the run path (qemu -L looks them up under its prefix first, then as they are).
base_cflags=$(make -s --no-print-directory --eval 'cross-cflags: ; @echo $(CFLAGS)' cross-cflags)
cflags="$base_cflags -isystem $sysroot/usr/include -isystem $sysroot/usr/include/$triple"
cflags+=${CROSS_EXTRA_CFLAGS:+ $CROSS_EXTRA_CFLAGS}
ldflags="-L$libdir -Wl,-rpath-link=$libdir -Wl,--disable-new-dtags"
ldflags+=" -Wl,-rpath=$libdir:$sysroot/lib/$triple" # RPATH: also for the libraries' own needs
# Criterion's workers are started by execve() of the test binary, which needs binfmt_misc to
# reach qemu; harness/qemu_exec.c sends that execve to qemu instead (COLLIDE_QEMU below): in
# the links of the builds with the unit suite.
mkdir -p "$out/probe"
out_abs=$(cd "$out" && pwd)
"$triple-gcc" -std=c11 -O2 -Wall -Wextra -Werror -c harness/qemu_exec.c -o "$out/qemu_exec.o" ||
  fail "harness/qemu_exec.c did not compile"
plain_ldflags="$ldflags -Wl,$out_abs/qemu_exec.o"
clang_cc="clang-14 --target=$triple"
fuzz_cc="$clang_cc -resource-dir=$resource"
targets=$(bash scripts/fuzz/fuzz-targets.sh)
# CROSS_ONLY="aabb sweep": step 1's replays of those corpora only (a quick check: no unit suite,
# no clang, sanitizer or fuzzing step; make cross-selftest uses it).
[ -z "${CROSS_ONLY:-}" ] || targets=$CROSS_ONLY unit=skipped
goals_in() { # FOLDER [unit]: the replay drivers, the digest (and the unit suite) built into FOLDER
  local t
  for t in $targets; do echo "$1/replay_$t"; done
  [ -n "${CROSS_ONLY:-}" ] || echo "$1/collide-digest"
  [ "${2:-}" != unit ] || [ "$unit" != yes ] || echo "$1/collide-tests"
}

# The helpers: build, run, spread, each_target, replay_one, probe, has_insn, runnable,
# fuzz_one, fallback_one, fallback.
. scripts/check/cross-test-lib.sh

# 1. gcc: the unit suite on every backend, the corpora.
build "the library, unit suite and replay drivers with $triple-gcc into $out" "$out.build.log" \
  CC="$triple-gcc" O="$out" CFLAGS="$cflags" LDFLAGS="$plain_ldflags" lib $(goals_in "$out" unit)
first=$(set -- $targets && echo "$1")
backends=$(run "$out/replay_$first" --list-backends | paste -s -d ' ') ||
  fail "$out/replay_$first --list-backends did not run under $qemu"
if [ "$unit" = yes ]; then
  t0=$SECONDS
  set -- $backends
  k=0
  for b in $backends; do
    if [ "$k" -gt 0 ]; then
      eta=" ETA $(((SECONDS - t0) * ($# - k) / k / 60)):$(printf %02d $(((SECONDS - t0) * ($# - k) / k % 60)))"
    else eta=""; fi
    k=$((k + 1))
    echo "== $out/collide-tests under $qemu with COLLIDE_BACKEND=$b (backend $k of $#, $(took $t0) so far$eta)"
    COLLIDE_BACKEND=$b COLLIDE_QEMU="$(command -v "$qemu") -L /usr/$triple" \
      bash scripts/check/run-tests.sh "$limit" "$qemu" -L "/usr/$triple" "$out/collide-tests" \
      ${TEST_ARGS:-} || fail "unit suite on $b"
  done
  echo "cross-test $arch: unit suite on $backends in $(took $t0)"
elif [ "$unit" = no ]; then
  leave_out "unit suite not run: Debian 12 has no libcriterion-dev for $arch"
fi
t0=$SECONDS
echo "== replays under $qemu, every input through: $backends"
each_target "$out/replay" replay "$targets" replay_one "$out"
echo "cross-test $arch: corpora replayed in $(took $t0)"
[ -n "${CROSS_ONLY:-}" ] || digest_one "$out" "gcc build"
if [ -n "${CROSS_ONLY:-}" ]; then
  echo "cross-test $arch: passed in $(took $started), CROSS_ONLY=$CROSS_ONLY: the gcc build's" \
    "replays of those corpora only (backends: $backends)"
  exit 0
fi

# 2. clang: every source above with -Werror, and the corpora through its code.
if [ "$arch" = s390x ]; then
  cat > "$out/probe/mdeb.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  const float a = strtof(argc > 1 ? argv[1] : "3", NULL);
  printf("%g\n", (double)a * (double)a);
  return 0;
}
EOF
  probe mdeb "$out/probe/mdeb.c" "$clang_cc" -O2 || true
  if has_insn 'mdebr?' "$out/probe/mdeb" &&
    [ "$(run "$out/probe/mdeb")" != 9 ]; then
    untrusted='mdebr?'
    echo "cross-test $arch: $qemu computes MDEBR wrongly: (double)3.0f * 3.0f = $(run "$out/probe/mdeb")"
  fi
fi
build "the same with $clang_cc into $out/clang" "$out/clang.build.log" CC="$clang_cc" \
  O="$out/clang" CFLAGS="$cflags" LDFLAGS="$plain_ldflags" lib $(goals_in "$out/clang" unit)
t0=$SECONDS
runnable "$out/clang/replay_" "replay (clang)" "$targets"
echo "== replays of the clang build under $qemu, every input through: $backends"
each_target "$out/clang/replay" "replay (clang)" "$runnable" replay_one "$out/clang"
echo "cross-test $arch: corpora replayed (clang build) in $(took $t0)"
runnable "$out/clang/collide-" "digest (clang)" digest
if [ -n "$runnable" ]; then digest_one "$out/clang" "clang build"; fi

# Which sanitizers run under qemu here: UBSan, then ASan for each compiler, then
# LeakSanitizer (ASan's runtime, the same code in gcc's and clang's).
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

# 3. The corpora through gcc's sanitized code.
sanitized=$out # the replay drivers of step 4's fallback
if [ -n "$sanitizers" ]; then
  build "the replay drivers with $triple-gcc -fsanitize=$sanitizers into $out/sanitize" \
    "$out/sanitize.build.log" CC="$triple-gcc" O="$out/sanitize" SANITIZE=1 \
    SANITIZERS="$sanitizers" CFLAGS="$cflags" LDFLAGS="$ldflags" $(goals_in "$out/sanitize")
  t0=$SECONDS
  echo "== sanitized replays under $qemu ($sanitizers), every input through: $backends"
  each_target "$out/sanitize/replay" "sanitized replay" "$targets" replay_one "$out/sanitize"
  echo "cross-test $arch: corpora replayed sanitized in $(took $t0)"
  sanitized=$out/sanitize
fi
if [ "$unit" = yes ]; then
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

[ "$fuzz" != yes ] || [ -n "$fuzz_sanitizers" ] ||
  fuzz="fuzzing not run: neither ASan nor UBSan runs under $qemu here"
if [ "$fuzz" = yes ]; then
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
else
  leave_out "$fuzz"
fi

# 5. No timings under emulation: the benchmarks' emulation check, built for this target, must
# refuse under qemu (scripts/check/check-emulation.sh).
t0=$SECONDS
bash scripts/check/check-emulation.sh "$arch" > "$out/check-emulation.log" 2>&1 ||
  { tail -n 20 "$out/check-emulation.log" >&2; fail "check-emulation (log: $out/check-emulation.log)"; }
echo "cross-test $arch: the benchmarks refuse to run under $qemu (checked in $(took $t0))"

for n in "${notes[@]}"; do echo "cross-test $arch: note: $n"; done
echo "cross-test $arch: passed in $(took $started) (backends: $backends)"
