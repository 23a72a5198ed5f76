#!/usr/bin/env bash
# The digest's seeded-bug self-test (`make digest-selftest`): a one-ulp change in one backend's
# source must change that backend's hash and make the golden check fail, naming the kernel, the
# backend and the first differing input with both answers. For each bug below: copy the tree to
# build/digest-selftest/<bug>/, apply the bug, build the copy's collide-digest and run
# `make digest-check` there; it must exit 1 and its report must name the backend and an input.
#   scripts/check/digest-selftest.sh           every bug
#   scripts/check/digest-selftest.sh --check   only that each bug's sed still changes its file (make test)
set -euo pipefail
cd "$(dirname "$0")/../.."

# name @ file @ backend that must be named @ sed expression (must change the file) @ what
bugs=(
  "avx2-div-by-reciprocal@core/src/x86/avx2.c@avx2@s/static inline vf vf_div(vf a, vf b) { return simde_mm256_div_ps(a, b); }/static inline vf vf_div(vf a, vf b) { return simde_mm256_mul_ps(a, simde_mm256_div_ps(simde_mm256_set1_ps(1.0f), b)); }/@AVX2's division as a times 1/b (one rounding more: up to an ulp off)"
)

case "${1:-}" in
  "" | --check) ;;
  *)
    echo "digest-selftest: unknown argument '$1' (none: the self-test; --check: only that each bug applies)" >&2
    exit 2
    ;;
esac

if [ "${1:-}" = --check ]; then
  stale=0
  for spec in "${bugs[@]}"; do
    IFS='@' read -r name file _ expr _ <<<"$spec"
    if ! mutated=$(sed -e "$expr" "$file" 2>&1); then
      echo "digest-selftest: the '$name' sed fails on $file: $mutated" >&2
    elif [ "$mutated" != "$(cat "$file")" ]; then
      continue
    else
      echo "digest-selftest: the '$name' bug no longer applies to $file: update scripts/check/digest-selftest.sh" >&2
    fi
    stale=1
  done
  [ "$stale" -eq 0 ] && echo "digest-selftest --check: all ${#bugs[@]} seeded bugs apply"
  exit "$stale"
fi

found=0
for spec in "${bugs[@]}"; do
  IFS='@' read -r name file backend expr what <<<"$spec"
  start=$SECONDS
  dir=build/digest-selftest/$name
  rm -rf "$dir"
  scripts/build/copy-sources.sh . "$dir"
  sed -i -e "$expr" "$dir/$file"
  if cmp -s "$file" "$dir/$file"; then
    echo "digest-selftest: the '$name' bug no longer applies to $file: update scripts/check/digest-selftest.sh" >&2
    exit 1
  fi
  log=$dir/selftest.log
  echo "digest-selftest: $name ($what): building the copy's digest ..."
  if ! make -C "$dir" --no-print-directory -j"$(nproc)" O=build/test build/test/collide-digest > "$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "digest-selftest: the copy with '$name' did not build (log: $log)" >&2
    exit 1
  fi
  rc=0
  make -C "$dir" --no-print-directory O=build/test digest-check > "$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] && grep -q "DIFFERS: .* on $backend differs from .* on scalar" "$log" &&
    grep -q "the first is input [0-9]" "$log" && grep -q "DIFFERS from tools/digest/golden.txt: .* on $backend" "$log"; then
    first=$(grep -m1 "DIFFERS: .* on $backend " "$log")
    echo "digest-selftest: $name: found in $((SECONDS - start)) s: ${first#collide-digest: }"
    found=$((found + 1))
  else
    tail -n 30 "$log" >&2
    echo "digest-selftest: $name NOT found: make digest-check exited $rc without naming $backend and an input (log: $log)" >&2
    exit 1
  fi
done
echo "digest-selftest: ${found}/${#bugs[@]} seeded bugs found by the golden digest check"
