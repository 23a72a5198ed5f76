/* Alpha-byte sprite overlap (DESIGN.md 4.3): the seed's threshold of 20, any threshold,
 * strides, negative and huge world positions, row-major first hit, counting, empty and
 * disjoint sprites, error codes; and random sprites against a brute-force world-space oracle.
 * Every sprite's pixels end at a guard page, so a read past the last pixel faults. */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>

#define RGB_NOISE 0x00A5C3E1u /* non-zero colour bits: the alpha must come from bits 24..31 */
#define M         INT32_MAX

typedef struct test_sprite {
  uint32_t *px;
  size_t n;
  col_sprite s;
} test_sprite;

static test_sprite make(int32_t w, int32_t h, int32_t stride, int32_t x, int32_t y, uint8_t alpha) {
  test_sprite t;
  t.n = (size_t)stride * (size_t)h;
  t.px = guard_alloc(t.n * sizeof(uint32_t));
  for (size_t i = 0; i < t.n; i++) t.px[i] = ((uint32_t)alpha << 24) | RGB_NOISE;
  t.s = (col_sprite){t.px, w, h, stride, x, y};
  return t;
}

static void set_alpha(test_sprite *t, int32_t col, int32_t row, uint8_t alpha) {
  t->px[(size_t)row * (size_t)t->s.stride + (size_t)col] = ((uint32_t)alpha << 24) | RGB_NOISE;
}

static void drop(test_sprite *t) { guard_free(t->px, t->n * sizeof(uint32_t)); }

static col_pixel_hit overlap(test_sprite *a, test_sprite *b, uint8_t thr, col_pixel_mode mode) {
  col_pixel_hit h;
  memset(&h, 0x5a, sizeof h); /* every field must be written */
  cr_assert_eq(col_sprite_overlap(a->s, b->s, thr, mode, &h), COL_OK);
  return h;
}

static void expect_hit(col_pixel_hit h, bool hit, int64_t x, int64_t y, uint64_t count,
                       const char *what) {
  cr_expect_eq(h.hit, hit, "%s: hit", what);
  cr_expect_eq(h.x, x, "%s: x = %lld, want %lld", what, (long long)h.x, (long long)x);
  cr_expect_eq(h.y, y, "%s: y = %lld, want %lld", what, (long long)h.y, (long long)y);
  cr_expect_eq(h.count, count, "%s: count = %llu, want %llu", what, (unsigned long long)h.count,
               (unsigned long long)count);
}

/* Both modes: first mode reports count 1 (or 0), count mode the full count. */
static void expect_both(test_sprite *a, test_sprite *b, uint8_t thr, int64_t x, int64_t y,
                        uint64_t count, const char *what) {
  expect_hit(overlap(a, b, thr, COL_PIXEL_FIRST), count > 0, x, y, count > 0, what);
  expect_hit(overlap(a, b, thr, COL_PIXEL_COUNT), count > 0, x, y, count, what);
}

Test(sprite, seed_threshold_is_strictly_above_20) {
  const uint8_t alphas[][2] = {{20, 20}, {20, 21}, {21, 20}, {21, 21}, {255, 20}, {0, 255}};
  for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++) {
    test_sprite a = make(1, 1, 1, 7, 9, alphas[i][0]), b = make(1, 1, 1, 7, 9, alphas[i][1]);
    const bool both = alphas[i][0] > 20 && alphas[i][1] > 20;
    char what[64];
    snprintf(what, sizeof what, "alphas %u/%u", alphas[i][0], alphas[i][1]);
    expect_both(&a, &b, COL_ALPHA_THRESHOLD_DEFAULT, both ? 7 : 0, both ? 9 : 0, both, what);
    drop(&a), drop(&b);
  }
}

Test(sprite, any_threshold) {
  const struct {
    uint8_t alpha, threshold;
    bool hit;
  } rows[] = {{20, 19, true},   {0, 0, false},    {1, 0, true},     {255, 255, false},
              {255, 254, true}, {128, 127, true}, {128, 128, false}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    test_sprite a = make(2, 1, 2, 0, 0, rows[i].alpha), b = make(1, 1, 1, 1, 0, rows[i].alpha);
    expect_both(&a, &b, rows[i].threshold, rows[i].hit, 0, rows[i].hit, "threshold row");
    drop(&a), drop(&b);
  }
}

Test(sprite, alpha_is_the_top_byte_only) {
  test_sprite a = make(1, 1, 1, 0, 0, 0), b = make(1, 1, 1, 0, 0, 255);
  a.px[0] = 0x14FFFFFFu; /* alpha 20, every colour bit set */
  expect_both(&a, &b, 20, 0, 0, 0, "alpha 20 with white");
  a.px[0] = 0x15000000u; /* alpha 21, black */
  expect_both(&a, &b, 20, 0, 0, 1, "alpha 21 with black");
  drop(&a), drop(&b);
}

Test(sprite, offsets_and_counts) {
  test_sprite a = make(4, 4, 4, 0, 0, 255), b = make(4, 4, 4, 2, 3, 255);
  expect_both(&a, &b, 20, 2, 3, 2, "b at (2,3)");
  expect_both(&b, &a, 20, 2, 3, 2, "swapped");
  drop(&a), drop(&b);
}

Test(sprite, negative_positions) {
  test_sprite a = make(8, 8, 8, -10, -10, 255), b = make(8, 8, 8, -5, -4, 255);
  expect_both(&a, &b, 20, -5, -4, 6, "negative");
  drop(&a), drop(&b);
}

Test(sprite, huge_positions_use_64_bit_extents) {
  /* a spans [M-3, M+5): its right edge is past INT32_MAX. */
  test_sprite a = make(8, 8, 8, M - 3, M - 3, 255), b = make(4, 4, 4, M - 1, M - 1, 255);
  expect_both(&a, &b, 20, M - 1, M - 1, 16, "near INT32_MAX");
  drop(&a), drop(&b);

  test_sprite c = make(4, 4, 4, INT32_MIN, INT32_MIN, 255);
  test_sprite d = make(4, 4, 4, INT32_MIN + 2, INT32_MIN + 1, 255);
  expect_both(&c, &d, 20, (int64_t)INT32_MIN + 2, (int64_t)INT32_MIN + 1, 6, "near INT32_MIN");
  drop(&c), drop(&d);

  /* The first colliding pixel itself lies beyond INT32_MAX. */
  test_sprite e = make(4, 1, 4, M - 1, 0, 0), f = make(4, 1, 4, M - 1, 0, 255);
  set_alpha(&e, 3, 0, 255);
  expect_both(&e, &f, 20, (int64_t)M + 2, 0, 1, "hit beyond INT32_MAX");
  drop(&e), drop(&f);

  /* Far apart across the whole int32 range: no wrap-around overlap. */
  test_sprite g = make(4, 4, 4, M - 1, M - 1, 255), h = make(4, 4, 4, INT32_MIN, INT32_MIN, 255);
  expect_both(&g, &h, 20, 0, 0, 0, "opposite ends");
  drop(&g), drop(&h);
}

Test(sprite, stride_skips_padding) {
  /* a is 3x3 in rows of 5: the padding columns are opaque but not part of the sprite. */
  test_sprite a = make(3, 3, 5, 0, 0, 0), b = make(3, 3, 3, 0, 0, 255);
  for (int32_t row = 0; row < 3; row++) set_alpha(&a, 3, row, 255), set_alpha(&a, 4, row, 255);
  set_alpha(&a, 1, 2, 200);
  expect_both(&a, &b, 20, 1, 2, 1, "stride 5");
  expect_both(&b, &a, 20, 1, 2, 1, "stride 5, swapped");
  b.s.x = 3; /* b now lies over a's padding only */
  expect_both(&a, &b, 20, 0, 0, 0, "over the padding");
  drop(&a), drop(&b);
}

Test(sprite, first_hit_is_row_major) {
  test_sprite a = make(4, 2, 4, 10, 20, 0), b = make(4, 2, 4, 10, 20, 255);
  set_alpha(&a, 0, 1, 255); /* (10, 21) */
  set_alpha(&a, 3, 0, 255); /* (13, 20): smaller y, so first */
  expect_both(&a, &b, 20, 13, 20, 2, "row-major");
  drop(&a), drop(&b);
}

Test(sprite, disjoint_and_empty) {
  test_sprite a = make(4, 4, 4, 0, 0, 255), b = make(4, 4, 4, 4, 0, 255);
  expect_both(&a, &b, 20, 0, 0, 0, "touching edges share no pixel");
  b.s.x = 100, b.s.y = -100;
  expect_both(&a, &b, 20, 0, 0, 0, "far apart");
  drop(&b);

  test_sprite empty_w = {NULL, 0, {NULL, 0, 4, 0, 1, 1}};
  test_sprite empty_h = {NULL, 0, {NULL, 4, 0, 4, 1, 1}};
  expect_both(&a, &empty_w, 20, 0, 0, 0, "zero width inside");
  expect_both(&empty_h, &a, 20, 0, 0, 0, "zero height inside");
  drop(&a);
}

/* The oracle: walk the world rectangle that covers both sprites, pixel by pixel in row-major
 * order, and look each world pixel up in each sprite. */
static bool alpha_at(const col_sprite *s, int64_t wx, int64_t wy, uint8_t thr) {
  if (wx < s->x || wx >= (int64_t)s->x + s->width) return false;
  if (wy < s->y || wy >= (int64_t)s->y + s->height) return false;
  const uint32_t p = s->pixels[(size_t)(wy - s->y) * (size_t)s->stride + (size_t)(wx - s->x)];
  return (p >> 24) > thr;
}

static col_pixel_hit oracle(const col_sprite *a, const col_sprite *b, uint8_t thr) {
  col_pixel_hit r = {false, 0, 0, 0};
  const int64_t x0 = a->x < b->x ? a->x : b->x, y0 = a->y < b->y ? a->y : b->y;
  const int64_t x1 = (int64_t)a->x + a->width > (int64_t)b->x + b->width ? (int64_t)a->x + a->width
                                                                         : (int64_t)b->x + b->width;
  const int64_t y1 = (int64_t)a->y + a->height > (int64_t)b->y + b->height
                         ? (int64_t)a->y + a->height
                         : (int64_t)b->y + b->height;
  for (int64_t wy = y0; wy < y1; wy++)
    for (int64_t wx = x0; wx < x1; wx++)
      if (alpha_at(a, wx, wy, thr) && alpha_at(b, wx, wy, thr)) {
        if (!r.hit) r = (col_pixel_hit){true, wx, wy, 0};
        r.count++;
      }
  return r;
}

static test_sprite random_sprite(uint64_t *rng, uint8_t thr) {
  const int32_t w = (int32_t)rand_below(rng, 13), h = (int32_t)rand_below(rng, 13);
  const int32_t stride = w + (int32_t)rand_below(rng, 3);
  test_sprite t = make(w, h, stride == 0 ? 1 : stride, (int32_t)rand_below(rng, 17) - 8,
                       (int32_t)rand_below(rng, 17) - 8, 0);
  const uint8_t near[] = {0, thr, (uint8_t)(thr + 1), 255}; /* thr + 1 wraps at 255: fine */
  for (size_t i = 0; i < t.n; i++)
    t.px[i] = ((uint32_t)near[rand_below(rng, 4)] << 24) | (uint32_t)(splitmix64(rng) >> 40);
  return t;
}

Test(sprite, random_sprites_match_the_world_oracle) {
  uint64_t rng = 5;
  const uint8_t thresholds[] = {0, 20, 127, 254, 255};
  for (int round = 0; round < 3000; round++) {
    const uint8_t thr = thresholds[rand_below(&rng, 5)];
    test_sprite a = random_sprite(&rng, thr), b = random_sprite(&rng, thr);
    const col_pixel_hit want = oracle(&a.s, &b.s, thr);
    expect_hit(overlap(&a, &b, thr, COL_PIXEL_COUNT), want.hit, want.x, want.y, want.count,
               "random, count");
    expect_hit(overlap(&a, &b, thr, COL_PIXEL_FIRST), want.hit, want.x, want.y, want.hit,
               "random, first");
    drop(&a), drop(&b);
  }
}

/* Every window width from 0 to 3 x 16 + 1 (all SIMD tails up to 512-bit vectors), at several
 * horizontal offsets, with the single colliding pixel in each possible column and with dense
 * random alphas. */
Test(sprite, every_window_width_and_tail) {
  uint64_t rng = 8;
  for (int32_t w = 0; w <= MAX_TAIL; w++)
    for (int32_t shift = 0; shift < 3; shift++) {
      test_sprite a = make(w + shift, 2, w + shift + 1, -shift, 0, 0);
      test_sprite b = make(w, 2, w, 0, 1, 255); /* overlaps a's second row, columns 0..w-1 */
      for (int32_t col = 0; col < w; col++) {
        set_alpha(&a, col + shift, 1, 255);
        expect_both(&a, &b, 20, col, 1, 1, "single pixel");
        set_alpha(&a, col + shift, 1, 0);
      }
      for (size_t i = 0; i < a.n; i++)
        a.px[i] = ((uint32_t)(rand_below(&rng, 3) == 0 ? 200 : 10) << 24) | RGB_NOISE;
      const col_pixel_hit want = oracle(&a.s, &b.s, 20);
      expect_hit(overlap(&a, &b, 20, COL_PIXEL_COUNT), want.hit, want.x, want.y, want.count,
                 "dense, count");
      expect_hit(overlap(&a, &b, 20, COL_PIXEL_FIRST), want.hit, want.x, want.y, want.hit,
                 "dense, first");
      drop(&a), drop(&b);
    }
}

Test(sprite, errors_read_and_write_nothing) {
  uint32_t px[4] = {0xFF000000u, 0xFF000000u, 0xFF000000u, 0xFF000000u};
  const col_sprite ok = {px, 2, 2, 2, 0, 0};
  const struct {
    col_sprite s;
    col_status want;
  } bad[] = {
      {{px, -1, 2, 2, 0, 0}, COL_ERR_SIZE},
      {{px, 2, -1, 2, 0, 0}, COL_ERR_SIZE},
      {{px, 2, 2, 1, 0, 0}, COL_ERR_STRIDE},
      {{px, 0, 2, -1, 0, 0}, COL_ERR_STRIDE},
      {{NULL, 2, 2, 2, 0, 0}, COL_ERR_NULL},
      /* Never allocated: the product is refused before anything is read. */
      {{px, INT32_MAX, INT32_MAX, INT32_MAX, 0, 0}, COL_ERR_OVERFLOW},
  };
  col_pixel_hit out = {true, 111, 222, 333};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_expect_eq(col_sprite_check(bad[i].s), bad[i].want, "case %zu", i);
    cr_expect_eq(col_sprite_overlap(bad[i].s, ok, 20, COL_PIXEL_FIRST, &out), bad[i].want,
                 "case %zu as a", i);
    cr_expect_eq(col_sprite_overlap(ok, bad[i].s, 20, COL_PIXEL_COUNT, &out), bad[i].want,
                 "case %zu as b", i);
  }
  cr_expect_eq(col_sprite_overlap(ok, ok, 20, (col_pixel_mode)2, &out), COL_ERR_ARGUMENT);
  cr_expect_eq(col_sprite_overlap(ok, ok, 20, COL_PIXEL_FIRST, NULL), COL_ERR_NULL);
  cr_expect(out.hit && out.x == 111 && out.y == 222 && out.count == 333,
            "failed calls must not write the result");

  /* Valid edge shapes: empty sprites need no pixels; a large but addressable stride is fine. */
  cr_expect_eq(col_sprite_check((col_sprite){NULL, 0, 0, 0, 5, 5}), COL_OK);
  cr_expect_eq(col_sprite_check((col_sprite){NULL, 7, 0, 7, 5, 5}), COL_OK);
  cr_expect_eq(col_sprite_check((col_sprite){px, 1, 1, INT32_MAX, 0, 0}), COL_OK);
}
