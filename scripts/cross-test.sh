#!/usr/bin/env bash
# Bit for bit on another architecture, under qemu-user:
#   scripts/cross-test.sh ARCH      (ARCH: arm64 or s390x; make cross-test ARCH=...)
# Installs what it needs (the cross compiler, its C library, qemu-user: install-deps.sh
# cross-ARCH; the foreign libraries, GMP and Criterion with theirs, unpacked into a private
# sysroot build/sysroot-ARCH, never installed: their -dev packages conflict with the native
# ones), cross-builds the library, the unit suite and the replay drivers into build/cross-ARCH,
# and runs them under qemu-user: the unit suite once per backend the target supports (arm64:
# native neon, scalar and the emulated twins; s390x: scalar and the twins), every fuzz corpus
# through every backend. Exits non-zero on any failure or disagreement.
# Debian 12 has no Criterion for s390x (its BoxFort has no s390x port): there the unit suite
# is left out, said so, and the corpora are the check. TEST_LIMIT (seconds per suite run,
# default 600) bounds a hang; TEST_ARGS passes Criterion options (e.g. --filter='mask/*').
# CROSS_O: the build folder [build/cross-ARCH, relative to the tree]; CROSS_EXTRA_CFLAGS: added
# to the compile flags; CROSS_ONLY="aabb sweep": only those corpora, no unit suite (quick).
# Sanitizers are not run here (not tried under qemu-user yet).
set -euo pipefail
cd "$(dirname "$0")/.."

arch=${1:-}
case "$arch" in
  arm64) triple=aarch64-linux-gnu qemu=qemu-aarch64 ;;
  s390x) triple=s390x-linux-gnu qemu=qemu-s390x ;;
  *)
    echo "usage: scripts/cross-test.sh arm64|s390x" >&2
    exit 2
    ;;
esac
out=${CROSS_O:-build/cross-$arch}
sysroot=$PWD/build/sysroot-$arch
limit=${TEST_LIMIT:-600}
started=$SECONDS
fail() {
  echo "cross-test $arch: FAILED: $*" >&2
  exit 1
}
took() { printf '%d:%02d' $(((SECONDS - $1) / 60)) $(((SECONDS - $1) % 60)); }

bash scripts/install-deps.sh || fail "the native packages could not be installed"
bash scripts/install-deps.sh "cross-$arch" || fail "the cross packages could not be installed"

# The sysroot: the runtime closure of the libraries we link, and their -dev packages for the
# headers and link names. The C library and libgcc come with the cross compiler.
dev=(libgmp-dev)
runtime=(libgmp10)
if apt-cache show "libcriterion-dev:$arch" > /dev/null 2>&1; then
  dev+=(libcriterion-dev) runtime+=(libcriterion3) unit=yes
else
  unit=no
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

# The Makefile's own CFLAGS, plus the sysroot: its headers before /usr/include (which the
# Debian cross compilers also search: SIMDe comes from there), its libraries for the link and
# as the run path (qemu -L looks them up under its prefix first, then as they are).
base_cflags=$(make -s --no-print-directory --eval 'cross-cflags: ; @echo $(CFLAGS)' cross-cflags)
cflags="$base_cflags -isystem $sysroot/usr/include -isystem $sysroot/usr/include/$triple"
cflags+=" -L$libdir -Wl,-rpath-link=$libdir -Wl,--disable-new-dtags"
cflags+=" -Wl,-rpath=$libdir:$sysroot/lib/$triple" # RPATH: also for the libraries' own needs
cflags+=" ${CROSS_EXTRA_CFLAGS:-}"
# Criterion's workers are started by execve() of the test binary, which needs binfmt_misc to
# reach qemu; harness/qemu_exec.c sends that execve to qemu instead (COLLIDE_QEMU below). It
# goes into every link of this build as a linker input (-Wl: compile steps ignore it).
mkdir -p "$out"
"$triple-gcc" -std=c11 -O2 -Wall -Wextra -Werror -c harness/qemu_exec.c -o "$out/qemu_exec.o" ||
  fail "harness/qemu_exec.c did not compile"
cflags+=" -Wl,$PWD/$out/qemu_exec.o"
targets=$(bash scripts/fuzz-targets.sh)
[ -z "${CROSS_ONLY:-}" ] || targets=$CROSS_ONLY unit=skipped
goals=(lib)
for t in $targets; do goals+=("$out/replay_$t"); done
[ "$unit" != yes ] || goals+=("$out/collide-tests")
echo "== cross-test $arch: building with $triple-gcc into $out"
t0=$SECONDS
make -j"$(nproc)" --no-print-directory CC="$triple-gcc" O="$out" CFLAGS="$cflags" "${goals[@]}" \
  > "$out.build.log" 2>&1 || { tail -n 30 "$out.build.log" >&2; fail "the build (log: $out.build.log)"; }
echo "cross-test $arch: built in $(took $t0) (log: $out.build.log)"

run() { "$qemu" -L "/usr/$triple" "$@"; }
first=$(set -- $targets && echo "$1")
backends=$(run "$out/replay_$first" --list-backends | paste -s -d ' ') ||
  fail "$out/replay_$first --list-backends did not run under $qemu"

if [ "$unit" = yes ]; then
  t0=$SECONDS
  for b in $backends; do
    echo "== $out/collide-tests under $qemu with COLLIDE_BACKEND=$b"
    COLLIDE_BACKEND=$b COLLIDE_QEMU="$(command -v "$qemu") -L /usr/$triple" \
      bash scripts/run-tests.sh "$limit" "$qemu" -L "/usr/$triple" "$out/collide-tests" \
      ${TEST_ARGS:-} || fail "unit suite on $b"
  done
  echo "cross-test $arch: unit suite on $backends in $(took $t0)"
elif [ "$unit" = no ]; then
  echo "cross-test $arch: unit suite not run: Debian 12 has no libcriterion-dev for $arch"
else
  echo "cross-test $arch: unit suite not run (CROSS_ONLY=$CROSS_ONLY)"
fi

t0=$SECONDS
echo "== replays under $qemu, every input through: $backends"
for t in $targets; do
  run "$out/replay_$t" "fuzz/corpus/$t" > "$out/replay_$t.log" 2>&1 ||
    { tail -n 40 "$out/replay_$t.log" >&2; fail "replay $t (log: $out/replay_$t.log)"; }
  tail -n 1 "$out/replay_$t.log"
done
echo "cross-test $arch: corpora replayed in $(took $t0)"
echo "cross-test $arch: passed in $(took $started) (backends: $backends${CROSS_ONLY:+; only the corpora of: $CROSS_ONLY})"
