#!/usr/bin/env bash
# Bit for bit on WebAssembly: `make cross-test ARCH=wasm32` (scripts/check/cross-test.sh hands wasm32
# to this script). Builds the library and collide-digest with clang-14 --target=wasm32-wasi
# against Debian's wasi-libc (install-deps.sh cross-wasm32), twice: plain, and with
# -msimd128 (clang lowers SIMDe's portable vectors to WebAssembly SIMD), and runs each digest
# under Node's WASI (scripts/check/wasi-run.mjs) against tools/digest/golden.txt: every kernel on
# every backend wasm32 runs (scalar and the emulated twins; the native ISAs are listed
# unsupported). On a difference, this machine's build is digested too and the first input whose
# answers differ is shown from both.
# Not run on wasm32: the unit suite (Criterion, fork and guard pages have no WASI port) and the
# corpus replays (the sweep oracle needs GMP); wasi-libc has no threads, so collide's pools of
# two threads or more return COL_ERR_TASKS there and the digest's parallel calls run their
# tasks in turn, as everywhere. CROSS_O replaces the output folder build/cross-wasm32 (or
# build/cross-wasm32-simde-native for SIMDE_NATIVE=1, the variant whose emulated twins SIMDe
# maps to WebAssembly SIMD in the -msimd128 build); CROSS_CFLAGS: your own flags on top.
set -euo pipefail
cd "$(dirname "$0")/../.."
variant=
[ "${SIMDE_NATIVE:-0}" = 0 ] || variant=SIMDE_NATIVE=1
out=${CROSS_O:-build/cross-wasm32${variant:+-simde-native}}
started=$SECONDS
took() { printf '%d:%02d' $(((SECONDS - $1) / 60)) $(((SECONDS - $1) % 60)); }
fail() {
  echo "cross-test wasm32: FAILED: $*" >&2
  exit 1
}

bash scripts/build/install-deps.sh || fail "the native packages could not be installed"
bash scripts/build/install-deps.sh cross-wasm32 || fail "the wasm32 packages could not be installed"
node=$(command -v node) || fail "no node on PATH after install-deps.sh cross-wasm32"

# clang also searches /usr/include after wasi-libc's headers, where glibc's would fill any gap
# silently: only wasi-libc's, plus a folder of our own with SIMDe and xxHash (header-only).
include=$out/include
mkdir -p "$include"
ln -sfn /usr/include/simde "$include/simde"
ln -sf /usr/include/xxhash.h "$include/xxhash.h"
base_cflags=$(make -s --no-print-directory --eval 'cross-cflags: ; @echo $(CFLAGS)' cross-cflags SIMDE_NATIVE=)
cflags="$base_cflags -nostdlibinc -isystem /usr/include/wasm32-wasi -isystem $PWD/$include"
cflags+=" -Wno-unused-command-line-argument" # -nostdlibinc on the link steps
extra_cflags=${CROSS_CFLAGS:-${CROSS_EXTRA_CFLAGS:-}}
cflags+=${extra_cflags:+ $extra_cflags}

variants=("plain@" "simd128@-msimd128")
k=0
for spec in "${variants[@]}"; do
  k=$((k + 1))
  name=${spec%%@*} extra=${spec#*@}
  dir=$out/$name
  t0=$SECONDS
  echo "== cross-test wasm32 ($name, $k of ${#variants[@]}, $(took "$started") so far):" \
    "building the library and collide-digest into $dir"
  make -j"$(nproc)" --no-print-directory O="$dir" CC="clang-14 --target=wasm32-wasi" AR=llvm-ar-14 \
    CFLAGS="$cflags${extra:+ $extra}" ${variant:+"$variant"} "$dir/collide-digest" > "$dir.build.log" 2>&1 ||
    { tail -n 30 "$dir.build.log" >&2; fail "the build of $name (log: $dir.build.log)"; }
  echo "cross-test wasm32: built $name in $(took "$t0")"
  t0=$SECONDS
  echo "== digest of the $name build under Node $($node --version) (WASI) against tools/digest/golden.txt"
  if "$node" --no-warnings scripts/check/wasi-run.mjs "$dir/collide-digest" --progress \
    --check tools/digest/golden.txt > "$dir/digest.txt" 2> "$dir/digest.log"; then
    echo "cross-test wasm32: $(grep -m1 '^collide-digest: all' "$dir/digest.log" | sed 's/^collide-digest: //')" \
      "($name, $(took "$t0"))"
    continue
  fi
  grep -v '^digest: ' "$dir/digest.log" | tail -n 40 >&2
  bash scripts/check/digest-first-difference.sh "$dir/digest.log" "$dir" "wasm32 under Node" \
    "$node" --no-warnings scripts/check/wasi-run.mjs "$dir/collide-digest"
  fail "the digest of the $name build differs from tools/digest/golden.txt (log: $dir/digest.log)"
done
echo "cross-test wasm32: not run there: the unit suite (Criterion, fork and guard pages have no" \
  "WASI port) and the corpus replays (the sweep oracle needs GMP)"
echo "cross-test wasm32: passed in $(took "$started"): the golden digest on ${#variants[@]} builds" \
  "(${variants[*]%%@*}), every backend wasm32 runs"
