/* The slab tests' shared cases (test_slab.c: single calls and the batch on the active backend;
 * test_slab_exact.c: the exact judge): a segment against one box under both touch rules, with
 * exactly known answers. */
#ifndef COLLIDE_TESTS_SLAB_CASES_H
#define COLLIDE_TESTS_SLAB_CASES_H

#include "helpers.h"

#include <math.h>

#define V3(x, y, z)                  ((col_vec3){(x), (y), (z)})
#define BOX3(x0, y0, z0, x1, y1, z1) ((col_aabb3){{(x0), (y0), (z0)}, {(x1), (y1), (z1)}})
#define UNIT                         BOX3(0, 0, 0, 1, 1, 1)

/* One answer: hit, t and the normal's (axis + 1, sign); axis 0: all +0. */
typedef struct slab_want {
  bool hit;
  float t;
  int axis, sign;
} slab_want;

typedef struct slab_case {
  const char *name;
  col_vec3 from, to;
  col_aabb3 box;
  slab_want closed, open; /* COL_TOUCH_OVERLAPS, COL_TOUCH_SEPARATES */
} slab_case;

#define MISS                                                                                       \
  { false, 0, 0, 0 }
#define HIT(t, a, s)                                                                               \
  { true, (t), (a), (s) }
#define THIRD 0x1.555556p-2f /* 1.0f * (1.0f / 3.0f) */

static const slab_case slab_cases[] = {
    {"head-on +x", V3(-1, .5f, .5f), V3(3, .5f, .5f), UNIT, HIT(.25f, 1, -1), HIT(.25f, 1, -1)},
    {"head-on -x", V3(2, .5f, .5f), V3(-2, .5f, .5f), UNIT, HIT(.25f, 1, 1), HIT(.25f, 1, 1)},
    {"head-on -z", V3(.5f, .5f, 3), V3(.5f, .5f, -1), UNIT, HIT(.5f, 3, 1), HIT(.5f, 3, 1)},
    {"start inside", V3(.5f, .5f, .5f), V3(2, .5f, .5f), UNIT, HIT(0, 0, 0), HIT(0, 0, 0)},
    {"start on a face, moving in", V3(0, .5f, .5f), V3(1, .5f, .5f), UNIT, HIT(0, 1, -1),
     HIT(0, 1, -1)},
    /* far = (0 - 0) * -1 = -0: closed F >= 0 holds, open F > 0 does not. */
    {"start on a face, moving out", V3(0, .5f, .5f), V3(-1, .5f, .5f), UNIT, HIT(0, 0, 0), MISS},
    /* y moves by +0: inv +inf, far = (1 - 1) * inf = NaN: ignored when closed, a miss open. */
    {"sliding along the top face", V3(-1, 1, .5f), V3(2, 1, .5f), UNIT, HIT(THIRD, 1, -1), MISS},
    /* y moves by +0 - ... = -0 (from.y +0, to.y -0): inv -inf picks the other planes. */
    {"sliding along the bottom face, -0 move", V3(-1, 0, .5f), V3(2, -0.0f, .5f), UNIT,
     HIT(THIRD, 1, -1), MISS},
    {"parallel outside", V3(-1, 2, .5f), V3(2, 2, .5f), UNIT, MISS, MISS},
    {"parallel inside the slab", V3(-1, .5f, .5f), V3(2, .5f, .5f), UNIT, HIT(THIRD, 1, -1),
     HIT(THIRD, 1, -1)},
    /* Through (0, 0) only: near x = .5, far y = .5. */
    {"grazing an edge", V3(-1, 1, .5f), V3(1, -1, .5f), UNIT, HIT(.5f, 1, -1), MISS},
    {"grazing a corner", V3(-1, 1, 2), V3(1, -1, -2), UNIT, HIT(.5f, 1, -1), MISS},
    {"through a corner: ties go to x", V3(-1, -1, -1), V3(1, 1, 1), UNIT, HIT(.5f, 1, -1),
     HIT(.5f, 1, -1)},
    {"y and z tie: y", V3(.5f, -1, -1), V3(.5f, 1, 1), UNIT, HIT(.5f, 2, -1), HIT(.5f, 2, -1)},
    {"touching at the end", V3(-2, .5f, .5f), V3(0, .5f, .5f), UNIT, HIT(1, 1, -1), MISS},
    {"short of the box", V3(-2, .5f, .5f), V3(-.5f, .5f, .5f), UNIT, MISS, MISS},
    {"behind", V3(2, .5f, .5f), V3(3, .5f, .5f), UNIT, MISS, MISS},
    {"point inside", V3(.5f, .5f, .5f), V3(.5f, .5f, .5f), UNIT, HIT(0, 0, 0), HIT(0, 0, 0)},
    {"point on a face", V3(0, .5f, .5f), V3(0, .5f, .5f), UNIT, HIT(0, 0, 0), MISS},
    {"point at a corner", V3(1, 1, 1), V3(1, 1, 1), UNIT, HIT(0, 0, 0), MISS},
    {"point outside", V3(2, .5f, .5f), V3(2, .5f, .5f), UNIT, MISS, MISS},
    {"flat box crossed", V3(0, .5f, .5f), V3(2, .5f, .5f), BOX3(1, 0, 0, 1, 1, 1), HIT(.5f, 1, -1),
     MISS},
    {"point box on the segment", V3(0, .5f, .5f), V3(2, .5f, .5f), BOX3(1, .5f, .5f, 1, .5f, .5f),
     HIT(.5f, 1, -1), MISS},
    {"-0 and +0 planes are one", V3(-1, .5f, .5f), V3(3, .5f, .5f), BOX3(-0.0f, 0, 0, 1, 1, 1),
     HIT(.25f, 1, -1), HIT(.25f, 1, -1)},
    {"inverted box", V3(-1, .5f, .5f), V3(3, .5f, .5f), BOX3(1, 0, 0, 0, 1, 1), MISS, MISS},
    {"NaN box coordinate", V3(-1, .5f, .5f), V3(3, .5f, .5f), BOX3(0, 0, NAN, 1, 1, 1), MISS, MISS},
    {"NaN from", V3(NAN, .5f, .5f), V3(3, .5f, .5f), UNIT, MISS, MISS},
    {"infinite to", V3(-1, .5f, .5f), V3(INFINITY, .5f, .5f), UNIT, MISS, MISS},
    {"overflowing move", V3(-3e38f, .5f, .5f), V3(3e38f, .5f, .5f), UNIT, MISS, MISS},
    {"half-space floor", V3(0, 2, 0), V3(0, -2, 0),
     BOX3(-INFINITY, -INFINITY, -INFINITY, INFINITY, 0, INFINITY), HIT(.5f, 2, 1), HIT(.5f, 2, 1)},
    {"infinite slab, parallel inside", V3(0, .5f, 0), V3(5, .5f, 5),
     BOX3(-INFINITY, 0, -INFINITY, INFINITY, 1, INFINITY), HIT(0, 0, 0), HIT(0, 0, 0)},
};

#define NSLAB_CASES (sizeof slab_cases / sizeof slab_cases[0])

#endif
