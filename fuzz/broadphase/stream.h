/* The broadphase fuzz target's check of the streamed call (col_broadphase_pairs_stream): its
 * batches joined equal the list col_broadphase_pairs wrote, pair for pair and in order. */
#ifndef COLLIDE_FUZZ_BROADPHASE_STREAM_H
#define COLLIDE_FUZZ_BROADPHASE_STREAM_H

#include "../fuzz_common.h"

/* Streams `algorithm` on the active backend with `batch` (64 or more) and compares the batches
 * with `list` (that algorithm's list, unsorted); a difference, a batch over `batch` or an error
 * is reported (stderr) and fails the input. */
void fb_stream_check(const col_broadphase_info *info, const col_boxes *boxes, col_touch touch,
                     const col_pairs *list, size_t batch, const char *backend);

#endif
