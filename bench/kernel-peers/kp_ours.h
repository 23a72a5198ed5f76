/* collide's side of a kernel-peer row: its batch call on the active backend and its single-pair
 * call in a plain loop, over the same items as the peer's loop. */
#ifndef COLLIDE_KP_OURS_H
#define COLLIDE_KP_OURS_H

#include "kpeers.h"

typedef struct kp_ours_batch kp_ours_batch;

/* The items in the batch call's form (structures of arrays, or the pair arrays). */
kp_ours_batch *kp_ours_prepare(kp_family f, const kp_item *items, size_t n);
void kp_ours_free(kp_ours_batch *b);
/* One batch call over the prepared items (the earliest hit's parameter or the hits counted). */
double kp_ours_batch_run(kp_ours_batch *b);
/* The single-pair call over the same items in a loop, reduced the same way. */
double kp_ours_single_run(kp_ours_batch *b);

#endif
