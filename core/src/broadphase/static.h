/* Internal: the static rule (collide/broadphase.h, col_broadphase_pairs_static): the pairs of
 * two static boxes left out of a list. The sequential call (static.c), the parallel one
 * (parallel.c) and the cache's tree and sweep and prune forms (cache/) find every pair and drop
 * those; the cache's kept grid never looks for them. */
#ifndef COLLIDE_BROADPHASE_STATIC_H
#define COLLIDE_BROADPHASE_STATIC_H

#include "broadphase.h"

/* Drops from bp->out the pairs of two static boxes (is_static[i] != 0), keeping the others in
 * their order; bp->stats.pairs follows. */
void col__bp_drop_static(col__bp *bp, const uint8_t *is_static);

/* The checks of col_broadphase_pairs and its relatives (pairs.c): the boxes, the rule, and an
 * algorithm that takes the boxes' dims; its row of the registry in *k. */
col_status col__bp_check_call(col_broadphase algorithm, const col_boxes *boxes, col_touch touch,
                              size_t *k);

/* The registry's algorithm k (pairs.c) on validated input with bp->out empty. */
col_status col__bp_run(size_t k, col__bp *bp);

#endif
