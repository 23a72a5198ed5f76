/* Swept box (and segment: a swept point) against N boxes template (DESIGN.md 4.9): the
 * reference's per-box steps (slab_ref.h) on W boxes at once, with the call's terms (the move's
 * reciprocals, their signs, the mover's faces) computed once by the scalar col__slab_prepare.
 * The signs are the same for every box, so the planes each axis reads are picked once per call
 * (Williams et al. 2005), not per lane; what stays per lane is the running entry and exit
 * times, taken with vf_max(near, N) and vf_min(far, F) in the reference's operand order (a NaN
 * near or far keeps N or F: x86's maxps/minps return their second operand then). */
#ifndef COLLIDE_SIMD_SLAB_H
#define COLLIDE_SIMD_SLAB_H

#include "../slab_ref.h"

typedef struct slab_consts {
  vf inv[3], norg[3], forg[3];
  vf zero, one, ninf, pinf, code[3];
} slab_consts;

/* The lanes that hit; their entry times in *t (+0 unless > 0) and entry axes plus one in *code
 * (as floats; 0: no face entered). near[a] / far[a] are the planes the call's signs picked. */
COL_INLINE uint32_t slab_lanes(const slab_consts *k, unsigned dims, bool open, const vf *lo,
                               const vf *hi, const vf *near_p, const vf *far_p, vf *t, vf *code) {
  vm ok = vf_le(lo[0], hi[0]);
  for (unsigned a = 1; a < dims; a++) ok = vm_and(ok, vf_le(lo[a], hi[a]));
  vf n = k->ninf, f = k->pinf, c = k->zero;
  for (unsigned a = 0; a < dims; a++) {
    const vf near = vf_mul(vf_sub(near_p[a], k->norg[a]), k->inv[a]);
    const vf far = vf_mul(vf_sub(far_p[a], k->forg[a]), k->inv[a]);
    c = vf_select(vf_gt(near, n), k->code[a], c);
    n = vf_max(near, n);
    f = vf_min(far, f);
    if (open) ok = vm_and(ok, vm_and(vf_eq(near, near), vf_eq(far, far)));
  }
  vm hit;
  if (open)
    hit = vm_and(vm_and(ok, vf_lt(n, f)), vm_and(vf_lt(n, k->one), vf_gt(f, k->zero)));
  else
    hit = vm_and(vm_and(ok, vf_le(n, f)), vm_and(vf_le(n, k->one), vf_ge(f, k->zero)));
  *t = vf_select(vf_gt(n, k->zero), n, k->zero);
  *code = vf_select(vf_ge(n, k->zero), c, k->zero);
  return vm_bits(hit);
}

/* The earliest of the hit lanes into the running best (strictly earlier replaces). */
COL_INLINE void slab_take(bool *hit, float *t, unsigned *axis, uint32_t *index, uint32_t bits,
                          vf tv, vf cv, size_t base) {
  float ts[COL_W], cs[COL_W];
  vf_storeu(ts, tv);
  vf_storeu(cs, cv);
  for (; bits != 0; bits &= bits - 1u) {
    const int lane = __builtin_ctz(bits);
    if (!*hit || ts[lane] < *t)
      *hit = true, *t = ts[lane], *axis = (unsigned)cs[lane],
      *index = (uint32_t)(base + (size_t)lane);
  }
}

/* One call over the set's arrays min[a], max[a] (dims of them); dims and open are constants at
 * every call, so each of the four forms is compiled on its own. */
COL_INLINE void slab_first(const col__slab_prep *g, unsigned dims, const float *const *min,
                           const float *const *max, size_t n, bool open, bool *hit, float *t,
                           unsigned *axis, uint32_t *index) {
  *hit = false, *t = 0.0f, *axis = 0, *index = COL_INDEX_NONE;
  if (!g->valid) return;
  slab_consts k;
  k.zero = vf_set1(0.0f), k.one = vf_set1(1.0f);
  k.ninf = vf_set1(-INFINITY), k.pinf = vf_set1(INFINITY);
  for (unsigned a = 0; a < dims; a++) {
    k.inv[a] = vf_set1(g->inv[a]);
    k.norg[a] = vf_set1(g->norg[a]);
    k.forg[a] = vf_set1(g->forg[a]);
    k.code[a] = vf_set1((float)(a + 1));
  }
  vf lo[3], hi[3], np[3], fp[3], tv, cv;
  size_t i = 0;
  for (; i + COL_W <= n; i += COL_W) {
    for (unsigned a = 0; a < dims; a++) {
      lo[a] = vf_loadu(min[a] + i), hi[a] = vf_loadu(max[a] + i);
      np[a] = g->pos[a] ? lo[a] : hi[a], fp[a] = g->pos[a] ? hi[a] : lo[a];
    }
    const uint32_t bits = slab_lanes(&k, dims, open, lo, hi, np, fp, &tv, &cv);
    if (bits != 0) slab_take(hit, t, axis, index, bits, tv, cv, i);
  }
  if (i < n) {
    /* NaN padding: !(NaN <= NaN), so a padded lane is an invalid box and misses. */
    float c[6][COL_W];
    for (unsigned a = 0; a < dims; a++) {
      pad_copy_f(c[2 * a], min[a] + i, n - i, NAN);
      pad_copy_f(c[2 * a + 1], max[a] + i, n - i, NAN);
      lo[a] = vf_loadu(c[2 * a]), hi[a] = vf_loadu(c[2 * a + 1]);
      np[a] = g->pos[a] ? lo[a] : hi[a], fp[a] = g->pos[a] ? hi[a] : lo[a];
    }
    const uint32_t bits =
        slab_lanes(&k, dims, open, lo, hi, np, fp, &tv, &cv) & COL_TAIL_BITS(n - i);
    if (bits != 0) slab_take(hit, t, axis, index, bits, tv, cv, i);
  }
}

static col_aabb3_hit simd_sweep_aabb3(col_aabb3 mover, col_vec3 move, const col_aabb3_soa *set,
                                      col_touch touch) {
  const float mn[3] = {mover.min.x, mover.min.y, mover.min.z};
  const float mx[3] = {mover.max.x, mover.max.y, mover.max.z};
  const float mv[3] = {move.x, move.y, move.z};
  const col__slab_prep g = col__slab_prepare(3, mn, mx, mv);
  const float *const min[3] = {set->min_x, set->min_y, set->min_z};
  const float *const max[3] = {set->max_x, set->max_y, set->max_z};
  bool hit;
  float t;
  unsigned axis;
  uint32_t index;
  if (touch == COL_TOUCH_SEPARATES)
    slab_first(&g, 3, min, max, set->count, true, &hit, &t, &axis, &index);
  else
    slab_first(&g, 3, min, max, set->count, false, &hit, &t, &axis, &index);
  return col__slab3_result(&g, hit, t, axis, index);
}

static col_aabb2_hit simd_sweep_aabb2(col_aabb2 mover, col_vec2 move, const col_aabb2_soa *set,
                                      col_touch touch) {
  const float mn[2] = {mover.min.x, mover.min.y}, mx[2] = {mover.max.x, mover.max.y};
  const float mv[2] = {move.x, move.y};
  const col__slab_prep g = col__slab_prepare(2, mn, mx, mv);
  const float *const min[2] = {set->min_x, set->min_y};
  const float *const max[2] = {set->max_x, set->max_y};
  bool hit;
  float t;
  unsigned axis;
  uint32_t index;
  if (touch == COL_TOUCH_SEPARATES)
    slab_first(&g, 2, min, max, set->count, true, &hit, &t, &axis, &index);
  else
    slab_first(&g, 2, min, max, set->count, false, &hit, &t, &axis, &index);
  return col__slab2_result(&g, hit, t, axis, index);
}

#endif
