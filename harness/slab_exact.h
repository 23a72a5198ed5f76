/* The exact answer to "does the segment from -> to meet box b" for float inputs, with GMP
 * rationals (every float is exact in them, and so are the slab times (plane - from) /
 * (to - from)), and the documented error bound of col_segment_aabb3 (collide/slab.h) checked
 * against it. Used by the unit tests (test_slab_exact.c) and the slab fuzzer. Not thread-safe
 * (one set of GMP temporaries). 2D: pass z = 0 for from and to and [-1, 1] for the box's z
 * (strictly inside, so z never decides under either rule). */
#ifndef COLLIDE_HARNESS_SLAB_EXACT_H
#define COLLIDE_HARNESS_SLAB_EXACT_H

#include "collide.h"

typedef struct slab_exact {
  bool valid;             /* from and to finite, the box upright (else the contract's miss) */
  bool applies;           /* the bound's range: the box finite, every nonzero |plane - from| and
                             |to - from| per axis in [2^-60, 2^60]; the rest is left unset */
  bool hit;               /* the exact decision for the real segment (to - from not rounded) */
  double t;               /* the exact entry time max(N*, 0) rounded to double, when hit */
  int axis;               /* the entry axis (0, 1, 2; the lowest of exactly tied ones), -1: none */
  int moving;             /* the axes with to != from, as bits */
  double near[3], far[3]; /* the exact times of the moving axes, rounded to double */
} slab_exact;

/* The exact answer; `open` is COL_TOUCH_SEPARATES. */
slab_exact slab_exact_eval(col_vec3 from, col_vec3 to, col_aabb3 box, bool open);

/* The bound's relative width: 8u, u = 2^-24. */
#define SLAB_BOUND_K 0x1p-21

/* Whether a float answer agrees with the exact one within the documented bound: the same
 * decision unless some near* and far* (or near* and 1) lie within K (|near*| + |far*|) of each
 * other; when both hit, |t - t*| <= K t*, and the same entry axis unless the two axes' near*
 * are within K of each other (relative). True where the bound does not
 * apply. On false, *why names the broken clause. */
bool slab_within_bound(const slab_exact *x, col_aabb3_hit got, const char **why);

/* Whether the exact case lies in the decision band (near an edge, a corner or t = 1). */
bool slab_in_band(const slab_exact *x);

#endif
