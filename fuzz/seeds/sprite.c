/* The sprite target's seeds: the alpha 20/21 threshold examples, widths across the SIMD
 * widths (sparse and dense), positions near the int32 ends, an empty and an apart sprite.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <stdio.h>

typedef struct sprite_spec {
  uint8_t w, h, extra;
  int8_t x, y8; /* y offset is this byte / 8 in the decoder */
  uint8_t density;
} sprite_spec;

static void sprite_head(enc *e, const sprite_spec *s) {
  put8(e, s->w), put8(e, s->h), put8(e, s->extra);
  put8(e, (uint8_t)s->x), put8(e, (uint8_t)s->y8);
  put32(e, 0x12345678u + s->w), put8(e, s->density);
}

/* Alphas for every pixel of a then b (stride included), from a pattern function. */
static void sprite_file(const char *name, uint8_t thr, uint8_t base, sprite_spec a, sprite_spec b,
                        uint8_t (*alpha)(size_t sprite, size_t i)) {
  enc e = {.n = 0};
  put8(&e, thr), put8(&e, base);
  sprite_head(&e, &a), sprite_head(&e, &b);
  if (alpha != NULL) {
    const size_t na = (size_t)(a.w + a.extra) * a.h, nb = (size_t)(b.w + b.extra) * b.h;
    for (size_t i = 0; i < na; i++) put8(&e, alpha(0, i));
    for (size_t i = 0; i < nb; i++) put8(&e, alpha(1, i));
  }
  save(&e, name);
}

static uint8_t alpha_20_21(size_t sprite, size_t i) { return (uint8_t)(sprite ? 20 + i % 2 : 21); }
static uint8_t alpha_21(size_t sprite, size_t i) { return (void)sprite, (void)i, 21; }
static uint8_t alpha_sparse(size_t sprite, size_t i) {
  return (uint8_t)((i * 37 + sprite * 11) % 23 == 0 ? 255 : 20);
}
static uint8_t alpha_opaque(size_t sprite, size_t i) { return (void)sprite, (void)i, 255; }
static uint8_t alpha_one(size_t sprite, size_t i) { return (void)sprite, (uint8_t)(i % 3 == 0); }

void seeds_write(void) {
  const sprite_spec px = {1, 1, 0, 0, 0, 0};
  sprite_file("threshold-20-vs-alpha-20", 20, 0, px, px, alpha_20_21);
  sprite_file("threshold-20-vs-alpha-21", 20, 0, px, px, alpha_21);
  const sprite_spec row = {8, 2, 1, 0, 0, 0}, row_b = {8, 2, 0, 3, 8, 0};
  sprite_file("threshold-0", 0, 0, row, row_b, alpha_one);
  sprite_file("threshold-255", 255, 0, row, row_b, alpha_opaque);
  const uint8_t widths[] = {3, 4, 5, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79};
  for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
    char name[64];
    const sprite_spec a = {widths[k], 3, (uint8_t)(k % 4), 0, 0, 0};
    const sprite_spec b = {widths[k], 3, 0, (int8_t)(k % 5) - 2, 8, 0};
    snprintf(name, sizeof name, "width-%u-sparse", widths[k]);
    sprite_file(name, 20, 0, a, b, alpha_sparse);
    const sprite_spec c = {widths[k], 2, 1, -(int8_t)(widths[k] / 2), -8, 255};
    snprintf(name, sizeof name, "width-%u-dense", widths[k]);
    sprite_file(name, 20, 0, c, b, NULL);
  }
  const sprite_spec big = {40, 6, 2, 100, 0, 200}, big_b = {30, 6, 0, 120, 16, 200};
  sprite_file("near-int32-max", 20, 1, big, big_b, NULL);
  sprite_file("near-int32-min", 20, 2, big, big_b, NULL);
  sprite_file("near-max-x-min-y", 20, 3, big, big_b, NULL);
  const sprite_spec empty = {0, 5, 0, 0, 0, 0};
  sprite_file("empty", 20, 0, empty, row, NULL);
  const sprite_spec apart = {8, 2, 0, 100, 0, 255};
  sprite_file("apart", 20, 0, row, apart, alpha_opaque);
}
