/* The broadphase target's checks of the statistics a run reports (stats.c): broadphase.h's
 * rules for pairs, tests and sweep and prune's cells, so that a run that takes a slower path
 * (the same pairs, orders of magnitude more work) is a failure. */
#ifndef COLLIDE_FUZZ_BROADPHASE_STATS_H
#define COLLIDE_FUZZ_BROADPHASE_STATS_H

#include "../fuzz_common.h"

/* NULL when `st`, from info's algorithm on `b` finding `pairs` pairs, keeps every rule the
 * header states; else what is wrong. */
const char *fb_stats_wrong(const col_broadphase_info *info, const col_boxes *b,
                           const col_broadphase_stats *st, size_t pairs);

#endif
