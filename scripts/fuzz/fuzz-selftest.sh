#!/usr/bin/env bash
# The fuzzers' seeded-bug self-test (`make fuzz-selftest`): for each deliberately broken
# variant below, copy the tree to build/selftest/<bug>/, apply the bug, rebuild only what it
# touches, and fuzz the target that should notice it from an EMPTY corpus (no seeds), for at
# most SELFTEST_SECONDS (default 60). Prints the time each bug took to be found and the kill
# rate; exits non-zero unless every bug is found. SELFTEST_ONLY=name,name runs only those;
# SELFTEST_JOBS bugs run at once (default: the CPUs).
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${SELFTEST_SECONDS:-60}

# name @ file @ target @ sed expression (must change the file) @ what it breaks
# (file USER_KERNELS: no edit; the build brings in the user kernel file named in place of the
# expression, as `make ... USER_KERNELS=that-file` does for a user)
bugs=(
  "closed-touch-gt@core/src/simd/simd_aabb.h@aabb@s/: vm_and(vf_ge(q_max, b_min), vf_ge(b_max, q_min));/: vm_and(vf_gt(q_max, b_min), vf_ge(b_max, q_min));/@'>' for '>=' on one side of the closed touch rule (all SIMD backends)"
  "tail-drops-last@core/src/simd/simd_common.h@aabb@s/dst\[k\] = k < n ? src\[k\] : pad;/dst[k] = k + 1 < n ? src[k] : pad;/@SIMD tails drop their last element"
  "mtd-tie-order@core/src/simd/simd_mtd.h@mtd@s/const vm c2 = vf_lt(dd, m);/const vm c2 = vf_le(dd, m);/@MTD tie-break: 'down' wins ties it should lose"
  "alpha-ge@core/src/x86/avx2.c@sprite@s/simde_mm256_cmpgt_epi32(simde_mm256_srli_epi32(px, 24), thr)/simde_mm256_cmpgt_epi32(simde_mm256_srli_epi32(px, 24), simde_mm256_sub_epi32(thr, simde_mm256_set1_epi32(1)))/@alpha '>=' threshold instead of '>' (avx2, avx2-emu)"
  "sweep-no-start-inside@core/src/simd/simd_sweep.h@sweep@s/const vm inside = vm_and(valid, vf_lt(d2, r2));/const vm inside = vm_andnot(valid, valid);/@the sweep's start-inside case removed"
  "emu-only-touch@core/src/x86/avx2.c@aabb@s/^static inline vm vf_ge(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }/#ifdef COL_EMULATED\nstatic inline vm vf_ge(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }\n#else\n&\n#endif/@'>' for '>=' in avx2-emu only (the native avx2 is right)"
  "avx512-aos-order@core/src/x86/avx512.c@mtd@s/2, 6, 10, 14, 3, 7, 11, 15}/2, 6, 10, 14, 3, 7, 15, 11}/@AVX-512 box transpose swaps two lanes"
  "sweep-tie-highest@core/src/simd/simd_sweep.h@sweep@s/if (!best->hit || tv\[lane\] < best->t)/if (!best->hit || tv[lane] <= best->t)/@earliest sphere ties go to the highest index"
  "sprite-last-lane@core/src/simd/simd_sprite.h@sprite@s/r.col = col + (size_t)__builtin_ctz(bits);/r.col = col + (size_t)(31 - __builtin_clz(bits));/@first colliding pixel taken from the last lane"
  "sweep-robust-drops-z@core/src/simd/simd_sweep.h@sweep@s/vf_mul(ez, ez)));/vf_mul(ez, k->zero)));/@the robust sweep's miss distance loses its z term (SIMD backends)"
  "sweep-robust-is-recipe@core/src/sweep_ref.h@sweep@s/q = r2 - ((e.x \* e.x + e.y \* e.y) + e.z \* e.z);/q = (r2 + s * s) - d2 + (e.x - e.x);/@the robust reference computes the recipe's q (far spheres decided on rounding noise)"
  "slab-max-nan@core/src/x86/sse2.c@slab@s/static inline vf vf_max(vf a, vf b) { return simde_mm_max_ps(a, b); }/static inline vf vf_max(vf a, vf b) { return simde_mm_max_ps(b, a); }/@the slab test's running entry time with maxps's operands swapped: a NaN entry time (on a box's plane, moving parallel to it) wins instead of being ignored (sse2, sse2-emu)"
  "sweep-negative-zero@core/src/simd/simd_sweep.h@sweep@s/vf_add(tt, k->zero)/tt/@t = -0.0 is no longer turned into +0.0"
  "sap-sorted-by-max@core/src/broadphase/sap/sort.c@broadphase@s/const col__u4 bits = (col__u4)x0,/const col__u4 bits = (col__u4)load4(hx + i),/@sweep and prune sorts on max x instead of min x"
  "mask-shift-carry@core/src/simd/simd_mask.h@mask@s/vq_sll(b_next, 64u - shift)/vq_sll(b_next, 65u - shift)/@mask words lose the bit carried across the 64-bit boundary when b is shifted by 1 (SIMD backends)"
  "slope-down-short@core/src/move.c@move@s/if (f > y + h \&\& f <= y + h + S) y = f - h;/if (f > y + h \&\& f < y + h + S) y = f - h;/@the fast movement does not follow down-slopes of exactly slope_max pixels"
  "circle-squared-touch@core/src/simd/simd_circle.h@circle@s/if (test == COL_CIRCLE_SQUARED) return vf_lt(d2, vf_mul(r, r));/if (test == COL_CIRCLE_SQUARED) return vf_le(d2, vf_mul(r, r));/@the squared circle test counts touching circles as overlapping (SIMD backends)"
  "contact-negative-zero@core/src/circle.c@circle@s/ \/ sum + 0.0f,/ \/ sum,/@the weighted contact point returns -0.0 for a zero x (both centres at -0.0, or underflow)"
  "sim-unsorted-candidates@core/src/sim.c@sim@s/    col__sim_sort_row(s->adj + s->adj_start\[k\], s->adj_start\[k + 1\] - s->adj_start\[k\]);/    (void)col__sim_sort_row;/@the simulations test their candidates in the broadphase's order, not the naive loop's (rows left unsorted)"
  "scalar-skips-last@core/src/aabb_ref.h@aabb@0,/for (size_t i = 0; i < set->count; i++) {/s//for (size_t i = 0; i + 1 < set->count; i++) {/@the scalar reference query skips its last box"
  "sap-bad-box-flag@core/src/broadphase/sap/survey.c@broadphase@s/bad |= (l > h) | (l == ninf) | (h == inf)/bad |= (l > h) | (l == ninf) | (h != inf)/@sweep and prune's survey takes every finite box for an unbounded one, so every set is swept whole (the same pairs, the slow path: stats.cells says so)"
  "sap-cell-filter@core/src/broadphase/sap/deal.c@broadphase@s/i | (uint64_t)2u << 32, f\[down\] = p1 + dy;/i | (uint64_t)3u << 32, f[down] = p1 + dy;/@sweep and prune tags a box's second row as its first (a pair met in both rows is reported twice)"
  "avx2-pair-lanes@core/src/x86/avx2.c@broadphase@s/simde_mm256_permutevar8x32_epi32(vi_loadu(ids), lanes)/simde_mm256_permutevar8x32_epi32(vi_loadu(ids), simde_mm256_and_si256(lanes, simde_mm256_set1_epi32(6)))/@the AVX2 pair writer drops the low bit of each lane index (a hit in an odd lane takes its neighbour)"
  "move-size-and@core/src/move.c@args@s/if (a->width < 0 || a->height < 0) return COL_ERR_SIZE;/if (a->width < 0 \&\& a->height < 0) return COL_ERR_SIZE;/@the movement accepts an actor with one negative size ('and' for 'or' in its size check)"
  "quadtree-swept-self@core/src/broadphase/quadtree_pairs.c@broadphase@s/    for (unsigned e = c; e < classes \&\& st == COL_OK; e++) {/    for (unsigned e = c + 1; e < classes \&\& st == COL_OK; e++) {/@the quadtree's swept nodes skip the pairs within one class (only nodes of over 16,384 tests are swept: the fuzzer's lowered limits reach them)"
  "stream-last-batch@core/src/broadphase/pairs.c@broadphase@s/  if (st == COL_OK) stream_flush(\&bp);/  (void)bp;/@the streamed broadphase never hands its last batch to the sink"
  "grid-reads-past@core/src/broadphase/grid.c@broadphase@0,/for (size_t i = 0; i < n; i++) {/s//for (size_t i = 0; i <= n; i++) {/@the grid's cell-size loop reads one box past the last"
  "tree-wrong-parent@core/src/broadphase/tree.c@broadphase@s/  t->nodes\[leaf\].parent = parent;/  t->nodes[leaf].parent = old_parent;/@the tree's insertion links the new leaf to its grandparent (pairs stay right until a later removal follows the link)"
  "tree-removal-at-node-0@core/src/broadphase/tree.c@cache@s/^  if (parent < 0) {$/  if (parent <= 0) {/@the tree's removal treats a leaf whose parent is node 0 as the root (the rest of the tree is lost)"
  "tree-stack-check-inverted@core/src/broadphase/tree.c@cache@/int32_t \*more = malloc/,/more == NULL/ s/more == NULL/more != NULL/@the tree query's larger stack check inverted (COL_ERR_MEMORY whenever a tree is deeper than its 128-node stack)"
  "cache-alloc-unchecked@core/src/broadphase/cache/sap.c@broadphase@s/ || !c->sap_work ||/ ||/@the cache's kept sweep and prune does not check one of its allocations (a failing one is used instead of returning COL_ERR_MEMORY)"
  "sim-stats-reset@core/src/sim.c@sim@s/col_sim_stats \*st = stats != NULL ? stats : \&ignored;/&\n  if (stats != NULL) *stats = ignored;/@the balls' step resets the caller's statistics instead of adding to them"
  "sim-balls-half-stepped@core/src/sim.c@sim@s/  if (status != COL_OK) return status;/  if (status != COL_OK) return balls_move(b), status;/@a balls step whose allocation fails leaves the balls moved (sims.h: unchanged)"
  "sim-world-moves-on@core/src/sim_world.c@sim@s/^  return status;/  for (size_t j = 0; status != COL_OK \&\& j < n; j++) world_advance(w, j, dt, NULL, 0);\n&/@a world step whose allocation fails moves every entity once more (sims.h: those after the failed turn unchanged)"
  "mask-out-before-alloc@core/src/mask.c@mask@s/st = mask_alloc(s.width, s.height, s.x, s.y, \&m);/st = mask_alloc(s.width, s.height, s.x, s.y, out), m = *out;/@a mask from a sprite written to *out before its allocation (pixels.h: *out untouched on COL_ERR_MEMORY)"
  "mask-get-column-0@core/src/mask.c@mask@s/if (x < m->x || y < m->y) return false;/if (x <= m->x || y < m->y) return false;/@a mask's single-pixel read takes column 0 as outside the mask"
  "par-shared-counter@core/src/broadphase/tasks/run.c@parallel@s/memcpy(j->joined + a, run.data + (a - run.offset), (b - a) \* sizeof(col_pair));/memcpy(pj->bp->out->data + pj->bp->out->count, run.data + (a - run.offset), (b - a) * sizeof(col_pair)), pj->bp->out->count += b - a;/;s/  out->count += total;/  (void)total;/@the parallel sweep's copy tasks append their shares of the pairs through the list's shared count instead of copying them to their own range (a race; the pairs in the order the tasks ran)"
  "any-order-stale-fill@core/src/broadphase/pairs.c@parallel@s/  if (w->at != SIZE_MAX) b->fill\[w->at\] = out->count;/  (void)0;/@the any-order parallel sweep forgets how many pairs a task wrote into a block when it takes the next one (the gaps are closed with a stale count)"
  "par-steal-first@core/src/broadphase/tasks/steal.c@parallel@s/      while (take(s, true, \&c)) {/      while (take(s, false, \&c)) {/@a task that has swept its own part takes another part's chunks from the first instead of the last (the ordered join then puts them after the part's own pairs, out of cell order)"
  "owned-part-row-above@core/src/broadphase/sap/pick.c@parallel@s/(w >> 16 \& \(1u\|one\)) \* /0 * /@the parallel sweep's parts forget the row below when they find a box's last cell: a part leaves out the boxes that start in the row before its cells but reach into them (pairs in the range's first row missed)"
  "scene-truncation-short@core/src/scene.c@scene@s/  if (rest < payload)/  if (rest + 4 < payload)/@the binary scene reader's truncation check lets a file up to one float short through (it reads past the file's end)"
  "kept-grid-first-row@core/src/broadphase/cache/kgrid_query.c@cache@s/const uint32_t need_bits = (x != r\[0\]) | (y != r\[1\]) << 1 | (z != r\[2\]) << 2;/const uint32_t need_bits = (x != r[0]) | (z != r[2]) << 2;/@the kept grid's neighbourhoods forget on which row an entry's box starts (a box met in two rows of cells is copied, and its pair reported, twice)"
  "kept-grid-stale-live@core/src/broadphase/cache/rest.c@cache@s/    rest->count += !(c->moved\[p.a\] | c->moved\[p.b\]);/    rest->count += !c->moved[p.a];/@the kept grid keeps a last-frame pair whose second box moved as a resting pair"
  "static-drops-one@core/src/broadphase/static.c@broadphase@s/    const size_t drop_p = (is_static\[p.a\] != 0) \& (is_static\[p.b\] != 0);/    const size_t drop_p = (is_static[p.a] != 0) | (is_static[p.b] != 0);/@the static rule drops a pair with one static box (every other pair of a list)"
  "changes-forget-ended@core/src/broadphase/cache/changes.c@cache@s/      c->ended.data\[e++\] = gone->data\[g++\];/      g++;/@the cache's contact events never report an ended pair"
  "peer-rule-sdl-closed@bench/kernel-peers/kernel-peers.list@peers@s/touch=open,repr=xywh,empty=yes,nan=clip/repr=xywh,empty=yes,nan=clip/@a kernel peer's rule declared wrongly: SDL_HasIntersectionF declared closed (touching rectangles do not intersect in SDL)"
  "slab-open-entry-at-1@core/src/simd/simd_slab.h@slab@s/vm_and(vf_lt(n, k->one), vf_gt(f, k->zero))/vm_and(vf_le(n, k->one), vf_gt(f, k->zero))/@the SIMD slab test's open rule counts an entry at exactly t = 1 (a segment ending exactly on a face: the open rule's miss)"
  "deal-count-diagonal@core/src/broadphase/sap/deal.c@parallel@s/f\[1\] += dz, f\[down + 1\] += dy \& dz;/f[1] += dz, f[down - 1] += dy \& dz;/@the parallel deal's count of a 3D box's diagonal cell (f[down + 1]) goes to the cell before it (the cell counts then miss the box: the structure check's cell count)"
  "user-wrong-touch@USER_KERNELS@aabb@examples/user-kernels/wrong_touch.c@a user backend (examples/user-kernels/wrong_touch.c) whose closed rule is open on one side"
)

# --check: only confirm that each bug still applies (its sed changes its file, a user kernel
# file exists) and stop; make test runs this, so a code change that moves a seeded bug's line
# fails in seconds instead of in the full self-test.
case "${1:-}" in
  "" | --check) ;;
  *) echo "fuzz-selftest: unknown argument '$1' (none: the self-test; --check: only that each bug applies)" >&2; exit 2 ;;
esac
if [ "${1:-}" = --check ]; then
  stale=0
  for spec in "${bugs[@]}"; do
    IFS='@' read -r name file _ expr _ <<<"$spec"
    if [ "$file" = USER_KERNELS ]; then
      [ -f "$expr" ] && continue
      echo "fuzz-selftest: the '$name' user kernel $expr does not exist: update scripts/fuzz/fuzz-selftest.sh" >&2
    elif ! mutated=$(sed -e "$expr" "$file" 2>&1); then
      echo "fuzz-selftest: the '$name' sed fails on $file: $mutated" >&2
    elif [ "$mutated" != "$(cat "$file")" ]; then
      continue
    else
      echo "fuzz-selftest: the '$name' mutation no longer applies to $file: update scripts/fuzz/fuzz-selftest.sh" >&2
    fi
    stale=1
  done
  [ "$stale" -eq 0 ] && echo "fuzz-selftest --check: all ${#bugs[@]} seeded bugs apply"
  exit "$stale"
fi

[ -x build/fuzz/fuzz_aabb ] || { echo "fuzz-selftest: run 'make fuzz-build' first" >&2; exit 2; }
jobs=${SELFTEST_JOBS:-$(nproc)}
[[ $jobs =~ ^[0-9]+$ ]] && [ "$jobs" -ge 1 ] ||
  { echo "fuzz-selftest: SELFTEST_JOBS=$jobs: must be a whole number of at least 1" >&2; exit 2; }

# One bug: its copy of the tree, the bug applied, the target rebuilt and fuzzed from an empty
# corpus; writes its summary row to $dir/row ("found" or "NOT FOUND" in it) and prints its line.
# Exit 2 when the bug does not apply or its variant does not build.
run_bug() { # SPEC
  local name file target expr what dir user rc start secs result broken
  IFS='@' read -r name file target expr what <<<"$1"
  dir=build/selftest/$name
  rm -rf "$dir"
  scripts/build/copy-sources.sh . "$dir"
  cp -a build/fuzz "$dir/build/fuzz"
  rm -rf "$dir/build/fuzz/fuzz_"* "$dir/build/fuzz/obj/user" "$dir/build/fuzz/user"
  user=()
  if [ "$file" = USER_KERNELS ]; then
    user=(USER_KERNELS="$PWD/$expr")
  else
    sed -i -e "$expr" "$dir/$file"
    if cmp -s "$file" "$dir/$file"; then
      echo "fuzz-selftest: the '$name' mutation no longer applies to $file: update scripts/fuzz/fuzz-selftest.sh" >&2
      return 2
    fi
  fi
  if ! make -C "$dir" --no-print-directory O=build/fuzz CC="${FUZZ_CC:-clang}" SANITIZE=fuzz \
    "${user[@]}" "build/fuzz/fuzz_$target" >"$dir/build.log" 2>&1; then
    echo "fuzz-selftest: the '$name' variant does not build; see $dir/build.log" >&2
    return 2
  fi
  mkdir -p "$dir/empty-corpus" "$dir/artifacts"
  start=$(date +%s.%N)
  rc=0
  "$dir/build/fuzz/fuzz_$target" -max_total_time="$limit" -max_len=8192 -timeout=20 \
    -dict=fuzz/collide.dict -artifact_prefix="$dir/artifacts/" "$dir/empty-corpus" \
    >"$dir/fuzz.log" 2>&1 || rc=$?
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  if [ "$rc" -ne 0 ] && grep -q 'DISAGREEMENT\|differs from\|ERROR: AddressSanitizer\|runtime error:\|^collide: .* invalid: ' "$dir/fuzz.log"; then
    result="found in ${secs}s"
    # A structure check's abort names the broken rule: shown with the time.
    broken=$(grep -m1 '^collide: .* invalid: ' "$dir/fuzz.log" | sed 's/^collide: //; s/ (at index [0-9]*)$//' || true)
    [ -z "$broken" ] || result="$result ($broken)"
  else
    result="NOT FOUND (${secs}s, exit $rc)"
  fi
  printf 'fuzz-selftest: %-22s (%s) ... %s\n' "$name" "$target" "$result"
  printf '%-22s %-7s %-24s %s\n' "$name" "$target" "$result" "$what" >"$dir/row"
}

# SELFTEST_JOBS bugs at once (default: the CPUs; each fuzzes on one core, its build is one
# make job): the lines come as the bugs finish, the summary in the list's order.
chosen=()
for spec in "${bugs[@]}"; do
  IFS='@' read -r name _ <<<"$spec"
  if [ -n "${SELFTEST_ONLY:-}" ] && [[ ",$SELFTEST_ONLY," != *",$name,"* ]]; then continue; fi
  chosen+=("$spec")
done
echo "fuzz-selftest: ${#chosen[@]} seeded bugs, $jobs at a time, at most ${limit}s of fuzzing each"
pids=()
failed_setup=0
for spec in "${chosen[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed_setup=1; done
  run_bug "$spec" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || failed_setup=1; done
[ "$failed_setup" -eq 0 ] || { echo "fuzz-selftest: a seeded bug did not apply or build (above)" >&2; exit 2; }
rows=()
found=0
total=${#chosen[@]}
for spec in "${chosen[@]}"; do
  IFS='@' read -r name _ <<<"$spec"
  row=$(cat "build/selftest/$name/row")
  rows+=("$row")
  if [[ $row != *"NOT FOUND"* ]]; then found=$((found + 1)); fi
done

echo
echo "fuzz-selftest: seeded bugs (each fuzzed from an empty corpus, limit ${limit}s):"
printf '  %s\n' "${rows[@]}"
echo "fuzz-selftest: kill rate $found/$total ($((100 * found / total))%)"
[ "$found" -eq "$total" ]
