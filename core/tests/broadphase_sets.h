/* Box sets for the broadphase tests (test_broadphase.c, test_broadphase_cache.c): boxes in
 * guarded arrays (an over-read faults) and the scenes that fill them. */
#ifndef COLLIDE_TESTS_BROADPHASE_SETS_H
#define COLLIDE_TESTS_BROADPHASE_SETS_H

#include "helpers.h"

#include <float.h>
#include <math.h>

typedef struct box_set {
  float *v[6]; /* min x, y, z, max x, y, z */
  size_t n;
  col_boxes boxes;
} box_set;

static inline box_set set_make(size_t n, unsigned dims) {
  box_set s = {{NULL}, n, {dims, {NULL, NULL, NULL}, {NULL, NULL, NULL}, n}};
  for (int k = 0; k < 6; k++) s.v[k] = guard_floats(n);
  for (unsigned k = 0; k < 3; k++) {
    s.boxes.min[k] = k < dims ? s.v[k] : NULL;
    s.boxes.max[k] = k < dims ? s.v[3 + k] : NULL;
  }
  return s;
}

static inline void set_free(box_set *s) {
  for (int k = 0; k < 6; k++) guard_free(s->v[k], s->n * sizeof(float));
}

static inline float edge_value(uint64_t *rng) {
  switch (rand_below(rng, 24)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return -0.0f;
  case 4: return 1e30f;
  case 5: return -1e30f;
  default: return (float)((int)rand_below(rng, 13) - 6);
  }
}

enum scene { GRIDDED, EDGES, SAME_BOX, POINTS, SPREAD, FRACTIONS, FLOAT_RANGE };

static inline void fill(box_set *s, enum scene scene, uint64_t *rng) {
  for (size_t i = 0; i < s->n; i++) {
    for (int k = 0; k < 3; k++) {
      float lo, hi;
      switch (scene) {
      case EDGES: lo = edge_value(rng), hi = edge_value(rng); break;
      case SAME_BOX: lo = -1, hi = 1; break;
      case POINTS: lo = hi = (float)rand_below(rng, 4); break;
      case SPREAD:
        lo = (float)rand_below(rng, 1000) * 0.25f;
        hi = lo + (rand_below(rng, 10) == 0 ? 200.0f : (float)rand_below(rng, 8) * 0.5f);
        break;
      case FRACTIONS: /* full-precision values: sorting must use every mantissa bit */
        lo = (float)(splitmix64(rng) >> 40) * 0x1p-18f;
        hi = lo + (float)(splitmix64(rng) >> 40) * 0x1p-22f;
        break;
      case FLOAT_RANGE: /* finite boxes from -FLT_MAX to FLT_MAX: max - min overflows */
        lo = (float)((int)rand_below(rng, 2049) - 1024) * (FLT_MAX / 1024);
        hi = lo < FLT_MAX ? lo + (float)rand_below(rng, 2) * (FLT_MAX / 1024) : lo;
        break;
      default: lo = (float)rand_below(rng, 8), hi = lo + (float)rand_below(rng, 3); break;
      }
      s->v[k][i] = lo, s->v[3 + k][i] = hi;
    }
  }
}

#endif
