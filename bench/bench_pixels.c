/* Pixel scenes and images for the sprite and mask benchmarks (see bench_pixels.h). */
#include "bench_pixels.h"

#include "bench.h"

#include <stdlib.h>

enum { MIN_IMAGE = 1024 };

const bench_pixel_scene bench_pixel_scenes[BENCH_PIXEL_SCENES] = {
    {"count", "noise50", COL_PIXEL_COUNT, BENCH_PIXELS_NOISE, false},
    {"count", "nohit", COL_PIXEL_COUNT, BENCH_PIXELS_NOHIT, false},
    {"count", "partial", COL_PIXEL_COUNT, BENCH_PIXELS_NOISE, true},
    {"first", "nohit", COL_PIXEL_FIRST, BENCH_PIXELS_NOHIT, false},
    {"first", "noise50", COL_PIXEL_FIRST, BENCH_PIXELS_NOISE, false},
};

static bench_pixel_image images[BENCH_PIXEL_PATTERNS];

const bench_pixel_image *bench_pixel_image_of(bench_pixel_pattern pattern, int32_t side) {
  bench_pixel_image *img = &images[pattern];
  side = side > MIN_IMAGE ? side : MIN_IMAGE;
  if (img->side >= side) return img;
  free(img->a), free(img->b);
  const size_t n = (size_t)side * (size_t)side;
  img->a = bench_alloc(n * sizeof(uint32_t)), img->b = bench_alloc(n * sizeof(uint32_t));
  const bool complementary = pattern == BENCH_PIXELS_NOHIT;
  uint64_t rng = complementary ? 5 : 4;
  for (size_t i = 0; i < n; i++) {
    const uint64_t z = bench_next(&rng);
    const uint32_t rgb = (uint32_t)z & 0xFFFFFFu;
    const bool sa = (z >> 40) & 1, sb = complementary ? !sa : ((z >> 41) & 1);
    img->a[i] = (sa ? 0xFF000000u : 0u) | rgb;
    img->b[i] = (sb ? 0xFF000000u : 0u) | (rgb ^ 0x5A5A5Au);
  }
  img->side = side;
  return img;
}

void bench_pixel_window(const bench_pixel_image *img, int32_t side, size_t k, int32_t dx,
                        int32_t dy, col_sprite *a, col_sprite *b) {
  const size_t room = (size_t)(img->side - side) + 1;
  const size_t at = (k * 37 % room) * (size_t)img->side + k * 91 % room;
  *a = (col_sprite){img->a + at, side, side, img->side, 0, 0};
  *b = (col_sprite){img->b + at, side, side, img->side, dx, dy};
}
