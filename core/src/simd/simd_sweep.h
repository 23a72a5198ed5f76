/* Segment against N spheres template (DESIGN.md 4.4): the per-sphere steps of
 * col_segment_sphere on W spheres at once, with the segment's own terms (finiteness, length,
 * direction) computed once by the scalar col__segment_prepare (segment.c). Every step's early
 * exit becomes a lane mask; t is computed in the same order and kept only where the mask holds. */
#ifndef COLLIDE_SIMD_SWEEP_H
#define COLLIDE_SIMD_SWEEP_H

typedef struct sweep_consts {
  vf from_x, from_y, from_z, dir_x, dir_y, dir_z, len, zero;
  bool moving; /* len != 0 */
} sweep_consts;

/* Returns the lanes that hit; their t values (already +0 for a zero t) in *t. `robust`
 * (a constant at every call) picks the robust variant's q: r2 - |d - s*dir|^2. */
COL_INLINE uint32_t sweep_lanes(const sweep_consts *k, vf cx, vf cy, vf cz, vf r, vf *t,
                                bool robust) {
  const vm valid =
      vm_andnot(vm_and(vm_and(vf_finite(cx), vf_finite(cy)), vm_and(vf_finite(cz), vf_finite(r))),
                vf_lt(r, k->zero));
  const vf dx = vf_sub(cx, k->from_x), dy = vf_sub(cy, k->from_y), dz = vf_sub(cz, k->from_z);
  const vf d2 = vf_add(vf_add(vf_mul(dx, dx), vf_mul(dy, dy)), vf_mul(dz, dz));
  const vf r2 = vf_mul(r, r);
  const vm inside = vm_and(valid, vf_lt(d2, r2));
  if (!k->moving) {
    *t = k->zero;
    return vm_bits(inside);
  }
  const vf s = vf_add(vf_add(vf_mul(k->dir_x, dx), vf_mul(k->dir_y, dy)), vf_mul(k->dir_z, dz));
  vf q;
  if (robust) {
    const vf ex = vf_sub(dx, vf_mul(s, k->dir_x)), ey = vf_sub(dy, vf_mul(s, k->dir_y)),
             ez = vf_sub(dz, vf_mul(s, k->dir_z));
    q = vf_sub(r2, vf_add(vf_add(vf_mul(ex, ex), vf_mul(ey, ey)), vf_mul(ez, ez)));
  } else {
    q = vf_sub(vf_add(r2, vf_mul(s, s)), d2);
  }
  vm through = vm_andnot(vm_andnot(valid, inside), vf_lt(s, k->zero));
  through = vm_andnot(through, vf_lt(q, k->zero));
  if (!vm_any(vm_or(through, inside))) return 0; /* the common case: skip the sqrt */
  vf tt = vf_sub(s, vf_sqrt(q));
  if (robust) tt = vf_select(vf_lt(tt, k->zero), k->zero, tt); /* never below +0 */
  through = vm_and(through, vf_le(tt, k->len));
  /* tt + 0 turns -0.0 into +0.0 and leaves every other value (NaN included) as it is. */
  *t = vf_select(inside, k->zero, vf_add(tt, k->zero));
  return vm_bits(vm_or(inside, through));
}

COL_INLINE void sweep_take(col_segment_hit *best, uint32_t bits, vf t, size_t base) {
  float tv[COL_W];
  vf_storeu(tv, t);
  for (; bits != 0; bits &= bits - 1u) {
    const int lane = __builtin_ctz(bits);
    if (!best->hit || tv[lane] < best->t)
      *best = (col_segment_hit){true, tv[lane], (uint32_t)(base + (size_t)lane)};
  }
}

COL_INLINE col_segment_hit segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                                           bool robust) {
  col_segment_hit best = {false, 0.0f, COL_INDEX_NONE};
  const col__segment_prep g = col__segment_prepare(from, to);
  if (!g.finite) return best;
  const sweep_consts k = {vf_set1(g.from.x), vf_set1(g.from.y), vf_set1(g.from.z),
                          vf_set1(g.dir.x),  vf_set1(g.dir.y),  vf_set1(g.dir.z),
                          vf_set1(g.len),    vf_set1(0.0f),     g.len != 0.0f};
  const size_t n = set->count;
  size_t i = 0;
  vf t;
  for (; i + COL_W <= n; i += COL_W) {
    const uint32_t bits =
        sweep_lanes(&k, vf_loadu(set->center_x + i), vf_loadu(set->center_y + i),
                    vf_loadu(set->center_z + i), vf_loadu(set->radius + i), &t, robust);
    if (bits != 0) sweep_take(&best, bits, t, i);
  }
  if (i < n) {
    float c[4][COL_W];
    pad_copy_f(c[0], set->center_x + i, n - i, NAN);
    pad_copy_f(c[1], set->center_y + i, n - i, NAN);
    pad_copy_f(c[2], set->center_z + i, n - i, NAN);
    pad_copy_f(c[3], set->radius + i, n - i, NAN);
    const uint32_t bits = sweep_lanes(&k, vf_loadu(c[0]), vf_loadu(c[1]), vf_loadu(c[2]),
                                      vf_loadu(c[3]), &t, robust) &
                          COL_TAIL_BITS(n - i);
    if (bits != 0) sweep_take(&best, bits, t, i);
  }
  return best;
}

static col_segment_hit simd_segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set) {
  return segment_spheres(from, to, set, false);
}

static col_segment_hit simd_segment_spheres_robust(col_vec3 from, col_vec3 to,
                                                   const col_sphere_soa *set) {
  return segment_spheres(from, to, set, true);
}

#endif
