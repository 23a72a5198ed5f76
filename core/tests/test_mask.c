/* 1-bit masks: construction from sprites and raw words (thresholds, bits past the width,
 * guard words), and col_mask_overlap against col_sprite_overlap on the source sprites and
 * against a pixel-by-pixel world oracle over col_mask_get: widths around the 64-bit word
 * boundaries (63/64/65, 127/128/129), every relative offset from "just apart" through "fully
 * overlapping" to "just apart" on the other side, negative and huge positions, both modes. */
#include "helpers.h"

#include <stdlib.h>

static uint32_t *random_pixels(uint64_t *rng, int32_t w, int32_t h, unsigned density) {
  const size_t n = (size_t)w * (size_t)h;
  uint32_t *px = malloc(n * sizeof(uint32_t) + 1);
  for (size_t i = 0; i < n; i++) {
    const uint64_t z = splitmix64(rng);
    /* Alphas around the threshold 20 as well as far from it. */
    const uint8_t near[4] = {20, 21, 0, 255};
    const uint8_t alpha = (z >> 8) % 100 < density ? near[z & 3] : (uint8_t)(z >> 32) % 21;
    px[i] = ((uint32_t)alpha << 24) | 0x00123456u;
  }
  return px;
}

static col_mask mask_of(col_sprite s, uint8_t thr) {
  col_mask m;
  cr_assert_eq(col_mask_from_sprite(s, thr, &m), COL_OK);
  return m;
}

static col_pixel_hit mask_overlap(const col_mask *a, const col_mask *b, col_pixel_mode mode) {
  col_pixel_hit h;
  memset(&h, 0x5a, sizeof h);
  cr_assert_eq(col_mask_overlap(a, b, mode, &h), COL_OK);
  return h;
}

static col_pixel_hit sprite_overlap(col_sprite a, col_sprite b, col_pixel_mode mode) {
  col_pixel_hit h;
  memset(&h, 0x5a, sizeof h);
  cr_assert_eq(col_sprite_overlap(a, b, 20, mode, &h), COL_OK);
  return h;
}

/* Row-major over the world box around both masks, pixel by pixel. */
static col_pixel_hit world_oracle(const col_mask *a, const col_mask *b) {
  col_pixel_hit h = {false, 0, 0, 0};
  const int64_t x0 = a->x < b->x ? a->x : b->x, y0 = a->y < b->y ? a->y : b->y;
  const int64_t ax1 = (int64_t)a->x + a->width, bx1 = (int64_t)b->x + b->width;
  const int64_t ay1 = (int64_t)a->y + a->height, by1 = (int64_t)b->y + b->height;
  for (int64_t y = y0; y < (ay1 > by1 ? ay1 : by1); y++)
    for (int64_t x = x0; x < (ax1 > bx1 ? ax1 : bx1); x++)
      if (col_mask_get(a, x, y) && col_mask_get(b, x, y)) {
        if (!h.hit) h = (col_pixel_hit){true, x, y, 0};
        h.count++;
      }
  return h;
}

static void expect_same(col_pixel_hit got, col_pixel_hit want, const char *what, int32_t wa,
                        int32_t wb, int64_t dx, int64_t dy) {
  cr_expect(got.hit == want.hit && got.x == want.x && got.y == want.y && got.count == want.count,
            "%s (widths %d/%d, offset %lld,%lld): got {%d, %lld, %lld, %llu}, want {%d, %lld, "
            "%lld, %llu}",
            what, wa, wb, (long long)dx, (long long)dy, got.hit, (long long)got.x, (long long)got.y,
            (unsigned long long)got.count, want.hit, (long long)want.x, (long long)want.y,
            (unsigned long long)want.count);
}

Test(mask, from_sprite_thresholds_strictly) {
  uint64_t rng = 11;
  const int32_t w = 130, h = 3, stride = 133;
  uint32_t *px = random_pixels(&rng, stride, h, 50);
  const col_sprite s = {px, w, h, stride, -5, 7};
  for (unsigned thr = 0; thr < 256; thr += 85) {
    col_mask m = mask_of(s, (uint8_t)thr);
    cr_assert_eq(m.width, w);
    cr_assert_eq(m.height, h);
    cr_assert_eq(m.x, -5);
    cr_assert_eq(m.y, 7);
    cr_assert_eq(m.stride, 4u); /* 3 data words and a guard */
    for (int32_t py = 0; py < h; py++)
      for (int32_t px_ = 0; px_ < w; px_++)
        cr_assert_eq(col_mask_get(&m, -5 + px_, 7 + py), (px[py * stride + px_] >> 24) > thr,
                     "pixel %d,%d thr %u", px_, py, thr);
    cr_assert_not(col_mask_get(&m, -6, 7));
    cr_assert_not(col_mask_get(&m, -5 + w, 7));
    cr_assert_not(col_mask_get(&m, -5, 6));
    cr_assert_not(col_mask_get(&m, -5, 7 + h));
    /* Guards and bits past the width are zero. */
    for (int32_t py = 0; py < h; py++) {
      cr_assert_eq(m.words[(size_t)py * m.stride - 1], 0u);
      cr_assert_eq(m.words[(size_t)py * m.stride + 3], 0u);
      cr_assert_eq(m.words[(size_t)py * m.stride + 2] >> (w % 64), 0u);
    }
    col_mask_free(&m);
    cr_assert_null(m.words);
  }
  free(px);
}

Test(mask, from_words_ignores_bits_past_the_width) {
  const uint64_t bits[2][2] = {{~(uint64_t)0, ~(uint64_t)0}, {0x8000000000000001u, 0x5u}};
  col_mask m;
  cr_assert_eq(col_mask_from_words(&bits[0][0], 2, 66, 2, 100, -100, &m), COL_OK);
  for (int64_t x = 100; x < 166; x++) cr_assert(col_mask_get(&m, x, -100));
  cr_assert_not(col_mask_get(&m, 166, -100));
  cr_assert_eq(m.words[1], 3u, "bits 66..127 of the raw row are dropped");
  cr_assert(col_mask_get(&m, 100, -99));
  cr_assert(col_mask_get(&m, 163, -99));
  cr_assert(col_mask_get(&m, 164, -99));
  cr_assert_not(col_mask_get(&m, 165, -99));
  col_mask_free(&m);
}

Test(mask, errors_write_nothing) {
  const uint64_t word = 1;
  col_mask m, fresh;
  memset(&m, 0x5a, sizeof m);
  memcpy(&fresh, &m, sizeof m);
  cr_expect_eq(col_mask_from_words(&word, 1, 1, 1, 0, 0, NULL), COL_ERR_NULL);
  cr_expect_eq(col_mask_from_words(NULL, 1, 1, 1, 0, 0, &m), COL_ERR_NULL);
  cr_expect_eq(col_mask_from_words(&word, 1, -1, 1, 0, 0, &m), COL_ERR_SIZE);
  cr_expect_eq(col_mask_from_words(&word, 1, 1, -1, 0, 0, &m), COL_ERR_SIZE);
  cr_expect_eq(col_mask_from_words(&word, 1, 65, 1, 0, 0, &m), COL_ERR_STRIDE);
  cr_expect_eq(memcmp(&m, &fresh, sizeof m), 0);
  const col_sprite no_columns = {NULL, 0, 5, 0, 3, 4};
  cr_expect_eq(col_mask_from_sprite(no_columns, 20, &m), COL_OK);
  cr_expect(m.words == NULL && m.width == 0 && m.height == 5 && m.x == 3 && m.y == 4);
  memcpy(&m, &fresh, sizeof m);
  const col_sprite bad = {NULL, 2, 2, 1, 0, 0};
  cr_expect_eq(col_mask_from_sprite(bad, 20, &m), COL_ERR_STRIDE);
  cr_expect_eq(memcmp(&m, &fresh, sizeof m), 0);

  col_mask a, empty;
  cr_assert_eq(col_mask_from_words(&word, 1, 1, 1, 0, 0, &a), COL_OK);
  cr_assert_eq(col_mask_from_words(NULL, 0, 0, 5, 0, 0, &empty), COL_OK);
  cr_expect_null(empty.words);
  col_pixel_hit h, untouched;
  memset(&h, 0x5a, sizeof h);
  memcpy(&untouched, &h, sizeof h);
  cr_expect_eq(col_mask_overlap(&a, &a, COL_PIXEL_FIRST, NULL), COL_ERR_NULL);
  cr_expect_eq(col_mask_overlap(NULL, &a, COL_PIXEL_FIRST, &h), COL_ERR_NULL);
  cr_expect_eq(col_mask_overlap(&a, &a, (col_pixel_mode)7, &h), COL_ERR_ARGUMENT);
  col_mask broken = a;
  broken.stride = 1;
  cr_expect_eq(col_mask_overlap(&a, &broken, COL_PIXEL_FIRST, &h), COL_ERR_STRIDE);
  broken = a;
  broken.width = -1;
  cr_expect_eq(col_mask_overlap(&broken, &a, COL_PIXEL_FIRST, &h), COL_ERR_SIZE);
  broken = a;
  broken.words = NULL;
  cr_expect_eq(col_mask_overlap(&a, &broken, COL_PIXEL_FIRST, &h), COL_ERR_NULL);
  cr_expect_eq(memcmp(&h, &untouched, sizeof h), 0);
  cr_expect_eq(col_mask_overlap(&a, &empty, COL_PIXEL_COUNT, &h), COL_OK);
  cr_expect_not(h.hit);
  cr_expect_eq(h.count, 0u);
  cr_expect_eq(col_mask_overlap(&a, &a, COL_PIXEL_COUNT, &h), COL_OK);
  cr_expect(h.hit && h.x == 0 && h.y == 0 && h.count == 1);
  col_mask_free(&a);
  col_mask_free(&empty);
  col_mask_free(NULL);
}

/* Every offset at which the two rectangles go from apart to touching to apart again, on both
 * axes around the edges and across the whole range on x (the word shifts), for widths on
 * both sides of one and two 64-bit words. */
Test(mask, word_boundary_widths_at_every_edge_offset) {
  static const int32_t widths[] = {1, 63, 64, 65, 127, 128, 129};
  enum { NW = sizeof widths / sizeof widths[0] };
  uint64_t rng = 2024;
  for (size_t i = 0; i < NW; i++)
    for (size_t j = 0; j < NW; j++) {
      const int32_t wa = widths[i], wb = widths[j], ha = 3 + (int32_t)(i % 3),
                    hb = 2 + (int32_t)(j % 4);
      uint32_t *pa = random_pixels(&rng, wa, ha, 60), *pb = random_pixels(&rng, wb, hb, 60);
      const col_sprite sa = {pa, wa, ha, wa, 1000, -7};
      col_mask ma = mask_of(sa, 20);
      for (int64_t dx = -wb; dx <= wa; dx++) {
        const bool edge_x = dx <= -wb + 2 || dx >= wa - 2 || dx % 7 == 0;
        for (int64_t dy = -hb; dy <= ha; dy++) {
          if (!edge_x && dy != 0) continue;
          const col_sprite sb = {pb, wb, hb, wb, (int32_t)(1000 + dx), (int32_t)(-7 + dy)};
          col_mask mb = mask_of(sb, 20);
          for (int mode = 0; mode < 2; mode++) {
            const col_pixel_hit want = sprite_overlap(sa, sb, (col_pixel_mode)mode);
            expect_same(mask_overlap(&ma, &mb, (col_pixel_mode)mode), want, "a,b", wa, wb, dx, dy);
            /* Swapped: the same pixels, so the same first hit and count. */
            expect_same(mask_overlap(&mb, &ma, (col_pixel_mode)mode), want, "b,a", wb, wa, -dx,
                        -dy);
          }
          const col_pixel_hit world = world_oracle(&ma, &mb);
          expect_same(mask_overlap(&ma, &mb, COL_PIXEL_COUNT), world, "world", wa, wb, dx, dy);
          if (dx == -wb || dx == wa || dy == -hb || dy == ha)
            cr_expect_not(world.hit, "offset %lld,%lld is apart", (long long)dx, (long long)dy);
          col_mask_free(&mb);
        }
      }
      col_mask_free(&ma);
      free(pa), free(pb);
    }
}

/* Random sizes, densities and positions, including positions near the int32 limits where the
 * relative offset exceeds the int32 range. */
Test(mask, random_masks_match_the_sprite_form) {
  uint64_t rng = 77;
  for (int round = 0; round < 400; round++) {
    const int32_t wa = 1 + (int32_t)rand_below(&rng, 300), ha = 1 + (int32_t)rand_below(&rng, 9);
    const int32_t wb = 1 + (int32_t)rand_below(&rng, 300), hb = 1 + (int32_t)rand_below(&rng, 9);
    const unsigned density = rand_below(&rng, 101);
    uint32_t *pa = random_pixels(&rng, wa, ha, density), *pb = random_pixels(&rng, wb, hb, density);
    const int64_t base = round % 4 == 0 ? (int64_t)INT32_MAX - 300 : round % 4 == 1 ? INT32_MIN : 0;
    const int32_t ax = (int32_t)(base + rand_below(&rng, 100));
    const int32_t bx = (int32_t)(base + rand_below(&rng, 300));
    const int32_t ay = (int32_t)rand_below(&rng, 12) - 6, by = (int32_t)rand_below(&rng, 12) - 6;
    const col_sprite sa = {pa, wa, ha, wa, ax, ay}, sb = {pb, wb, hb, wb, bx, by};
    col_mask ma = mask_of(sa, 20), mb = mask_of(sb, 20);
    for (int mode = 0; mode < 2; mode++)
      expect_same(mask_overlap(&ma, &mb, (col_pixel_mode)mode),
                  sprite_overlap(sa, sb, (col_pixel_mode)mode), "random", wa, wb, (int64_t)bx - ax,
                  (int64_t)by - ay);
    col_mask_free(&ma), col_mask_free(&mb);
    free(pa), free(pb);
  }
}

/* Large masks: many full vector chunks per row plus partial ones, one colliding pixel placed
 * at every position of a row in turn (first hit and count must find exactly it). */
Test(mask, single_pixel_anywhere_in_a_long_row) {
  const int32_t w = 1100, shift = 37;
  const size_t words = (w + 63) / 64;
  uint64_t *ones = calloc(words * 2, sizeof(uint64_t)), *one = calloc(words * 2, sizeof(uint64_t));
  for (int32_t x = 0; x < w; x++) ones[words + (size_t)x / 64] |= (uint64_t)1 << (x % 64);
  col_mask full;
  cr_assert_eq(col_mask_from_words(ones, words, w, 2, 0, -1, &full), COL_OK);
  for (int32_t x = 0; x + shift < w; x++) {
    memset(one, 0, words * 2 * sizeof(uint64_t));
    one[words + (size_t)x / 64] |= (uint64_t)1 << (x % 64);
    col_mask single;
    cr_assert_eq(col_mask_from_words(one, words, w, 2, shift, -1, &single), COL_OK);
    const col_pixel_hit h = mask_overlap(&full, &single, COL_PIXEL_COUNT);
    cr_assert(h.hit && h.x == x + shift && h.y == 0 && h.count == 1,
              "pixel %d: got %lld,%lld #%llu", x, (long long)h.x, (long long)h.y,
              (unsigned long long)h.count);
    col_mask_free(&single);
  }
  col_mask_free(&full);
  free(ones), free(one);
}

/* Fully solid masks: every word is all ones, the densest popcount input; the count must be the
 * intersection's area and the first hit its top-left corner. */
Test(mask, solid_masks_count_the_intersection_area) {
  uint64_t rng = 99;
  for (int round = 0; round < 300; round++) {
    const int32_t wa = 1 + (int32_t)rand_below(&rng, 700), ha = 1 + (int32_t)rand_below(&rng, 5);
    const int32_t wb = 1 + (int32_t)rand_below(&rng, 700), hb = 1 + (int32_t)rand_below(&rng, 5);
    const size_t per_row = ((size_t)(wa > wb ? wa : wb) + 63) / 64;
    uint64_t *ones = malloc(per_row * 8 * sizeof(uint64_t));
    memset(ones, 0xFF, per_row * 8 * sizeof(uint64_t));
    const int32_t bx = (int32_t)rand_below(&rng, (uint32_t)(wa + wb)) - wb;
    const int32_t by = (int32_t)rand_below(&rng, (uint32_t)(ha + hb)) - hb;
    col_mask a, b;
    cr_assert_eq(col_mask_from_words(ones, per_row, wa, ha, 0, 0, &a), COL_OK);
    cr_assert_eq(col_mask_from_words(ones, per_row, wb, hb, bx, by, &b), COL_OK);
    const int64_t x0 = bx > 0 ? bx : 0, x1 = wa < (int64_t)bx + wb ? wa : (int64_t)bx + wb;
    const int64_t y0 = by > 0 ? by : 0, y1 = ha < (int64_t)by + hb ? ha : (int64_t)by + hb;
    const col_pixel_hit h = mask_overlap(&a, &b, COL_PIXEL_COUNT);
    cr_assert_eq(h.count, (uint64_t)((x1 - x0) * (y1 - y0)), "widths %d/%d at %d,%d", wa, wb, bx,
                 by);
    if (x1 > x0 && y1 > y0)
      cr_assert(h.hit && h.x == x0 && h.y == y0);
    else
      cr_assert(!h.hit && h.x == 0 && h.y == 0);
    col_mask_free(&a), col_mask_free(&b);
    free(ones);
  }
}
