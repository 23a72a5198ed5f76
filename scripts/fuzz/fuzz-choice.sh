#!/usr/bin/env bash
# make fuzz-choice CHOICE='...': does a build choice change any answer? The variant (CHOICE:
# make variables, scripts/bench/choice.py; e.g. 'CC=clang CFLAGS=-O3 -march=native -ffp-contract=fast')
# is built in a folder of its own (build/choice/<hash>/), the reference in build/fuzz-choice
# (clang, UBSan), and one libFuzzer program holding both (tools/choice/fuzz_choice.c) runs each
# input through one kernel of the digest on both, for FUZZ_SECONDS of wall clock (default 30).
# The first input whose answers differ stops it: the input is minimized (FUZZ_MINIMIZE_SECONDS,
# default 15), kept in build/choice/<hash>/artifacts/, and reported with both answers and a
# command that runs it again. INPUT=file runs one input (exit 1 while it differs, 0 once not).
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-/usr/bin/python3}
seconds=${FUZZ_SECONDS:-30}
min_seconds=${FUZZ_MINIMIZE_SECONDS:-15}
choice=${CHOICE:-}
fail() {
  echo "fuzz-choice: $*" >&2
  exit 2
}
[ -n "$choice" ] || fail "say which build to compare with the reference: CHOICE='CFLAGS+=-O3 -march=native' (make variables; see make help)"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || fail "FUZZ_SECONDS=$seconds: must be a whole number of at least 1"
[[ $min_seconds =~ ^[0-9]+$ ]] || fail "FUZZ_MINIMIZE_SECONDS=$min_seconds: must be a whole number"
[ -z "${INPUT:-}" ] || [ -f "$INPUT" ] || fail "INPUT=$INPUT: no such file"
hash=$(printf '%s' "$choice" | sha1sum | cut -c1-12)
dir=build/choice/$hash
mkdir -p "$dir"
"$python" scripts/bench/choice.py make-args "$choice" > "$dir/args" || exit 2
args=()
mapfile -d '' args < "$dir/args"
label=$("$python" scripts/bench/choice.py label "$choice" 2> /dev/null)
printf '%s\n' "$choice" > "$dir/choice.txt"
echo "fuzz-choice: the variant: $label"

start=$SECONDS
echo "fuzz-choice: building the variant into $dir (log: $dir/build.log) ..."
make -j"$(nproc)" --no-print-directory O="$dir" "${args[@]}" "$dir/choice-variant.o" > "$dir/build.log" 2>&1 ||
  { tail -n 25 "$dir/build.log" >&2; echo "fuzz-choice: the variant's build failed (log: $dir/build.log)" >&2; exit 1; }
echo "fuzz-choice: building the reference side (build/fuzz-choice: clang, UBSan) and the program ..."
# UBSan only: ASan's checks made each input 3-4 times slower, and the unit tests and the
# differential fuzzers already run the library under ASan.
make -j"$(nproc)" --no-print-directory O=build/fuzz-choice CC="$(make -s --no-print-directory --eval 'c: ; @echo $(CLANG)' c)" \
  SANITIZE=fuzz FUZZ_SANITIZERS=undefined,float-divide-by-zero FUZZ_CHOICE_VARIANT="$dir/choice-variant.o" "$dir/fuzz_choice" > "$dir/build-fuzz.log" 2>&1 ||
  { tail -n 25 "$dir/build-fuzz.log" >&2; echo "fuzz-choice: the fuzzer's build failed (log: $dir/build-fuzz.log)" >&2; exit 1; }
echo "fuzz-choice: built in $((SECONDS - start)) s"
bin=$dir/fuzz_choice
export FUZZ_CHOICE_LABEL=$label
if [[ $choice != *\'* ]]; then quoted="'$choice'"; else quoted=$(printf '%q' "$choice"); fi

if [ -n "${INPUT:-}" ]; then
  rc=0
  "$bin" -runs=1 "$INPUT" > "$dir/repro.log" 2>&1 || rc=$?
  if grep -q '^fuzz-choice: DISAGREEMENT' "$dir/repro.log"; then
    sed -n '/^fuzz-choice: DISAGREEMENT/,/^==[0-9]*== ERROR/p' "$dir/repro.log" | grep -v '^==' >&2
    echo "fuzz-choice: the disagreement stands" >&2
    exit 1
  fi
  [ "$rc" -eq 0 ] || { tail -n 20 "$dir/repro.log" >&2; echo "fuzz-choice: $bin failed (exit $rc)" >&2; exit 1; }
  echo "fuzz-choice: $INPUT: the variant answers as the reference"
  exit 0
fi

corpus=$dir/corpus
artifacts=$dir/artifacts
rm -rf "$artifacts"
mkdir -p "$corpus" "$artifacts"
# Seeds: for each kernel (first byte) and backend (second), 200 bytes of values from a fixed
# generator: libFuzzer grows an empty corpus a few bytes at a time, and an input that runs out
# reads zeros (a kernel's values then all sit on one point).
"$python" - "$corpus" << 'EOF'
import random, sys
rng = random.Random(47)
for k in range(64):
    for b in range(4):
        with open(f"{sys.argv[1]}/seed-{k:02d}-{b}", "wb") as f:
            f.write(bytes([k, b]) + bytes(rng.randrange(256) for _ in range(200)))
EOF
echo "fuzz-choice: fuzzing ${seconds}s (every kernel of the digest, every backend: the input picks)"
rc=0
fuzz_start=$SECONDS
timeout --kill-after=10 $((seconds + 30)) "$bin" -max_total_time="$seconds" -artifact_prefix="$artifacts/" \
  -print_final_stats=1 "$corpus" > "$dir/fuzz.log" 2>&1 || rc=$?
crash=$(find "$artifacts" -name 'crash-*' -type f -print -quit)
if [ -z "$crash" ]; then
  [ "$rc" -eq 0 ] || { tail -n 20 "$dir/fuzz.log" >&2; echo "fuzz-choice: the fuzzer failed (exit $rc) without a failing input" >&2; exit 1; }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
  echo "fuzz-choice: ${seconds}s, ${execs:-?} inputs: the variant gave the reference's answers on every one"
  exit 0
fi
found=$((SECONDS - fuzz_start))
small=$artifacts/minimized
cp "$crash" "$small"
if [ "$min_seconds" -gt 0 ]; then
  "$bin" -minimize_crash=1 -max_total_time="$min_seconds" -exact_artifact_path="$small.tmp" "$crash" \
    > "$dir/minimize.log" 2>&1 || true
  [ -s "$small.tmp" ] && mv "$small.tmp" "$small"
fi
rm -f "$crash"
"$bin" -runs=1 "$small" > "$dir/report.log" 2>&1 || true
sed -n '/^fuzz-choice: DISAGREEMENT/,/^==[0-9]*== ERROR/p' "$dir/report.log" | grep -v '^==' >&2
echo "  input: $small ($(stat -c %s "$small") bytes, minimized)" >&2
echo "  run it again (fails while the disagreement stands):" >&2
echo "    make fuzz-choice CHOICE=$quoted INPUT=$small" >&2
echo "fuzz-choice: the variant answers otherwise than the reference (found after ${found}s of fuzzing)" >&2
exit 1
