/* The segment and swept-box against boxes reference (DESIGN.md 4.9) as inline code, shared by
 * the single calls (slab.c), the reference backends (scalar.c, x86/autovec.c) and, for the
 * per-call terms only, the SIMD template (simd/simd_slab.h). The segment is the swept point
 * box {from, from} moved by to - from, so one kernel answers both questions. */
#ifndef COLLIDE_SLAB_REF_H
#define COLLIDE_SLAB_REF_H

#include "backend.h"

#include <math.h>

/* The terms of one call that do not depend on the still box, in 2D or 3D (dims). Axis a's
 * near time is (near_plane - norg[a]) * inv[a] where the near plane is the box's min when
 * pos[a] (the move's reciprocal is positive: the mover's max face meets the box's min face)
 * and its max otherwise; the far time likewise with forg and the other plane. */
typedef struct col__slab_prep {
  bool valid; /* mover and move finite, mover not inverted (step 1) */
  unsigned dims;
  bool pos[3];
  float inv[3], norg[3], forg[3];
} col__slab_prep;

/* One still box's answer: the entry time t (+0 unless > 0) and the entry axis plus one
 * (0: no face entered). */
typedef struct col__slab_one {
  bool hit;
  float t;
  unsigned axis;
} col__slab_one;

/* Step 1 (the mover's half) and step 2: one division per axis. The reciprocal, not a division
 * per box, is the fast form of the slab test (Barnes, part 1): its sign fixes which plane is
 * near for every box, so the batch kernels branch on it once per call, not per box (Williams
 * et al. 2005, section 3: the sign picks the planes, which also keeps -0 moves right). */
static inline col__slab_prep col__slab_prepare(unsigned dims, const float *mover_min,
                                               const float *mover_max, const float *move) {
  col__slab_prep g = {true, dims, {false, false, false}, {0}, {0}, {0}};
  for (unsigned a = 0; a < dims; a++) {
    if (!isfinite(mover_min[a]) || !isfinite(mover_max[a]) || !isfinite(move[a]) ||
        !(mover_min[a] <= mover_max[a]))
      g.valid = false;
    /* 1 / +-0 is +-inf by IEEE 754; taken without the division, which the sanitized builds
     * trap (-fsanitize=float-divide-by-zero): the same value either way. */
    g.inv[a] = move[a] != 0.0f ? 1.0f / move[a] : copysignf(INFINITY, move[a]);
    g.pos[a] = g.inv[a] > 0.0f;
    g.norg[a] = g.pos[a] ? mover_max[a] : mover_min[a];
    g.forg[a] = g.pos[a] ? mover_min[a] : mover_max[a];
  }
  return g;
}

/* Steps 1 (the box's half) and 3-5 for one still box. `open` is the touch rule. The running
 * maximum keeps N when near is NaN or not greater (so NaN is ignored and ties keep the lower
 * axis); every SIMD backend does the same with its vf_max(near, N) and vf_min(far, F), whose
 * operand order is this one. */
static inline col__slab_one col__slab_box_ref(const col__slab_prep *g, const float *bmin,
                                              const float *bmax, bool open) {
  const col__slab_one miss = {false, 0.0f, 0};
  bool ok = g->valid;
  for (unsigned a = 0; a < g->dims; a++)
    if (!(bmin[a] <= bmax[a])) ok = false;
  float n = -INFINITY, f = INFINITY;
  unsigned axis = 0;
  bool nan = false;
  for (unsigned a = 0; a < g->dims; a++) {
    const float near = ((g->pos[a] ? bmin[a] : bmax[a]) - g->norg[a]) * g->inv[a];
    const float far = ((g->pos[a] ? bmax[a] : bmin[a]) - g->forg[a]) * g->inv[a];
    if (near > n) n = near, axis = a + 1;
    if (far < f) f = far;
    if (near != near || far != far) nan = true;
  }
  const bool hit =
      open ? ok && !nan && n < f && n < 1.0f && f > 0.0f : ok && n <= f && n <= 1.0f && f >= 0.0f;
  if (!hit) return miss;
  return (col__slab_one){true, n > 0.0f ? n : 0.0f, n >= 0.0f ? axis : 0};
}

/* The normal of entry axis `axis` (0: none) as floats: -1 through a min face, +1 through a
 * max face, +0 elsewhere. */
static inline void col__slab_normal(const col__slab_prep *g, unsigned axis, float *normal) {
  for (unsigned a = 0; a < g->dims; a++)
    normal[a] = axis == a + 1 ? (g->pos[a] ? -1.0f : 1.0f) : 0.0f;
}

/* The batch reference: the earliest hit, strictly earlier replaces (ties keep the lowest
 * index). min[a], max[a] are the set's arrays of axis a. */
static inline void col__slab_first_ref(const col__slab_prep *g, const float *const *min,
                                       const float *const *max, size_t count, bool open, bool *hit,
                                       float *t, unsigned *axis, uint32_t *index) {
  *hit = false, *t = 0.0f, *axis = 0, *index = COL_INDEX_NONE;
  for (size_t i = 0; i < count; i++) {
    float bmin[3], bmax[3];
    for (unsigned a = 0; a < g->dims; a++) bmin[a] = min[a][i], bmax[a] = max[a][i];
    const col__slab_one h = col__slab_box_ref(g, bmin, bmax, open);
    if (h.hit && (!*hit || h.t < *t)) *hit = true, *t = h.t, *axis = h.axis, *index = (uint32_t)i;
  }
}

static inline col_aabb3_hit col__slab3_result(const col__slab_prep *g, bool hit, float t,
                                              unsigned axis, uint32_t index) {
  col_aabb3_hit r = {hit, t, {0.0f, 0.0f, 0.0f}, index};
  float n[3];
  col__slab_normal(g, axis, n);
  r.normal = (col_vec3){n[0], n[1], n[2]};
  return r;
}

static inline col_aabb2_hit col__slab2_result(const col__slab_prep *g, bool hit, float t,
                                              unsigned axis, uint32_t index) {
  col_aabb2_hit r = {hit, t, {0.0f, 0.0f}, index};
  float n[3];
  col__slab_normal(g, axis, n);
  r.normal = (col_vec2){n[0], n[1]};
  return r;
}

static inline col_aabb3_hit col__sweep_aabb3_ref(col_aabb3 mover, col_vec3 move,
                                                 const col_aabb3_soa *set, col_touch touch) {
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
  col__slab_first_ref(&g, min, max, set->count, touch == COL_TOUCH_SEPARATES, &hit, &t, &axis,
                      &index);
  return col__slab3_result(&g, hit, t, axis, index);
}

static inline col_aabb2_hit col__sweep_aabb2_ref(col_aabb2 mover, col_vec2 move,
                                                 const col_aabb2_soa *set, col_touch touch) {
  const float mn[2] = {mover.min.x, mover.min.y}, mx[2] = {mover.max.x, mover.max.y};
  const float mv[2] = {move.x, move.y};
  const col__slab_prep g = col__slab_prepare(2, mn, mx, mv);
  const float *const min[2] = {set->min_x, set->min_y};
  const float *const max[2] = {set->max_x, set->max_y};
  bool hit;
  float t;
  unsigned axis;
  uint32_t index;
  col__slab_first_ref(&g, min, max, set->count, touch == COL_TOUCH_SEPARATES, &hit, &t, &axis,
                      &index);
  return col__slab2_result(&g, hit, t, axis, index);
}

#endif
