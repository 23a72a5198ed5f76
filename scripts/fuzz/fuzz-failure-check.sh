#!/usr/bin/env bash
# The moment the harness exists for, tested as a user meets it (`make fuzz-failure-check`, part
# of make test): `make fuzz` with a user kernel that is wrong must stop within its time limit
# (plus minimization), name the user's backend or broadphase in the first lines of its report,
# keep exactly one crash file, and print a reproduce command that fails when pasted. Bad
# variables must be refused before anything is built. Crash files and new inputs go to
# build/fuzz-failure-check/, not to fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/fuzz-failure-check
rm -rf "$out"
mkdir -p "$out"
seconds=20
minimize=10
slack=30 # process start and stop, the scene seeds, the report's own run (on a loaded machine: 28 s seen)
checks=0

fail() {
  echo "fuzz-failure-check: FAILED: $1" >&2
  [ -z "${2:-}" ] || { echo "--- output ($2) ---" >&2; cat "$2" >&2; }
  exit 1
}

# Bad variables: refused with the reason, before any build.
refused() { # LOG EXPECTED-MESSAGE MAKE-ARGUMENTS...
  local log=$1 want=$2 rc=0
  shift 2
  make --no-print-directory "$@" >"$log" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "make $* succeeded" "$log"
  grep -qF -- "$want" "$log" || fail "make $* did not say '$want'" "$log"
  ! grep -qE '^(clang|gcc|cc) ' "$log" || fail "make $* built something before refusing" "$log"
  checks=$((checks + 1))
}
refused "$out/bad-seconds.log" 'FUZZ_SECONDS=1x: must be a whole number' fuzz FUZZ_SECONDS=1x FUZZ_TARGETS=aabb
refused "$out/bad-jobs.log" 'FUZZ_JOBS=0: must be a whole number' fuzz FUZZ_JOBS=0 FUZZ_TARGETS=aabb
refused "$out/bad-target.log" "'nosuch' is not a fuzz target; the targets are: aabb" fuzz FUZZ_TARGETS=nosuch
refused "$out/no-targets.log" 'no targets (FUZZ_TARGETS is empty)' fuzz FUZZ_TARGETS=
refused "$out/twice.log" "'aabb' is named twice in FUZZ_TARGETS" fuzz "FUZZ_TARGETS=aabb mtd aabb"
refused "$out/bad-lanes.log" 'FUZZ_LANES=0: must be a whole number' fuzz-brief FUZZ_LANES=0 FUZZ_TARGETS=aabb
refused "$out/repro-no-input.log" 'say which input' fuzz-repro FUZZ_TARGETS=aabb
refused "$out/repro-missing.log" 'no-such-input: no such file' fuzz-repro FUZZ_TARGETS=aabb INPUT=no-such-input
refused "$out/bad-user.log" 'is not a .c file' fuzz USER_KERNELS=README.md FUZZ_TARGETS=aabb

# A wrong user kernel of each kind, through make fuzz as the README shows it.
wrong() { # FILE TARGET NAME [USER_CFLAGS]
  local file=$1 target=$2 name=$3 flags=${4:-} dir=$out/$2 log rc=0 start elapsed cmd
  log=$dir/fuzz.log
  mkdir -p "$dir"
  make --no-print-directory fuzz-build USER_KERNELS="$file" USER_CFLAGS="$flags" FUZZ_TARGETS="$target" \
    >"$dir/build.log" 2>&1 ||
    fail "make fuzz-build USER_KERNELS=$file FUZZ_TARGETS=$target" "$dir/build.log"
  start=$(date +%s)
  FUZZ_ARTIFACTS=$dir/artifacts FUZZ_CORPUS_LOCAL=$dir/corpus-local \
    make --no-print-directory fuzz USER_KERNELS="$file" USER_CFLAGS="$flags" FUZZ_TARGETS="$target" \
    FUZZ_SECONDS=$seconds FUZZ_MINIMIZE_SECONDS=$minimize >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  [ "$rc" -ne 0 ] || fail "make fuzz with $file passed" "$log"
  grep -q "^fuzz $target: DISAGREEMENT" "$log" || fail "no DISAGREEMENT report for $file (exit $rc)" "$log"
  awk -v t="$target" -v n="user:$name" '$0 ~ "^fuzz " t ": DISAGREEMENT" { on = 1; k = 0; next }
      on && ++k <= 3 && index($0, n) { found = 1 } END { exit !found }' "$log" ||
    fail "the report's first lines do not name user:$name" "$log"
  [ "$elapsed" -le $((seconds + minimize + slack)) ] ||
    fail "make fuzz took ${elapsed}s (limit ${seconds}s + ${minimize}s minimizing)" "$log"
  [ "$(find "$dir/artifacts/$target" -name 'crash-*' ! -name '*.*' | wc -l)" -eq 1 ] ||
    fail "not exactly one crash file kept in $dir/artifacts/$target: $(ls "$dir/artifacts/$target")" "$log"
  cmd=$(awk '/^  reproduce/ { getline; sub(/^ +/, ""); print; exit }' "$log")
  [[ $cmd == *"USER_KERNELS=$file"* ]] || fail "the reproduce command leaves out USER_KERNELS: $cmd" "$log"
  rc=0
  bash -c "$cmd" >"$dir/repro.log" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "the reproduce command passed: $cmd" "$dir/repro.log"
  grep -q "user:$name" "$dir/repro.log" || fail "the reproduce command's report does not name user:$name" "$dir/repro.log"
  [ -z "$flags" ] || [[ $cmd == *"USER_CFLAGS="* ]] || fail "the reproduce command leaves out USER_CFLAGS: $cmd" "$log"
  # The crash replayed by another target: whatever that target says, a warning says it is not
  # the target that found it.
  local crash other=mtd
  [ "$target" != mtd ] || other=aabb
  crash=$(find "$dir/artifacts/$target" -name 'crash-*' ! -name '*.*')
  make --no-print-directory fuzz-repro FUZZ_TARGETS=$other INPUT="$crash" >"$dir/other.log" 2>&1 || true
  grep -q "in the folder of target $target, replayed here by" "$dir/other.log" ||
    fail "fuzz-repro by $other of $target's crash file did not warn" "$dir/other.log"
  echo "fuzz-failure-check: $file${flags:+ ($flags)}: $target stopped in ${elapsed}s, user:$name named first, one crash file, reproduce command fails, another target's replay warns: ok"
  checks=$((checks + 1))
}
wrong examples/user-kernels/wrong_touch.c aabb wrong-touch
wrong examples/user-kernels/drops_touching.c broadphase drops-touching
# The reference's circle formulas built with contraction: right in exact arithmetic, one
# rounding fewer a few ulps from touching, where the circle fuzzer places half its pairs.
if grep -qw fma /proc/cpuinfo; then
  wrong examples/user-kernels/fma_circle.c circle fma-circle "-mfma -ffp-contract=fast"
else
  echo "fuzz-failure-check: examples/user-kernels/fma_circle.c left out: this CPU has no FMA"
fi

# make test's brief fuzzing in two lanes (mtd beside aabb; the wrong backend only has a 2D box
# query, so mtd agrees): aabb's lane must stop mtd's before its report, which no progress line
# of the other lane may break into, and the summary must name both.
lanes() {
  local dir=$out/lanes log rc=0 start elapsed
  log=$dir/fuzz.log
  mkdir -p "$dir"
  start=$(date +%s)
  FUZZ_ARTIFACTS=$dir/artifacts FUZZ_LANES=2 FUZZ_MINIMIZE_SECONDS=$minimize \
    make --no-print-directory fuzz-brief USER_KERNELS=examples/user-kernels/wrong_touch.c \
    FUZZ_TARGETS="mtd aabb" FUZZ_BRIEF_SECONDS=$seconds >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  [ "$rc" -ne 0 ] || fail "make fuzz-brief with the wrong backend passed" "$log"
  grep -q '^fuzz aabb: DISAGREEMENT' "$log" || fail "no DISAGREEMENT report from the aabb lane" "$log"
  awk '/^fuzz aabb: DISAGREEMENT/ { on = 1 } on && /\[lane / { bad = 1 } /^  reproduce/ { on = 0 }
      END { exit bad }' "$log" || fail "another lane's progress inside the report" "$log"
  grep -qE '^  mtd +stopped' "$log" || fail "the summary does not say the mtd lane stopped" "$log"
  grep -qE '^  aabb +FAILED' "$log" || fail "the summary does not say aabb failed" "$log"
  [ "$elapsed" -le $((seconds + minimize + slack)) ] ||
    fail "make fuzz-brief took ${elapsed}s (limit ${seconds}s + ${minimize}s minimizing)" "$log"
  echo "fuzz-failure-check: make fuzz-brief in 2 lanes: aabb failed, the mtd lane stopped before the report, in ${elapsed}s: ok"
  checks=$((checks + 1))
}
lanes
echo "fuzz-failure-check: $checks passed, 0 failed"
