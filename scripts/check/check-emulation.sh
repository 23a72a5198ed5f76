#!/usr/bin/env bash
# No timings under emulation: checks that the benchmarks' emulation detection
# (bench/bench_emulation.c) refuses under qemu-user and stays silent natively.
#   scripts/check/check-emulation.sh ARCH [BENCH]     (make check-emulation [ARCH=...])
# ARCH: arm64, s390x or all (both). Builds bench_emulation.c with a small main
# (bench/check/emulation_check.c) natively and with ARCH's cross compiler into
# build/check-emulation, then checks:
# - natively: no evidence, exit 0 (a refusal on a real machine would be the worse bug);
# - the cross builds under qemu-ARCH: exit 3, the message naming the binary's architecture and
#   this host's, both pieces of evidence (the emulator as the kernel's executable, and
#   /proc/cpuinfo of another architecture family);
# - the native build under qemu-user for this host's own architecture: the executable's evidence
#   alone suffices;
# - scripts/bench/bench.sh given a foreign binary: exit 3 with the message, before anything runs or is
#   written;
# - BENCH, a native collide-bench (optional): it runs natively (--collide_machine_name) and
#   refuses under qemu-user with exit 3.
# Installs the cross compilers and qemu-user like cross-test.sh (install-deps.sh cross-ARCH).
set -euo pipefail
cd "$(dirname "$0")/../.."

case "${1:-}" in
  arm64 | s390x) arches=("$1") ;;
  all) arches=(arm64 s390x) ;;
  *)
    echo "usage: scripts/check/check-emulation.sh arm64|s390x|all [collide-bench]" >&2
    exit 2
    ;;
esac
bench=${2:-}
out=build/check-emulation
failures=0
fail() {
  echo "check-emulation: FAILED: $*" >&2
  failures=$((failures + 1))
}
ok() { echo "check-emulation: ok: $*"; }

for a in "${arches[@]}"; do
  bash scripts/build/install-deps.sh "cross-$a" || { echo "check-emulation: cross-$a packages missing" >&2; exit 1; }
done

case $(uname -m) in
  x86_64) host=x86-64 ;;
  i?86) host=x86 ;;
  aarch64) host=aarch64 ;;
  s390x) host=s390x ;;
  *) host=$(uname -m) ;;
esac
family() {
  case $1 in
    x86*) echo x86 ;;
    aarch64 | arm*) echo arm ;;
    s390*) echo s390 ;;
    *) echo "$1" ;;
  esac
}
an() { case $1 in [aeiouxAEIOUX]* | s390*) echo an ;; *) echo a ;; esac }

mkdir -p "$out"
flags=(-std=c11 -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Ibench)
src=(bench/bench_emulation.c bench/check/emulation_check.c)

# run NAME EXPECTED-STATUS COMMAND...: its stdout in $out/NAME.out, stderr in $out/NAME.err.
status=0
run() {
  local name=$1
  shift
  status=0
  "$@" > "$out/$name.out" 2> "$out/$name.err" || status=$?
}

gcc "${flags[@]}" "${src[@]}" -o "$out/check-native" || { echo "check-emulation: native build failed" >&2; exit 1; }
run native "$out/check-native"
if [ "$status" -eq 0 ] && [ "$(cat "$out/native.out")" = none ]; then
  ok "natively ($host): no evidence, exit 0"
else
  fail "natively ($host): exit $status, evidence '$(cat "$out/native.out")': $(cat "$out/native.err")"
fi

# expect_refusal NAME BINARY-ARCH EVIDENCE...: exit 3, each evidence word, the message.
expect_refusal() {
  local name=$1 arch=$2 word msg
  shift 2
  msg="this is $(an "$arch") $arch binary running under emulation on $(an "$host") $host host ("
  if [ "$status" -ne 3 ]; then
    fail "$name: exit $status, not 3: $(cat "$out/$name.out" "$out/$name.err")"
    return
  fi
  for word in "$@"; do
    grep -qw -- "$word" "$out/$name.out" || fail "$name: no '$word' evidence (found: $(cat "$out/$name.out"))"
  done
  grep -qF -- "$msg" "$out/$name.err" || fail "$name: the message lacks '$msg': $(cat "$out/$name.err")"
  ok "$name: refused (exit 3, evidence: $(cat "$out/$name.out")): $(cat "$out/$name.err")"
}

for a in "${arches[@]}"; do
  case $a in
    arm64) triple=aarch64-linux-gnu qemu=qemu-aarch64 arch=aarch64 ;;
    s390x) triple=s390x-linux-gnu qemu=qemu-s390x arch=s390x ;;
  esac
  "$triple-gcc" "${flags[@]}" "${src[@]}" -o "$out/check-$a" ||
    { fail "$triple-gcc could not build the check"; continue; }
  run "qemu-$a" "$qemu" -L "/usr/$triple" "$out/check-$a"
  if [ "$(family "$arch")" != "$(family "$host")" ]; then
    expect_refusal "qemu-$a" "$arch" exe cpuinfo
  else
    expect_refusal "qemu-$a" "$arch" exe
  fi
  rm -rf "$out/results"
  run "bench-sh-$a" env COLLIDE_RESULTS="$out/results" bash scripts/bench/bench.sh "$out/check-$a" quick
  msg="this is $(an "$arch") $arch binary ($out/check-$a) that would run under emulation on $(an "$host") $host host"
  if [ "$status" -ne 3 ] || ! grep -qF -- "$msg" "$out/bench-sh-$a.err"; then
    fail "scripts/bench/bench.sh with an $arch binary: exit $status, not 3 with '$msg': $(cat "$out/bench-sh-$a.out" "$out/bench-sh-$a.err")"
  elif [ -e "$out/results" ]; then
    fail "scripts/bench/bench.sh with an $arch binary refused but created $out/results"
  else
    ok "scripts/bench/bench.sh refused the $arch binary: $(cat "$out/bench-sh-$a.err")"
  fi
done

# Emulation of this host's own architecture: only the executable's evidence can tell.
self_qemu=qemu-$(uname -m)
if command -v "$self_qemu" > /dev/null; then
  under_self=" and under $self_qemu"
  run "qemu-$host" "$self_qemu" "$out/check-native"
  expect_refusal "qemu-$host" "$host" exe
  if [ -n "$bench" ]; then
    run bench-native "$bench" --collide_machine_name
    if [ "$status" -eq 0 ]; then
      ok "$bench runs natively (machine $(cat "$out/bench-native.out"))"
    else
      fail "$bench --collide_machine_name natively: exit $status: $(cat "$out/bench-native.err")"
    fi
    run bench-qemu "$self_qemu" "$bench" --collide_machine_name
    msg="collide-bench: this is $(an "$host") $host binary running under emulation on"
    if [ "$status" -eq 3 ] && grep -qF -- "$msg" "$out/bench-qemu.err"; then
      ok "$bench under $self_qemu: refused (exit 3): $(cat "$out/bench-qemu.err")"
    else
      fail "$bench under $self_qemu: exit $status, not 3 with '$msg': $(cat "$out/bench-qemu.out" "$out/bench-qemu.err")"
    fi
  fi
else
  echo "check-emulation: $self_qemu is not installed: the native build under emulation not checked"
  [ -z "$bench" ] || echo "check-emulation: nor $bench"
fi

if [ "$failures" -ne 0 ]; then
  echo "check-emulation: $failures check(s) FAILED" >&2
  exit 1
fi
echo "check-emulation: passed (${arches[*]} under qemu-user; $host natively${under_self:-})"
