/* The segment-against-sphere reference (DESIGN.md 4.4) as inline code, shared by
 * col_segment_sphere (sweep.c) and the reference backends (scalar.c, x86/autovec.c): XNA's
 * Ray.Intersects(BoundingSphere) steps, per sphere, after the segment's own terms were
 * computed once by col__segment_prepare (segment.c), as the SIMD backends do. */
#ifndef COLLIDE_SWEEP_REF_H
#define COLLIDE_SWEEP_REF_H

#include "backend.h"

#include <math.h>

/* Both variants' steps; `robust` is a constant at every call. The robust variant
 * (col_segment_sphere_robust) takes the line's miss distance from the perpendicular offset
 * e = d - s*dir (Haines, Guenther and Akenine-Moeller, "Precision Improvements for Ray/Sphere
 * Intersection", Ray Tracing Gems, 2019, ch. 7): q = r2 - |e|^2 compares two numbers of the
 * size of r^2, so its rounding error grows with |d| / r instead of the recipe's |d|^2 / r^2. */
static inline col_hit col__sweep_steps(const col__segment_prep *g, float cx, float cy, float cz,
                                       float r, bool robust) {
  const col_hit miss = {false, 0.0f};
  if (!g->finite || !isfinite(cx) || !isfinite(cy) || !isfinite(cz) || !isfinite(r) || r < 0.0f)
    return miss;
  const col_vec3 d = {cx - g->from.x, cy - g->from.y, cz - g->from.z};
  const float d2 = (d.x * d.x + d.y * d.y) + d.z * d.z;
  const float r2 = r * r;
  if (d2 < r2) return (col_hit){true, 0.0f};
  if (g->len == 0.0f) return miss;
  const float s = (g->dir.x * d.x + g->dir.y * d.y) + g->dir.z * d.z;
  if (s < 0.0f) return miss;
  float q;
  if (robust) {
    const col_vec3 e = {d.x - s * g->dir.x, d.y - s * g->dir.y, d.z - s * g->dir.z};
    q = r2 - ((e.x * e.x + e.y * e.y) + e.z * e.z);
  } else {
    q = (r2 + s * s) - d2;
  }
  if (q < 0.0f) return miss;
  float t = s - sqrtf(q);
  /* Robust: from outside the exact t is never negative; rounding can make s - sqrtf(q) so near
   * the surface (a few ulps of |d|), and 0 is then the nearer answer. Not fmaxf: a NaN t must
   * stay NaN (and miss below). */
  if (robust && t < 0.0f) t = 0.0f;
  if (!(t <= g->len)) return miss;
  return (col_hit){true, t == 0.0f ? 0.0f : t};
}

static inline col_hit col__sweep_ref(const col__segment_prep *g, float cx, float cy, float cz,
                                     float r) {
  return col__sweep_steps(g, cx, cy, cz, r, false);
}

static inline col_hit col__sweep_robust_ref(const col__segment_prep *g, float cx, float cy,
                                            float cz, float r) {
  return col__sweep_steps(g, cx, cy, cz, r, true);
}

typedef col_hit (*col__sweep_one_fn)(const col__segment_prep *g, float cx, float cy, float cz,
                                     float r);

static inline col_segment_hit col__segment_spheres_with(col_vec3 from, col_vec3 to,
                                                        const col_sphere_soa *set,
                                                        col__sweep_one_fn one) {
  const col__segment_prep g = col__segment_prepare(from, to);
  col_segment_hit best = {false, 0.0f, COL_INDEX_NONE};
  for (size_t i = 0; i < set->count; i++) {
    const col_hit h = one(&g, set->center_x[i], set->center_y[i], set->center_z[i], set->radius[i]);
    /* Strictly earlier replaces: ties keep the lowest index. */
    if (h.hit && (!best.hit || h.t < best.t)) best = (col_segment_hit){true, h.t, (uint32_t)i};
  }
  return best;
}

static inline col_segment_hit col__segment_spheres_ref(col_vec3 from, col_vec3 to,
                                                       const col_sphere_soa *set) {
  return col__segment_spheres_with(from, to, set, col__sweep_ref);
}

static inline col_segment_hit col__segment_spheres_robust_ref(col_vec3 from, col_vec3 to,
                                                              const col_sphere_soa *set) {
  return col__segment_spheres_with(from, to, set, col__sweep_robust_ref);
}

#endif
