/* The exact answer to "do two circles overlap" for float inputs, with GMP integers (every finite
 * float scaled by 2^149 is an integer, so the squared distance and the squared radius sum are
 * exact): the judge of the kernel peers' circle family (bench/kernel-peers/). Not thread-safe. */
#ifndef COLLIDE_HARNESS_CIRCLE_EXACT_H
#define COLLIDE_HARNESS_CIRCLE_EXACT_H

#include "collide.h"

typedef struct circle_exact {
  bool valid;  /* every value finite and both radii >= 0 */
  int compare; /* the sign of |a.c - b.c| - (a.r + b.r): -1 overlapping, 0 touching, 1 apart */
  double dist; /* |a.c - b.c|, rounded to double */
  double sum;  /* a.r + b.r, rounded to double */
} circle_exact;

circle_exact circle_exact_eval(col_circle a, col_circle b);

#endif
