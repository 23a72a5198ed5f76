/* Segment and swept box against boxes (DESIGN.md 4.9): the table of edge cases under both touch
 * rules (single calls, 3D and 2D), swept boxes (the platformer's floor, wall and fall), a
 * bullet through a row of tiles, and the batch calls on the active backend (the unit suite runs
 * once per backend): each case at every position of every batch length (the SIMD tails), random
 * sets with specials against the single call (the scalar reference), ties, and the errors. */
#include "slab_cases.h"

#include <stdio.h>

static const col_touch rules[2] = {COL_TOUCH_OVERLAPS, COL_TOUCH_SEPARATES};

static void expect3(col_aabb3_hit got, slab_want w, uint32_t index, const char *what) {
  const float n[3] = {w.axis == 1 ? (float)w.sign : 0.0f, w.axis == 2 ? (float)w.sign : 0.0f,
                      w.axis == 3 ? (float)w.sign : 0.0f};
  cr_expect_eq(got.hit, w.hit, "%s: hit = %d", what, got.hit);
  cr_expect_eq(fbits(got.t), fbits(w.t), "%s: t = %a, want %a", what, (double)got.t, (double)w.t);
  cr_expect(fbits(got.normal.x) == fbits(n[0]) && fbits(got.normal.y) == fbits(n[1]) &&
                fbits(got.normal.z) == fbits(n[2]),
            "%s: normal (%g, %g, %g), want (%g, %g, %g)", what, (double)got.normal.x,
            (double)got.normal.y, (double)got.normal.z, (double)n[0], (double)n[1], (double)n[2]);
  cr_expect_eq(got.index, w.hit ? index : COL_INDEX_NONE, "%s: index %u", what, got.index);
}

static void same3(col_aabb3_hit got, col_aabb3_hit want, const char *what) {
  cr_expect(got.hit == want.hit && fbits(got.t) == fbits(want.t) &&
                fbits(got.normal.x) == fbits(want.normal.x) &&
                fbits(got.normal.y) == fbits(want.normal.y) &&
                fbits(got.normal.z) == fbits(want.normal.z) && got.index == want.index,
            "%s: got {%d, %a, (%g, %g, %g), %u}, want {%d, %a, (%g, %g, %g), %u}", what, got.hit,
            (double)got.t, (double)got.normal.x, (double)got.normal.y, (double)got.normal.z,
            got.index, want.hit, (double)want.t, (double)want.normal.x, (double)want.normal.y,
            (double)want.normal.z, want.index);
}

static void same2(col_aabb2_hit got, col_aabb2_hit want, const char *what) {
  cr_expect(got.hit == want.hit && fbits(got.t) == fbits(want.t) &&
                fbits(got.normal.x) == fbits(want.normal.x) &&
                fbits(got.normal.y) == fbits(want.normal.y) && got.index == want.index,
            "%s: got {%d, %a, (%g, %g), %u}, want {%d, %a, (%g, %g), %u}", what, got.hit,
            (double)got.t, (double)got.normal.x, (double)got.normal.y, got.index, want.hit,
            (double)want.t, (double)want.normal.x, (double)want.normal.y, want.index);
}

Test(slab, table_both_rules) {
  for (size_t i = 0; i < NSLAB_CASES; i++)
    for (int r = 0; r < 2; r++) {
      const slab_case *c = &slab_cases[i];
      char what[120];
      snprintf(what, sizeof what, "%s (%s)", c->name, r ? "open" : "closed");
      expect3(col_segment_aabb3(c->from, c->to, c->box, rules[r]), r ? c->open : c->closed, 0,
              what);
      /* The segment is the swept point box. */
      same3(col_sweep_aabb3((col_aabb3){c->from, c->from},
                            V3(c->to.x - c->from.x, c->to.y - c->from.y, c->to.z - c->from.z),
                            c->box, rules[r]),
            col_segment_aabb3(c->from, c->to, c->box, rules[r]), what);
    }
}

/* Where z is parallel and strictly inside the box, and not the entry axis, the 2D call on
 * (x, y) gives the 3D answer. */
Test(slab, two_d_agrees_where_z_is_idle) {
  int compared = 0;
  for (size_t i = 0; i < NSLAB_CASES; i++) {
    const slab_case *c = &slab_cases[i];
    if (!(c->from.z == c->to.z && c->box.min.z < c->from.z && c->from.z < c->box.max.z)) continue;
    for (int r = 0; r < 2; r++) {
      const col_aabb3_hit h3 = col_segment_aabb3(c->from, c->to, c->box, rules[r]);
      const col_aabb2 box = {{c->box.min.x, c->box.min.y}, {c->box.max.x, c->box.max.y}};
      const col_aabb2_hit h2 = col_segment_aabb2((col_vec2){c->from.x, c->from.y},
                                                 (col_vec2){c->to.x, c->to.y}, box, rules[r]);
      same2(h2, (col_aabb2_hit){h3.hit, h3.t, {h3.normal.x, h3.normal.y}, h3.index}, c->name);
      compared++;
    }
  }
  cr_expect_gt(compared, 30, "only %d cases compared", compared);
}

/* The platformer's moves with the open rule: a box standing on the floor slides freely, one
 * falling lands on it, one walking into a wall stops at it, one touching a wall walks away. */
Test(slab, swept_box_platformer) {
  const col_aabb2 floor = {{-10, 0}, {10, 1}}, wall = {{3, 1}, {4, 5}};
  const col_aabb2 standing = {{0, 1}, {1, 2}};
  const col_touch open = COL_TOUCH_SEPARATES;
  same2(col_sweep_aabb2(standing, (col_vec2){3, 0}, floor, open),
        (col_aabb2_hit){false, 0, {0, 0}, COL_INDEX_NONE}, "sliding on the floor (open)");
  same2(col_sweep_aabb2(standing, (col_vec2){3, 0}, floor, COL_TOUCH_OVERLAPS),
        (col_aabb2_hit){true, 0, {0, 0}, 0}, "on the floor (closed): touching at t = 0");
  same2(col_sweep_aabb2((col_aabb2){{0, 3}, {1, 4}}, (col_vec2){0, -4}, floor, open),
        (col_aabb2_hit){true, .5f, {0, 1}, 0}, "falling onto the floor");
  same2(col_sweep_aabb2(standing, (col_vec2){4, 0}, wall, open),
        (col_aabb2_hit){true, .5f, {-1, 0}, 0}, "walking into the wall");
  same2(col_sweep_aabb2((col_aabb2){{2, 1}, {3, 2}}, (col_vec2){4, 0}, wall, open),
        (col_aabb2_hit){true, 0, {-1, 0}, 0}, "touching the wall, pushing");
  same2(col_sweep_aabb2((col_aabb2){{2, 1}, {3, 2}}, (col_vec2){-4, 0}, wall, open),
        (col_aabb2_hit){false, 0, {0, 0}, COL_INDEX_NONE}, "touching the wall, walking away");
  same2(col_sweep_aabb2((col_aabb2){{2, 1}, {3, 2}}, (col_vec2){-0.0f, 0}, wall, open),
        (col_aabb2_hit){false, 0, {0, 0}, COL_INDEX_NONE}, "touching the wall, standing");
  same2(col_sweep_aabb2((col_aabb2){{3.5f, 2}, {4.5f, 3}}, (col_vec2){1, 0}, wall, open),
        (col_aabb2_hit){true, 0, {0, 0}, 0}, "already inside");
  same2(col_sweep_aabb2((col_aabb2){{1, 0}, {0, 1}}, (col_vec2){1, 0}, wall, open),
        (col_aabb2_hit){false, 0, {0, 0}, COL_INDEX_NONE}, "an inverted mover misses");
  /* 3D: a crate dropped onto a crate, with a -0 move on x. */
  const col_aabb3 crate = BOX3(0, 0, 0, 2, 2, 2);
  same3(col_sweep_aabb3(BOX3(1, 5, 1, 3, 7, 3), V3(-0.0f, -6, 0), crate, open),
        (col_aabb3_hit){true, .5f, {0, 1, 0}, 0}, "crate on crate");
}

/* The set helpers: n boxes in guard-page arrays (a read past the end faults). */
typedef struct box_set {
  float *a[6];
  size_t n;
  col_aabb3_soa s3;
  col_aabb2_soa s2;
} box_set;

static box_set set_alloc(size_t n) {
  box_set s = {{0}, n, {0}, {0}};
  for (int k = 0; k < 6; k++) s.a[k] = guard_floats(n);
  s.s3 = (col_aabb3_soa){s.a[0], s.a[1], s.a[2], s.a[3], s.a[4], s.a[5], n};
  s.s2 = (col_aabb2_soa){s.a[0], s.a[1], s.a[3], s.a[4], n};
  return s;
}

static void set_put(box_set *s, size_t i, col_aabb3 b) {
  s->a[0][i] = b.min.x, s->a[1][i] = b.min.y, s->a[2][i] = b.min.z;
  s->a[3][i] = b.max.x, s->a[4][i] = b.max.y, s->a[5][i] = b.max.z;
}

static col_aabb3 set_get(const box_set *s, size_t i) {
  return BOX3(s->a[0][i], s->a[1][i], s->a[2][i], s->a[3][i], s->a[4][i], s->a[5][i]);
}

static void set_free(box_set *s) {
  for (int k = 0; k < 6; k++) guard_free(s->a[k], s->n * sizeof(float));
}

static col_aabb3_hit first3(col_vec3 from, col_vec3 to, const box_set *s, col_touch touch) {
  col_aabb3_hit h;
  memset(&h, 0x5a, sizeof h);
  cr_assert_eq(col_segment_aabb3_first(from, to, &s->s3, touch, &h), COL_OK);
  return h;
}

Test(slab_batch, table_cases_at_every_position) {
  const size_t lengths[] = {1, 3, 4, 5, 8, 9, 16, 17, MAX_TAIL};
  const col_aabb3 nan_box = BOX3(NAN, 0, 0, 1, 1, 1);
  for (size_t c = 0; c < NSLAB_CASES; c++)
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
      box_set s = set_alloc(lengths[l]);
      for (size_t pos = 0; pos < s.n; pos++) {
        for (size_t i = 0; i < s.n; i++) set_put(&s, i, nan_box);
        set_put(&s, pos, slab_cases[c].box);
        for (int r = 0; r < 2; r++)
          expect3(first3(slab_cases[c].from, slab_cases[c].to, &s, rules[r]),
                  r ? slab_cases[c].open : slab_cases[c].closed, (uint32_t)pos, slab_cases[c].name);
      }
      set_free(&s);
    }
}

Test(slab_batch, earliest_hit_ties_to_lowest_index) {
  box_set s = set_alloc(7);
  const float tenth = 1.0f / 10.0f;         /* the reciprocal the kernel takes */
  set_put(&s, 0, BOX3(6, 0, 0, 7, 1, 1));   /* t = .6 */
  set_put(&s, 1, BOX3(-5, 0, 0, -4, 1, 1)); /* behind */
  set_put(&s, 2, BOX3(3, -1, -1, 4, 2, 2)); /* t = .3: earliest... */
  set_put(&s, 3, BOX3(3, 0, 0, 9, 1, 1));   /* ...tied, higher index */
  set_put(&s, 4, BOX3(2, 5, 0, 3, 6, 1));   /* beside */
  set_put(&s, 5, BOX3(1, 0, 0, 0, 1, 1));   /* inverted */
  set_put(&s, 6, BOX3(3, 0, 0, 3, 1, 1));   /* flat, tied: closed only */
  const col_vec3 from = V3(0, .5f, .5f), to = V3(10, .5f, .5f);
  for (int r = 0; r < 2; r++)
    expect3(first3(from, to, &s, rules[r]), (slab_want)HIT(3 * tenth, 1, -1), 2,
            "tie: lowest index");
  set_put(&s, 4, BOX3(2.5f, 0, 0, 3, 1, 1)); /* t = .25 now */
  expect3(first3(from, to, &s, COL_TOUCH_OVERLAPS), (slab_want)HIT(2.5f * tenth, 1, -1), 4,
          "later index, earlier t");
  set_put(&s, 1, BOX3(-1, 0, 0, 1, 1, 1)); /* contains the start */
  expect3(first3(from, to, &s, COL_TOUCH_SEPARATES), (slab_want)HIT(0, 0, 0), 1, "start inside");
  set_free(&s);
  box_set empty = set_alloc(0);
  expect3(first3(from, to, &empty, COL_TOUCH_OVERLAPS), (slab_want)MISS, 0, "empty set");
  set_free(&empty);
}

/* The article-style bullet: 5000 km/h at 60 updates/s is ~23 m per update; tiles of 0.5 m with
 * gaps. Neither end of the step is in a tile (a test of the positions alone misses every one),
 * yet the segment enters the first solid tile. */
Test(slab_batch, bullet_through_a_tile_row) {
  const int solid[] = {9, 4, 5, 12, 30};
  box_set s = set_alloc(5);
  for (size_t i = 0; i < 5; i++) {
    const float x = (float)solid[i] * 0.5f;
    set_put(&s, i, BOX3(x, 0, -1, x + 0.5f, 0.5f, 1));
  }
  const col_vec3 from = V3(-1, .25f, 0), to = V3(22.148f, .25f, 0);
  for (size_t i = 0; i < 5; i++) {
    const col_aabb3 b = set_get(&s, i);
    cr_assert(!col_aabb3_overlap((col_aabb3){from, from}, b, COL_TOUCH_OVERLAPS) &&
              !col_aabb3_overlap((col_aabb3){to, to}, b, COL_TOUCH_OVERLAPS));
  }
  volatile float dx = to.x - from.x; /* the kernel's own operations, in its order */
  const float want = (2.0f - from.x) * (1.0f / dx);
  for (int r = 0; r < 2; r++)
    expect3(first3(from, to, &s, rules[r]), (slab_want)HIT(want, 1, -1), 1, "first solid tile");
  /* Along the row's top (y = 0.5): closed touches the first tile, open slides over all. */
  const col_vec3 top0 = V3(-1, .5f, 0), top1 = V3(22.148f, .5f, 0);
  expect3(first3(top0, top1, &s, COL_TOUCH_OVERLAPS), (slab_want)HIT(want, 1, -1), 1, "top edge");
  expect3(first3(top0, top1, &s, COL_TOUCH_SEPARATES), (slab_want)MISS, 0, "top edge, open");
  set_free(&s);
}

/* Coordinates on a quarter grid (touching, tied and parallel cases are common) with specials. */
static float coord(uint64_t *rng) {
  switch (rand_below(rng, 48)) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return -0.0f;
  case 4: return 0x1p-140f;
  default: return (float)((int)rand_below(rng, 17) - 8) * 0.25f;
  }
}

static col_aabb3 random_box(uint64_t *rng) {
  col_aabb3 b = BOX3(coord(rng), coord(rng), coord(rng), coord(rng), coord(rng), coord(rng));
  /* Mostly upright boxes (the inverted ones miss at once). */
  if (rand_below(rng, 8) != 0) {
    if (b.min.x > b.max.x) b = BOX3(b.max.x, b.min.y, b.min.z, b.min.x, b.max.y, b.max.z);
    if (b.min.y > b.max.y) b = BOX3(b.min.x, b.max.y, b.min.z, b.max.x, b.min.y, b.max.z);
    if (b.min.z > b.max.z) b = BOX3(b.min.x, b.min.y, b.max.z, b.max.x, b.max.y, b.min.z);
  }
  return b;
}

/* The definition: each box through the single call (the reference), the smallest t, the first
 * index among equals; for segments and swept boxes, 3D and 2D. */
Test(slab_batch, matches_the_single_call_at_every_length) {
  uint64_t rng = 9;
  for (size_t n = 0; n <= MAX_TAIL + 60; n++)
    for (int round = 0; round < 6; round++) {
      box_set s = set_alloc(n);
      const col_touch touch = rules[round & 1];
      const col_vec3 from = V3(coord(&rng), coord(&rng), coord(&rng));
      const col_vec3 to = V3(coord(&rng), coord(&rng), coord(&rng));
      /* Rounds 0-3: the mover is the segment's point box; 4-5: a random box. */
      const col_aabb3 mover = round < 4 ? (col_aabb3){from, from} : random_box(&rng);
      const col_vec3 move = to;
      col_aabb3_hit w3 = {false, 0, {0, 0, 0}, COL_INDEX_NONE}, ws = w3;
      col_aabb2_hit w2 = {false, 0, {0, 0}, COL_INDEX_NONE};
      const col_aabb2 mover2 = {{mover.min.x, mover.min.y}, {mover.max.x, mover.max.y}};
      for (size_t i = 0; i < n; i++) {
        const col_aabb3 b = random_box(&rng);
        set_put(&s, i, b);
        col_aabb3_hit h = col_segment_aabb3(from, to, b, touch);
        if (h.hit && (!w3.hit || h.t < w3.t)) w3 = h, w3.index = (uint32_t)i;
        h = col_sweep_aabb3(mover, move, b, touch);
        if (h.hit && (!ws.hit || h.t < ws.t)) ws = h, ws.index = (uint32_t)i;
        const col_aabb2 b2 = {{b.min.x, b.min.y}, {b.max.x, b.max.y}};
        const col_aabb2_hit h2 = col_sweep_aabb2(mover2, (col_vec2){move.x, move.y}, b2, touch);
        if (h2.hit && (!w2.hit || h2.t < w2.t)) w2 = h2, w2.index = (uint32_t)i;
      }
      same3(first3(from, to, &s, touch), w3, "segment");
      col_aabb3_hit g3;
      cr_assert_eq(col_sweep_aabb3_first(mover, move, &s.s3, touch, &g3), COL_OK);
      same3(g3, ws, "swept box");
      col_aabb2_hit g2;
      cr_assert_eq(col_sweep_aabb2_first(mover2, (col_vec2){move.x, move.y}, &s.s2, touch, &g2),
                   COL_OK);
      same2(g2, w2, "swept box 2D");
      set_free(&s);
    }
}

Test(slab_batch, errors_leave_the_output_untouched) {
  float v[1] = {0};
  const col_aabb3_soa ok3 = {v, v, v, v, v, v, 1}, null3 = {v, v, NULL, v, v, v, 1};
  const col_aabb2_soa ok2 = {v, v, v, v, 1}, null2 = {v, NULL, v, v, 1};
  col_aabb3_hit h3;
  col_aabb2_hit h2;
  memset(&h3, 0x5a, sizeof h3);
  memset(&h2, 0x5a, sizeof h2);
  const col_vec3 p = V3(0, 0, 0);
  const col_vec2 q = {0, 0};
  cr_expect_eq(col_segment_aabb3_first(p, p, NULL, COL_TOUCH_OVERLAPS, &h3), COL_ERR_NULL);
  cr_expect_eq(col_segment_aabb3_first(p, p, &ok3, COL_TOUCH_OVERLAPS, NULL), COL_ERR_NULL);
  cr_expect_eq(col_segment_aabb3_first(p, p, &null3, COL_TOUCH_OVERLAPS, &h3), COL_ERR_NULL);
  cr_expect_eq(col_segment_aabb3_first(p, p, &ok3, (col_touch)2, &h3), COL_ERR_ARGUMENT);
  cr_expect_eq(col_segment_aabb2_first(q, q, &null2, COL_TOUCH_OVERLAPS, &h2), COL_ERR_NULL);
  cr_expect_eq(col_sweep_aabb2_first((col_aabb2){q, q}, q, &ok2, (col_touch)-1, &h2),
               COL_ERR_ARGUMENT);
  if (sizeof(size_t) > 4) {
    const col_aabb3_soa huge = {v, v, v, v, v, v, (size_t)UINT32_MAX + 1};
    cr_expect_eq(col_sweep_aabb3_first((col_aabb3){p, p}, p, &huge, COL_TOUCH_OVERLAPS, &h3),
                 COL_ERR_SIZE);
  }
  const unsigned char *b3 = (const unsigned char *)&h3, *b2 = (const unsigned char *)&h2;
  for (size_t i = 0; i < sizeof h3; i++) cr_expect_eq(b3[i], 0x5a, "col_aabb3_hit written");
  for (size_t i = 0; i < sizeof h2; i++) cr_expect_eq(b2[i], 0x5a, "col_aabb2_hit written");
  cr_expect_eq(col_segment_aabb2_first(q, q, &ok2, COL_TOUCH_OVERLAPS, &h2), COL_OK);
  cr_expect(h2.hit, "a point on a point box touches");
}
