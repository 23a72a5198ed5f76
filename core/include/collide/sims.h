/* collide/sims.h — The seed simulations: bouncing balls and the platformer world: part of the
 * public API, included by collide.h (which defines the types it uses); include collide.h, not this
 * file. */
#ifndef COLLIDE_SIMS_H
#define COLLIDE_SIMS_H

/* ---------------------------------------------------------------------------------------- */
/* Seed simulations: bouncing balls and the platformer world step                           */
/* ---------------------------------------------------------------------------------------- */

/* How a simulation step finds the pairs to test. NAIVE is the seeds' double loop over all
 * pairs; BROADPHASE takes candidate pairs from col_broadphase_pairs (the algorithm given) on
 * boxes grown by a safety margin and tests them in the naive loop's order, with bit-identical
 * results: an object that moves further than the margin allows during the step turns "wild"
 * (counted in `fallbacks`), and from then on every pair it is part of that can touch is tested,
 * as in the naive loop: for the balls, every pair of a wild ball (past 1,024 wild balls in a
 * step, every remaining pair); for the world, the entities a grid finds near the wild entity's
 * box, looked up again after every push, so piles that send thousands of entities wild keep a
 * frame's cost proportional to the entities. Every other pair left out is provably apart when
 * its turn comes. Tests that cannot hit are skipped, so `tests` is below the naive count. */
typedef enum col_sim_pairs {
  COL_SIM_NAIVE = 0,
  COL_SIM_BROADPHASE = 1,
} col_sim_pairs;

typedef struct col_sim_stats {
  uint64_t tests;     /* narrow-phase tests (circle tests, MTDs) */
  uint64_t contacts;  /* of those, collisions resolved */
  uint64_t fallbacks; /* objects that turned wild (1 per step run naively: non-finite data) */
} col_sim_stats;

/* N balls in the box [0, width] x [0, height], as arrays owned by the struct (fill them after
 * col_balls_create; mass = radius, as in the seed). */
typedef struct col_balls {
  float *x, *y, *vx, *vy, *radius;
  size_t count;
  float width, height;
  struct col__sim_scratch *scratch; /* working memory kept between steps */
} col_balls;

/* Zeroed arrays for `count` balls. Errors (*out untouched): COL_ERR_NULL, COL_ERR_OVERFLOW,
 * COL_ERR_MEMORY. */
col_status col_balls_create(size_t count, float width, float height, col_balls *out);
/* Frees the arrays and zeroes the struct; NULL is ignored. */
void col_balls_destroy(col_balls *balls);

/* One frame of the bouncing-balls seed:
 * 1. positions first: every ball moves by its velocity (x += vx, y += vy); a ball reaching past
 *    a wall while moving towards it reverses that velocity component (x - r < 0 with vx < 0,
 *    or x + r > width with vx > 0; the same on y);
 * 2. then collisions, pairs (i, j), i < j, in ascending order: when col_circle_overlap is true,
 *    their velocities become col_elastic_response's (COL_ELASTIC_AXES, mass = radius), and
 *    both move by their new velocity (the seed's remedy against balls sticking together).
 * `stats` may be NULL; it is added to, not reset. Errors: COL_ERR_NULL, COL_ERR_ARGUMENT
 * (pairing or algorithm), col_broadphase_pairs' errors, COL_ERR_MEMORY (BROADPHASE only); on
 * any error the balls and `stats` are unchanged (the step did not start). */
col_status col_balls_step(col_balls *balls, col_sim_pairs pairing, col_broadphase algorithm,
                          col_sim_stats *stats);

/* The platformer world of the "playing with platforms" seed: boxes with velocity and weight. */
typedef struct col_world {
  col_aabb2 *box;
  col_vec2 *velocity;
  float *weight;
  size_t count;
  col_vec2 gravity;
  struct col__sim_scratch *scratch;
  /* Fast movers (col_world_step): 0, as col_world_create leaves it, turns the sweep off and
   * keeps the seed's step bit for bit; so do a negative and a NaN value. A value s > 0 sweeps
   * the move of an entity on an axis where the move is longer than s times its box's side
   * (0.5 sweeps every move long enough to carry a box's centre past a wall's centre, whatever
   * the wall's thickness: there the MTD would push it out the far side, a tunnel). Set it
   * after create. */
  float sweep_above;
} col_world;

/* Zeroed arrays for `count` entities. Errors as col_balls_create (*out untouched). */
col_status col_world_create(size_t count, col_vec2 gravity, col_world *out);
/* Frees the arrays and zeroes the struct; NULL is ignored. */
void col_world_destroy(col_world *world);

/* The seed's World.Update: for each entity i in order, velocity += gravity * weight (per
 * axis), then the box moves by velocity * dt (the product once per axis, added to min and
 * max; with the sweep on, see below), then for every other entity j in ascending order,
 * m = col_aabb2_mtd(box i, box j);
 * when m.hit (the seed's "displacement != 0"), the response (the seed leaves it to the
 * sample; ours): box i moves by m.d on the axis m.d is on (min and max), and its velocity
 * on that axis becomes 0. Only entity i moves during its turn. Errors as col_balls_step, with
 * one difference for COL_ERR_MEMORY (BROADPHASE only): the entities are unchanged when the
 * candidate pairs could not be had, but an allocation can also fail part way, on the turn of
 * some entity k (once an entity turns wild): entities before k then hold what the whole step
 * gives them, entities after k are unchanged, entity k has moved and been pushed by some of
 * its partners, and `stats` has been added what the turns made so far counted (the collisions
 * of the entities before k and some of k's, their tests, any fallback; nothing is reset).
 * Call destroy, or step again (the frame is then not the naive step's).
 * The sweep (world->sweep_above = s > 0): entity i's move d = velocity * dt (the products as
 * above, after gravity) is made per axis, x then y. On axis a, with side = box.max.a -
 * box.min.a of i's box as it is then (float subtraction), the move is fast when
 * |d.a| > s * side (float product). A fast move is swept: for every other entity j in
 * ascending order, col_sweep_aabb2(box i, move, box j, COL_TOUCH_SEPARATES) with move = (d.x,
 * +0) on x, (+0, d.y) on y; a hit counts when it enters a face (normal not all zero: a start
 * already overlapping j is left to the MTD pass; under the open rule a box sliding along j's
 * face, or leaving it, is no hit, and one touching it and moving into it hits at t = 0); the
 * earliest counted hit wins, ties to the lowest j (what col_sweep_aabb2_first gives over the other
 * boxes, minus the starts inside). On a hit at time t, d.a becomes t * d.a (float product) and i's
 * velocity on a becomes 0. Then min.a and max.a move by d.a, whether swept, cut or neither (a move
 * that is not fast, or a sweep that hits nothing, is the seed's move, bit for bit), and the y axis
 * follows, from where x's move left the box. The MTD pass then runs unchanged (it pushes out what
 * the cut's rounding left inside, and every start inside). So a box stops at the first wall its
 * move reaches however thin the wall; the rest of the move on that axis is lost for the frame (no
 * bounce), the other axis still moves. The boxes the sweep meets are as the step has left them so
 * far: entities before i at their new places, those after at their old ones. The sweeps are not
 * counted in `stats` (tests and contacts are the MTD pass's). The broadphase step sweeps the
 * same partners: a swept move stays within i's grown box, so its candidates cover it. */
col_status col_world_step(col_world *world, float dt, col_sim_pairs pairing,
                          col_broadphase algorithm, col_sim_stats *stats);

#endif
