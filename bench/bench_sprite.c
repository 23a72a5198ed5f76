/* Sprite overlap benchmarks: the seed's per-pixel alpha test (scalar backend) and its SIMD
 * versions, every backend; the argument is the side, the items are the overlap's pixels.
 * Scenes and variants: bench_pixels.h (in noise50 the count mode's branchy scalar loop
 * mispredicts). Each iteration views the next of 64 windows of the images. bench_mask.c runs
 * the same scenes on 1-bit masks. */
#include "bench.h"
#include "bench_pixels.h"

static void run(gb_state *st, void *user) {
  const bench_case *c = user;
  const bench_pixel_scene *scene = c->data;
  const int32_t side = (int32_t)gb_arg_of(st, 0);
  if (!bench_select(st, c->backend)) return;
  const bench_pixel_image *img = bench_pixel_image_of(scene->pattern, side);
  const int32_t dx = scene->partial ? bench_pixel_partial_dx(side) : 0;
  const int32_t dy = scene->partial ? bench_pixel_partial_dy(side) : 0;
  col_sprite a[BENCH_PIXEL_WINDOWS], b[BENCH_PIXEL_WINDOWS];
  for (size_t k = 0; k < BENCH_PIXEL_WINDOWS; k++)
    bench_pixel_window(img, side, k, dx, dy, &a[k], &b[k]);
  col_pixel_hit hit = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const unsigned w = k++ % BENCH_PIXEL_WINDOWS;
    all |= col_sprite_overlap(a[w], b[w], COL_ALPHA_THRESHOLD_DEFAULT, scene->mode, &hit);
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

void bench_register_sprite(void);
void bench_register_sprite(void) {
  for (size_t i = 0; i < BENCH_PIXEL_SCENES; i++)
    bench_register_case(COL_KERNEL_SPRITE, "sprite", bench_pixel_scenes[i].variant,
                        bench_pixel_scenes[i].scene, run, true, &bench_pixel_scenes[i]);
}
