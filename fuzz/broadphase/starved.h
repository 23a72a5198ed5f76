/* The broadphase fuzz target (fuzz_broadphase.c: the algorithms, the bipartite sweep and the
 * cache against the oracle) in parts by concern: the cache's allocations that the random scenes
 * do not reach (starved.c). */
#ifndef COLLIDE_FUZZ_BROADPHASE_STARVED_H
#define COLLIDE_FUZZ_BROADPHASE_STARVED_H

#include "../fuzz_common.h"

/* The tree cache over a scene made to reach its periodic rebuild and a tree deeper than its
 * query's fixed stack, each allocation of each frame failing in turn; `pick` varies the scene. */
void fb_cache_deep(uint64_t pick);

#endif
