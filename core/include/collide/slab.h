/* collide/slab.h — Segments and moving boxes against still boxes (the slab test): part of the
 * public API, included by collide.h (which defines the types it uses); include collide.h, not
 * this file. DESIGN.md 4.9 is the source of this text. */
#ifndef COLLIDE_SLAB_H
#define COLLIDE_SLAB_H

/* ---------------------------------------------------------------------------------------- */
/* 4.9 Segment and swept box against boxes (the slab test)                                   */
/* ---------------------------------------------------------------------------------------- */

/* The answer of a segment or a moving box against boxes.
 * hit     whether they meet for some t in [0, 1] (see the rules below).
 * t       the time of entry as a fraction of the move (from -> to, or the displacement), in
 *         [0, 1]; +0.0 on a miss and when already overlapping at t = 0.
 * normal  the outward normal of the box face entered: one component -1.0 or +1.0, the others
 *         +0.0; all +0.0 on a miss and when no face is entered (already overlapping: every
 *         entry time negative, see below).
 * index   the box hit (batch calls: the earliest, ties to the lowest index); the single calls
 *         give 0 on a hit; COL_INDEX_NONE on a miss. */
typedef struct col_aabb3_hit {
  bool hit;
  float t;
  col_vec3 normal;
  uint32_t index;
} col_aabb3_hit;

typedef struct col_aabb2_hit {
  bool hit;
  float t;
  col_vec2 normal;
  uint32_t index;
} col_aabb2_hit;

/* A box `mover` displaced by `move` against a still box `box`: is there a t in [0, 1] for which
 * mover + t*move overlaps box under `touch` (col_aabb3_overlap's rule)? Computed in float, per
 * axis a in the order x, y, z (the slab test; T. Barnes, "Fast, Branchless Ray/Bounding Box
 * Intersections", parts 1-3, and Williams et al., "An efficient and robust ray-box intersection
 * algorithm", 2005: the reciprocal is taken once and its sign picks the planes):
 * 1. Miss when any coordinate of mover or move is not finite, when mover.min > mover.max on an
 *    axis, or when !(box.min <= box.max) on an axis (a NaN coordinate, or an inverted box). The
 *    box may have infinite coordinates (a half-space, a slab) and may be flat or a point.
 * 2. inv = 1.0f / move.a (move.a = +0 gives +inf, -0 gives -inf: a zero component is a move
 *    parallel to the axis's planes, and its sign picks the planes like any other). inv > 0:
 *    near = (box.min.a - mover.max.a) * inv, far = (box.max.a - mover.min.a) * inv, the entry
 *    face's normal -1; otherwise near = (box.max.a - mover.min.a) * inv,
 *    far = (box.min.a - mover.max.a) * inv, normal +1.
 * 3. N starts at -inf and F at +inf; per axis in order, N = near when near > N (the entry axis
 *    becomes a), F = far when far < F. A NaN near or far (0 * inf: the mover lies on a plane of
 *    the box and moves parallel to it; inf * 0 from an overflowed move) changes neither.
 * 4. COL_TOUCH_OVERLAPS: hit iff N <= F && N <= 1 && F >= 0.
 *    COL_TOUCH_SEPARATES: hit iff no near or far was NaN && N < F && N < 1 && F > 0: sliding
 *    along a face, or starting on one and moving away, is no hit.
 * 5. t = N when N > 0, else +0.0; the normal is the entry axis's when there is one and N >= 0
 *    (-0.0 counts: a start touching the face it moves into); otherwise all +0.0 (starting
 *    inside or sliding on a plane: no face entered). Ties between axes go to the lowest (x).
 * Rounding: each near and far is (plane - face) * (1 / move), three roundings (four for a
 * segment, whose move to - from is rounded too), so it is within about 4u of the exact time
 * (relative, u = 2^-24): t is that close to the exact entry time, and the decision is the
 * exact one except near an edge or corner (a near and a far nearly equal), near t = 1, or where
 * a time overflows or underflows. col_segment_aabb3 states the bound the tests check.
 * 2D: the same on x and y. */
col_aabb3_hit col_sweep_aabb3(col_aabb3 mover, col_vec3 move, col_aabb3 box, col_touch touch);
col_aabb2_hit col_sweep_aabb2(col_aabb2 mover, col_vec2 move, col_aabb2 box, col_touch touch);

/* The segment from -> to against a box: exactly col_sweep_aabb3 with the point box
 * {from, from} and move = to - from (float subtractions; one that overflows is a non-finite
 * move: miss). The XNA bullet's test against boxes: a fast mover's last and current positions.
 * Error bound (checked against exact rational arithmetic by the unit tests and the slab fuzzer,
 * harness/slab_exact.c): with the exact times near*, far* of the real segment (to - from not
 * rounded), when the box is finite and every nonzero coordinate difference (box plane - from,
 * to - from) is in [2^-60, 2^60]: the decision is the exact one unless some near* and far* (or
 * near* and 1) differ by at most 8u (|near*| + |far*|), or a near* ties the entry time within that
 * (then the entry face may be the other one), and when both hit |t - t*| <= 8u t*. */
col_aabb3_hit col_segment_aabb3(col_vec3 from, col_vec3 to, col_aabb3 box, col_touch touch);
col_aabb2_hit col_segment_aabb2(col_vec2 from, col_vec2 to, col_aabb2 box, col_touch touch);

/* The batch forms on the active backend: one segment or moving box against every box of
 * `set`, each tested exactly as the single call; the earliest hit (smallest t), ties to the
 * lowest index, into *out. Errors: COL_ERR_NULL (set, out, or an array with set->count > 0),
 * COL_ERR_SIZE (set->count > UINT32_MAX), COL_ERR_ARGUMENT (touch), and the backend errors;
 * *out is untouched on error. A platformer's move against its tiles: col_sweep_aabb2_first
 * with the open rule, then move by t * move and slide along the normal's other axis. */
col_status col_sweep_aabb3_first(col_aabb3 mover, col_vec3 move, const col_aabb3_soa *set,
                                 col_touch touch, col_aabb3_hit *out);
col_status col_sweep_aabb2_first(col_aabb2 mover, col_vec2 move, const col_aabb2_soa *set,
                                 col_touch touch, col_aabb2_hit *out);
col_status col_segment_aabb3_first(col_vec3 from, col_vec3 to, const col_aabb3_soa *set,
                                   col_touch touch, col_aabb3_hit *out);
col_status col_segment_aabb2_first(col_vec2 from, col_vec2 to, const col_aabb2_soa *set,
                                   col_touch touch, col_aabb2_hit *out);

#endif
