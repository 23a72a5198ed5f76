/* The broadphase target's oracle (oracle.c): the pair set by a method independent of the
 * library's algorithms, against which every algorithm, the bipartite sweep and the cache are
 * compared (fuzz_broadphase.c). */
#ifndef COLLIDE_FUZZ_BROADPHASE_ORACLE_H
#define COLLIDE_FUZZ_BROADPHASE_ORACLE_H

#include "../fuzz_common.h"

/* Every overlapping pair of `s` under `touch`, sorted by (a, b), into `out` (replacing it):
 * boxes with a NaN min x never pair. Returns the pairs it tested (x ranges overlapping). */
size_t fb_oracle(const col_boxes *s, col_touch touch, col_pairs *out);

#endif
