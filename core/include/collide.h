/*
 * collide.h — the public API of collide, a C11 library of 2D/3D collision kernels.
 *
 * Every kernel here has a scalar reference (the single-pair functions and the `scalar`
 * backend) whose exact floating-point behaviour is the oracle: SIMD backends must return the
 * same results bit for bit, NaN, infinities, -0.0 and touching edges included. The text in
 * this header is that oracle in words; DESIGN.md section 4 is its source.
 *
 * Conventions
 * - Small structs by value; result structs carry a `hit` field.
 * - Functions that take pointers or sizes return a `col_status` (COL_OK = 0, errors < 0).
 *   On error they write nothing but the status: output buffers and result structs are left
 *   untouched.
 * - Floats: every comparison is an ordered IEEE compare, so a NaN operand makes it false.
 *   -0.0 compares equal to +0.0. Where a result can be zero, the library returns +0.0
 *   ("canonical zero"), never -0.0, so results can be compared by their bits.
 * - Batch entry points (`*_query`, `*_batch`, `col_sprite_overlap`, `col_mask_overlap`,
 *   `col_segment_spheres`, the `*_first` calls of collide/slab.h)
 *   run on the active backend (see "Backends" at the end). Single-pair functions are always
 *   scalar: they are the reference.
 * - Thread safety: all kernels are reentrant. Backend selection is resolved once (thread-safe)
 *   and may be changed with col_backend_select() before worker threads start.
 */
#ifndef COLLIDE_H
#define COLLIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Status codes                                                                             */
/* ---------------------------------------------------------------------------------------- */

typedef enum col_status {
  COL_OK = 0,
  COL_ERR_NULL = -1,        /* a required pointer is NULL */
  COL_ERR_SIZE = -2,        /* a size or count is negative or out of range */
  COL_ERR_STRIDE = -3,      /* a sprite's stride is smaller than its width */
  COL_ERR_OVERFLOW = -4,    /* sizes whose product overflows the address space */
  COL_ERR_ARGUMENT = -5,    /* an enum argument (touch rule, pixel mode) out of range */
  COL_ERR_BACKEND = -6,     /* a backend name (COLLIDE_BACKEND) that does not exist */
  COL_ERR_UNSUPPORTED = -7, /* a backend that exists but cannot run on this CPU */
  COL_ERR_MEMORY = -8,      /* an allocation failed */
  COL_ERR_EXISTS = -9,      /* a user backend or broadphase of that name is registered */
  COL_ERR_VERSION = -10,    /* a struct of another collide.h version (COL_USER_VERSION) */
  COL_ERR_TASKS = -11,      /* a task system (or collide's thread pool) could not run the work */
  COL_ERR_FORMAT = -12,     /* a scene file (collide/scene.h) that breaks its format */
  COL_ERR_IO = -13,         /* a file that could not be opened, read or written */
} col_status;

/* A short, static, human-readable description of a status ("ok", "NULL pointer", ...). */
const char *col_status_string(col_status status);

/* ---------------------------------------------------------------------------------------- */
/* Geometry                                                                                 */
/* ---------------------------------------------------------------------------------------- */

typedef struct col_vec2 {
  float x, y;
} col_vec2;

typedef struct col_vec3 {
  float x, y, z;
} col_vec3;

/* Axis-aligned boxes: `min` and `max` corners. Inverted boxes (min > max on an axis) are
 * legal input; the formulas below decide what they do (usually: overlap nothing). */
typedef struct col_aabb2 {
  col_vec2 min, max;
} col_aabb2;

typedef struct col_aabb3 {
  col_vec3 min, max;
} col_aabb3;

/* ---------------------------------------------------------------------------------------- */
/* 4.1 AABB overlap                                                                         */
/* ---------------------------------------------------------------------------------------- */

/* The touch rule: do two boxes that share only an edge (a.max == b.min) overlap?
 *
 * COL_TOUCH_OVERLAPS  closed intervals; per axis `a.max >= b.min && b.max >= a.min`.
 *                     Touching boxes overlap. Box2D, cute_c2 and box pruning use this.
 * COL_TOUCH_SEPARATES open intervals; per axis `a.max > b.min && b.max > a.min`.
 *                     Touching boxes do not overlap. The seeds' XNA Rectangle test and
 *                     raylib use this.
 *
 * Boxes overlap when the rule holds on every axis. A NaN in any compared coordinate makes
 * its compare false, so a box with a NaN coordinate overlaps nothing (not even itself).
 * Infinite coordinates compare as usual: [-inf, +inf] overlaps every finite box.
 * Single-pair functions treat any value other than COL_TOUCH_SEPARATES as
 * COL_TOUCH_OVERLAPS; batch functions reject other values with COL_ERR_ARGUMENT. */
typedef enum col_touch {
  COL_TOUCH_OVERLAPS = 0,
  COL_TOUCH_SEPARATES = 1,
} col_touch;

bool col_aabb2_overlap(col_aabb2 a, col_aabb2 b, col_touch touch);
bool col_aabb3_overlap(col_aabb3 a, col_aabb3 b, col_touch touch);

/* A set of boxes as a structure of arrays: box i is
 * (min_x[i], min_y[i]) - (max_x[i], max_y[i]). With count == 0 the pointers may be NULL. */
typedef struct col_aabb2_soa {
  const float *min_x, *min_y, *max_x, *max_y;
  size_t count;
} col_aabb2_soa;

typedef struct col_aabb3_soa {
  const float *min_x, *min_y, *min_z, *max_x, *max_y, *max_z;
  size_t count;
} col_aabb3_soa;

/* Batch query: the indices of the boxes of `set` that overlap `query` under `touch`, in
 * ascending order, written to `indices` (room for set->count entries is required), and their
 * number to `*count`. Box i is tested exactly as col_aabb2_overlap(query, box_i, touch), so
 * the query box is the `a` of the rule (the rule is symmetric in its result anyway).
 * Errors: COL_ERR_NULL (set, count, or, with set->count > 0, any array or indices is NULL),
 * COL_ERR_SIZE (set->count > UINT32_MAX: indices are 32-bit), COL_ERR_ARGUMENT (touch),
 * and the backend errors. */
col_status col_aabb2_query(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                           uint32_t *indices, size_t *count);
col_status col_aabb3_query(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                           uint32_t *indices, size_t *count);

/* The 2D query over an array of structures: box i is boxes[i]. Same results as
 * col_aabb2_query on the same boxes laid out as a col_aabb2_soa; it exists so that the
 * harness can show what the layout costs (SIMD backends transpose W boxes per step).
 * Errors: COL_ERR_NULL (count, or boxes or indices with n > 0), COL_ERR_SIZE
 * (n > UINT32_MAX), COL_ERR_ARGUMENT (touch), and the backend errors. */
col_status col_aabb2_query_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n, col_touch touch,
                               uint32_t *indices, size_t *count);

/* ---------------------------------------------------------------------------------------- */
/* 4.2 Minimum translation distance (the "Playing with platforms" seed)                     */
/* ---------------------------------------------------------------------------------------- */

/* The displacement `d` to apply to box `a` so that it no longer penetrates box `b`. */
typedef struct col_mtd {
  col_vec2 d;
  bool hit;
} col_mtd;

/* Minimum translation distance of `a` out of `b`. The four side distances are computed in
 * this order, each with its axis and sign ("side"):
 *     dl = a.max.x - b.min.x   (x, -1: push a to the left)
 *     dr = b.max.x - a.min.x   (x, +1: push a to the right)
 *     dd = a.max.y - b.min.y   (y, -1: push a down, toward smaller y)
 *     du = b.max.y - a.min.y   (y, +1: push a up, toward larger y)
 * - If any of them is NaN or < 0 the boxes are apart: {d = (+0, +0), hit = false}.
 * - Otherwise m = the first minimum in that order (a later distance replaces it only when
 *   strictly smaller, so ties go to the earlier one: x before y, left/down before right/up).
 *   d moves `a` by side * m on m's axis and +0 on the other; hit = (m > 0).
 * - Touching boxes (m == 0, including -0.0) give {d = (+0, +0), hit = false}: no zero in d is
 *   ever -0.0.
 * - Infinite distances are legal: m may be +inf, then d holds +-inf and hit is true.
 * The seed's worked example A = (0,0)-(64,64), B = (32,32)-(96,96) returns (-32, 0): its code
 * lets x win the tie (its prose says (0, -32); the code is the reference). */
col_mtd col_aabb2_mtd(col_aabb2 a, col_aabb2 b);

/* out[i] = col_aabb2_mtd(a[i], b[i]) for i < n. Errors: COL_ERR_NULL (any array NULL with
 * n > 0), and the backend errors. The arrays may not overlap `out`. */
col_status col_aabb2_mtd_batch(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out);

#include "collide/circles.h"
#include "collide/pixels.h"

/* ---------------------------------------------------------------------------------------- */
/* 4.4 Segment against sphere (XNA recipe 4-11: small, fast objects)                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct col_sphere {
  col_vec3 center;
  float radius;
} col_sphere;

typedef struct col_hit {
  bool hit;
  float t; /* distance from `from` to the first contact, in world units; +0 on a miss */
} col_hit;

/* Does the segment from -> to (the mover's last and current positions) touch sphere `s`?
 * XNA's Ray.Intersects(BoundingSphere) over the segment, step by step (all float):
 * 1. any non-finite coordinate of from, to, the center, or a non-finite radius, or
 *    radius < 0: miss. (-0.0 is a valid radius.)
 * 2. d = center - from; d2 = (d.x*d.x + d.y*d.y) + d.z*d.z; r2 = r*r.
 * 3. d2 < r2: hit at t = 0 (the segment starts inside). Starting exactly on the surface is
 *    not inside; it is decided by the steps below.
 * 4. v = to - from; len = sqrtf((v.x*v.x + v.y*v.y) + v.z*v.z); len == 0: miss.
 * 5. dir = v / len (three divisions, no reciprocal); s = (dir.x*d.x + dir.y*d.y) + dir.z*d.z;
 *    s < 0: miss (the sphere is behind).
 * 6. q = (r2 + s*s) - d2; q < 0: miss (the line passes beside it). t = s - sqrtf(q);
 *    hit iff t <= len (the contact lies within this step's travel).
 * A zero t is returned as +0.0. Overflow is not special-cased: a v or d2 that overflows to
 * inf yields NaN or inf and the ordered compares decide (usually a miss).
 * The seed's bullet: 5000 km/h at 60 updates/s moves ~23 m per update, so neither endpoint
 * is inside a 15 cm bottle, yet the segment between them hits it. */
col_hit col_segment_sphere(col_vec3 from, col_vec3 to, col_sphere s);

/* The same question, answered robustly when the sphere is far away compared to its radius.
 * The recipe's step 6 subtracts d2 from r2 + s*s, two numbers of the size of |d|^2, so its
 * rounding error is a few ulps of |d|^2 against a q of at most r^2: with a 7.5 cm sphere the
 * decision is noise from about 100 m on (docs/semantics.md, "Segment against sphere: the recipe far
 * away"). This variant takes steps 1-5 unchanged and replaces step 6 with:
 * 6'. e = d - s*dir, per axis (e.x = d.x - s*dir.x, ...); q = r2 - ((e.x*e.x + e.y*e.y) +
 *     e.z*e.z); q < 0: miss. t = s - sqrtf(q), or +0.0 when that is negative; hit iff
 *     t <= len. A zero t is +0.0.
 * (The recipe's t can come out a few ulps of |d| below zero when the segment starts on or
 * just outside the surface; this variant's t never does.)
 * Same contract otherwise (misses, non-finite input, the start-inside rule).
 * Error bound (u = 2^-24; all quantities below exact, for the float inputs as given): let
 * D = |center - from|, L = |to - from|, p = the distance from the center to the line, and
 * E = 32 u (D + r). When D, L and r (unless r is 0) lie in [2^-40, 2^40], the hit decision is
 * the exact one except when |p - r| <= E (tangent), |D - r| <= E (starting on the surface), or
 * the exact contact lies within Bt + 4 u L of the segment's end, Bt = 3 E + 2 sqrt(r E); and
 * when both hit, |t - exact t| <= Bt. The recipe's error instead grows with D^2 / r. The unit
 * tests and the sweep fuzzer check this bound against exact rational arithmetic. */
col_hit col_segment_sphere_robust(col_vec3 from, col_vec3 to, col_sphere s);

/* Large and fast movers: sweeping a sphere of radius `mover_radius` against `target` equals
 * sweeping its center point against `target` grown by that radius. Returns target with
 * radius = target.radius + mover_radius (one float addition). */
col_sphere col_sphere_inflate(col_sphere target, float mover_radius);

/* A 4x4 world matrix in XNA's convention: row vectors, p' = p * M, translation in m[3][0..2]. */
typedef struct col_mat4 {
  float m[4][4];
} col_mat4;

/* The world matrix that scales by `scale` per axis, then translates by `translation`. */
col_mat4 col_mat4_scale_translation(col_vec3 scale, col_vec3 translation);

/* XNA's BoundingSphere.Transform: center' = center * M (row vector, as
 * ((x*m[0][j] + y*m[1][j]) + z*m[2][j]) + m[3][j]), radius' = radius * sqrtf(the largest squared
 * length of the rows 0..2 of M), a row's squared length being (m[r][0]^2 + m[r][1]^2) +
 * m[r][2]^2 (a NaN one is never the largest; none above 0 gives radius * 0). For a
 * scale+translation matrix that is radius * max(|sx|, |sy|, |sz|) (exact unless a squared
 * scale overflows or underflows). */
col_sphere col_sphere_transform(col_sphere s, col_mat4 world);

/* A set of spheres as a structure of arrays. With count == 0 the pointers may be NULL. */
typedef struct col_sphere_soa {
  const float *center_x, *center_y, *center_z, *radius;
  size_t count;
} col_sphere_soa;

#define COL_INDEX_NONE UINT32_MAX

typedef struct col_segment_hit {
  bool hit;
  float t;        /* as col_hit.t; +0 on a miss */
  uint32_t index; /* the sphere hit first; COL_INDEX_NONE on a miss */
} col_segment_hit;

/* One segment against every sphere of `set` (each tested exactly as col_segment_sphere):
 * the earliest hit (smallest t), ties to the lowest index. Errors: COL_ERR_NULL (set, out,
 * or an array with set->count > 0), COL_ERR_SIZE (set->count > UINT32_MAX), and the backend
 * errors. */
col_status col_segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                               col_segment_hit *out);

/* col_segment_spheres with each sphere tested by col_segment_sphere_robust; same errors. */
col_status col_segment_spheres_robust(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                                      col_segment_hit *out);

#include "collide/slab.h"

#include "collide/broadphase.h"

#include "collide/scene.h"

#include "collide/parallel.h"

#include "collide/sims.h"

#include "collide/backends.h"

#ifdef __cplusplus
}
#endif

#endif /* COLLIDE_H */
