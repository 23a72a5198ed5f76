#!/usr/bin/env bash
# Runs the benchmark binary on one suite and writes its Google Benchmark JSON atomically to
# results/<machine>/<date>-<git rev>.json (a temporary file renamed at the end, so an
# interrupted run leaves nothing half-written).
#   scripts/bench.sh BINARY [SUITE] [extra --benchmark_* options]
# SUITE: smoke, quick (~1 min), default (< 10 min on 2 cores), full (everything).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/bench.sh BINARY [SUITE] [options]}
suite=${2:-default}
shift $(($# >= 2 ? 2 : 1))
machine=$(bash scripts/machine-name.sh)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo norev)
git diff --quiet HEAD -- core bench 2>/dev/null || rev="$rev-dirty"
dir=results/$machine
mkdir -p "$dir"
out=$dir/$(date -u +%Y%m%d-%H%M%S)-$rev.json
tmp=$(mktemp "$dir/.partial.XXXXXX")
trap 'rm -f "$tmp"' EXIT

total=$(COLLIDE_BENCH_SUITE=$suite "$bin" --benchmark_list_tests=true "$@" | wc -l)
echo "bench: suite '$suite', $total benchmarks, machine '$machine' -> $out"
COLLIDE_BENCH_SUITE=$suite COLLIDE_MACHINE=$machine "$bin" \
  --benchmark_out="$tmp" --benchmark_out_format=json "$@"
mv "$tmp" "$out"
trap - EXIT
echo "bench: wrote $out"
