/* Minimum translation distance (DESIGN.md 4.2): the seed's example, check order and
 * tie-breaking, canonical +0.0, NaN and infinities, and the batch against the single pair. */
#include "helpers.h"

#define BOX2(x0, y0, x1, y1) ((col_aabb2){{(x0), (y0)}, {(x1), (y1)}})
#define INF                  INFINITY
#define APART                                                                                      \
  { {0.0f, 0.0f}, false }

typedef struct mtd_case {
  const char *name;
  col_aabb2 a, b;
  col_mtd want;
} mtd_case;

#define unit10 BOX2(0, 0, 10, 10)

static const mtd_case cases[] = {
    /* The seed: its code gives (-32, 0) (x wins the tie with y); its prose says (0, -32). */
    {"seed example", BOX2(0, 0, 64, 64), BOX2(32, 32, 96, 96), {{-32, 0}, true}},
    {"seed example swapped", BOX2(32, 32, 96, 96), BOX2(0, 0, 64, 64), {{32, 0}, true}},
    {"left smallest", unit10, BOX2(7, -20, 30, 30), {{-3, 0}, true}},
    {"right smallest", unit10, BOX2(-20, -20, 3, 30), {{3, 0}, true}},
    {"down smallest", unit10, BOX2(-5, 8, 15, 20), {{0, -2}, true}},
    {"up smallest", unit10, BOX2(-5, -20, 15, 1), {{0, 1}, true}},
    {"tie left/right goes left", unit10, BOX2(0, -20, 10, 30), {{-10, 0}, true}},
    {"tie down/up goes down", unit10, BOX2(-20, 0, 30, 10), {{0, -10}, true}},
    {"tie right/down goes right", unit10, BOX2(-20, 6, 4, 30), {{4, 0}, true}},
    {"tie right/up goes right", unit10, BOX2(-20, -30, 4, 4), {{4, 0}, true}},
    {"apart: left negative", BOX2(0, 0, 1, 1), BOX2(2, 0, 3, 1), APART},
    {"apart: right negative", BOX2(0, 0, 1, 1), BOX2(-3, 0, -2, 1), APART},
    {"apart: down negative", BOX2(0, 0, 1, 1), BOX2(0, 2, 1, 3), APART},
    {"apart: up negative", BOX2(0, 0, 1, 1), BOX2(0, -3, 1, -2), APART},
    {"touching left: zero is +0", BOX2(0, 0, 1, 1), BOX2(1, -5, 9, 5), APART},
    {"touching up: zero is +0", BOX2(0, 0, 1, 1), BOX2(-5, -9, 5, 0), APART},
    {"touching through -0.0", BOX2(-1, -1, -0.0f, 1), BOX2(0.0f, -5, 9, 5), APART},
    {"denormal penetration",
     BOX2(-1, -1, 0x1p-149f, 1),
     BOX2(0, -5, 9, 5),
     {{-0x1p-149f, 0}, true}},
    {"NaN a.min.x", BOX2(NAN, 0, 10, 10), BOX2(1, 1, 2, 2), APART},
    {"NaN a.max.x", BOX2(0, 0, NAN, 10), BOX2(1, 1, 2, 2), APART},
    {"NaN a.min.y", BOX2(0, NAN, 10, 10), BOX2(1, 1, 2, 2), APART},
    {"NaN a.max.y", BOX2(0, 0, 10, NAN), BOX2(1, 1, 2, 2), APART},
    {"NaN b.min.x", unit10, BOX2(NAN, 1, 2, 2), APART},
    {"NaN b.max.x", unit10, BOX2(1, 1, NAN, 2), APART},
    {"NaN b.min.y", unit10, BOX2(1, NAN, 2, 2), APART},
    {"NaN b.max.y", unit10, BOX2(1, 1, 2, NAN), APART},
    {"infinite a", BOX2(-INF, -INF, INF, INF), BOX2(0, 0, 1, 1), {{-INF, 0}, true}},
    {"inf - inf is NaN: apart", BOX2(0, 0, INF, 1), BOX2(INF, 0, INF, 1), APART},
    {"inverted a inside b", BOX2(5, 5, 4, 4), unit10, {{-4, 0}, true}},
    {"inverted a on b's span", BOX2(1, 1, 0, 0), BOX2(0, 0, 1, 1), APART},
    {"fractional", BOX2(0.5f, 0.25f, 2.5f, 1.75f), BOX2(2.25f, -1, 4, 4), {{-0.25f, 0}, true}},
};

#define NCASES (sizeof cases / sizeof cases[0])

static void expect_mtd(col_mtd got, col_mtd want, const char *name) {
  cr_expect_eq(got.hit, want.hit, "%s: hit", name);
  cr_expect_eq(fbits(got.d.x), fbits(want.d.x), "%s: d.x = %a, want %a", name, (double)got.d.x,
               (double)want.d.x);
  cr_expect_eq(fbits(got.d.y), fbits(want.d.y), "%s: d.y = %a, want %a", name, (double)got.d.y,
               (double)want.d.y);
}

Test(mtd, table) {
  for (size_t i = 0; i < NCASES; i++)
    expect_mtd(col_aabb2_mtd(cases[i].a, cases[i].b), cases[i].want, cases[i].name);
}

Test(mtd, displacement_resolves_the_penetration) {
  /* Moving a by d leaves the boxes exactly touching (for exactly representable inputs). */
  for (size_t i = 0; i < NCASES; i++) {
    const mtd_case *c = &cases[i];
    const col_mtd m = col_aabb2_mtd(c->a, c->b);
    if (!m.hit || isinf(m.d.x) || isinf(m.d.y) || c->a.min.x > c->a.max.x) continue;
    const col_aabb2 moved = {{c->a.min.x + m.d.x, c->a.min.y + m.d.y},
                             {c->a.max.x + m.d.x, c->a.max.y + m.d.y}};
    cr_expect(col_aabb2_overlap(moved, c->b, COL_TOUCH_OVERLAPS), "%s", c->name);
    cr_expect(!col_aabb2_overlap(moved, c->b, COL_TOUCH_SEPARATES), "%s", c->name);
    cr_expect(!col_aabb2_mtd(moved, c->b).hit, "%s: still penetrating", c->name);
  }
}

Test(mtd, batch_equals_single_at_every_length) {
  for (size_t n = 0; n <= MAX_TAIL; n++) {
    col_aabb2 *a = guard_alloc(n * sizeof *a), *b = guard_alloc(n * sizeof *b);
    col_mtd *out = guard_alloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++) {
      a[i] = cases[(i * 7 + n) % NCASES].a;
      b[i] = cases[(i * 7 + n) % NCASES].b;
    }
    cr_assert_eq(col_aabb2_mtd_batch(n, a, b, out), COL_OK);
    for (size_t i = 0; i < n; i++)
      expect_mtd(out[i], cases[(i * 7 + n) % NCASES].want, cases[(i * 7 + n) % NCASES].name);
    guard_free(a, n * sizeof *a), guard_free(b, n * sizeof *b), guard_free(out, n * sizeof *out);
  }
}

static float coord(uint64_t *rng) {
  switch (rand_below(rng, 20)) {
  case 0: return NAN;
  case 1: return INF;
  case 2: return -INF;
  case 3: return -0.0f;
  case 4: return 0x1p-149f;
  default: return (float)((int)rand_below(rng, 17) - 8) * 0.5f;
  }
}

/* Mostly well-formed boxes (min <= max where ordered), a quarter left as drawn. */
static col_aabb2 random_box(uint64_t *rng) {
  col_aabb2 b = BOX2(coord(rng), coord(rng), coord(rng), coord(rng));
  if (rand_below(rng, 4) != 0) {
    if (b.min.x > b.max.x) b = BOX2(b.max.x, b.min.y, b.min.x, b.max.y);
    if (b.min.y > b.max.y) b = BOX2(b.min.x, b.max.y, b.max.x, b.min.y);
  }
  return b;
}

Test(mtd, batch_equals_single_on_random_boxes) {
  uint64_t rng = 4;
  enum { N = 5000 };
  col_aabb2 *a = guard_alloc(N * sizeof *a), *b = guard_alloc(N * sizeof *b);
  col_mtd *out = guard_alloc(N * sizeof *out);
  for (size_t i = 0; i < N; i++) {
    a[i] = random_box(&rng);
    b[i] = random_box(&rng);
  }
  cr_assert_eq(col_aabb2_mtd_batch(N, a, b, out), COL_OK);
  size_t hits = 0;
  for (size_t i = 0; i < N; i++) {
    expect_mtd(out[i], col_aabb2_mtd(a[i], b[i]), "random");
    hits += out[i].hit;
    /* Invariants of the rule: one non-zero axis at most, never -0.0. */
    cr_expect(!(out[i].d.x != 0 && out[i].d.y != 0));
    cr_expect_neq(fbits(out[i].d.x), 0x80000000u);
    cr_expect_neq(fbits(out[i].d.y), 0x80000000u);
    cr_expect_eq(out[i].hit, out[i].d.x != 0 || out[i].d.y != 0);
  }
  cr_expect_gt(hits, N / 20, "the generator should produce collisions (%zu)", hits);
  guard_free(a, N * sizeof *a), guard_free(b, N * sizeof *b), guard_free(out, N * sizeof *out);
}

Test(mtd, batch_errors) {
  col_aabb2 box = unit10;
  col_mtd out = {{1, 1}, true};
  cr_assert_eq(col_aabb2_mtd_batch(1, NULL, &box, &out), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_mtd_batch(1, &box, NULL, &out), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_mtd_batch(1, &box, &box, NULL), COL_ERR_NULL);
  cr_assert_eq(col_aabb2_mtd_batch(0, NULL, NULL, NULL), COL_OK);
  cr_assert(out.hit && out.d.x == 1, "failed calls must not write");
}
