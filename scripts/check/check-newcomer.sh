#!/usr/bin/env bash
# A newcomer's paper cuts, each checked the way a user meets it (make newcomer-check, in make
# test; seconds). Each check failed before its fix:
#  1. a misspelled collide variable stops make within 2 seconds, naming the variable it
#     resembles (mk/vars.mk, scripts/build/make-vars.py); a variable that resembles none, and
#     collide's own, pass;
#  2. make cross-test with an ARCH that is not a target answers in make's terms: the ARCH= values
#     of scripts/check/cross-targets.list, not the script's usage;
#  3. install-deps.sh says so when everything is installed (it printed nothing);
#  4. make help lists every benchmark suite of bench/bench.c (smoke was missing);
#  5. collide-scene with a misspelled command names it and the command it resembles (it printed
#     the usage alone), as do info without a file and convert without two;
#  6. make help and docs/determinism.md name CROSS_CFLAGS (the cross-tests of your own flags);
#  7. x87 maths is refused before compiling, naming -msse2 -mfpmath=sse; the FLT_EVAL_METHOD
#     probe reads the build's flags; a cross compiler's make runs no native install-deps;
#  8. make fuzz SCENE= says how many seeds came from the user's file.
# Usage: scripts/check/check-newcomer.sh [COLLIDE-SCENE]  (the tool's binary; built by the target)
set -uo pipefail
cd "$(dirname "$0")/../.."
scene_tool=${1:-build/release/collide-scene}
failures=0
fail() {
  echo "newcomer-check: FAILED: $*" >&2
  failures=$((failures + 1))
}
section=0
ok() { [ "$failures" -ne "$section" ] || echo "newcomer-check: ok: $*"; section=$failures; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset MAKEFLAGS MAKELEVEL MFLAGS

# 1. Misspelled variables.
# (Its CPU time is checked: on the shared machine a wall clock measures the other users too.)
/usr/bin/time -f '%U %S' -o "$work/cpu" make -n --no-print-directory bench SCENES=level.scene \
  > "$work/vars.log" 2>&1 && rc=0 || rc=$?
took=$(awk 'END { printf "%.2f", $1 + $2 }' "$work/cpu")
if [ "$rc" -ne 0 ] && grep -q 'SCENES is not a variable .*did you mean SCENE?' "$work/vars.log" &&
  awk -v t="$took" 'BEGIN { exit !(t <= 2) }'; then
  ok "make bench SCENES=... stops after ${took} s of CPU, naming SCENE"
else
  fail "make bench SCENES=level.scene: exit $rc after ${took} s of CPU: $(head -c 300 "$work/vars.log")"
fi
for v in FUZZ_TARGET=aabb USER_KERNEL=x.c CROSS_STAGE=ci; do
  make -n --no-print-directory lib "$v" > "$work/vars.log" 2>&1 &&
    fail "make lib $v: not stopped" ||
    grep -qF "did you mean ${v%%=*}S?" "$work/vars.log" ||
    fail "make lib $v: $(head -c 300 "$work/vars.log")"
done
make -n --no-print-directory lib O="$work/o" V=1 MY_OWN_THING=1 > "$work/vars.log" 2>&1 ||
  fail "make lib O=... V=1 MY_OWN_THING=1 stopped: $(head -c 300 "$work/vars.log")"
ok "misspelled FUZZ_TARGET, USER_KERNEL, CROSS_STAGE stop make; O, V and a name of your own pass"

# 2. cross-test's ARCH in make's terms.
make --no-print-directory cross-test ARCH=arm > "$work/cross.log" 2>&1 && rc=0 || rc=$?
names=$(/usr/bin/python3 scripts/check/cross_targets.py names | paste -s -d '|')
if [ "$rc" -ne 0 ] && grep -qF "ARCH=arm is not a cross target; ARCH=$names" "$work/cross.log" &&
  ! grep -q 'usage: scripts' "$work/cross.log"; then
  ok "make cross-test ARCH=arm names ARCH=$names"
else
  fail "make cross-test ARCH=arm (exit $rc): $(cat "$work/cross.log")"
fi

# 3. install-deps.sh when all is installed.
out=$(bash scripts/build/install-deps.sh 2>&1) && rc=0 || rc=$?
if [ "$rc" -eq 0 ] && [[ $out == *"install-deps: all "*" Debian packages are installed"* ]]; then
  ok "install-deps.sh: ${out##*$'\n'}"
else
  fail "install-deps.sh with everything installed (exit $rc) printed: '${out:-nothing}'"
fi

# 4. Every suite in make help.
help=$(make --no-print-directory help 2>&1)
for suite in $(sed -n 's/^ *{\.name = "\([a-z]*\)",$/\1/p' bench/bench.c); do
  grep -A2 '^  BENCH  ' <<< "$help" | grep -qw "$suite" || fail "make help's BENCH line does not name the suite $suite"
done
ok "make help names the suites $(sed -n 's/^ *{\.name = "\([a-z]*\)",$/\1/p' bench/bench.c | paste -s -d ' ')"

# 5. collide-scene's commands.
if [ -x "$scene_tool" ]; then
  "$scene_tool" inf "$work/none.scene" > "$work/scene.log" 2>&1 && rc=0 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "'inf' is not a command (convert, info); did you mean info?" "$work/scene.log" ||
    fail "collide-scene inf FILE (exit $rc): $(head -n 2 "$work/scene.log")"
  "$scene_tool" info > "$work/scene.log" 2>&1
  grep -q "name one or more scene files" "$work/scene.log" || fail "collide-scene info: $(head -n 1 "$work/scene.log")"
  "$scene_tool" convert a > "$work/scene.log" 2>&1
  grep -q "give IN and OUT (1 file given)" "$work/scene.log" || fail "collide-scene convert a: $(head -n 1 "$work/scene.log")"
  ok "collide-scene names a misspelled command, info without a file, convert without two"
else
  fail "$scene_tool is not built"
fi

# 6. CROSS_CFLAGS where a user looks.
grep -q '^  CROSS_CFLAGS ' <<< "$help" || fail "make help does not name CROSS_CFLAGS"
grep -q 'CROSS_CFLAGS=' docs/determinism.md || fail "docs/determinism.md does not show CROSS_CFLAGS"
ok "CROSS_CFLAGS in make help and docs/determinism.md"

# 7. Building for 32-bit x86: x87 maths refused at configure time naming the fix (here with
#    -mfpmath=387, which x86-64's gcc takes too); the FLT_EVAL_METHOD probe asks with the build's
#    own flags; a cross compiler's build runs no native install-deps.
make -n --no-print-directory lib O="$work/x87" CFLAGS='-O2 -mfpmath=387' > "$work/x87.log" 2>&1 && rc=0 || rc=$?
[ "$rc" -ne 0 ] && grep -q 'FLT_EVAL_METHOD 2.*x87 maths.*add -msse2 -mfpmath=sse to CFLAGS' "$work/x87.log" ||
  fail "make lib CFLAGS='-O2 -mfpmath=387' (exit $rc): $(head -c 300 "$work/x87.log")"
if command -v i686-linux-gnu-gcc > /dev/null; then
  flags=$(make -s --no-print-directory O="$work/i686" CC=i686-linux-gnu-gcc CFLAGS='-O2 -msse2 -mfpmath=sse' \
    --eval 'p: ; @echo $(REQUIRED_FLAGS)' p 2>&1)
  [[ $flags != *excess-precision* ]] || fail "i686 with -mfpmath=sse: the probe added -fexcess-precision=fast ($flags)"
  make -n --no-print-directory lib O="$work/i686" CC=i686-linux-gnu-gcc CFLAGS='-O2 -msse2 -mfpmath=sse' \
    > "$work/i686.log" 2>&1 || fail "make -n lib with i686-linux-gnu-gcc: $(tail -n 3 "$work/i686.log")"
  ! grep -q install-deps "$work/i686.log" || fail "make lib with i686-linux-gnu-gcc runs the native install-deps"
fi
ok "x87 refused naming -msse2 -mfpmath=sse; the probe reads CFLAGS; no native install-deps for a cross compiler"

# 8. make fuzz SCENE=your-file names how many seeds came from it (it said only the total of every
#    file, the built-in real scenes' included): the count printed is the count written.
printf 'collide-scene 2 2d\nstatic 0-1\n0 0 640 16\n0 464 640 480\n300 200 316 232\n16 16 32 32\n' > "$work/mine.txt"
/usr/bin/python3 scripts/fuzz/scene-seeds.py --out "$work/seeds" --tool "$scene_tool" --yours "$work/mine.txt" \
  > "$work/seeds.log" 2>&1 || fail "scene-seeds.py on a file of 4 boxes: $(head -c 300 "$work/seeds.log")"
said=$(sed -n "s|^scene-seeds: $work/mine.txt (your file): \([0-9]*\) box sets (broadphase, parallel) and \([0-9]*\) cache inputs\$|\1 \2|p" "$work/seeds.log")
wrote="$(ls "$work/seeds/broadphase" 2> /dev/null | wc -l) $(ls "$work/seeds/cache" 2> /dev/null | wc -l)"
[ -n "$said" ] && [ "$said" = "$wrote" ] && [ "$wrote" != "0 0" ] ||
  fail "make fuzz SCENE=: the seeds of the user's file: said '${said:-nothing}', wrote '$wrote': $(cat "$work/seeds.log")"
ok "make fuzz SCENE=: the seeds from the user's file are counted ($said)"

[ "$failures" -eq 0 ] || { echo "newcomer-check: $failures failed" >&2; exit 1; }
echo "newcomer-check: all passed"
