/* The simulation target's oracles (oracle.c): the naive loops as sims.h defines them, written
 * with the public single-pair functions, independent of the library's steps. */
#ifndef COLLIDE_FUZZ_SIM_ORACLE_H
#define COLLIDE_FUZZ_SIM_ORACLE_H

#include "../fuzz_common.h"

/* The balls' naive step: every ball moved and bounced off the walls, then every pair (i < j)
 * that overlaps answered with the elastic response; returns the collisions. */
uint64_t fs_balls_oracle(col_balls *b);

/* The world's naive step as sims.h defines it (with the sweep when w->sweep_above asks for
 * it: every other box swept with every_sweep, else only those the open rule can hit);
 * returns the collisions, and adds each entity's
 * (those of its turn) to per_entity[i] when per_entity is not NULL. */
uint64_t fs_world_oracle(col_world *w, float dt, uint64_t *per_entity, bool every_sweep);

#endif
