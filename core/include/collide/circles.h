/* collide/circles.h — Circles and elastic response: part of the public API, included by collide.h
 * (which defines the types it uses); include collide.h, not this file. */
#ifndef COLLIDE_CIRCLES_H
#define COLLIDE_CIRCLES_H

/* ---------------------------------------------------------------------------------------- */
/* Circles and elastic response (the bouncing-balls seed)                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct col_circle {
  col_vec2 center;
  float radius;
} col_circle;

/* The seed's overlap test, in its order of operations: the boxes of side 2r around both
 * centres must overlap strictly, tested as (a.x + a.r) + b.r > b.x && a.x < (b.x + a.r) + b.r
 * (and the same on y), then sqrtf(dx*dx + dy*dy) < a.r + b.r with d = a.center - b.center.
 * Touching circles (distance == r1 + r2) do not overlap; NaN never overlaps. */
bool col_circle_overlap(col_circle a, col_circle b);

/* The common optimization: dx*dx + dy*dy < (a.r + b.r) * (a.r + b.r), no box check, no square
 * root. Not always the seed's answer: near the boundary the rounding of the square root and of
 * the squared sum differ, and the box check's sums round on their own (docs/semantics.md: how often). */
bool col_circle_overlap_squared(col_circle a, col_circle b);

/* The contact point weighted by radii, per axis (a.c * b.r + b.c * a.r) / (a.r + b.r): on the
 * segment between the centres where the circles' surfaces meet (the seed's "right way"). When
 * a.r + b.r is 0 (two points) there are no weights: the midpoint. A zero comes back as +0.0,
 * never -0.0 (both contact functions). */
col_vec2 col_circle_contact(col_circle a, col_circle b);

/* The midpoint (a.c + b.c) / 2 the seed warns against: right only for equal radii. */
col_vec2 col_circle_contact_midpoint(col_circle a, col_circle b);

/* A ball for the elastic response: position, velocity and mass (the seed uses mass = radius). */
typedef struct col_ball {
  col_vec2 position, velocity;
  float mass;
} col_ball;

typedef enum col_elastic_rule {
  /* The seed: the 1D elastic formula on each axis on its own,
   * v1' = (v1 (m1 - m2) + 2 m2 v2) / (m1 + m2), v2' = (v2 (m2 - m1) + 2 m1 v1) / (m1 + m2).
   * Exact for head-on collisions along an axis; for oblique ones it exchanges the tangential
   * motion too (it ignores where the balls touch). */
  COL_ELASTIC_AXES = 0,
  /* The physically correct impulse along the contact normal n = (p2 - p1) / |p2 - p1|: with
   * s = (v1 - v2) . n, when s > 0 (approaching), v1' = v1 - (2 m2 / (m1 + m2)) s n and
   * v2' = v2 + (2 m1 / (m1 + m2)) s n; otherwise (separating, resting, coincident centres, NaN)
   * the velocities stay. */
  COL_ELASTIC_NORMAL = 1,
} col_elastic_rule;

typedef struct col_velocities {
  col_vec2 a, b;
} col_velocities;

/* The velocities of a and b after their elastic collision under `rule` (out-of-range rules
 * use COL_ELASTIC_AXES). Every velocity comes back canonical: -0.0 as +0.0, any NaN as the
 * default quiet NaN (NaN payloads would otherwise depend on the compiler's operand order). Both
 * rules conserve momentum and kinetic energy in exact arithmetic; with floats, within rounding (the
 * tests and the fuzzer state the bounds). Masses must be positive (m1 + m2 = 0 divides by zero). */
col_velocities col_elastic_response(col_ball a, col_ball b, col_elastic_rule rule);

/* Circles as a structure of arrays (any array may be unaligned). */
typedef struct col_circle_soa {
  const float *x, *y, *r;
  size_t count;
} col_circle_soa;

typedef enum col_circle_test {
  COL_CIRCLE_SEED = 0,    /* col_circle_overlap */
  COL_CIRCLE_SQUARED = 1, /* col_circle_overlap_squared */
} col_circle_test;

/* hit[i] = test(a[i], b[i]) (1 or 0) for i < a->count, on the active backend, bit-exact with
 * the single-pair functions. Errors (nothing written): COL_ERR_NULL (a, b, hit, or arrays of a
 * non-empty batch), COL_ERR_SIZE (a->count != b->count), COL_ERR_ARGUMENT (test), backend
 * errors. */
col_status col_circle_overlap_batch(const col_circle_soa *a, const col_circle_soa *b,
                                    col_circle_test test, uint8_t *hit);

/* Balls as a structure of arrays; velocities are updated in place by col_elastic_batch. */
typedef struct col_ball_soa {
  const float *x, *y;
  float *vx, *vy;
  const float *mass;
  size_t count;
} col_ball_soa;

/* Collides a[i] with b[i] for every i < a->count: their velocities become
 * col_elastic_response's, on the active backend, bit-exact with it. The 2 * count balls must
 * be distinct (no velocity array element shared between pairs or sides). Errors (nothing
 * written): COL_ERR_NULL, COL_ERR_SIZE (a->count != b->count), COL_ERR_ARGUMENT (rule),
 * backend errors. */
col_status col_elastic_batch(col_ball_soa *a, col_ball_soa *b, col_elastic_rule rule);

#endif
