#!/usr/bin/env bash
# Runs the benchmark binary on one suite, writes its Google Benchmark JSON atomically (a
# temporary file renamed at the end: an interrupted run leaves nothing half-written), then
# writes its report.
#   scripts/bench.sh BINARY [SUITE] [extra --benchmark_* options]
# SUITE: smoke, quick (<= 2 min on 2 cores), default (<= 10 min), full (everything).
# A complete default or full run (no --benchmark_filter) goes to results/<machine>/ and
# regenerates results/REPORT.md and results/plots/ (from the newest complete run per machine).
# Any other run (quick, smoke, filtered) goes to results/<machine>/partial/ with its own report
# beside its JSON (<name>.md, <name>-plots/), and leaves the committed report alone.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/bench.sh BINARY [SUITE] [options]}
suite=${2:-default}
shift $(($# >= 2 ? 2 : 1))
python=${PYTHON:-/usr/bin/python3}

case $suite in
  smoke | quick | default | full) ;;
  *) echo "bench: BENCH=$suite: not a suite; use quick (2 min), default (10 min) or full" >&2; exit 2 ;;
esac
complete=no
if [ "$suite" = default ] || [ "$suite" = full ]; then complete=yes; fi
for arg in "$@"; do
  case $arg in --benchmark_filter=*) complete=no ;; esac
done

machine=$(bash scripts/machine-name.sh)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo norev)
git diff --quiet HEAD -- core bench 2>/dev/null || rev="$rev-dirty"
dir=results/$machine
[ "$complete" = yes ] || dir=$dir/partial
mkdir -p "$dir"
stamp=$(date -u +%Y%m%d-%H%M%S)-$rev
[ "$complete" = yes ] || stamp=$stamp-$suite
out=$dir/$stamp.json
tmp=$(mktemp "$dir/.partial.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'echo; echo "bench: interrupted; nothing written (the partial results were removed)" >&2; exit 130' INT TERM

total=$(COLLIDE_BENCH_SUITE=$suite "$bin" --benchmark_list_tests=true "$@" 2>/dev/null | wc -l)
[ "$total" -gt 0 ] || { echo "bench: no benchmark matches: $*" >&2; exit 2; }
echo "bench: suite '$suite', $total benchmarks, machine '$machine' -> $out"
COLLIDE_BENCH_SUITE=$suite COLLIDE_MACHINE=$machine COLLIDE_BENCH_TOTAL=$total "$bin" \
  --benchmark_out="$tmp" --benchmark_out_format=json "$@"
chmod 0644 "$tmp"
mv "$tmp" "$out"
trap - EXIT INT TERM
echo "bench: wrote $out"

if [ "$complete" = yes ]; then
  "$python" scripts/report.py
else
  "$python" scripts/report.py --input "$out" --output "$dir/$stamp.md" --plots "$dir/$stamp-plots"
  echo "bench: this was a $suite$( [ "$suite" = default ] || [ "$suite" = full ] && echo ', filtered') run:" \
    "results/REPORT.md is left as it is (only a complete default or full run replaces it)"
fi
