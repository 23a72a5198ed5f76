/* Sprite overlap benchmarks: the seed's per-pixel alpha test (scalar backend) and its SIMD
 * versions, every backend; the argument is the side, the items are the overlap's pixels.
 * Scenes (images in bench_pixels.c): "noise50" (half solid at random: the count mode's branchy
 * scalar loop mispredicts, the first-hit mode stops at once), "nohit" (complementary solid
 * pixels: nothing collides, so first-hit must scan the whole overlap like counting), "partial"
 * (noise50 with b moved by side/4 + 7 right and side/4 down). Variants: count
 * (COL_PIXEL_COUNT) and first (COL_PIXEL_FIRST). Each iteration views the next of 64 windows
 * of the images. bench_mask.c runs the same scenes on 1-bit masks. */
#include "bench.h"
#include "bench_pixels.h"

static void run(gb_state *st, const char *backend, bench_pixel_pattern pattern, bool partial,
                col_pixel_mode mode) {
  const int32_t side = (int32_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  const bench_pixel_image *img = bench_pixel_image_of(pattern, side);
  const int32_t dx = partial ? bench_pixel_partial_dx(side) : 0;
  const int32_t dy = partial ? bench_pixel_partial_dy(side) : 0;
  col_sprite a[BENCH_PIXEL_WINDOWS], b[BENCH_PIXEL_WINDOWS];
  for (size_t k = 0; k < BENCH_PIXEL_WINDOWS; k++)
    bench_pixel_window(img, side, k, dx, dy, &a[k], &b[k]);
  col_pixel_hit hit = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const unsigned w = k++ % BENCH_PIXEL_WINDOWS;
    all |= col_sprite_overlap(a[w], b[w], COL_ALPHA_THRESHOLD_DEFAULT, mode, &hit);
    gb_do_not_optimize(&hit);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "overlap failed");
    return;
  }
  bench_finish(st, (int64_t)(side - dx) * (side - dy), ticks);
  gb_counter(st, "colliding_pixels_last", (double)hit.count, GB_PLAIN);
}

static void count_noise(gb_state *st, void *user) {
  run(st, user, BENCH_PIXELS_NOISE, false, COL_PIXEL_COUNT);
}
static void count_nohit(gb_state *st, void *user) {
  run(st, user, BENCH_PIXELS_NOHIT, false, COL_PIXEL_COUNT);
}
static void count_partial(gb_state *st, void *user) {
  run(st, user, BENCH_PIXELS_NOISE, true, COL_PIXEL_COUNT);
}
static void first_nohit(gb_state *st, void *user) {
  run(st, user, BENCH_PIXELS_NOHIT, false, COL_PIXEL_FIRST);
}
static void first_noise(gb_state *st, void *user) {
  run(st, user, BENCH_PIXELS_NOISE, false, COL_PIXEL_FIRST);
}

void bench_register_sprite(void);
void bench_register_sprite(void) {
  bench_register(COL_KERNEL_SPRITE, "sprite", "count", "noise50", count_noise, true);
  bench_register(COL_KERNEL_SPRITE, "sprite", "count", "nohit", count_nohit, true);
  bench_register(COL_KERNEL_SPRITE, "sprite", "count", "partial", count_partial, true);
  bench_register(COL_KERNEL_SPRITE, "sprite", "first", "nohit", first_nohit, true);
  bench_register(COL_KERNEL_SPRITE, "sprite", "first", "noise50", first_noise, true);
}
