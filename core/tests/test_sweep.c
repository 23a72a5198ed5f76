/* Segment against sphere (DESIGN.md 4.4): each of XNA's steps (non-finite input, start inside,
 * zero length, behind, beside, within the step's travel), the seed's bullet and bottle, large
 * movers, the world transform, and one segment against N spheres. */
#include "helpers.h"

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

Test(sweep, table) {
  for (size_t i = 0; i < NCASES; i++)
    expect_sweep(col_segment_sphere(cases[i].from, cases[i].to, cases[i].s), cases[i].hit,
                 cases[i].t, cases[i].name);
}

/* Step 1: every non-finite input misses. The base case starts inside (it would hit at
 * t = 0 otherwise), so the check must come first. */
Test(sweep, non_finite_input_misses) {
  const float bad[] = {NAN, INFINITY, -INFINITY, from_bits(0x7fc12345u)};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    for (int field = 0; field < 10; field++) {
      float v[10] = {0, 0, 0.5f, 0, 0, 10, 0, 0, 1, 2}; /* from, to, center, radius */
      v[field] = bad[k];
      const col_hit h = col_segment_sphere(V3(v[0], v[1], v[2]), V3(v[3], v[4], v[5]),
                                           SPHERE(v[6], v[7], v[8], v[9]));
      expect_sweep(h, false, 0, "non-finite");
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

static col_segment_hit batch(col_vec3 from, col_vec3 to, const sphere_set *s) {
  col_segment_hit h;
  memset(&h, 0x5a, sizeof h);
  cr_assert_eq(col_segment_spheres(from, to, &s->soa, &h), COL_OK);
  return h;
}

static void expect_batch(col_segment_hit got, bool hit, float t, uint32_t index, const char *what) {
  cr_expect_eq(got.hit, hit, "%s: hit", what);
  cr_expect_eq(fbits(got.t), fbits(t), "%s: t = %a, want %a", what, (double)got.t, (double)t);
  cr_expect_eq(got.index, index, "%s: index = %u, want %u", what, got.index, index);
}

Test(sweep_batch, earliest_hit_and_ties) {
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
  expect_batch(batch(from, to, &s), true, 28, 2, "tie goes to the lower index");

  set_put(&s, 7, SPHERE(0, 0, 28.5f, 1)); /* t = 27.5 now earliest */
  expect_batch(batch(from, to, &s), true, 27.5f, 7, "later index, earlier t");

  set_put(&s, 4, SPHERE(0, 0, 0, 1)); /* contains the start: t = 0 */
  set_put(&s, 6, SPHERE(0, 0, 0.5f, 1));
  expect_batch(batch(from, to, &s), true, 0, 4, "two start inside: lower index");
  set_free(&s);

  sphere_set none = set_alloc(3);
  set_put(&none, 0, SPHERE(0, 0, -5, 1));
  set_put(&none, 1, SPHERE(NAN, 0, 5, 1));
  set_put(&none, 2, SPHERE(0, 0, 500, 1));
  expect_batch(batch(from, to, &none), false, 0, COL_INDEX_NONE, "all miss");
  set_free(&none);

  sphere_set empty = set_alloc(0);
  expect_batch(batch(from, to, &empty), false, 0, COL_INDEX_NONE, "empty set");
  set_free(&empty);
}

/* Every single-segment case, through the batch: the case's sphere at each position of sets of
 * several lengths whose other spheres all miss (NaN centres). */
Test(sweep_batch, table_cases_at_every_position) {
  const size_t lengths[] = {1, 3, 4, 5, 8, 9, 16, 17, MAX_TAIL};
  for (size_t c = 0; c < NCASES; c++)
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      const size_t n = lengths[l];
      sphere_set s = set_alloc(n);
      for (size_t pos = 0; pos < n; pos++) {
        for (size_t i = 0; i < n; i++) set_put(&s, i, SPHERE(NAN, 0, 0, 1));
        set_put(&s, pos, cases[c].s);
        const col_segment_hit h = batch(cases[c].from, cases[c].to, &s);
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
Test(sweep_batch, matches_the_single_segment_at_every_length) {
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
        const col_hit h = col_segment_sphere(from, to, sp);
        if (h.hit && (!want.hit || h.t < want.t)) want = (col_segment_hit){true, h.t, (uint32_t)i};
      }
      expect_batch(batch(from, to, &s), want.hit, want.t, want.index, "random");
      set_free(&s);
    }
}

Test(sweep_batch, errors_write_nothing) {
  float v[1] = {0};
  const col_sphere_soa ok = {v, v, v, v, 1};
  const col_sphere_soa missing = {v, v, NULL, v, 1};
  const col_sphere_soa huge = {v, v, v, v, (size_t)UINT32_MAX + 1};
  col_segment_hit out = {true, 7, 7};
  cr_expect_eq(col_segment_spheres(V3(0, 0, 0), V3(1, 0, 0), NULL, &out), COL_ERR_NULL);
  cr_expect_eq(col_segment_spheres(V3(0, 0, 0), V3(1, 0, 0), &ok, NULL), COL_ERR_NULL);
  cr_expect_eq(col_segment_spheres(V3(0, 0, 0), V3(1, 0, 0), &missing, &out), COL_ERR_NULL);
  cr_expect_eq(col_segment_spheres(V3(0, 0, 0), V3(1, 0, 0), &huge, &out), COL_ERR_SIZE);
  cr_expect(out.hit && out.t == 7 && out.index == 7, "failed calls must not write");
}
