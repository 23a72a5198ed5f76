/* The simulation fuzz target (fuzz_sim.c: the scenes, the differential runs) in parts by
 * concern: the naive loops' definition (oracle.c, oracle.h), the allocation failures
 * (starved.c). What the target and starved.c share: the caller's statistics and the scene
 * copies. */
#ifndef COLLIDE_FUZZ_SIM_H
#define COLLIDE_FUZZ_SIM_H

#include "../fuzz_common.h"

#include <string.h>

/* The statistics a step added to `before`; the caller's values are arbitrary ones (not zeros),
 * so that a step that resets them instead of adding is caught. */
static const col_sim_stats STATS_BEFORE = {1000003, 5000011, 7};

/* A scene's state into another of the same count (made by the same create): the balls'
 * positions, velocities and radii; the entities' boxes, velocities and weights, and the
 * world's sweep threshold. */
static inline void fs_balls_copy(col_balls *b, const col_balls *from) {
  float *const dst[5] = {b->x, b->y, b->vx, b->vy, b->radius};
  const float *const src[5] = {from->x, from->y, from->vx, from->vy, from->radius};
  for (int f = 0; f < 5; f++) memcpy(dst[f], src[f], from->count * sizeof(float));
}

static inline void fs_world_copy(col_world *w, const col_world *from) {
  memcpy(w->box, from->box, from->count * sizeof *w->box);
  memcpy(w->velocity, from->velocity, from->count * sizeof *w->velocity);
  memcpy(w->weight, from->weight, from->count * sizeof *w->weight);
  w->sweep_above = from->sweep_above;
}

/* Allocation failures at one frame (starved.c): `before` is the scene before the frame,
 * `after` the naive step's result; `alg` the broadphase stepped, `pick` the input's hash. */
void fs_balls_starved(const col_balls *before, const col_balls *after, col_broadphase alg,
                      uint64_t pick, int frame);
void fs_world_starved(const col_world *before, const col_world *after, col_broadphase alg,
                      uint64_t pick, int frame);

#endif
