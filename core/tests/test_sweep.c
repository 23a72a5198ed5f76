/* Segment against sphere (DESIGN.md 4.4): each of XNA's steps (non-finite input, start inside,
 * zero length, behind, beside, within the step's travel), the seed's bullet and bottle, large
 * movers, the world transform, and one segment against N spheres; the same cases for the
 * robust variant, which must also hold its documented error bound against the exact answer
 * (harness/sweep_exact.c, itself checked on known answers here). */
#include "helpers.h"
#include "sweep_exact.h"

#include <stdio.h>
#include <stdlib.h>

#define V3(x, y, z)        ((col_vec3){(x), (y), (z)})
#define SPHERE(x, y, z, r) ((col_sphere){{(x), (y), (z)}, (r)})

static void expect_sweep(col_hit got, bool hit, float t, const char *what) {
  cr_expect_eq(got.hit, hit, "%s: hit = %d", what, got.hit);
  cr_expect_eq(fbits(got.t), fbits(t), "%s: t = %a, want %a", what, (double)got.t, (double)t);
}

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

Test(sweep, table) {
  for (size_t v = 0; v < NVARIANTS; v++)
    for (size_t i = 0; i < NCASES; i++) {
      char what[120];
      snprintf(what, sizeof what, "%s: %s", variants[v].name, cases[i].name);
      expect_sweep(variants[v].one(cases[i].from, cases[i].to, cases[i].s), cases[i].hit,
                   cases[i].t, what);
    }
}

/* The oracle on answers known by hand, so that a broken oracle cannot pass the bound tests. */
Test(sweep_exact, known_answers) {
  for (size_t i = 0; i < NCASES; i++) {
    const sweep_exact x = sweep_exact_eval(cases[i].from, cases[i].to, cases[i].s);
    const bool valid = cases[i].s.radius >= 0;
    cr_expect_eq(x.valid, valid, "%s: valid", cases[i].name);
    cr_expect_eq(x.hit, cases[i].hit, "%s: exact hit = %d", cases[i].name, x.hit);
    if (x.hit) cr_expect_eq(x.t, (double)cases[i].t, "%s: exact t = %.17g", cases[i].name, x.t);
  }
  /* Distances: from (0,0,0) to (0,0,10), centre (3,0,4): D = 5, L = 10, p = 3; entry at
   * 4 - sqrt(r^2 - 9) for r = 5: 0 (on the surface); r = 3.5: 4 - sqrt(3.25). */
  sweep_exact x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 10), SPHERE(3, 0, 4, 3.5f));
  cr_expect(x.dist == 5 && x.len == 10 && x.miss == 3, "D %g L %g p %g", x.dist, x.len, x.miss);
  cr_expect(x.hit && fabs(x.t - (4 - sqrt(3.25))) < 1e-15, "t = %.17g", x.t);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 10), SPHERE(3, 0, 4, 2.5f));
  cr_expect(!x.hit && isnan(x.t_line), "p = 3 > r = 2.5: the line misses");
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 1), SPHERE(0, 0, 4, 1));
  cr_expect(!x.hit && x.t_line == 3, "contact at 3, past the end at 1: t_line = %g", x.t_line);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 1), SPHERE(INFINITY, 0, 4, 1));
  cr_expect(!x.valid && !x.hit, "non-finite: invalid");
  /* Beyond float products: 2^100 away, radius 2^-100, the line passing exactly through the
   * centre (hit) and one ulp of the centre beside it (miss). */
  const float far = 0x1p100f, tiny = 0x1p-100f;
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 2 * far), SPHERE(0, 0, far, tiny));
  cr_expect(x.hit && x.t < 0x1p100 && x.t >= 0x1p100 * (1 - 0x1p-52), "exact far hit, t = %a", x.t);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 2 * far), SPHERE(2 * tiny, 0, far, tiny));
  cr_expect(!x.hit && x.miss == 2 * 0x1p-100, "exact far miss, p = %a", x.miss);
}

/* Step 1: every non-finite input misses. The base case starts inside (it would hit at
 * t = 0 otherwise), so the check must come first. */
Test(sweep, non_finite_input_misses) {
  const float bad[] = {NAN, INFINITY, -INFINITY, from_bits(0x7fc12345u)};
  for (size_t w = 0; w < NVARIANTS; w++)
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
      for (int field = 0; field < 10; field++) {
        float v[10] = {0, 0, 0.5f, 0, 0, 10, 0, 0, 1, 2}; /* from, to, center, radius */
        v[field] = bad[k];
        const col_hit h = variants[w].one(V3(v[0], v[1], v[2]), V3(v[3], v[4], v[5]),
                                          SPHERE(v[6], v[7], v[8], v[9]));
        expect_sweep(h, false, 0, variants[w].name);
      }
}

/* The seed's bullet: 5000 km/h at 60 updates per second covers 23.148 m per update; the
 * bottle is 15 cm wide. Neither endpoint is inside the bottle, the segment hits it. */
Test(sweep, bullet_and_bottle) {
  const float step = 5000.0f / 3.6f / 60.0f;
  cr_assert(step > 23.1f && step < 23.2f);
  const col_sphere bottle = SPHERE(2, 1.5f, 10, 0.075f);
  const col_vec3 last = V3(2, 1.5f, 0), now = V3(2, 1.5f, step);
  cr_assert(!col_segment_sphere(last, last, bottle).hit, "last position is not in the bottle");
  cr_assert(!col_segment_sphere(now, now, bottle).hit, "current position is not in the bottle");
  const col_hit h = col_segment_sphere(last, now, bottle);
  cr_assert(h.hit);
  /* The physical answer is 10 - 0.075 = 9.925 m; q = (r2 + s*s) - d2 cancels most of r2's
   * bits at s = 10, so float arithmetic lands near it, not on it (a physics check, not a
   * bit-exactness one: the bit-exact twin is the "exact 0.125 bottle" case). */
  cr_assert(fabs((double)h.t - 9.925) < 1e-4, "t = %.9g", (double)h.t);
  /* The robust variant lands on the float nearest the exact t (10 - 0.075f), where the
   * recipe is 61 ulps off. */
  const double exact = sweep_exact_eval(last, now, bottle).t;
  const col_hit g = col_segment_sphere_robust(last, now, bottle);
  cr_assert(g.hit);
  cr_expect_eq(fbits(g.t), fbits((float)exact), "robust t = %a, exact %a", (double)g.t, exact);
}

/* A segment from the origin aimed within 2 r of a sphere `dist` away (random direction and
 * offset; coordinates rounded to float), judged by the exact oracle. */
static void aimed(uint64_t *rng, double dist, double r, col_vec3 *from, col_vec3 *to,
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

/* The reason the robust variant exists: a 7.5 cm sphere 100 m away. The recipe decides on
 * rounding noise for a few percent of these segments; the robust variant is exact except in
 * its bands, and always within its bound. */
Test(sweep_robust, far_sphere_against_the_exact_answer) {
  uint64_t rng = 18;
  enum { N = 20000 };
  int recipe_wrong = 0, robust_wrong = 0, checked = 0;
  for (int i = 0; i < N; i++) {
    col_vec3 from, to;
    col_sphere s;
    aimed(&rng, 100, 0.075, &from, &to, &s);
    const sweep_exact x = sweep_exact_eval(from, to, s);
    const col_hit g = col_segment_sphere_robust(from, to, s);
    recipe_wrong += col_segment_sphere(from, to, s).hit != x.hit;
    robust_wrong += g.hit != x.hit;
    const char *why;
    checked += sweep_bound_applies(&x, s.radius);
    cr_expect(sweep_within_bound(&x, s.radius, g, &why), "segment %d: %s", i, why);
  }
  cr_expect_eq(checked, N);
  cr_expect(recipe_wrong > N / 100, "the recipe is wrong on %d of %d", recipe_wrong, N);
  cr_expect(robust_wrong <= N / 10000, "the robust variant is wrong on %d of %d", robust_wrong, N);
}

/* Starting on the surface (or an ulp beside it), the recipe's t = s - sqrtf(q) can round
 * below zero; the robust variant's t never does (exactly +0.0 there). */
Test(sweep_robust, t_is_never_negative) {
  uint64_t rng = 21;
  int recipe_negative = 0, robust_hits = 0;
  for (int i = 0; i < 200000; i++) {
    const double a = (double)rand_below(&rng, 1u << 20) / (1 << 20) * 6.283185307179586;
    const double z = (double)rand_below(&rng, 1u << 20) / (1 << 19) - 1, w = sqrt(1 - z * z);
    const float r = 0.5f + (float)rand_below(&rng, 1000) / 100;
    const col_vec3 c = V3((float)rand_below(&rng, 100), (float)rand_below(&rng, 100), 3);
    const col_vec3 from =
        V3((float)(c.x + r * w * cos(a)), (float)(c.y + r * w * sin(a)), (float)(c.z + r * z));
    const float k = (float)rand_below(&rng, 300) / 100; /* through the centre and beyond */
    const col_vec3 to = V3(from.x + (c.x - from.x) * k + 0.25f, from.y + (c.y - from.y) * k,
                           from.z + (c.z - from.z) * k);
    const col_sphere s = SPHERE(c.x, c.y, c.z, r);
    const col_hit h = col_segment_sphere(from, to, s), g = col_segment_sphere_robust(from, to, s);
    recipe_negative += h.hit && h.t < 0;
    robust_hits += g.hit;
    cr_assert(!g.hit || (g.t >= 0 && fbits(g.t) != 0x80000000u), "robust t = %a", (double)g.t);
  }
  cr_expect(recipe_negative > 0 && robust_hits > 100000, "recipe negative %d, robust hits %d",
            recipe_negative, robust_hits);
}

/* The bound at every scale: spheres 2^-30 ... 2^30 away, radii 2^-12 ... 2^12 times that
 * distance's square root, segments aimed at the tangent (offset r (1 + k 2^-20)). */
Test(sweep_robust, bound_holds_at_every_scale) {
  uint64_t rng = 19;
  int checked = 0;
  for (int e = -30; e <= 30; e += 3)
    for (int f = -12; f <= 12; f += 4)
      for (int i = 0; i < 200; i++) {
        const double dist = ldexp(1.0 + (double)rand_below(&rng, 1000) / 1000, e);
        const double r = ldexp(sqrt(dist), f);
        if (r >= dist) continue;
        col_vec3 from, to;
        col_sphere s;
        aimed(&rng, dist, r, &from, &to, &s);
        const sweep_exact x = sweep_exact_eval(from, to, s);
        const col_hit g = col_segment_sphere_robust(from, to, s);
        const char *why;
        checked += sweep_bound_applies(&x, s.radius);
        cr_expect(sweep_within_bound(&x, s.radius, g, &why), "D %g r %g: %s", dist, r, why);
      }
  cr_expect(checked > 10000, "checked %d", checked);
}

Test(sweep, large_movers_inflate_the_target) {
  const col_sphere target = SPHERE(0, 1.25f, 5, 1);
  const col_vec3 from = V3(0, 0, 0), to = V3(0, 0, 10);
  cr_assert(!col_segment_sphere(from, to, target).hit, "the mover's centre passes beside");
  const col_sphere grown = col_sphere_inflate(target, 0.5f);
  assert_float_bits(grown.radius, 1.5f);
  assert_float_bits(grown.center.y, 1.25f);
  cr_assert(col_segment_sphere(from, to, grown).hit, "a mover of radius 0.5 touches it");
}

Test(sweep, transform_scale_translation) {
  const col_mat4 world = col_mat4_scale_translation(V3(2, -3, 0.5f), V3(10, 20, 30));
  const col_sphere t = col_sphere_transform(SPHERE(1, 2, 3, 1.5f), world);
  assert_float_bits(t.center.x, 12.0f);
  assert_float_bits(t.center.y, 14.0f);
  assert_float_bits(t.center.z, 31.5f);
  assert_float_bits(t.radius, 4.5f); /* radius times the largest |scale| */

  const col_sphere u = col_sphere_transform(
      SPHERE(0, 0, 0, 2), col_mat4_scale_translation(V3(0.25f, 0.5f, 0.125f), V3(0, 0, 0)));
  assert_float_bits(u.radius, 1.0f);
}

Test(sweep, transform_rotation_keeps_the_radius) {
  /* 90 degrees about z, row-vector convention: (x, y, z) -> (-y, x, z). */
  const col_mat4 rot = {{{0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
  const col_sphere t = col_sphere_transform(SPHERE(3, 4, 5, 2), rot);
  assert_float_bits(t.center.x, -4.0f);
  assert_float_bits(t.center.y, 3.0f);
  assert_float_bits(t.center.z, 5.0f);
  assert_float_bits(t.radius, 2.0f);
}

/* ---- one segment against N spheres ---- */

typedef struct sphere_set {
  float *x, *y, *z, *r;
  size_t n;
  col_sphere_soa soa;
} sphere_set;

static sphere_set set_alloc(size_t n) {
  sphere_set s = {guard_floats(n), guard_floats(n), guard_floats(n), guard_floats(n), n, {0}};
  s.soa = (col_sphere_soa){s.x, s.y, s.z, s.r, n};
  return s;
}

static void set_put(sphere_set *s, size_t i, col_sphere sp) {
  s->x[i] = sp.center.x, s->y[i] = sp.center.y, s->z[i] = sp.center.z, s->r[i] = sp.radius;
}

static void set_free(sphere_set *s) {
  guard_free(s->x, s->n * 4), guard_free(s->y, s->n * 4);
  guard_free(s->z, s->n * 4), guard_free(s->r, s->n * 4);
}

static col_segment_hit batch(const variant *v, col_vec3 from, col_vec3 to, const sphere_set *s) {
  col_segment_hit h;
  memset(&h, 0x5a, sizeof h);
  cr_assert_eq(v->set(from, to, &s->soa, &h), COL_OK);
  return h;
}

static void expect_batch(col_segment_hit got, bool hit, float t, uint32_t index, const char *what) {
  cr_expect_eq(got.hit, hit, "%s: hit", what);
  cr_expect_eq(fbits(got.t), fbits(t), "%s: t = %a, want %a", what, (double)got.t, (double)t);
  cr_expect_eq(got.index, index, "%s: index = %u, want %u", what, got.index, index);
}

static void earliest_hit_and_ties(const variant *v) {
  sphere_set s = set_alloc(8);
  const col_vec3 from = V3(0, 0, 0), to = V3(0, 0, 100);
  set_put(&s, 0, SPHERE(0, 0, 50, 1));        /* t = 49 */
  set_put(&s, 1, SPHERE(0, 0, -5, 1));        /* behind */
  set_put(&s, 2, SPHERE(0, 0, 30, 2));        /* t = 28: earliest... */
  set_put(&s, 3, SPHERE(0, 0, 200, 1));       /* beyond */
  set_put(&s, 4, SPHERE(9, 0, 30, 1));        /* beside */
  set_put(&s, 5, SPHERE(0, 0, 29, 1));        /* ...tied with t = 28 at a higher index */
  set_put(&s, 6, SPHERE(0, 0, 60, 5));        /* t = 55 */
  set_put(&s, 7, SPHERE(0, 0, 28.5f, 0.25f)); /* t = 28.25 */
  expect_batch(batch(v, from, to, &s), true, 28, 2, "tie goes to the lower index");

  set_put(&s, 7, SPHERE(0, 0, 28.5f, 1)); /* t = 27.5 now earliest */
  expect_batch(batch(v, from, to, &s), true, 27.5f, 7, "later index, earlier t");

  set_put(&s, 4, SPHERE(0, 0, 0, 1)); /* contains the start: t = 0 */
  set_put(&s, 6, SPHERE(0, 0, 0.5f, 1));
  expect_batch(batch(v, from, to, &s), true, 0, 4, "two start inside: lower index");
  set_free(&s);

  sphere_set none = set_alloc(3);
  set_put(&none, 0, SPHERE(0, 0, -5, 1));
  set_put(&none, 1, SPHERE(NAN, 0, 5, 1));
  set_put(&none, 2, SPHERE(0, 0, 500, 1));
  expect_batch(batch(v, from, to, &none), false, 0, COL_INDEX_NONE, "all miss");
  set_free(&none);

  sphere_set empty = set_alloc(0);
  expect_batch(batch(v, from, to, &empty), false, 0, COL_INDEX_NONE, "empty set");
  set_free(&empty);
}

/* Every single-segment case, through the batch: the case's sphere at each position of sets of
 * several lengths whose other spheres all miss (NaN centres). */
static void table_cases_at_every_position(const variant *v) {
  const size_t lengths[] = {1, 3, 4, 5, 8, 9, 16, 17, MAX_TAIL};
  for (size_t c = 0; c < NCASES; c++)
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t n = lengths[l];
      sphere_set s = set_alloc(n);
      for (size_t pos = 0; pos < n; pos++) {
        for (size_t i = 0; i < n; i++) set_put(&s, i, SPHERE(NAN, 0, 0, 1));
        set_put(&s, pos, cases[c].s);
        const col_segment_hit h = batch(v, cases[c].from, cases[c].to, &s);
        expect_batch(h, cases[c].hit, cases[c].t, cases[c].hit ? (uint32_t)pos : COL_INDEX_NONE,
                     cases[c].name);
      }
      set_free(&s);
    }
}

static float sphere_coord(uint64_t *rng) {
  switch (rand_below(rng, 40)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -0.0f;
  default: return (float)((int)rand_below(rng, 33) - 16) * 0.5f;
  }
}

/* The expected answer is the definition: each sphere through col_segment_sphere, the
 * smallest t, the first index among equals. */
static void matches_the_single_segment(const variant *v) {
  uint64_t rng = 6;
  for (size_t n = 0; n <= MAX_TAIL + 100; n++)
    for (int round = 0; round < 4; round++) {
      sphere_set s = set_alloc(n);
      const col_vec3 from = V3(sphere_coord(&rng), sphere_coord(&rng), sphere_coord(&rng));
      const col_vec3 to = V3(sphere_coord(&rng), sphere_coord(&rng), sphere_coord(&rng));
      col_segment_hit want = {false, 0, COL_INDEX_NONE};
      for (size_t i = 0; i < n; i++) {
        const col_sphere sp = SPHERE(sphere_coord(&rng), sphere_coord(&rng), sphere_coord(&rng),
                                     (float)rand_below(&rng, 12) * 0.5f - 0.5f);
        set_put(&s, i, sp);
        const col_hit h = v->one(from, to, sp);
        if (h.hit && (!want.hit || h.t < want.t)) want = (col_segment_hit){true, h.t, (uint32_t)i};
      }
      expect_batch(batch(v, from, to, &s), want.hit, want.t, want.index, "random");
      set_free(&s);
    }
}

Test(sweep_batch, earliest_hit_and_ties) {
  for (size_t v = 0; v < NVARIANTS; v++) earliest_hit_and_ties(&variants[v]);
}

Test(sweep_batch, table_cases_at_every_position) {
  for (size_t v = 0; v < NVARIANTS; v++) table_cases_at_every_position(&variants[v]);
}

Test(sweep_batch, matches_the_single_segment_at_every_length) {
  for (size_t v = 0; v < NVARIANTS; v++) matches_the_single_segment(&variants[v]);
}

/* The batch on far spheres, where the variants differ: each equals its own single test.
 * Spheres of radius 5 cm 300 m away, strung along x around the segment's aim point. */
Test(sweep_batch, far_spheres_match_each_variants_single_test) {
  uint64_t rng = 20;
  int hits = 0, differ = 0;
  for (size_t n = 1; n <= 40; n++) {
    sphere_set s = set_alloc(n);
    col_vec3 from, to;
    col_sphere aim;
    aimed(&rng, 300, 0.05, &from, &to, &aim);
    for (size_t i = 0; i < n; i++)
      set_put(&s, i,
              SPHERE(aim.center.x + 0.2f * ((float)i / (float)n - 0.5f), aim.center.y, aim.center.z,
                     0.05f));
    col_segment_hit got[NVARIANTS];
    for (size_t v = 0; v < NVARIANTS; v++) {
      col_segment_hit want = {false, 0, COL_INDEX_NONE};
      for (size_t i = 0; i < n; i++) {
        const col_hit h = variants[v].one(from, to, SPHERE(s.x[i], s.y[i], s.z[i], s.r[i]));
        if (h.hit && (!want.hit || h.t < want.t)) want = (col_segment_hit){true, h.t, (uint32_t)i};
      }
      got[v] = batch(&variants[v], from, to, &s);
      expect_batch(got[v], want.hit, want.t, want.index, variants[v].name);
    }
    hits += got[1].hit;
    differ += got[0].hit != got[1].hit || got[0].index != got[1].index;
    set_free(&s);
  }
  cr_expect(hits > 10 && differ > 0, "%d batches hit, %d differ between the variants", hits,
            differ);
}

Test(sweep_batch, errors_write_nothing) {
  float v[1] = {0};
  const col_sphere_soa ok = {v, v, v, v, 1};
  const col_sphere_soa missing = {v, v, NULL, v, 1};
  const col_sphere_soa huge = {v, v, v, v, (size_t)UINT32_MAX + 1};
  col_segment_hit out = {true, 7, 7};
  for (size_t w = 0; w < NVARIANTS; w++) {
    cr_expect_eq(variants[w].set(V3(0, 0, 0), V3(1, 0, 0), NULL, &out), COL_ERR_NULL);
    cr_expect_eq(variants[w].set(V3(0, 0, 0), V3(1, 0, 0), &ok, NULL), COL_ERR_NULL);
    cr_expect_eq(variants[w].set(V3(0, 0, 0), V3(1, 0, 0), &missing, &out), COL_ERR_NULL);
    cr_expect_eq(variants[w].set(V3(0, 0, 0), V3(1, 0, 0), &huge, &out), COL_ERR_SIZE);
    cr_expect(out.hit && out.t == 7 && out.index == 7, "%s: failed calls must not write",
              variants[w].name);
  }
}
