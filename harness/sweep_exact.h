/* The exact answer to "does the segment from -> to touch sphere s" for float inputs, with GMP
 * integers (every float is an integer multiple of 2^-149, so the differences, dot products and
 * the discriminant are exact integers), and the robust variant's documented error bound
 * (collide.h, col_segment_sphere_robust) checked against it. Used by the unit tests, the
 * sweep fuzzer and the sweep study benchmark. Not thread-safe (one set of GMP temporaries). */
#ifndef COLLIDE_HARNESS_SWEEP_EXACT_H
#define COLLIDE_HARNESS_SWEEP_EXACT_H

#include "collide.h"

typedef struct sweep_exact {
  bool valid;    /* every input finite and radius >= 0 (else the contract's miss) */
  bool hit;      /* the exact decision of the recipe's steps in real arithmetic */
  double t;      /* the exact t when hit (+0 when starting inside or on the surface) */
  double t_line; /* the distance from `from` to where the line enters the sphere, also past
                    the segment's end; NaN when the line misses, the sphere is behind or
                    the start is inside */
  double dist;   /* D = |center - from| */
  double len;    /* L = |to - from| */
  double miss;   /* p = the distance from the center to the line (D when L = 0) */
} sweep_exact;

/* The exact decision (integer arithmetic) and the distances above rounded to double (their
 * relative error, about 2^-50, is far below the bound they are compared with). */
sweep_exact sweep_exact_eval(col_vec3 from, col_vec3 to, col_sphere s);

/* Whether the bound of col_segment_sphere_robust applies: D and L in [2^-40, 2^40], and the
 * radius 0 or in [2^-40, 2^40]. */
bool sweep_bound_applies(const sweep_exact *x, float radius);

/* Whether a robust result agrees with the exact answer within the documented bound: the same
 * decision unless the case is within the tangent, surface or end bands, and t within Bt when
 * both hit. True where the bound does not apply. On false, *why names the broken clause. */
bool sweep_within_bound(const sweep_exact *x, float radius, col_hit got, const char **why);

/* The two quantities of the bound: E = 32 u (D + r) and Bt = 3 E + 2 sqrt(r E), u = 2^-24. */
double sweep_bound_e(const sweep_exact *x, float radius);
double sweep_bound_t(const sweep_exact *x, float radius);

#endif
