/* The parallel target's check of the parallel sweep and prune (parallel.c): the same set
 * through col_broadphase_pairs_parallel with 1, 2 and 3 or 5 tasks, on collide's thread pools
 * and on a task system of the fuzzer's own that runs the tasks in a shuffled order, plus a task
 * system that fails, and the any-order call. */
#ifndef COLLIDE_FUZZ_PARALLEL_PARALLEL_H
#define COLLIDE_FUZZ_PARALLEL_PARALLEL_H

#include "../fuzz_common.h"

/* Runs the parallel forms on `boxes` (every one on one input in four, picked by `seed`; one of
 * them on the others) and compares it with `sequential`, the list
 * col_broadphase_pairs(COL_BROADPHASE_SAP, ...) gave on the selected backend (unsorted: its
 * order is the one the parallel call promises), with `sequential_stats` its statistics. `seed`
 * (from the input) shuffles the tasks and picks where the failing system fails. Returns NULL
 * when every form agrees; else a label naming the form, with the list it gave in `got`. */
const char *fz_parallel_check(const col_boxes *boxes, col_touch touch, const col_pairs *sequential,
                              const col_broadphase_stats *sequential_stats, uint64_t seed,
                              col_pairs *got);

#endif
