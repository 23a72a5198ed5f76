# The helpers of scripts/check/cross-test.sh (sourced by it, after its settings): building with
# make, running under qemu, spreading replays and fuzzers over the cores, probing what runs
# under qemu, and one target's brief fuzzing or its replay fallback. They read and set the
# caller's variables (out, arch, qemu, triple, jobs, targets, ...).
# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with cross-test.sh

build() { # WHAT LOG MAKE-ARGUMENTS...: one make, timed; on failure the end of its log
  local what=$1 log=$2 t0=$SECONDS
  shift 2
  echo "== cross-test $arch: building $what"
  make -j"$jobs" --no-print-directory "$@" > "$log" 2>&1 ||
    { tail -n 30 "$log" >&2; fail "the build of $what (log: $log)"; }
  echo "cross-test $arch: built $what in $(took $t0) (log: $log)"
}
run() { "$qemu" -L "/usr/$triple" "$@"; }
# "COMMAND... TARGET" for each of TARGETS, $jobs at a time, into DIR/TARGET.log and .rc.
spread() { # DIR TARGETS COMMAND...
  local dir=$1 list=$2 t
  shift 2
  mkdir -p "$dir"
  for t in $list; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    (
      rc=0
      "$@" "$t" > "$dir/$t.log" 2>&1 || rc=$?
      echo "$rc" > "$dir/$t.rc"
    ) &
  done
  wait
}
# spread, then in target order each log's last line, or the end of the first failing log.
each_target() { # DIR WHAT TARGETS COMMAND...
  local dir=$1 what=$2 list=$3 t
  shift 3
  spread "$dir" "$list" "$@"
  for t in $list; do
    if [ "$(cat "$dir/$t.rc")" != 0 ]; then
      tail -n 40 "$dir/$t.log" >&2
      fail "$what $t (log: $dir/$t.log)"
    fi
    tail -n 1 "$dir/$t.log"
  done
}
replay_one() { run "$1/replay_$2" "fuzz/corpus/$2" "${@:3}"; } # FOLDER TARGET [INPUTS]
# After each_target of replay_one: every corpus file was run (a replay that could not read its
# folder under qemu once reported "0 inputs, every backend agreed").
replays_counted() { # DIR TARGETS
  local t n want
  for t in $2; do
    want=$(find "fuzz/corpus/$t" -maxdepth 1 -type f ! -name '.*' | wc -l)
    n=$(sed -n 's/^replay [a-z0-9_]*: \([0-9]*\) inputs.*/\1/p' "$1/$t.log" | tail -n 1)
    [ "${n:-0}" -ge "$want" ] ||
      fail "replay $t ran ${n:-no} of the $want inputs of fuzz/corpus/$t under $qemu (log: $1/$t.log)"
  done
}
# The golden digest (tools/digest/golden.txt) under qemu: every kernel on every backend the
# target runs, its progress shown (a line at most every 10 s). On a difference, this machine's
# own build is digested too and the first input whose answers differ is shown from both (the
# golden file holds hashes only); a variant's differences are its verdict (variant_verdict).
show_progress() {
  local line last=-10
  while IFS= read -r line; do
    [[ $line == "digest: ["* ]] || continue
    if ((SECONDS - last >= 10)); then echo "  $line"; last=$SECONDS; fi
  done
  return 0
}
digest_one() { # FOLDER WHAT
  local dir=$1 what=$2 t0=$SECONDS rc=0
  echo "== digest of the $what under $qemu against tools/digest/golden.txt${variant:+ (the variant $variant)}"
  run "$dir/collide-digest" --progress --check tools/digest/golden.txt 2>&1 > "$dir/digest.txt" |
    tee "$dir/digest.log" | show_progress || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "cross-test $arch: $(grep -m1 '^collide-digest: all' "$dir/digest.log" | sed 's/^collide-digest: //')" \
      "($what, $(took $t0))"
    return 0
  fi
  [ -z "$variant" ] || variant_verdict "$dir"
  grep -v '^digest: ' "$dir/digest.log" | tail -n 40 >&2
  bash scripts/check/digest-first-difference.sh "$dir/digest.log" "$dir" "$arch under $qemu" \
    "$qemu" -L "/usr/$triple" "$dir/collide-digest"
  fail "the digest of the $what differs from tools/digest/golden.txt (log: $dir/digest.log)"
}
# A variant's disagreements, the way make fuzz-choice reports one: each kernel and backend that
# answers otherwise (from this build's scalar: how many inputs, the first; or from the golden
# file), the first in full, the command again. Exits 1.
variant_verdict() { # FOLDER
  local dir=$1 log=$1/digest.log
  echo "cross-test $arch: DISAGREEMENT: the variant $variant answers otherwise than the reference on" \
    "$(sed -n 's/^collide-digest: \([0-9]* of [0-9]*\) answers differ.*/\1/p' "$log") kernel x backend answers:" >&2
  sed -n 's/^collide-digest: DIFFERS: \([^ ]*\) on \([^ ]*\) differs from [^ ]* on \([^ ]*\) (one kernel, two backends): on \(.*\) inputs, the first is input \([0-9]*\)$/  \1 on \2: \4 inputs differ from this build'"'"'s \3, the first is input \5/p' "$log" >&2
  sed -n 's/^collide-digest: DIFFERS from [^:]*: \([^ ]*\) on scalar: .*/  \1 on scalar: differs from the golden file (the reference itself)/p' "$log" >&2
  echo "  the first, in full:" >&2
  sed -n '/^collide-digest: DIFFERS: /,/^  again: /p' "$log" | sed -n '1,/^  again: /p' | sed 's/^/  /' >&2
  echo "  run it again: make cross-test ARCH=$arch SIMDE_NATIVE=1 (the answers: $qemu $dir/collide-digest --show K:I)" >&2
  fail "the variant $variant does not keep the promise on $arch (log: $log)"
}
# The stages' times: the last run's (OUT/stage-times, "name seconds" lines, written when a run
# passes) give the overall ETA at the start of each stage.
declare -A last_time=()
stage_times_load() {
  local n t
  [ -f "$out/stage-times" ] || return 0
  while read -r n t; do last_time[$n]=$t; done < "$out/stage-times"
}
cur_stage='' cur_start=0 stage_log=()
stage() { # NAME: the stage before ends and NAME begins ("done": the run passed)
  local rest=0 known=yes on=no s
  [ -z "$cur_stage" ] || stage_log+=("$cur_stage $((SECONDS - cur_start))")
  if [ "$1" = done ]; then
    printf '%s\n' "${stage_log[@]}" > "$out/stage-times"
    return 0
  fi
  cur_stage=$1 cur_start=$SECONDS
  for s in build $stages; do
    [ "$s" != "$1" ] || on=yes
    [ "$on" = yes ] || continue
    if [ -n "${last_time[$s]:-}" ]; then rest=$((rest + last_time[$s])); else known=no; fi
  done
  [ "$known" = yes ] && s=$(printf '; about %d:%02d to go, from the last run'"'"'s stage times' $((rest / 60)) $((rest % 60))) || s=
  echo "== cross-test $arch: stage $1 ($(took "$started") so far$s)"
}
# 0 if SOURCE builds and runs cleanly under qemu (in the caller's environment); else $why is
# the first error it printed.
why=
probe() { # NAME SOURCE COMPILER FLAGS...
  local src=$2 cc=$3 bin=$out/probe/$1
  shift 3
  # shellcheck disable=SC2086 # the compiler and its flags are words
  $cc -O1 -g "$@" "$src" -o "$bin" > "$bin.log" 2>&1 && run "$bin" >> "$bin.log" 2>&1 && return 0
  why=$(grep -m1 -E 'ERROR:|Failed' "$bin.log" || grep -m1 -E 'error|fatal' "$bin.log" ||
    tail -n 1 "$bin.log")
  why=$(sed -E 's/^==[0-9]+==//; s/ \(pc 0x.*//' <<< "$why")
  return 1
}
has_insn() { # MNEMONIC-PATTERN PROGRAM: whether the program's code has that instruction
  "$triple-objdump" -d "$2" 2> /dev/null | grep -E "[[:space:]]($1)[[:space:]]" > /dev/null
}
# Sets $runnable to those of TARGETS whose PREFIX<target> qemu computes right (see the MDEB
# note above; only clang's code is checked: gcc does not emit it); notes the others.
untrusted=
runnable() { # PREFIX WHAT TARGETS
  local t
  runnable=
  for t in $3; do
    if [ -n "$untrusted" ] && has_insn "$untrusted" "$1$t"; then
      leave_out "$2 $t not run: its code has ${untrusted//\?/}, which $qemu computes wrongly"
    else
      runnable+=" $t"
    fi
  done
}

# 4. Brief fuzzing from a fixed sample of each corpus: fuzz_one's log is the fuzzer's, the
# sample's size in DIR/TARGET/seeds.txt, the fuzzer's exit status in DIR/TARGET/rc. Exit 0:
# nothing found; 3: a failing input (in DIR/TARGET/artifacts); 4: the fuzzer did not start;
# 5: stopped by the time limit; else the fuzzer's own failure.
fuzz_one() { # TARGET
  local t=$1 dir=$out/fuzz-run/$1 files n step i rc=0
  rm -rf "$dir"
  mkdir -p "$dir/seeds" "$dir/artifacts"
  files=(fuzz/corpus/"$t"/*)
  n=${#files[@]}
  step=$(((n + fuzz_seeds - 1) / fuzz_seeds))
  for ((i = 0; i < n; i += step)); do cp "${files[i]}" "$dir/seeds/"; done
  echo "$(find "$dir/seeds" -type f | wc -l) of $n" > "$dir/seeds.txt"
  timeout -k 10 $((fuzz_seconds * 3 + 120)) "$qemu" -L "/usr/$triple" "$out/fuzz/fuzz_$t" \
    -max_total_time="$fuzz_seconds" -max_len=8192 -timeout=60 -rss_limit_mb=4096 \
    -dict=fuzz/collide.dict -detect_leaks="$leak" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/seeds" 2>&1 || rc=$?
  echo "$rc" > "$dir/rc"
  [ -z "$(ls "$dir/artifacts")" ] || return 3
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || return 5
  [ "$rc" -eq 0 ] || grep -q 'INITED' "$out/fuzz-run/$t.log" || return 4
  return "$rc"
}
fallback_one() { # TARGET: its corpus and inputs made from it, through the sanitized driver
  local t=$1 gen=$out/fuzz-run/$1/generated
  rm -rf "$gen"
  mkdir -p "$gen"
  "${PYTHON:-/usr/bin/python3}" - "fuzz/corpus/$t" "$gen" "$fuzz_generated" << 'EOF' || return
# A fixed seed: a few bytes of a corpus input changed, some inputs cut or extended.
import os, random, sys
src, dst, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(1)
names = sorted(os.listdir(src))
for i in range(count):
    with open(os.path.join(src, rng.choice(names)), "rb") as f:
        data = bytearray(f.read() or b"\0")
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    if rng.random() < 0.25:
        data = data[: rng.randrange(1, len(data) + 1)]
    elif rng.random() < 0.25:
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    with open(os.path.join(dst, "gen-%04d" % i), "wb") as f:
        f.write(data)
EOF
  replay_one "$sanitized" "$t" "$gen"
}
fallback() { # TARGET: fallback_one, its result printed; fails the run on a failure
  local log=$out/fuzz-run/$1.fallback.log
  fallback_one "$1" > "$log" 2>&1 ||
    { tail -n 40 "$log" >&2; fail "replay of $1's corpus and inputs made from it (log: $log)"; }
  echo "fuzz $1 (replayed instead): $(tail -n 1 "$log")"
}
