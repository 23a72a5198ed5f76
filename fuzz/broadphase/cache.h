/* The broadphase fuzz target's incremental cache (cache.c): the tree, sweep and prune or the kept
 * grid, with static marks or not, over three frames against the oracle. */
#ifndef COLLIDE_FUZZ_BROADPHASE_CACHE_H
#define COLLIDE_FUZZ_BROADPHASE_CACHE_H

#include "../fuzz_common.h"

/* `want`: the oracle's pairs of `boxes` (recomputed into it as the boxes move, v their arrays);
 * `got`: the target's kept list; `size` and `pick` choose the form and what moves; with
 * `starve` one allocation of one frame fails; `backend` runs the cache. */
void fb_cache_frames(const col_boxes *boxes, float *const v[6], col_touch touch, col_pairs *want,
                     col_pairs *got, size_t size, uint64_t pick, bool starve, const char *backend);

#endif
