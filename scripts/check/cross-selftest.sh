#!/usr/bin/env bash
# The seeded-bug self-test of native-only code (`make cross-selftest`). Code that only the
# native build of an ISA file compiles (neon.c's SIMDE_ARM_NEON_A64V8_NATIVE block) is not in
# its emulated twin, so x86 fuzzing cannot reach it: only `make cross-test ARCH=arm64`, where
# neon runs natively under qemu, can. For each bug below: copy the tree to
# build/cross-selftest/<bug>/, apply the bug, and run that copy's cross-test on the named
# corpora only (CROSS_ONLY), expecting a disagreement that names the native backend and not
# its emulated twin (which shares everything but the native-only code). Prints the time each
# bug took to be found (the cross build included); exits non-zero unless every bug is found.
# SELFTEST_ONLY=name,name runs only those.
set -euo pipefail
cd "$(dirname "$0")/../.."
arch=arm64

# name @ file @ corpora @ backend that must differ @ sed expression (must change the file) @ what
# (the backend is read from the report's lines "<backend> ... <- DIFFERS from scalar", as the
# aabb, mtd, sprite and sweep targets print them)
bugs=(
  "neon-any-low-lanes@core/src/arm/neon.c@aabb@neon@s/simde_vget_lane_u64(simde_vreinterpret_u64_u16(simde_vmovn_u32(m)), 0)/simde_vget_lane_u32(simde_vreinterpret_u32_u16(simde_vmovn_u32(m)), 0)/@the native NEON any-lane test reads lanes 0 and 1 only (neon-emu keeps the portable test)"
)

# --check: only confirm that each bug's sed still changes its file, and stop (make test runs it).
case "${1:-}" in
  "" | --check) ;;
  *) echo "cross-selftest: unknown argument '$1' (none: the self-test; --check: only that each bug applies)" >&2; exit 2 ;;
esac
if [ "${1:-}" = --check ]; then
  stale=0
  for spec in "${bugs[@]}"; do
    IFS='@' read -r name file _ _ expr _ <<<"$spec"
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
  IFS='@' read -r name file corpora backend expr what <<<"$spec"
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
  printf 'cross-selftest: %-20s (%s, corpora: %s) ... ' "$name" "$arch" "$corpora"
  start=$SECONDS
  set +e
  CROSS_O=build/cross-$arch CROSS_ONLY=$corpora bash "$dir/scripts/check/cross-test.sh" "$arch" \
    > "$dir/cross.log" 2>&1
  rc=$?
  set -e
  secs=$((SECONDS - start))
  if grep -q 'FAILED: the build' "$dir/cross.log"; then
    echo "does not build" >&2
    echo "cross-selftest: the '$name' variant does not build; see $dir/cross.log" >&2
    exit 2
  fi
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
  echo "$result"
  rows+=("$(printf '%-20s %s\n  %-20s %s' "$name" "$result" "" "$what")")
done

[ "$total" -gt 0 ] || { echo "cross-selftest: no bug named '$SELFTEST_ONLY'" >&2; exit 2; }
echo
echo "cross-selftest: seeded bugs in native-only code, each found by make cross-test ARCH=$arch:"
printf '  %s\n' "${rows[@]}"
echo "cross-selftest: kill rate $found/$total ($((100 * found / total))%)"
[ "$found" -eq "$total" ]
