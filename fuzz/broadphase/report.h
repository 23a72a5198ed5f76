/* The broadphase fuzz target's report of a difference (report.c), shared by its parts. */
#ifndef COLLIDE_FUZZ_BROADPHASE_REPORT_H
#define COLLIDE_FUZZ_BROADPHASE_REPORT_H

#include "../fuzz_common.h"

/* Whether two pair lists are the same, pair for pair. */
bool fb_same(const col_pairs *x, const col_pairs *y);
/* Up to 64 pairs of `p` after `label`. */
void fb_print_pairs(const char *label, const col_pairs *p);
/* The difference of `got` (from `who`) and `want` (the oracle's, both sorted), the boxes and
 * both lists (at most 200 boxes), then fails the input. */
_Noreturn void fb_report(const col_boxes *s, float *const v[6], col_touch touch,
                         const col_pairs *want, const col_pairs *got, const char *who);

#endif
