#!/usr/bin/env bash
# Runs the differential fuzzers built by `make fuzz-build` (build/fuzz/fuzz_<target>).
#   scripts/fuzz.sh run    TARGET...  FUZZ_SECONDS each with FUZZ_JOBS processes (-fork);
#                                     new inputs kept in fuzz/corpus-local/<target>/
#   scripts/fuzz.sh brief  TARGET...  FUZZ_SECONDS each, one process, new inputs discarded
#                                     (what `make test` runs)
#   scripts/fuzz.sh merge  TARGET...  adds the inputs of fuzz/corpus-local/<target>/ that reach
#                                     new edges to fuzz/corpus/
# Crashes (a disagreement aborts) are stored in fuzz/artifacts/<target>/. For each target that
# failed, the first crashing input's report is printed here with one command to reproduce it
# (also kept in <input>.REPRODUCE); further crashing inputs of that run are only counted.
# Environment: FUZZ_SECONDS (per target, a positive integer), FUZZ_JOBS (processes in run mode).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:?usage: scripts/fuzz.sh run|brief|merge TARGET...}
shift
seconds=${FUZZ_SECONDS:-30}
jobs=${FUZZ_JOBS:-$(nproc)}
positive() { [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] ||
  { echo "fuzz: $1=$2: must be a positive whole number" >&2; exit 2; }; }
[ $# -gt 0 ] || { echo "fuzz: no targets (FUZZ_TARGETS is empty)" >&2; exit 2; }
positive FUZZ_SECONDS "$seconds"
positive FUZZ_JOBS "$jobs"
for target in "$@"; do
  [ -f "fuzz/fuzz_$target.c" ] || {
    echo "fuzz: '$target' is not a fuzz target; the targets are:" \
      "$(bash scripts/fuzz-targets.sh | tr '\n' ' ')" >&2
    exit 2
  }
done
pid=
interrupted() {
  [ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }
  echo
  echo "fuzz: interrupted; new inputs found so far are kept (run mode: fuzz/corpus-local/)" >&2
  exit 130
}
trap interrupted INT TERM
common=(-max_len=8192 -timeout=20 -rss_limit_mb=4096 -dict=fuzz/collide.dict -print_final_stats=1)

# "cov ft corp exec/s execs" from the last status line of a libFuzzer log (both the plain
# and the -fork formats).
status_of() {
  grep -E '^#[0-9]+.*cov: [0-9]+' "$1" 2>/dev/null | tail -n 1 | sed -nE \
    's/^#([0-9]+)[^0-9].*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*exec\/s:? ([0-9]+).*/\2 \3 \4 \5 \1/p' \
    || true
}

summary=()
failed=0
for target in "$@"; do
  bin=build/fuzz/fuzz_$target
  [ -x "$bin" ] || { echo "fuzz: $bin is missing: run 'make fuzz-build'" >&2; exit 2; }
  log=build/fuzz/logs/$target.$mode.log
  mkdir -p build/fuzz/logs "fuzz/artifacts/$target" "fuzz/corpus/$target"

  if [ "$mode" = merge ]; then
    mkdir -p "fuzz/corpus-local/$target"
    before=$(ls "fuzz/corpus/$target" | wc -l)
    # Kept: the inputs that reach an edge the corpus does not (-use_counters=0: new hit counts
    # of known edges do not count). With them the broadphase corpus doubled after a CPU-hour,
    # and loading it took most of a brief run; corpus-local/ keeps every input found.
    "$bin" "${common[@]}" -merge=1 -use_counters=0 "fuzz/corpus/$target" \
      "fuzz/corpus-local/$target" >"$log" 2>&1
    echo "fuzz merge $target: corpus $before -> $(ls "fuzz/corpus/$target" | wc -l) files"
    continue
  fi

  if [ "$mode" = run ]; then
    new=fuzz/corpus-local/$target
    extra=(-fork="$jobs")
  else
    new=build/fuzz/brief-corpus/$target
    rm -rf "$new"
    extra=()
  fi
  mkdir -p "$new"
  marker=$(mktemp)
  echo "fuzz $mode $target: ${seconds}s$([ "$mode" = run ] && echo ", $jobs jobs"), log $log"
  set +e
  "$bin" "${common[@]}" "${extra[@]}" -max_total_time="$seconds" \
    -artifact_prefix="fuzz/artifacts/$target/" "$new" "fuzz/corpus/$target" >"$log" 2>&1 &
  pid=$!
  start=$(date +%s)
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    kill -0 "$pid" 2>/dev/null || break
    [ $((($(date +%s) - start) % 5)) -eq 0 ] || continue
    read -r cov ft corp eps execs <<<"$(status_of "$log")"
    printf '  [%s] %3ss  execs %s  exec/s %s  cov %s  ft %s  corpus %s\n' "$target" \
      "$(($(date +%s) - start))" "${execs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
  done
  wait "$pid"
  rc=$?
  pid=
  set -e
  elapsed=$(($(date +%s) - start))
  read -r cov ft corp eps execs <<<"$(status_of "$log")"
  total_execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | tail -n1 | grep -Eo '[0-9]+$' || true)
  execs=${total_execs:-${execs:-0}}
  result=ok
  crashes=$(find "fuzz/artifacts/$target" -type f -newer "$marker" ! -name '*.REPRODUCE' 2>/dev/null)
  rm -f "$marker"
  if [ "$rc" -ne 0 ] || [ -n "$crashes" ]; then
    result=FAILED
    failed=1
    # The first crashing input (oldest), its report, one way to reproduce it; the rest counted.
    first=
    [ -z "$crashes" ] || first=$(ls -tr $crashes | head -n 1)
    others=$(($(echo "$crashes" | grep -c . || true) - 1))
    if [ -z "$first" ]; then
      echo "  $target: the fuzzer failed without a crashing input; the end of $log:"
      tail -n 20 "$log" | sed 's/^/    /'
    else
      cat >"$first.REPRODUCE" <<REPRO
# $target: found by 'scripts/fuzz.sh $mode' on $(date -u +%Y-%m-%dT%H:%M:%SZ)
# replay under libFuzzer (prints the disagreement report):
$bin $first
# replay with the plain driver (gcc, no libFuzzer):
make build/test/replay_$target O=build/test && build/test/replay_$target $first
# once fixed, keep it as a regression input that make test replays:
cp $first fuzz/corpus/$target/regress-$(basename "$first")
REPRO
      echo "  $target: DISAGREEMENT or crash; report for $first:"
      report=$("$bin" "$first" 2>&1 | grep -vE '^(INFO|Executed|\*\*\*|MS:|base unit|0x|==)' || true)
      echo "$report" | head -n 50 | sed 's/^/    /'
      [ "$(echo "$report" | wc -l)" -le 50 ] || echo "    ... ($(echo "$report" | wc -l) lines in all: run the command below for the rest)"
      echo "  reproduce: $bin $first"
      [ "$others" -le 0 ] || echo "  ($others more crashing inputs from this run in fuzz/artifacts/$target/, not shown)"
    fi
  fi
  summary+=("$(printf '%-7s %-7s %5ss %10s execs %8s exec/s  cov %5s  ft %6s  corpus %5s' \
    "$target" "$result" "$elapsed" "$execs" "${eps:-0}" "${cov:-?}" "${ft:-?}" "${corp:-?}")")
done

if [ "$mode" != merge ]; then
  echo "fuzz $mode summary:"
  printf '  %s\n' "${summary[@]}"
fi
exit "$failed"
