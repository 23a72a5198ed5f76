/* The simulation fuzz target (fuzz_sim.c: the scenes, the naive loops' definition, the
 * differential runs) in parts by concern: the allocation failures (starved.c). */
#ifndef COLLIDE_FUZZ_SIM_H
#define COLLIDE_FUZZ_SIM_H

#include "../fuzz_common.h"

/* The statistics a step added to `before`; the caller's values are arbitrary ones (not zeros),
 * so that a step that resets them instead of adding is caught. */
static const col_sim_stats STATS_BEFORE = {1000003, 5000011, 7};

/* The world's naive step as sims.h defines it, written with the public single-pair functions;
 * returns the collisions, and adds each entity's (those of its turn) to per_entity[i] when
 * per_entity is not NULL. */
uint64_t fs_world_oracle(col_world *w, float dt, uint64_t *per_entity);

/* Allocation failures at one frame (starved.c): `before` is the scene before the frame,
 * `after` the naive step's result; `alg` the broadphase stepped, `pick` the input's hash. */
void fs_balls_starved(const col_balls *before, const col_balls *after, col_broadphase alg,
                      uint64_t pick, int frame);
void fs_world_starved(const col_world *before, const col_world *after, col_broadphase alg,
                      uint64_t pick, int frame);

#endif
