/* AABB overlap (DESIGN.md 4.1): both touch rules, NaN, infinities, -0.0, inverted and
 * degenerate boxes, ulp-adjacent edges, and the batch query against the single-pair rule. */
#include "helpers.h"

#define INF INFINITY

typedef struct aabb2_case {
  const char *name;
  col_aabb2 a, b;
  bool closed, open; /* expected under COL_TOUCH_OVERLAPS / COL_TOUCH_SEPARATES */
} aabb2_case;

#define BOX2(x0, y0, x1, y1) ((col_aabb2){{(x0), (y0)}, {(x1), (y1)}})

static aabb2_case cases2[] = {
    {"apart on x", BOX2(0, 0, 1, 1), BOX2(2, 0, 3, 1), false, false},
    {"apart on y only", BOX2(0, 0, 1, 1), BOX2(0, 5, 1, 6), false, false},
    {"apart on x only", BOX2(0, 0, 1, 1), BOX2(-3, 0, -2, 1), false, false},
    {"overlapping", BOX2(0, 0, 2, 2), BOX2(1, 1, 3, 3), true, true},
    {"contained", BOX2(0, 0, 10, 10), BOX2(2, 2, 3, 3), true, true},
    {"identical", BOX2(0, 0, 1, 1), BOX2(0, 0, 1, 1), true, true},
    {"touching right edge", BOX2(0, 0, 1, 1), BOX2(1, 0, 2, 1), true, false},
    {"touching left edge", BOX2(0, 0, 1, 1), BOX2(-1, 0, 0, 1), true, false},
    {"touching top edge", BOX2(0, 0, 1, 1), BOX2(0, 1, 1, 2), true, false},
    {"touching bottom edge", BOX2(0, 0, 1, 1), BOX2(0, -1, 1, 0), true, false},
    {"touching corner", BOX2(0, 0, 1, 1), BOX2(1, 1, 2, 2), true, false},
    {"point on edge", BOX2(0, 0, 1, 1), BOX2(1, 0.5f, 1, 0.5f), true, false},
    {"point inside", BOX2(0, 0, 1, 1), BOX2(0.5f, 0.5f, 0.5f, 0.5f), true, true},
    {"point on itself", BOX2(3, 3, 3, 3), BOX2(3, 3, 3, 3), true, false},
    {"-0.0 meets +0.0", BOX2(-1, -1, -0.0f, 1), BOX2(0.0f, -1, 1, 1), true, false},
    {"+0.0 meets -0.0", BOX2(-1, -1, 0.0f, 1), BOX2(-0.0f, -1, 1, 1), true, false},
    {"one ulp apart", BOX2(0, 0, 1, 1), BOX2(0x1.000002p0f, 0, 2, 1), false, false},
    {"one ulp overlap", BOX2(0, 0, 1, 1), BOX2(0x1.fffffep-1f, 0, 2, 1), true, true},
    {"denormal gap", BOX2(-1, 0, 0, 1), BOX2(0x1p-149f, 0, 1, 1), false, false},
    {"NaN a.min.x", BOX2(NAN, 0, 1, 1), BOX2(0, 0, 1, 1), false, false},
    {"NaN a.max.y", BOX2(0, 0, 1, NAN), BOX2(0, 0, 1, 1), false, false},
    {"NaN b.min.y", BOX2(0, 0, 1, 1), BOX2(0, NAN, 1, 1), false, false},
    {"NaN b.max.x", BOX2(0, 0, 1, 1), BOX2(0, 0, NAN, 1), false, false},
    {"NaN box vs itself", BOX2(NAN, NAN, NAN, NAN), BOX2(NAN, NAN, NAN, NAN), false, false},
    {"infinite box vs finite", BOX2(-INF, -INF, INF, INF), BOX2(5, 5, 6, 6), true, true},
    {"infinite edges touch", BOX2(0, 0, INF, 1), BOX2(INF, 0, INF, 1), true, false},
    {"-inf edges touch", BOX2(-INF, 0, 0, 1), BOX2(-INF, 0, -INF, 1), true, false},
    {"inverted vs enclosing", BOX2(1, 1, 0, 0), BOX2(-5, -5, 5, 5), true, true},
    {"inverted vs its own span", BOX2(1, 1, 0, 0), BOX2(0, 0, 1, 1), true, false},
    {"inverted vs outside", BOX2(1, 1, 0, 0), BOX2(5, 5, 6, 6), false, false},
};

#define NCASES(t) (sizeof(t) / sizeof((t)[0]))

Test(aabb2, overlap_table_both_rules_both_orders) {
  for (size_t i = 0; i < NCASES(cases2); i++) {
    const aabb2_case *c = &cases2[i];
    cr_expect_eq(col_aabb2_overlap(c->a, c->b, COL_TOUCH_OVERLAPS), c->closed, "%s (closed)",
                 c->name);
    cr_expect_eq(col_aabb2_overlap(c->b, c->a, COL_TOUCH_OVERLAPS), c->closed,
                 "%s (closed, swapped)", c->name);
    cr_expect_eq(col_aabb2_overlap(c->a, c->b, COL_TOUCH_SEPARATES), c->open, "%s (open)", c->name);
    cr_expect_eq(col_aabb2_overlap(c->b, c->a, COL_TOUCH_SEPARATES), c->open, "%s (open, swapped)",
                 c->name);
  }
}

Test(aabb2, out_of_range_touch_value_is_closed) {
  const col_aabb2 a = BOX2(0, 0, 1, 1), b = BOX2(1, 0, 2, 1);
  cr_assert(col_aabb2_overlap(a, b, (col_touch)42));
}

/* Lift each 2D case to 3D three ways: the 2D axes on (x,y), (y,z) and (x,z), with the third
 * axis overlapping widely, so every 3D axis gets every 2D edge case. */
static col_aabb3 lift(col_aabb2 b, int plane, float lo, float hi) {
  switch (plane) {
  case 0: return (col_aabb3){{b.min.x, b.min.y, lo}, {b.max.x, b.max.y, hi}};
  case 1: return (col_aabb3){{lo, b.min.x, b.min.y}, {hi, b.max.x, b.max.y}};
  default: return (col_aabb3){{b.min.x, lo, b.min.y}, {b.max.x, hi, b.max.y}};
  }
}

Test(aabb3, overlap_table_on_every_pair_of_axes) {
  for (int plane = 0; plane < 3; plane++)
    for (size_t i = 0; i < NCASES(cases2); i++) {
      const aabb2_case *c = &cases2[i];
      const col_aabb3 a = lift(c->a, plane, -100, 100), b = lift(c->b, plane, -50, 50);
      cr_expect_eq(col_aabb3_overlap(a, b, COL_TOUCH_OVERLAPS), c->closed, "%s plane %d", c->name,
                   plane);
      cr_expect_eq(col_aabb3_overlap(b, a, COL_TOUCH_SEPARATES), c->open, "%s plane %d open",
                   c->name, plane);
    }
}

Test(aabb3, third_axis_decides) {
  const col_aabb3 a = {{0, 0, 0}, {1, 1, 1}};
  const col_aabb3 apart = {{0, 0, 2}, {1, 1, 3}}, touching = {{0, 0, 1}, {1, 1, 2}};
  const col_aabb3 nan_z = {{0, 0, NAN}, {1, 1, 1}};
  cr_assert(!col_aabb3_overlap(a, apart, COL_TOUCH_OVERLAPS));
  cr_assert(col_aabb3_overlap(a, touching, COL_TOUCH_OVERLAPS));
  cr_assert(!col_aabb3_overlap(a, touching, COL_TOUCH_SEPARATES));
  cr_assert(!col_aabb3_overlap(a, nan_z, COL_TOUCH_OVERLAPS));
  cr_assert(!col_aabb3_overlap(nan_z, a, COL_TOUCH_OVERLAPS));
}

/* ---- batch query ---- */

typedef struct soa2 {
  float *min_x, *min_y, *max_x, *max_y;
  uint32_t *indices;
  size_t n;
  col_aabb2_soa set;
} soa2;

static soa2 soa2_alloc(size_t n) {
  soa2 s = {guard_floats(n),
            guard_floats(n),
            guard_floats(n),
            guard_floats(n),
            (uint32_t *)guard_alloc(n * sizeof(uint32_t)),
            n,
            {0}};
  s.set = (col_aabb2_soa){s.min_x, s.min_y, s.max_x, s.max_y, n};
  return s;
}

static void soa2_set(soa2 *s, size_t i, col_aabb2 b) {
  s->min_x[i] = b.min.x, s->min_y[i] = b.min.y, s->max_x[i] = b.max.x, s->max_y[i] = b.max.y;
}

static void soa2_free(soa2 *s) {
  guard_free(s->min_x, s->n * 4), guard_free(s->min_y, s->n * 4);
  guard_free(s->max_x, s->n * 4), guard_free(s->max_y, s->n * 4);
  guard_free(s->indices, s->n * 4);
}

/* Checks that query returns exactly the ascending indices i with overlap(q, box_i). */
static void expect_query2(col_aabb2 q, const soa2 *s, col_touch touch, const bool *expected) {
  size_t count = 0xdead;
  cr_assert_eq(col_aabb2_query(q, &s->set, touch, s->indices, &count), COL_OK);
  size_t want = 0;
  for (size_t i = 0; i < s->n; i++)
    if (expected[i]) {
      cr_assert_lt(want, count, "n=%zu: index %zu missing", s->n, i);
      cr_assert_eq(s->indices[want], i, "n=%zu: result %zu", s->n, want);
      want++;
    }
  cr_assert_eq(count, want, "n=%zu touch=%d: %zu results, want %zu", s->n, touch, count, want);
}

Test(aabb2_query, table_boxes_at_every_length) {
  for (size_t n = 0; n <= MAX_TAIL; n++) {
    soa2 s = soa2_alloc(n);
    bool closed[MAX_TAIL + 1], open[MAX_TAIL + 1];
    /* The set cycles through the `b` boxes of the table cases whose `a` is the unit box, which
     * is the query: each slot's expected answer is its case's. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      const aabb2_case *c;
      do c = &cases2[k++ % NCASES(cases2)];
      while (!(c->a.min.x == 0 && c->a.min.y == 0 && c->a.max.x == 1 && c->a.max.y == 1));
      soa2_set(&s, i, c->b);
      closed[i] = c->closed, open[i] = c->open;
    }
    expect_query2(BOX2(0, 0, 1, 1), &s, COL_TOUCH_OVERLAPS, closed);
    expect_query2(BOX2(0, 0, 1, 1), &s, COL_TOUCH_SEPARATES, open);
    soa2_free(&s);
  }
}

/* Coordinates drawn from a small grid (so touching and identical edges are common) plus NaN,
 * infinities and -0.0; the expected set comes from the single-pair reference. */
static float grid_value(uint64_t *rng) {
  switch (rand_below(rng, 16)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return -0.0f;
  default: return (float)((int)rand_below(rng, 9) - 4);
  }
}

Test(aabb2_query, random_sets_match_single_pair_rule) {
  uint64_t rng = 2;
  for (int round = 0; round < 200; round++) {
    const size_t n = rand_below(&rng, 300);
    soa2 s = soa2_alloc(n);
    col_aabb2 q = {{grid_value(&rng), grid_value(&rng)}, {grid_value(&rng), grid_value(&rng)}};
    bool *expect_c = calloc(n + 1, 1), *expect_o = calloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
      col_aabb2 b = {{grid_value(&rng), grid_value(&rng)}, {grid_value(&rng), grid_value(&rng)}};
      soa2_set(&s, i, b);
      expect_c[i] = col_aabb2_overlap(q, b, COL_TOUCH_OVERLAPS);
      expect_o[i] = col_aabb2_overlap(q, b, COL_TOUCH_SEPARATES);
    }
    expect_query2(q, &s, COL_TOUCH_OVERLAPS, expect_c);
    expect_query2(q, &s, COL_TOUCH_SEPARATES, expect_o);
    free(expect_c), free(expect_o);
    soa2_free(&s);
  }
}

Test(aabb3_query, random_sets_match_single_pair_rule_at_every_length) {
  uint64_t rng = 3;
  for (size_t n = 0; n <= MAX_TAIL + 150; n++) {
    float *v[6];
    for (int k = 0; k < 6; k++) v[k] = guard_floats(n);
    uint32_t *idx = guard_alloc(n * sizeof(uint32_t));
    col_aabb3 q = {{grid_value(&rng), grid_value(&rng), grid_value(&rng)},
                   {grid_value(&rng), grid_value(&rng), grid_value(&rng)}};
    if (n % 2) q = (col_aabb3){{-2, -2, -2}, {2, 2, 2}}; /* more hits on odd lengths */
    const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
    for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
      uint64_t fill = rng;
      for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 6; k++) v[k][i] = grid_value(&fill);
      size_t count = 0;
      cr_assert_eq(col_aabb3_query(q, &set, touch, idx, &count), COL_OK);
      size_t want = 0;
      for (size_t i = 0; i < n; i++) {
        const col_aabb3 b = {{v[0][i], v[1][i], v[2][i]}, {v[3][i], v[4][i], v[5][i]}};
        if (col_aabb3_overlap(q, b, touch)) {
          cr_assert_lt(want, count, "n=%zu: index %zu missing", n, i);
          cr_assert_eq(idx[want], i);
          want++;
        }
      }
      cr_assert_eq(count, want, "n=%zu", n);
    }
    rng += n;
    for (int k = 0; k < 6; k++) guard_free(v[k], n * 4);
    guard_free(idx, n * 4);
  }
}

Test(aabb_query, errors_write_nothing) {
  float x[2] = {0, 1};
  uint32_t idx[2];
  size_t count = 99;
  const col_aabb2 q = BOX2(0, 0, 1, 1);
  const col_aabb2_soa ok = {x, x, x, x, 2};
  const col_aabb2_soa missing = {x, NULL, x, x, 2};
  const col_aabb2_soa huge = {x, x, x, x, (size_t)UINT32_MAX + 1};
  cr_assert_eq(col_aabb2_query(q, NULL, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query(q, &ok, COL_TOUCH_OVERLAPS, idx, NULL), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query(q, &ok, COL_TOUCH_OVERLAPS, NULL, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query(q, &missing, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query(q, &huge, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_SIZE);
  cr_assert_eq(col_aabb2_query(q, &ok, (col_touch)2, idx, &count), COL_ERR_ARGUMENT);
  cr_assert_eq(count, 99);

  const col_aabb3 q3 = {{0, 0, 0}, {1, 1, 1}};
  const col_aabb3_soa ok3 = {x, x, x, x, x, x, 2};
  const col_aabb3_soa missing3 = {x, x, x, x, x, NULL, 2};
  const col_aabb3_soa huge3 = {x, x, x, x, x, x, (size_t)UINT32_MAX + 1};
  cr_assert_eq(col_aabb3_query(q3, NULL, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb3_query(q3, &missing3, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb3_query(q3, &huge3, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_SIZE);
  cr_assert_eq(col_aabb3_query(q3, &ok3, (col_touch)-1, idx, &count), COL_ERR_ARGUMENT);
  cr_assert_eq(count, 99);

  /* An empty set needs no arrays. */
  const col_aabb2_soa empty = {0};
  cr_assert_eq(col_aabb2_query(q, &empty, COL_TOUCH_OVERLAPS, NULL, &count), COL_OK);
  cr_assert_eq(count, 0);
  count = 5;
  const col_aabb3_soa empty3 = {0};
  cr_assert_eq(col_aabb3_query(q3, &empty3, COL_TOUCH_SEPARATES, NULL, &count), COL_OK);
  cr_assert_eq(count, 0);
}

/* The array-of-structures query returns what the structure-of-arrays one does, at every
 * length and from starts that are not vector-aligned (the boxes end at a guard page, and the
 * offset shifts their start by whole floats). */
Test(aabb2_query, aos_equals_soa_at_every_length_and_offset) {
  uint64_t rng = 7;
  for (size_t n = 0; n <= MAX_TAIL; n++)
    for (size_t offset = 0; offset < 4; offset++) {
      const size_t bytes = n * sizeof(col_aabb2) + offset * sizeof(float);
      unsigned char *raw = guard_alloc(bytes);
      col_aabb2 *boxes = (col_aabb2 *)(void *)(raw + offset * sizeof(float));
      soa2 s = soa2_alloc(n);
      uint32_t *aos_idx = guard_alloc(n * sizeof(uint32_t));
      for (size_t i = 0; i < n; i++) {
        boxes[i] =
            (col_aabb2){{grid_value(&rng), grid_value(&rng)}, {grid_value(&rng), grid_value(&rng)}};
        soa2_set(&s, i, boxes[i]);
      }
      const col_aabb2 q = {{-2, -2}, {2, 2}};
      for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
        size_t soa_count = 0, aos_count = 0;
        cr_assert_eq(col_aabb2_query(q, &s.set, touch, s.indices, &soa_count), COL_OK);
        cr_assert_eq(col_aabb2_query_aos(q, boxes, n, touch, aos_idx, &aos_count), COL_OK);
        cr_assert_eq(aos_count, soa_count, "n=%zu offset=%zu", n, offset);
        for (size_t k = 0; k < soa_count; k++) cr_assert_eq(aos_idx[k], s.indices[k]);
        size_t want = 0;
        for (size_t i = 0; i < n; i++) want += col_aabb2_overlap(q, boxes[i], touch);
        cr_assert_eq(soa_count, want, "n=%zu offset=%zu", n, offset);
      }
      guard_free(raw, bytes), guard_free(aos_idx, n * sizeof(uint32_t));
      soa2_free(&s);
    }
}

Test(aabb2_query, aos_errors) {
  col_aabb2 box = {{0, 0}, {1, 1}};
  uint32_t idx[1];
  size_t count = 99;
  cr_assert_eq(col_aabb2_query_aos(box, NULL, 1, COL_TOUCH_OVERLAPS, idx, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query_aos(box, &box, 1, COL_TOUCH_OVERLAPS, NULL, &count), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_query_aos(box, &box, 1, COL_TOUCH_OVERLAPS, idx, NULL), COL_ERR_NULL);
  cr_assert_eq(
      col_aabb2_query_aos(box, &box, (size_t)UINT32_MAX + 1, COL_TOUCH_OVERLAPS, idx, &count),
      COL_ERR_SIZE);
  cr_assert_eq(col_aabb2_query_aos(box, &box, 1, (col_touch)9, idx, &count), COL_ERR_ARGUMENT);
  cr_assert_eq(count, 99);
  cr_assert_eq(col_aabb2_query_aos(box, NULL, 0, COL_TOUCH_OVERLAPS, NULL, &count), COL_OK);
  cr_assert_eq(count, 0);
  cr_assert_eq(col_aabb2_query_aos(box, &box, 1, COL_TOUCH_OVERLAPS, idx, &count), COL_OK);
  cr_assert_eq(count, 1);
  cr_assert_eq(idx[0], 0);
}
