/* The broadphase fuzz target's static rule (static.c): marks drawn from the input, the oracle's
 * pairs without those of two static boxes, and col_broadphase_pairs_static against
 * col_broadphase_pairs with them dropped. */
#ifndef COLLIDE_FUZZ_BROADPHASE_STATIC_H
#define COLLIDE_FUZZ_BROADPHASE_STATIC_H

#include "../fuzz_common.h"

/* Marks for n boxes (free them): box i static by a hash of i and `pick`, about a share of the
 * boxes that `pick` also chooses (one in two to all but one in eight), in several nonzero values.
 */
uint8_t *fb_marks(size_t n, uint64_t pick);
/* `out` := the pairs of `want` (sorted) but those of two marked boxes, in want's order. */
void fb_drop_static(const col_pairs *want, const uint8_t *marks, col_pairs *out);
/* col_broadphase_pairs_static(info->algorithm) on the active backend against `list` (the
 * algorithm's col_broadphase_pairs list, unsorted) less its static pairs, pair for pair and in
 * order, and its stats' pair count; the parallel form too when `parallel` (the sequential
 * sweep and prune's static list in its order). A difference fails the input. */
void fb_static_check(const col_broadphase_info *info, const col_boxes *boxes, col_touch touch,
                     const col_pairs *list, const uint8_t *marks, bool parallel,
                     const char *backend);

#endif
