#!/usr/bin/env bash
# Executions per second of the fuzz targets (`make fuzz-speed`; FUZZ_TARGETS picks some): each
# fuzzer alone, one process, sanitized as `make fuzz` builds it, for FUZZ_SPEED_SECONDS (default
# 10) from its committed corpus, which it reads first (that load is counted: it is what a brief
# run spends its first seconds on); new inputs go to a scratch folder, so the corpus is left as
# it is. The rate is libFuzzer's count of executed inputs over the seconds given. Prints one
# line per target, then a table with the machine (the benchmark's machine name, with the TSC
# rate, when build/release/collide-bench exists) and the load average, for docs/fuzzing-runs.md.
# Run it on a quiet machine: a second process on the same core halves every rate.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SPEED_SECONDS:-10}
case "$seconds" in
  '' | *[!0-9]* | 0) echo "fuzz-speed: FUZZ_SPEED_SECONDS must be a whole number of seconds, 1 or more (got '$seconds')" >&2; exit 2 ;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || read -r -a targets <<< "$(bash scripts/fuzz/fuzz-targets.sh | tr '\n' ' ')"
known=" $(bash scripts/fuzz/fuzz-targets.sh | tr '\n' ' ')"
for t in "${targets[@]}"; do
  case "$known" in
    *" $t "*) ;;
    *) echo "fuzz-speed: no fuzz target '$t' (the targets:$known)" >&2; exit 2 ;;
  esac
done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/collide-fuzz-speed.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
machine=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')
ident=$(awk -F': ' '/^vendor_id/ {v=$2} /^cpu family/ {f=$2} /^model\t/ {m=$2} /^stepping/ {s=$2} END {printf "%s family %s model %s stepping %s", v, f, m, s}' /proc/cpuinfo)
if [ -x build/release/collide-bench ]; then
  name=$(timeout 60 build/release/collide-bench --collide_machine_name 2>/dev/null | tail -1 || true)
  [ -z "$name" ] || ident="$ident; $name"
fi
rows=()
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<< "$1"; }
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  bin=build/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz-speed: $bin is not built (make fuzz-build FUZZ_TARGETS=$t)" >&2; exit 2; }
  mkdir -p "$scratch/$t"
  printf 'fuzz-speed: %s (%d of %d, %ss) ... ' "$t" $((i + 1)) ${#targets[@]} "$seconds"
  log=$scratch/$t.log
  if ! "$bin" -max_total_time="$seconds" -max_len=8192 -timeout=20 -rss_limit_mb=4096 \
       -dict=fuzz/collide.dict -print_final_stats=1 -artifact_prefix="$scratch/" \
       "$scratch/$t" "fuzz/corpus/$t" > "$log" 2>&1; then
    echo "FAILED"
    tail -20 "$log" >&2
    echo "fuzz-speed: the $t fuzzer stopped with a finding; run make fuzz FUZZ_TARGETS=$t" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  files=$(find "fuzz/corpus/$t" -type f | wc -l)
  rate=$((runs / seconds))
  echo "$rate exec/s ($runs inputs, corpus of $files)"
  rows+=("| \`$t\` | $(commas "$rate") | $(commas "$files") |")
done
echo
echo "Executions per second, ${seconds} s each from the committed corpus, one process, sanitized;"
echo "$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)'),"
echo "$machine ($ident), $(nproc) CPUs, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| target | exec/s | corpus files |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
