#!/usr/bin/env bash
# Runs the differential fuzzers built by `make fuzz-build` ($FUZZ_O/fuzz_<target>).
#   scripts/fuzz/fuzz.sh check  TARGET...     validates the variables and targets (make runs it
#                                        before building anything)
#   scripts/fuzz/fuzz.sh run    TARGET...     FUZZ_SECONDS each with FUZZ_JOBS processes (-fork);
#                                        new inputs kept in fuzz/corpus-local/<target>/
#   scripts/fuzz/fuzz.sh brief  TARGET...     FUZZ_SECONDS each, one process a target, new inputs
#                                        discarded (what `make test` runs); FUZZ_LANES targets
#                                        side by side (default: the CPU count)
#   scripts/fuzz/fuzz.sh merge  TARGET...     adds the inputs of fuzz/corpus-local/<target>/ that
#                                        reach new edges to fuzz/corpus/
#   scripts/fuzz/fuzz.sh repro  TARGET INPUT  runs one input and prints the same report as a failing
#                                        run; exits 1 while the disagreement stands, 0 once fixed
#
# FUZZ_SECONDS is a wall-clock limit per target: the fuzzer (and all its jobs) is stopped when
# it is reached, corpus loading included. The first disagreement (or crash) stops every job
# and the whole run: its input is minimized (at most FUZZ_MINIMIZE_SECONDS more, default 15;
# 0 keeps it as found), kept as the one crash file in fuzz/artifacts/<target>/ (the other
# crashing inputs the jobs wrote are deleted), and reported: who disagrees (your kernels
# first), the reference's answer, the input and one command that reproduces it with every
# variable of this run (USER_KERNELS included). Targets after it are not run.
#
# Environment: FUZZ_SECONDS, FUZZ_JOBS, FUZZ_MINIMIZE_SECONDS; FUZZ_O (the fuzz build folder,
# default build/fuzz); FUZZ_ARTIFACTS, FUZZ_CORPUS_LOCAL (default fuzz/artifacts and
# fuzz/corpus-local: the failure-path test points them into build/); USER_KERNELS,
# USER_CFLAGS, FUZZ_CC and COLLIDE_BACKEND are only repeated in the reproduce command;
# FUZZ_SEED_CORPUS, a folder whose <target>/ subfolders are read as extra corpora (make fuzz
# SCENE=...).
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/../.."

usage='usage: scripts/fuzz/fuzz.sh check|run|brief|merge TARGET...  or  scripts/fuzz/fuzz.sh repro TARGET INPUT'
mode=${1:-}
case $mode in
  check | run | brief | merge | repro) shift ;;
  *) echo "fuzz: $usage" >&2; exit 2 ;;
esac
build=${FUZZ_O:-build/fuzz}
artifacts=${FUZZ_ARTIFACTS:-fuzz/artifacts}
corpus_local=${FUZZ_CORPUS_LOCAL:-fuzz/corpus-local}
seconds=${FUZZ_SECONDS:-30}
jobs=${FUZZ_JOBS:-$(nproc)}
lanes=${FUZZ_LANES:-$(nproc)}
min_seconds=${FUZZ_MINIMIZE_SECONDS:-15}

whole() { # NAME VALUE MIN: a whole number >= MIN, or a message and exit 2
  [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] ||
    { echo "fuzz: $1=$2: must be a whole number of at least $3" >&2; exit 2; }
}
whole FUZZ_SECONDS "$seconds" 1
whole FUZZ_JOBS "$jobs" 1
[ "$mode" != brief ] && [ "$mode" != check ] || whole FUZZ_LANES "$lanes" 1
whole FUZZ_MINIMIZE_SECONDS "$min_seconds" 0
all_targets=$(bash scripts/fuzz/fuzz-targets.sh)
if [ "$mode" = repro ]; then
  [ $# -eq 2 ] || { echo "fuzz repro: give one target and one input file ($usage)" >&2; exit 2; }
  [ -f "$2" ] || { echo "fuzz repro: $2: no such file" >&2; exit 2; }
fi
[ $# -gt 0 ] || { echo "fuzz: no targets (FUZZ_TARGETS is empty); the targets are:" $all_targets >&2; exit 2; }
targets=("$@")
[ "$mode" != repro ] || targets=("$1")
seen=" "
for target in "${targets[@]}"; do
  grep -qx -- "$target" <<<"$all_targets" || {
    echo "fuzz: '$target' is not a fuzz target; the targets are:" $all_targets \
      "(several: separated by spaces, FUZZ_TARGETS=\"aabb mtd\")" >&2
    exit 2
  }
  [[ $seen != *" $target "* ]] || { echo "fuzz: '$target' is named twice in FUZZ_TARGETS" >&2; exit 2; }
  seen+="$target "
done
[ "$mode" != check ] || exit 0
for target in "${targets[@]}"; do
  [ -x "$build/fuzz_$target" ] || { echo "fuzz: $build/fuzz_$target is missing: run 'make fuzz-build'" >&2; exit 2; }
done

# The failure report: reproduce_command, report_of, reference_lines, print_failure.
. "$(dirname "$self")/fuzz-report.sh"

if [ "$mode" = repro ]; then
  target=${targets[0]}
  log=$2
  report=$(report_of "$build/fuzz_$target" "$2") && {
    echo "fuzz repro $target: $2: every backend agreed"
    exit 0
  }
  print_failure "$target" "$2" "replayed"
  exit 1
fi

# Process groups: each fuzzer runs in its own session, so that stopping it stops its -fork
# jobs too (a job left behind would go on writing crash files).
pid=
stop() {
  [ -n "$pid" ] || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  local k
  for k in 1 2 3 4 5 6 7 8 9 10; do
    kill -0 -- "-$pid" 2>/dev/null || break
    sleep 0.2
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
}
tmpdir=
interrupted() {
  [ -z "$tmpdir" ] || pid=${pid:-${!:-}} # (a fuzzer started, its pid not yet kept)
  stop
  [ -z "$tmpdir" ] || rm -rf "$tmpdir"
  [ -n "${_FUZZ_LANE:-}" ] || { echo; echo "fuzz: interrupted; new inputs found so far are kept (run mode: $corpus_local/)" >&2; }
  exit 130
}
trap interrupted INT TERM
# A lane that ends on an error of its own stops the other lanes too.
[ -z "${_FUZZ_LANE:-}" ] || trap 'rc=$?; [ "$rc" -eq 0 ] || stop_other_lanes' EXIT
common=(-max_len=8192 -timeout=20 -rss_limit_mb=4096 -dict=fuzz/collide.dict -print_final_stats=1)

# "cov ft corp exec/s execs" from the last status line of a libFuzzer log (both the plain
# and the -fork formats); empty before the first one. A -fork parent's own lines ("#N: cov:")
# when it has any: after a job crashes, the parent copies that job's log (its own few
# executions, in the plain format) to the end of its own.
status_of() {
  local lines='^#[0-9]+: cov: [0-9]+'
  grep -qE "$lines" "$1" 2>/dev/null || lines='^#[0-9]+.*cov: [0-9]+'
  grep -E "$lines" "$1" 2>/dev/null | tail -n 1 | sed -nE \
    's/^#([0-9]+)[^0-9].*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*exec\/s:? ([0-9]+).*/\2 \3 \4 \5 \1/p' \
    || true
}
# The oldest crash file a fuzzer wrote into DIR (crash-, leak-, timeout-, oom-; slow-unit-
# files only say an input was slow).
first_crash() {
  find "$1" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) \
    -printf '%T@ %p\n' | sort -n | awk 'NR == 1 { print $2 }'
}
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# Runs a failure's report; in a lane under the lanes' lock, so that two lanes failing at once
# print one report after the other, not line by line.
one_report() { # FUNCTION ARGUMENTS...
  if [ -n "${_FUZZ_LANE_STOP:-}" ]; then
    { flock 9; "$@"; } 9>"$_FUZZ_LANE_STOP.lock"
  else
    "$@"
  fi
}
failed_without_input() { # TARGET EXIT-STATUS LOG
  echo "  $1: the fuzzer failed (exit $2) without a crashing input; the end of $3:"
  tail -n 20 "$3" | sed 's/^/    /'
}
# The summary's "not run" lines for targets[FROM..] (the run stops at the first failure).
not_run_from() { # FROM
  local rest
  for rest in "${targets[@]:$1}"; do summary+=("$(not_run "$rest")"); done
}
# In a lane: tells the other lanes to stop (they poll for the file).
stop_other_lanes() { [ -z "${_FUZZ_LANE_STOP:-}" ] || : >"$_FUZZ_LANE_STOP"; }
# A summary line for a target that was not fuzzed, and why (by default: an earlier failure).
not_run() { # TARGET [REASON]
  printf "%-${width}s not run (%s)" "$1" "${2:-the run stops at the first failure}"
}

width=${_FUZZ_LANE_WIDTH:-0} # (a lane: the whole run's, so that the gathered summary lines align)
for target in "${targets[@]}"; do [ ${#target} -le "$width" ] || width=${#target}; done
n=${#targets[@]}

# brief with lanes: every lane a copy of this script (_FUZZ_LANE set) over every lanes-th
# target, one fuzzer process each, so a 2-CPU machine fuzzes two targets at once and make test
# waits half as long for the same fuzzing. A lane that finds a failure stops the others
# within a quarter second (through the file _FUZZ_LANE_STOP), before it minimizes and reports,
# so the report is not interleaved with their progress; the summary keeps the targets' order.
[ "$lanes" -le "$n" ] || lanes=$n
if [ "$mode" = brief ] && [ "$lanes" -gt 1 ] && [ -z "${_FUZZ_LANE:-}" ]; then
  echo "fuzz brief: $n target(s) in $lanes lanes side by side, at most" \
    "$(clock $(((n + lanes - 1) / lanes * seconds))) of fuzzing (FUZZ_SECONDS=$seconds each, wall" \
    "clock)$([ "$min_seconds" -gt 0 ] && echo " + at most ${min_seconds}s minimizing a failing input")"
  lane_dir=$(mktemp -d "$build/lanes.XXXXXX")
  lane_pids=()
  stop_lanes() {
    local p
    for p in "${lane_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${lane_pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$lane_dir"
  }
  trap 'stop_lanes; echo; echo "fuzz: interrupted (brief runs keep no new inputs)" >&2; exit 130' INT TERM
  start_all=$(date +%s)
  for ((l = 0; l < lanes; l++)); do
    mine=()
    for ((t = l; t < n; t += lanes)); do mine+=("${targets[$t]}"); done
    _FUZZ_LANE="$((l + 1))/$lanes" _FUZZ_LANE_STOP="$lane_dir/stop" _FUZZ_LANE_SUMMARY="$lane_dir/$l" _FUZZ_LANE_WIDTH=$width \
      bash "$self" brief "${mine[@]}" &
    lane_pids+=($!)
  done
  failed=0
  lane_rc=()
  for p in "${lane_pids[@]}"; do
    rc=0
    wait "$p" || rc=$?
    lane_rc+=("$rc")
    [ "$rc" -eq 0 ] || failed=1
  done
  trap - INT TERM
  echo "fuzz brief summary ($(clock $(($(date +%s) - start_all))), $lanes lanes):"
  for ((t = 0; t < n; t++)); do
    l=$((t % lanes))
    line=$(grep -m 1 -h -- "^${targets[$t]} " "$lane_dir/$l" 2>/dev/null || true)
    if [ -z "$line" ] && [ ! -e "$lane_dir/$l" ]; then
      line=$(not_run "${targets[$t]}" "lane $((l + 1)) ended with exit status ${lane_rc[$l]} before its summary")
    fi
    [ -n "$line" ] || line=$(not_run "${targets[$t]}")
    printf '  %s\n' "$line"
  done
  rm -rf "$lane_dir"
  exit "$failed"
fi
run_start=$(date +%s)
lane_tag=${_FUZZ_LANE:+lane $_FUZZ_LANE: }
summary=()
failed=0
k=0
if [ "$mode" != merge ] && [ -z "${_FUZZ_LANE:-}" ]; then
  echo "fuzz $mode: $n target(s), at most $(clock $((n * seconds))) of fuzzing (FUZZ_SECONDS=$seconds each, wall" \
    "clock)$([ "$min_seconds" -gt 0 ] && echo " + at most ${min_seconds}s minimizing a failing input")"
fi
for target in "${targets[@]}"; do
  k=$((k + 1))
  if [ -n "${_FUZZ_LANE_STOP:-}" ] && [ -e "$_FUZZ_LANE_STOP" ]; then
    not_run_from $((k - 1))
    break
  fi
  bin=$build/fuzz_$target
  log=$build/logs/$target.$mode.log
  mkdir -p "$build/logs" "$artifacts/$target" "fuzz/corpus/$target"

  if [ "$mode" = merge ]; then
    mkdir -p "$corpus_local/$target"
    before=$(find "fuzz/corpus/$target" -type f | wc -l)
    echo "fuzz merge [$k/$n] $target: $(find "$corpus_local/$target" -type f | wc -l) new inputs against $before"
    # Kept: the inputs that reach an edge the corpus does not (-use_counters=0: new hit counts
    # of known edges do not count). With them the broadphase corpus doubled after a CPU-hour,
    # and loading it took most of a brief run; corpus-local/ keeps every input found.
    "$bin" "${common[@]}" -merge=1 -use_counters=0 "fuzz/corpus/$target" \
      "$corpus_local/$target" >"$log" 2>&1 ||
      { echo "fuzz merge $target: the fuzzer failed; the end of $log:" >&2; tail -n 20 "$log" >&2; exit 1; }
    echo "fuzz merge [$k/$n] $target: corpus $before -> $(find "fuzz/corpus/$target" -type f | wc -l) files"
    continue
  fi

  if [ "$mode" = run ]; then
    new=$corpus_local/$target
    extra=()
    [ "$jobs" -eq 1 ] || extra=(-fork="$jobs")
  else
    new=$build/brief-corpus/$target
    rm -rf "$new"
    extra=()
  fi
  mkdir -p "$new"
  # Crashes go to a folder of this run's own; the first is kept, the rest deleted.
  tmpdir=$(mktemp -d "$build/crashes.XXXXXX")
  mkdir "$tmpdir/tmp"
  echo "fuzz $mode [$lane_tag$k/$n] $target: ${seconds}s$([ "$mode" = run ] && echo ", $jobs jobs"), log $log"
  start=$(date +%s)
  # (TMPDIR: -fork's job folders go with the run's own folder, also when it is stopped.)
  # FUZZ_SEED_CORPUS/<target>/ (make fuzz SCENE=...: inputs made from scene files) is read as
  # a third corpus folder; new inputs still go to the first.
  seeded=()
  [ -z "${FUZZ_SEED_CORPUS:-}" ] || [ ! -d "$FUZZ_SEED_CORPUS/$target" ] ||
    seeded=("$FUZZ_SEED_CORPUS/$target")
  TMPDIR=$PWD/$tmpdir/tmp setsid "$bin" "${common[@]}" "${extra[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$tmpdir/" "$new" "fuzz/corpus/$target" "${seeded[@]}" >"$log" 2>&1 &
  pid=$!
  first=
  stopped=
  last_print=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.25
    first=$(first_crash "$tmpdir")
    if [ -z "$first" ] && [ -n "${_FUZZ_LANE_STOP:-}" ] && [ -e "$_FUZZ_LANE_STOP" ]; then
      stopped=lane
      stop
      break
    fi
    if [ -n "$first" ]; then
      stop_other_lanes
      # Let the fuzzer finish writing it and exit on its own (a fork job's crash ends the
      # run), then stop whatever is left.
      for wait_tick in 1 2 3 4 5 6 7 8; do kill -0 "$pid" 2>/dev/null && sleep 0.25; done
      stopped=crash
      stop
      break
    fi
    now=$(date +%s)
    if [ $((now - start)) -ge "$seconds" ]; then stopped=time; stop; break; fi
    [ $((now - last_print)) -ge 5 ] && [ $((now - start)) -gt 0 ] || continue
    last_print=$now
    read -r cov ft corp eps execs <<<"$(status_of "$log")"
    left=$(((n - k) * seconds + seconds - (now - start)))
    if [ -z "${execs:-}" ]; then
      progress="loading the corpus ($(find "fuzz/corpus/$target" -type f | wc -l) inputs)"
    else
      progress="execs $execs  exec/s $eps  cov $cov  ft $ft  corpus $corp"
    fi
    printf '  [%s%d/%d %s] %3ss  %s  [elapsed %s, ETA %s]\n' "$lane_tag" "$k" "$n" "$target" \
      "$((now - start))" "$progress" "$(clock $((now - run_start)))" "$(clock "$left")"
  done
  rc=0
  if [ -n "$pid" ]; then wait "$pid" || rc=$?; fi
  pid=
  elapsed=$(($(date +%s) - start))
  [ -n "$first" ] || first=$(first_crash "$tmpdir")
  read -r cov ft corp eps execs <<<"$(status_of "$log")"
  total_execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | tail -n1 | grep -Eo '[0-9]+$' || true)
  # (A -fork parent's own final count is 0: its jobs ran the inputs; take the larger.)
  execs=${execs:--}
  [ "${total_execs:-0}" -eq 0 ] || { [ "$execs" != - ] && [ "$total_execs" -le "$execs" ]; } || execs=$total_execs
  # (A -fork parent's last line reads 0 exec/s once its jobs are done: the run's mean instead.)
  if [ "$execs" != - ] && [ "$elapsed" -gt 0 ] && [ "${eps:-0}" = 0 ]; then eps=$((execs / elapsed)); fi
  result=ok
  if [ -n "$first" ]; then
    result=FAILED
    # (Also here: a fuzzer that fails on the corpus may exit before the loop above sees it.)
    stop_other_lanes
    others=$(($(find "$tmpdir" -maxdepth 1 -type f ! -name 'slow-unit-*' | wc -l) - 1))
    kept=$artifacts/$target/$(basename "$first")
    mv "$first" "$kept"
    how="found after ${elapsed}s"
    [ "$others" -le 0 ] || how+="; $others more crashing inputs of this run deleted"
    if [ "$min_seconds" -gt 0 ]; then
      # libFuzzer's crash minimization (shorter inputs; each step at most 2 s) for up to two
      # thirds of FUZZ_MINIMIZE_SECONDS, then scripts/fuzz/fuzz-shrink.py lowers byte values (counts,
      # grid values) in the rest; whatever they reached by then is the input reported.
      small=$tmpdir/minimized
      mstart=$(date +%s)
      cp "$kept" "$small"
      setsid "$bin" -minimize_crash=1 -max_total_time=2 -exact_artifact_path="$small" \
        "$kept" >"$build/logs/$target.minimize.log" 2>&1 &
      pid=$!
      while kill -0 "$pid" 2>/dev/null && [ $(($(date +%s) - mstart)) -lt $((min_seconds * 2 / 3 + 1)) ]; do
        sleep 0.25
      done
      stop
      "$bin" -runs=1 -timeout=20 "$small" >/dev/null 2>&1 && cp "$kept" "$small"
      left=$((min_seconds - ($(date +%s) - mstart)))
      [ "$left" -le 0 ] || "${PYTHON:-/usr/bin/python3}" scripts/fuzz/fuzz-shrink.py "$bin" "$small" \
        "$small" "$left" >>"$build/logs/$target.minimize.log" 2>&1 ||
        { echo "  $target: the input shrinker failed; see $build/logs/$target.minimize.log"; cp "$kept" "$small"; }
      before=$(wc -c <"$kept")
      after=$(wc -c <"$small")
      if ! cmp -s "$small" "$kept" && ! "$bin" -runs=1 -timeout=20 "$small" >/dev/null 2>&1; then
        final=$artifacts/$target/crash-$(sha1sum "$small" | cut -c1-40)
        mv "$small" "$final"
        [ "$final" = "$kept" ] || rm -f "$kept"
        kept=$final
        how+="; minimized in $(($(date +%s) - mstart))s: $before -> $after bytes, values lowered"
      else
        how+="; not minimized (nothing smaller failed within ${min_seconds}s)"
      fi
    fi
    one_report print_failure "$target" "$kept" "$how"
    failed=1
  elif [ "$stopped" = lane ]; then
    result=stopped
  elif [ "$rc" -ne 0 ] && [ "$stopped" != time ]; then
    result=FAILED
    failed=1
    stop_other_lanes
    one_report failed_without_input "$target" "$rc" "$log"
  fi
  rm -rf "$tmpdir"
  tmpdir=
  summary+=("$(printf "%-${width}s %-7s %5ss %10s execs %8s exec/s  cov %5s  ft %6s  corpus %5s" \
    "$target" "$result" "$elapsed" "$execs" "${eps:--}" "${cov:--}" "${ft:--}" "${corp:--}")")
  if [ "$failed" -ne 0 ] || [ "$stopped" = lane ]; then
    not_run_from "$k"
    break
  fi
done

if [ -n "${_FUZZ_LANE_SUMMARY:-}" ]; then
  printf '%s\n' "${summary[@]}" >"$_FUZZ_LANE_SUMMARY"
elif [ "$mode" != merge ]; then
  echo "fuzz $mode summary ($(clock $(($(date +%s) - run_start)))):"
  printf '  %s\n' "${summary[@]}"
fi
exit "$failed"
