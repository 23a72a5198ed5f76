# Part of make bench-check, sourced by scripts/check/check-bench-errors.sh (its work folder,
# python, runs and the fail / expect_fail / expect_text helpers): scripts/bench/compare.py, on
# result files, digests and build sides, choice.py's parsing, and the Makefile's flag refusals
# and CHOICE_LABEL.
printf 'not json\n' > "$work/not.json"
expect_fail "compare on a file that is not JSON" "not.json: not a Google Benchmark JSON file" \
  "$python" scripts/bench/compare.py "$work/not.json" "${runs[0]}"
expect_fail "compare with the same backend on both sides" "both sides are the same" \
  "$python" scripts/bench/compare.py --backends scalar scalar
head -c $(($(wc -c < "${runs[0]}") / 2)) "${runs[0]}" > "$work/cut.json.xz"
expect_fail "compare on a cut compressed file" "cut.json.xz: not a Google Benchmark JSON file" \
  "$python" scripts/bench/compare.py "$work/cut.json.xz" "${runs[0]}"
"$python" - "${runs[0]}" "$work/other-cpu.json" "$work/same.json" << 'PY'
import json, lzma, sys
raw = lzma.open(sys.argv[1]).read()
open(sys.argv[3], "wb").write(raw)
data = json.loads(raw)
data["context"]["collide_cpu_identity"] = "GenuineIntel family 6 model 143 stepping 8 (another CPU)"
json.dump(data, open(sys.argv[2], "w"))
PY
"$python" scripts/bench/compare.py "${runs[0]}" "$work/other-cpu.json" > "$work/compare.log" 2>&1 ||
  { cat "$work/compare.log" >&2; fail "compare of two CPUs' files failed"; }
expect_text "compare of two CPUs' files" "$work/compare.log" "warning: the two files differ in CPU"
"$python" scripts/bench/compare.py "$work/same.json" "${runs[0]}" > "$work/compare.log" 2>&1 ||
  { cat "$work/compare.log" >&2; fail "compare of a plain file with its compressed twin failed"; }
expect_text "compare of a plain file with its compressed twin" "$work/compare.log" " same "
"$python" scripts/bench/compare.py "${runs[0]}" "${runs[0]}" > "$work/compare.log" 2>&1 ||
  { cat "$work/compare.log" >&2; fail "compare of a file with itself failed"; }
expect_text "compare of a file with itself" "$work/compare.log" " same "
case $(tail -n 1 "$work/compare.log") in
  "summary: second vs first over "*" rows: 0 faster, 0 slower, "*" tied"*) ;;
  *) tail -n 3 "$work/compare.log" >&2; fail "compare of a file with itself does not end with its summary line" ;;
esac
if grep -qF warning "$work/compare.log"; then
  cat "$work/compare.log" >&2
  fail "compare of a file with itself warns"
fi
expect_fail "compare --reps on two result files" "--reps applies to runs" \
  "$python" scripts/bench/compare.py "${runs[0]}" "${runs[0]}" --reps 3
# --filter on two files keeps the rows starting with it (the runs hold scalar and sse2 rows).
"$python" scripts/bench/compare.py "${runs[0]}" "${runs[0]}" --filter mtd/batch/sse2/ > "$work/compare.log" 2>&1 ||
  { cat "$work/compare.log" >&2; fail "compare --filter on two result files failed"; }
expect_text "compare --filter on two result files" "$work/compare.log" "mtd/batch/sse2/"
if grep -qF "mtd/batch/scalar/" "$work/compare.log"; then
  cat "$work/compare.log" >&2
  fail "compare --filter mtd/batch/sse2/ on two result files kept scalar rows"
fi
expect_fail "compare --filter matching no row of two files" "no benchmark of both files starts with 'nosuch'" \
  "$python" scripts/bench/compare.py "${runs[0]}" "${runs[0]}" --filter nosuch
expect_fail "compare --build with a side that is not make variables" "'-O3' is not NAME=value" \
  "$python" scripts/bench/compare.py --build 'CFLAGS=-O2' '-O3'
expect_fail "compare --digest on a file that is not a digest" "not.json: not a collide-digest output" \
  "$python" scripts/bench/compare.py --digest "$work/not.json" tools/digest/golden.txt
# Two digests, one answer changed: named, with how many inputs and the first.
printf '# collide digest: input set 1\nk scalar 2 00000000000000aa\ninput k scalar 0 1\ninput k scalar 1 2\n' > "$work/d1.txt"
sed 's/aa$/ab/; s/^input k scalar 1 2$/input k scalar 1 3/' "$work/d1.txt" > "$work/d2.txt"
expect_fail "compare --digest of two digests that differ" "differs on 1 of 2 inputs on scalar; the first is input 1" \
  "$python" scripts/bench/compare.py --digest "$work/d1.txt" "$work/d2.txt"
"$python" scripts/bench/compare.py --digest "$work/d1.txt" "$work/d1.txt" > "$work/compare.log" 2>&1 ||
  { cat "$work/compare.log" >&2; fail "compare --digest of a digest with itself failed"; }
expect_text "compare --digest of a digest with itself" "$work/compare.log" "same answers on all 2 inputs"
expect_fail "compare --reps on two digests" "--reps applies to runs" \
  "$python" scripts/bench/compare.py --digest "$work/d1.txt" "$work/d1.txt" --reps 3
expect_fail "compare --build with a side naming its folder" "O=build/release: a choice names how to build, not where" \
  "$python" scripts/bench/compare.py --build 'CFLAGS+=-O3' 'O=build/release CFLAGS+=-O3'
# A digest whose own avx2 differs from its scalar: named with k of N and the first input.
printf '# collide digest: input set 1\nk scalar 2 00000000000000aa\nk avx2 2 00000000000000ab\ninput k scalar 0 1\ninput k scalar 1 2\ninput k avx2 0 1\ninput k avx2 1 3\n' > "$work/d3.txt"
expect_fail "compare --digest with a backend differing from its own scalar" \
  "d3.txt: avx2 differs from its own scalar on 1 of 2 inputs of k (the first is input 1)" \
  "$python" scripts/bench/compare.py --digest "$work/d1.txt" "$work/d3.txt"
# The first difference of a kernel with one implementation (backend "-"): said in words, its
# answer lines from each side's binary (two stand-ins printing what collide-digest --show does).
for side in 1 2; do
  printf '#!/bin/sh\necho "  input 3: x 1"\necho "  answer (hex)"\necho "    value %s"\n' "$side" > "$work/show$side"
  chmod +x "$work/show$side"
done
"$python" - "$work/show1" "$work/show2" > "$work/first.log" << 'PY2' || fail "compare's first difference of a kernel with one implementation"
import sys
sys.path.insert(0, "scripts/bench")
from compare_digest import show_difference
show_difference(sys.argv[1:3], ["a", "b"], "circle_pair", "-", 3)
PY2
expect_text "compare's first difference, backend -" "$work/first.log" \
  "first difference: circle_pair, input 3, no backend to name (the kernel has one implementation, whatever the backend):"
expect_text "compare's first difference, its answers" "$work/first.log" "second  value 2"
echo "bench-check: compare's first difference of a kernel with one implementation says so: ok"

# scripts/bench/choice.py: the one parser of a build choice.
"$python" - << 'PY2' || fail "scripts/bench/choice.py make-args does not split a choice as documented"
import subprocess, sys
def args(choice):
    p = subprocess.run([sys.executable, "scripts/bench/choice.py", "make-args", choice], capture_output=True, text=True, check=True)
    return [a for a in p.stdout.split("\0") if a], p.stderr
cases = {
    "CFLAGS=-O2 -march=native": ["CFLAGS=-O2 -march=native"],
    "CC=clang CFLAGS='-O3 -march=native' ": ["CC=clang", "CFLAGS=-O3 -march=native"],
    "CFLAGS+=-O3 -march=native": ["CHOICE_CFLAGS=-O3 -march=native"],
    "CFLAGS=-O2 -ffp-contract=fast -march=native": ["CFLAGS=-O2 -march=native", "CHOICE_CFLAGS=-ffp-contract=fast"],
    "CFLAGS=-O2 -ffast-math -fno-signed-zeros -ffp-contract=off": ["CFLAGS=-O2 -ffp-contract=off",
                                                                  "CHOICE_CFLAGS=-ffast-math -fno-signed-zeros"],
    "": [],
    "SIMDE_NATIVE=1": ["SIMDE_NATIVE=1"],
    "CFLAGS+=-O3 SIMDE_NATIVE=1": ["CHOICE_CFLAGS=-O3", "SIMDE_NATIVE=1"],
    "SIMDE_NATIVE=0": [],
}
for choice, want in cases.items():
    got, err = args(choice)
    assert got == want, (choice, got, want)
    assert not err, (choice, err)
got, err = args("CFLAGS=-g -march=native")
assert "has no -O level: that build is unoptimized" in err, err
label = subprocess.run([sys.executable, "scripts/bench/choice.py", "label", "CFLAGS+=-O2 -ffp-contract=fast"], capture_output=True,
                       text=True).stdout
assert "not the reference" in label and "-ffp-contract=fast breaks the bit-exact contract" in label, label
label = subprocess.run([sys.executable, "scripts/bench/choice.py", "label", "SIMDE_NATIVE=1"], capture_output=True,
                       text=True).stdout
assert "not the reference: SIMDE_NATIVE=1" in label, label
assert subprocess.run([sys.executable, "scripts/bench/choice.py", "reference", "SIMDE_NATIVE=1"]).returncode == 1
print(f"bench-check: scripts/bench/choice.py splits {len(cases)} choices as documented, warns on a CFLAGS= without -O: ok")
PY2
for bad in "-O3|'-O3' is not NAME=value" "=x|'=x' has no variable name" "CFLAGS=-O2 =x|'=x' has no variable name" \
  "cflags=-O2|make variables of a choice are upper case" "CC+=clang|only CFLAGS can be added to" \
  "CFLAGS='-O2|No closing quotation" "O=build/x CC=clang|a choice names how to build, not where"; do
  rc=0
  "$python" scripts/bench/choice.py make-args "${bad%%|*}" > /dev/null 2> "$work/choice.log" || rc=$?
  [ "$rc" -eq 2 ] || { cat "$work/choice.log" >&2; fail "choice.py make-args '${bad%%|*}': exit $rc, not 2"; }
  [ "$(wc -l < "$work/choice.log")" -eq 1 ] || { cat "$work/choice.log" >&2; fail "choice.py '${bad%%|*}': not one line"; }
  expect_text "choice.py make-args '${bad%%|*}'" "$work/choice.log" "${bad#*|}"
done
echo "bench-check: scripts/bench/choice.py refuses 7 bad choices with exit 2 and one line saying why: ok"

# The Makefile: result-changing flags refused in CFLAGS, CHOICE_CFLAGS in the project's folders.
for flags in '-O2 -ffp-contract=fast' '-O2 -ffast-math' '-Ofast' '-O2 -funsafe-math-optimizations'; do
  expect_fail "make with CFLAGS='$flags'" "compared variant takes them in CHOICE_CFLAGS" \
    make --no-print-directory -n CFLAGS="$flags" lib
done
expect_fail "make with -ffp-contract=fast in CFLAGS" "would silently undo some of them" \
  make --no-print-directory -n CFLAGS='-O2 -ffp-contract=fast' lib
for o in build/release build/test/ ./build/asan build/tsan "$PWD/build/fuzz"; do
  expect_fail "make with CHOICE_CFLAGS in $o" "not $o: the reference builds" \
    make --no-print-directory -n O="$o" CHOICE_CFLAGS=-O3 lib
done
expect_fail "make with SIMDE_NATIVE=1 in build/test" "SIMDE_NATIVE is for a compared variant's own build folder" \
  make --no-print-directory -n O=build/test SIMDE_NATIVE=1 lib
make --no-print-directory -n O=build/bench-check/simde SIMDE_NATIVE=1 build/bench-check/simde/obj/core/src/x86/sse2-emu.o \
  > "$work/simde.log" 2>&1 || { cat "$work/simde.log" >&2; fail "make SIMDE_NATIVE=1 in a folder of its own"; }
grep -q 'DSIMDE_NO_NATIVE' "$work/simde.log" && fail "SIMDE_NATIVE=1 still builds the twins with SIMDE_NO_NATIVE"
grep -q 'sse2.c' "$work/simde.log" || { cat "$work/simde.log" >&2; fail "make -n SIMDE_NATIVE=1: no twin compiled"; }
make --no-print-directory -n CFLAGS='-O2 -fno-trapping-math -fno-fast-math' lib > /dev/null ||
  fail "make refuses -fno-trapping-math or -fno-fast-math in CFLAGS (they change no result)"
label_of() {
  make -s --no-print-directory O=build/bench-check/label "$@" --eval 'print-choice-label: ; @echo "$(CHOICE_LABEL)"' \
    print-choice-label
}
[ "$(label_of)" = reference ] || fail "CHOICE_LABEL without CHOICE_CFLAGS: '$(label_of)', not 'reference'"
[ "$(label_of CHOICE_CFLAGS='-O3  -ffast-math')" = "not the reference: -O3 -ffast-math" ] ||
  fail "CHOICE_LABEL with CHOICE_CFLAGS: '$(label_of CHOICE_CFLAGS='-O3 -ffast-math')'"
echo "bench-check: compare: a clear error on non-JSON, non-digest files, --reps on files and a bad build side; a warning across CPUs, \"same\" for equal medians; digests compared by input, a backend against its own scalar; choice.py's parsing and refusals; the Makefile's flag refusals and CHOICE_LABEL: ok"
