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
} col_world;

/* Zeroed arrays for `count` entities. Errors as col_balls_create (*out untouched). */
col_status col_world_create(size_t count, col_vec2 gravity, col_world *out);
void col_world_destroy(col_world *world);

/* The seed's World.Update: for each entity i in order, velocity += gravity * weight (per
 * axis), then the box moves by velocity * dt (the product once per axis, added to min and
 * max), then for every other entity j in ascending order, m = col_aabb2_mtd(box i, box j);
 * when m.hit (the seed's "displacement != 0"), the response (the seed leaves it to the
 * sample; ours): box i moves by m.d on the axis m.d is on (min and max), and its velocity
 * on that axis becomes 0. Only entity i moves during its turn. Errors as col_balls_step, with
 * one difference for COL_ERR_MEMORY (BROADPHASE only): the entities are unchanged when the
 * candidate pairs could not be had, but an allocation can also fail part way, on the turn of
 * some entity k (once an entity turns wild): entities before k then hold what the whole step
 * gives them, entities after k are unchanged, entity k has moved and been pushed by some of
 * its partners, and `stats` has been added what the turns made so far counted (the collisions
 * of the entities before k and some of k's, their tests, any fallback; nothing is reset).
 * Call destroy, or step again (the frame is then not the naive step's). */
col_status col_world_step(col_world *world, float dt, col_sim_pairs pairing,
                          col_broadphase algorithm, col_sim_stats *stats);

#endif
