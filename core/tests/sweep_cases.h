/* The segment-against-sphere tests' shared cases (test_sweep.c: one segment against one
 * sphere, the robust variant's bound; test_sweep_batch.c: one segment against N spheres): the
 * table of exactly representable cases, the two variants, and segments aimed near a sphere. */
#ifndef COLLIDE_TESTS_SWEEP_CASES_H
#define COLLIDE_TESTS_SWEEP_CASES_H

#include "helpers.h"

#include <math.h>

#define V3(x, y, z)        ((col_vec3){(x), (y), (z)})
#define SPHERE(x, y, z, r) ((col_sphere){{(x), (y), (z)}, (r)})

typedef struct sweep_case {
  const char *name;
  col_vec3 from, to;
  col_sphere s;
  bool hit;
  float t;
} sweep_case;

/* Exactly representable geometry, so the expected t is exact. */
static const sweep_case cases[] = {
    {"head-on", V3(0, 0, 0), V3(0, 0, 10), SPHERE(0, 0, 5, 1), true, 4},
    {"start inside", V3(0, 0, 4.5f), V3(0, 0, 10), SPHERE(0, 0, 5, 1), true, 0},
    {"start inside, moving away", V3(0, 0, 5.5f), V3(0, 0, -10), SPHERE(0, 0, 5, 1), true, 0},
    {"start on surface, moving in", V3(0, 0, 4), V3(0, 0, 10), SPHERE(0, 0, 5, 1), true, 0},
    {"start on surface, moving out", V3(0, 0, 4), V3(0, 0, -10), SPHERE(0, 0, 5, 1), false, 0},
    {"behind", V3(0, 0, 0), V3(0, 0, 10), SPHERE(0, 0, -5, 1), false, 0},
    {"beyond the step", V3(0, 0, 0), V3(0, 0, 10), SPHERE(0, 0, 20, 1), false, 0},
    {"contact exactly at the end", V3(0, 0, 0), V3(0, 0, 10), SPHERE(0, 0, 11, 1), true, 10},
    {"contact one ulp past the end", V3(0, 0, 0), V3(0, 0, 0x1.3ffffep3f), SPHERE(0, 0, 11, 1),
     false, 0},
    {"beside", V3(0, 0, 0), V3(0, 0, 10), SPHERE(5, 0, 5, 1), false, 0},
    {"tangent", V3(0, 0, 0), V3(0, 0, 10), SPHERE(1, 0, 5, 1), true, 5},
    {"zero length outside", V3(0, 0, 0), V3(0, 0, 0), SPHERE(5, 0, 0, 1), false, 0},
    {"zero length inside", V3(5, 0, 0.5f), V3(5, 0, 0.5f), SPHERE(5, 0, 0, 1), true, 0},
    {"zero radius on the line", V3(0, 0, -1), V3(0, 0, 1), SPHERE(0, 0, 0, 0), true, 1},
    {"-0.0 radius is valid", V3(0, 0, -1), V3(0, 0, 1), SPHERE(0, 0, 0, -0.0f), true, 1},
    {"negative radius", V3(0, 0, 0), V3(0, 0, 10), SPHERE(0, 0, 0.5f, -2), false, 0},
    {"diagonal", V3(0, 0, 0), V3(3, 4, 0), SPHERE(6, 8, 0, 5), true, 5},
    /* s = (-0*1 + 0.6*-0) + 0.8*-0 = -0.0 and q = 0, so t = -0 - 0: returned as +0. */
    {"along the surface, t would be -0.0", V3(0, 0, 0), V3(-0.0f, 3, 4), SPHERE(1, -0.0f, -0.0f, 1),
     true, 0},
    {"exact 0.125 bottle", V3(0, 0, 0), V3(0, 0, 23), SPHERE(0, 0, 10, 0.125f), true, 9.875f},
};

#define NCASES (sizeof cases / sizeof cases[0])

/* The two variants: the seed's recipe and the robust one agree on every case above (their
 * geometry is exact enough for both). */
typedef struct variant {
  const char *name;
  col_hit (*one)(col_vec3 from, col_vec3 to, col_sphere s);
  col_status (*set)(col_vec3 from, col_vec3 to, const col_sphere_soa *set, col_segment_hit *out);
} variant;

static const variant variants[] = {
    {"recipe", col_segment_sphere, col_segment_spheres},
    {"robust", col_segment_sphere_robust, col_segment_spheres_robust},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* A segment from the origin aimed within 2 r of a sphere `dist` away (random direction and
 * offset; coordinates rounded to float), judged by the exact oracle. */
static inline void aimed(uint64_t *rng, double dist, double r, col_vec3 *from, col_vec3 *to,
                         col_sphere *s) {
  double u[3], n2 = 0;
  do {
    n2 = 0;
    for (int k = 0; k < 3; k++)
      u[k] = (double)rand_below(rng, 1u << 20) / (1 << 19) - 1, n2 += u[k] * u[k];
  } while (n2 > 1 || n2 < 0.01);
  const double side = 2 * r * ((double)rand_below(rng, 1u << 20) / (1 << 19) - 1);
  const double side2 = 2 * r * ((double)rand_below(rng, 1u << 20) / (1 << 19) - 1);
  /* Two directions perpendicular to u (not unit: only the offset's scale matters roughly). */
  const double p[3] = {-u[1], u[0], 0},
               q[3] = {u[0] * u[2], u[1] * u[2], -(u[0] * u[0] + u[1] * u[1])};
  const double pn = sqrt(p[0] * p[0] + p[1] * p[1]) + 1e-300,
               qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) + 1e-300;
  const double un = sqrt(n2);
  double c[3], aim[3];
  for (int k = 0; k < 3; k++) {
    c[k] = dist * u[k] / un;
    aim[k] = c[k] + side * p[k] / pn + side2 * q[k] / qn;
  }
  *from = V3(0, 0, 0);
  *to = V3((float)(2 * aim[0]), (float)(2 * aim[1]), (float)(2 * aim[2]));
  *s = SPHERE((float)c[0], (float)c[1], (float)c[2], (float)r);
}

#endif
