/* Segment against sphere (DESIGN.md 4.4), one segment against N spheres (col_segment_spheres
 * and its robust form) on the active backend: the earliest hit with ties to the lowest index,
 * every single-segment case at every position of every batch length (the SIMD tails), random
 * sets against the single test, far spheres where the variants differ, and the errors. */
#include "sweep_cases.h"

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
