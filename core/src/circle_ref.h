/* The circle references (the bouncing-balls seed) as inline code, shared by circle.c (the
 * single-pair functions) and the reference backends (scalar.c, x86/autovec.c). Every
 * expression is written in the seed's order of operations; the SIMD template
 * (simd/simd_circle.h) repeats that order lane by lane. */
#ifndef COLLIDE_CIRCLE_REF_H
#define COLLIDE_CIRCLE_REF_H

#include "backend.h"

#include <math.h>

/* The seed: boxes of side 2r around both centres overlap (strictly, in the seed's sums),
 * then the centre distance sqrtf(dx*dx + dy*dy) < r1 + r2. */
static inline bool col__circle_seed_ref(float ax, float ay, float ar, float bx, float by,
                                        float br) {
  const bool boxes = ((ax + ar) + br > bx) && (ax < (bx + ar) + br) && ((ay + ar) + br > by) &&
                     (ay < (by + ar) + br);
  if (!boxes) return false;
  const float dx = ax - bx, dy = ay - by;
  return sqrtf(dx * dx + dy * dy) < ar + br;
}

/* The usual optimization: no box check, no square root, dx*dx + dy*dy < (r1 + r2)^2. */
static inline bool col__circle_squared_ref(float ax, float ay, float ar, float bx, float by,
                                           float br) {
  const float dx = ax - bx, dy = ay - by, r = ar + br;
  return dx * dx + dy * dy < r * r;
}

/* Velocities leave the responses canonical: zeros as +0.0 (x + 0.0f), NaNs as the default
 * quiet NaN. NaN payloads would otherwise depend on the compiler: x86 propagates the first
 * operand's NaN and compilers commute additions and multiplications freely, and clang may
 * keep or quiet a signalling NaN passed through unchanged. */
static inline float col__canonical_velocity(float v) { return v == v ? v + 0.0f : NAN; }

static inline void col__canonical_velocities(float *v1x, float *v1y, float *v2x, float *v2y) {
  *v1x = col__canonical_velocity(*v1x);
  *v1y = col__canonical_velocity(*v1y);
  *v2x = col__canonical_velocity(*v2x);
  *v2y = col__canonical_velocity(*v2y);
}

/* The seed's per-axis elastic formula, mass given:
 * v1' = (v1 (m1 - m2) + 2 m2 v2) / (m1 + m2), v2' = (v2 (m2 - m1) + 2 m1 v1) / (m1 + m2). */
static inline void col__elastic_axes_ref(float *v1x, float *v1y, float m1, float *v2x, float *v2y,
                                         float m2) {
  const float sum = m1 + m2, d12 = m1 - m2, d21 = m2 - m1;
  const float two_m1 = 2.0f * m1, two_m2 = 2.0f * m2;
  const float ax = *v1x, ay = *v1y, bx = *v2x, by = *v2y;
  *v1x = (ax * d12 + two_m2 * bx) / sum;
  *v1y = (ay * d12 + two_m2 * by) / sum;
  *v2x = (bx * d21 + two_m1 * ax) / sum;
  *v2y = (by * d21 + two_m1 * ay) / sum;
  col__canonical_velocities(v1x, v1y, v2x, v2y);
}

/* The impulse along the contact normal n = (p2 - p1) / |p2 - p1|: with the approach speed
 * s = (v1 - v2) . n > 0, v1' = v1 - (2 m2 / (m1 + m2)) s n and v2' = v2 + (2 m1 / (m1 + m2)) s n.
 * Velocities stay as they are when the balls separate or rest (s <= 0), when the centres
 * coincide (no normal), or when anything is NaN. */
static inline void col__elastic_normal_ref(float p1x, float p1y, float *v1x, float *v1y, float m1,
                                           float p2x, float p2y, float *v2x, float *v2y, float m2) {
  const float nx0 = p2x - p1x, ny0 = p2y - p1y;
  const float len = sqrtf(nx0 * nx0 + ny0 * ny0);
  /* Divide by 1 where there is no normal: those lanes keep their velocities anyway, and no
   * division by zero happens (the fuzz build traps it). */
  const float safe = len > 0.0f ? len : 1.0f;
  const float nx = nx0 / safe, ny = ny0 / safe;
  const float s = (*v1x - *v2x) * nx + (*v1y - *v2y) * ny;
  const bool apply = len > 0.0f && s > 0.0f;
  const float sum = m1 + m2;
  const float k1 = (2.0f * m2) / sum * s, k2 = (2.0f * m1) / sum * s;
  if (apply) {
    *v1x = *v1x - k1 * nx;
    *v1y = *v1y - k1 * ny;
    *v2x = *v2x + k2 * nx;
    *v2y = *v2y + k2 * ny;
  }
  col__canonical_velocities(v1x, v1y, v2x, v2y);
}

static inline void col__circle_overlap_batch_ref(size_t n, const col_circle_soa *a,
                                                 const col_circle_soa *b, col_circle_test test,
                                                 uint8_t *hit) {
  for (size_t i = 0; i < n; i++)
    hit[i] = test == COL_CIRCLE_SEED
                 ? col__circle_seed_ref(a->x[i], a->y[i], a->r[i], b->x[i], b->y[i], b->r[i])
                 : col__circle_squared_ref(a->x[i], a->y[i], a->r[i], b->x[i], b->y[i], b->r[i]);
}

static inline void col__elastic_batch_ref(size_t n, const col_ball_soa *a, const col_ball_soa *b,
                                          col_elastic_rule rule) {
  for (size_t i = 0; i < n; i++) {
    if (rule == COL_ELASTIC_AXES)
      col__elastic_axes_ref(&a->vx[i], &a->vy[i], a->mass[i], &b->vx[i], &b->vy[i], b->mass[i]);
    else
      col__elastic_normal_ref(a->x[i], a->y[i], &a->vx[i], &a->vy[i], a->mass[i], b->x[i], b->y[i],
                              &b->vx[i], &b->vy[i], b->mass[i]);
  }
}

#endif
