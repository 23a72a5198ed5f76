/* The one rule for which backends a harness runs (unit tests, fuzzers, benchmarks): the
 * supported backends of the kinds it asks for that implement any of the kernels it asks for,
 * in the registry's order. Each harness names kinds and kernels; none filters the list itself,
 * so that a new backend or kind reaches all of them alike. */
#ifndef COLLIDE_HARNESS_BACKEND_FILTER_H
#define COLLIDE_HARNESS_BACKEND_FILTER_H

#include "collide.h"

/* A set of col_backend_kind values, one bit each. */
#define HARNESS_KIND(kind) (1u << (unsigned)(kind))
#define HARNESS_ALL_KINDS  (HARNESS_KIND(COL_BACKEND_USER + 1) - 1u)

/* The supported backends whose kind is in `kinds` and that implement any of `kernels`
 * (col_kernel bits: a built-in backend implements all of them, a user backend may fill only
 * some slots), in the registry's order (natives newest first, scalar, autovec, the emulated
 * twins, the user backends): at most `max` of them into `out`; returns how many. */
static inline size_t harness_backends(col_backend_info *out, size_t max, unsigned kernels,
                                      unsigned kinds) {
  size_t n = 0;
  col_backend_info info;
  for (size_t i = 0; col_backend_at(i, &info) && n < max; i++)
    if (info.supported && (kinds & HARNESS_KIND(info.kind)) != 0 && (info.kernels & kernels) != 0)
      out[n++] = info;
  return n;
}

#endif
