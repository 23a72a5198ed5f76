#!/usr/bin/env bash
# The cross-tests' seeded-bug self-test (`make cross-selftest`): bugs that only another target
# compiles, which x86-64's make test cannot see, must be found by that target's cross-test.
#  - Native-only code (neon.c's SIMDE_ARM_NEON_A64V8_NATIVE block) is not in its emulated twin,
#    so x86 fuzzing cannot reach it: only `make cross-test ARCH=arm64`, where neon runs natively
#    under qemu, can. The named corpora are replayed (CROSS_ONLY) and the report must name the
#    native backend as differing and not its emulated twin (which shares everything else).
#  - A one-ulp change in the scalar reference that only 32-bit targets compile (sizeof(void *)
#    is 4: i386, armhf, wasm32) must be found by the golden digest of `make cross-test
#    ARCH=armhf` (CROSS_STAGES=digest), naming the kernel, the scalar backend and the input.
# For each bug below: copy the tree to build/cross-selftest/<bug>/, apply the bug, run that
# copy's cross-test of the bug's target. Prints the time each bug took to be found (the cross
# build included); exits non-zero unless every bug is found. SELFTEST_ONLY=name,name runs only
# those.
set -euo pipefail
cd "$(dirname "$0")/../.."

# name @ target @ file @ corpora, or digest @ backend that must differ @ sed expression (must
# change the file) @ what. Corpora: the backend is read from the report's lines "<backend> ...
# <- DIFFERS from scalar", as the aabb, mtd, sprite and sweep targets print them. digest: the
# golden check must name "<kernel> on <backend>" and the first differing input of that kernel.
bugs=(
  "neon-any-low-lanes@arm64@core/src/arm/neon.c@aabb@neon@s/simde_vget_lane_u64(simde_vreinterpret_u64_u16(simde_vmovn_u32(m)), 0)/simde_vget_lane_u32(simde_vreinterpret_u32_u16(simde_vmovn_u32(m)), 0)/@the native NEON any-lane test reads lanes 0 and 1 only (neon-emu keeps the portable test)"
  "elastic-div-32bit@armhf@core/src/circle_ref.h@digest@scalar@s|\*v1x = (ax \* d12 + two_m2 \* bx) / sum;|*v1x = sizeof(void *) == 4 ? (ax * d12 + two_m2 * bx) * (1.0f / sum) : (ax * d12 + two_m2 * bx) / sum;|@the scalar reference's elastic response divides by multiplying with 1 / sum on 32-bit targets only (one rounding more: up to an ulp off)"
)

# --check: only confirm that each bug's sed still changes its file, and stop (make test runs it).
case "${1:-}" in
  "" | --check) ;;
  *) echo "cross-selftest: unknown argument '$1' (none: the self-test; --check: only that each bug applies)" >&2; exit 2 ;;
esac
if [ "${1:-}" = --check ]; then
  stale=0
  for spec in "${bugs[@]}"; do
    IFS='@' read -r name _ file _ _ expr _ <<<"$spec"
    if ! mutated=$(sed -e "$expr" "$file" 2>&1); then
      echo "cross-selftest: the '$name' sed fails on $file: $mutated" >&2
    elif [ "$mutated" != "$(cat "$file")" ]; then
      continue
    else
      echo "cross-selftest: the '$name' bug no longer applies to $file: update scripts/check/cross-selftest.sh" >&2
    fi
    stale=1
  done
  [ "$stale" -eq 0 ] && echo "cross-selftest --check: all ${#bugs[@]} seeded bugs apply"
  exit "$stale"
fi

rows=()
found=0
total=0
for spec in "${bugs[@]}"; do
  IFS='@' read -r name arch file corpora backend expr what <<<"$spec"
  if [ -n "${SELFTEST_ONLY:-}" ] && [[ ",$SELFTEST_ONLY," != *",$name,"* ]]; then continue; fi
  total=$((total + 1))
  dir=build/cross-selftest/$name
  rm -rf "$dir"
  scripts/build/copy-sources.sh . "$dir"
  # The foreign libraries are shared: the copy's cross-test finds them where it looks.
  [ -d "build/sysroot-$arch" ] && ln -s "$PWD/build/sysroot-$arch" "$dir/build/sysroot-$arch"
  sed -i -e "$expr" "$dir/$file"
  if cmp -s "$file" "$dir/$file"; then
    echo "cross-selftest: the '$name' bug no longer applies to $file: update scripts/check/cross-selftest.sh" >&2
    exit 2
  fi
  printf 'cross-selftest: %-20s (%s, %s) ... ' "$name" "$arch" \
    "$([ "$corpora" = digest ] && echo 'the golden digest' || echo "corpora: $corpora")"
  start=$SECONDS
  set +e
  if [ "$corpora" = digest ]; then
    CROSS_O=build/cross-$arch CROSS_STAGES=digest bash "$dir/scripts/check/cross-test.sh" "$arch" \
      > "$dir/cross.log" 2>&1
  else
    CROSS_O=build/cross-$arch CROSS_ONLY=$corpora bash "$dir/scripts/check/cross-test.sh" "$arch" \
      > "$dir/cross.log" 2>&1
  fi
  rc=$?
  set -e
  secs=$((SECONDS - start))
  if grep -q 'FAILED: the build' "$dir/cross.log"; then
    echo "does not build" >&2
    echo "cross-selftest: the '$name' variant does not build; see $dir/cross.log" >&2
    exit 2
  fi
  if [ "$corpora" = digest ]; then
    # The kernel the golden check names on the backend, and that kernel's first differing input.
    kernel=$(sed -n "s/^collide-digest: DIFFERS from [^:]*: \([^ ]*\) on $backend: .*/\1/p;T;q" "$dir/cross.log")
    input=$(sed -n "s/^${kernel:-none} on $backend: the first input whose answers differ from this machine's: \([0-9]*\)$/\1/p" "$dir/cross.log")
    if [ "$rc" -ne 0 ] && [ -n "$kernel" ] && [ -n "$input" ]; then
      found=$((found + 1))
      result="found in ${secs}s by the golden digest: $kernel on $backend, input $input"
    else
      result="NOT FOUND (${secs}s, exit $rc, kernel: ${kernel:-none}, input: ${input:-none}; log: $dir/cross.log)"
    fi
  else
    # The backends named as differing from scalar in the failing replay's report.
    differ=$(sed -n 's/^ *\([a-z0-9:_-]*\) .*DIFFERS from scalar$/\1/p' "$dir/cross.log" | sort -u |
      paste -s -d ' ')
    failed=$(sed -n '/.*FAILED: \(replay [a-z]*\).*/{s//\1/p;q}' "$dir/cross.log")
    if [ "$rc" -ne 0 ] && grep -q 'DISAGREEMENT' "$dir/cross.log" &&
      [[ " $differ " == *" $backend "* ]] && [[ " $differ " != *" $backend-emu "* ]]; then
      found=$((found + 1))
      result="found in ${secs}s by $failed: $differ differs, $backend-emu agrees"
    else
      result="NOT FOUND (${secs}s, exit $rc, differing: ${differ:-none}; log: $dir/cross.log)"
    fi
  fi
  echo "$result"
  rows+=("$(printf '%-20s %s\n  %-20s %s' "$name ($arch)" "$result" "" "$what")")
done

[ "$total" -gt 0 ] || { echo "cross-selftest: no bug named '$SELFTEST_ONLY'" >&2; exit 2; }
echo
echo "cross-selftest: seeded bugs that only another target compiles, each found by its make cross-test:"
printf '  %s\n' "${rows[@]}"
echo "cross-selftest: kill rate $found/$total ($((100 * found / total))%)"
[ "$found" -eq "$total" ]
