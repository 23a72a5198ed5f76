/* 1-bit mask overlap benchmarks, the counterpart of bench_sprite.c on the same images and
 * scenes (bench_pixels.h): the masks are the sprites thresholded once (outside the timed
 * loop), and the items are the overlap's pixels, so that "mask/.../X" and "sprite/.../X"
 * compare directly. Each iteration takes the next of 8 windows of the images (bench_pixels.c),
 * each window with its own pair of masks. */
#include "bench.h"
#include "bench_pixels.h"

#include <stdlib.h>

enum { MASK_WINDOWS = 8, MAX_SIDES = 16 };

typedef struct mask_set {
  int32_t side;
  col_mask a[MASK_WINDOWS], b[MASK_WINDOWS];
} mask_set;

/* Built once per (pattern, side) and kept for the whole run (reachable from here). */
static mask_set cache[BENCH_PIXEL_PATTERNS][MAX_SIDES];

static const mask_set *masks_for(bench_pixel_pattern pattern, int32_t side) {
  mask_set *slot = NULL;
  for (size_t k = 0; k < MAX_SIDES && slot == NULL; k++)
    if (cache[pattern][k].side == side || cache[pattern][k].side == 0) slot = &cache[pattern][k];
  if (slot == NULL) abort();
  if (slot->side == side) return slot;
  const bench_pixel_image *img = bench_pixel_image_of(pattern, side);
  for (size_t k = 0; k < MASK_WINDOWS; k++) {
    col_sprite a, b;
    bench_pixel_window(img, side, k, 0, 0, &a, &b);
    if (col_mask_from_sprite(a, COL_ALPHA_THRESHOLD_DEFAULT, &slot->a[k]) != COL_OK ||
        col_mask_from_sprite(b, COL_ALPHA_THRESHOLD_DEFAULT, &slot->b[k]) != COL_OK)
      abort();
  }
  slot->side = side;
  return slot;
}

static void run(gb_state *st, void *user) {
  const bench_case *c = user;
  const bench_pixel_scene *scene = c->data;
  const int32_t side = (int32_t)gb_arg_of(st, 0);
  if (!bench_select(st, c->backend)) return;
  const mask_set *set = masks_for(scene->pattern, side);
  const int32_t dx = scene->partial ? bench_pixel_partial_dx(side) : 0;
  const int32_t dy = scene->partial ? bench_pixel_partial_dy(side) : 0;
  col_mask moved[MASK_WINDOWS];
  for (size_t k = 0; k < MASK_WINDOWS; k++) {
    moved[k] = set->b[k];
    moved[k].x += dx, moved[k].y += dy;
  }
  col_pixel_hit hit = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const unsigned w = k++ % MASK_WINDOWS;
    all |= col_mask_overlap(&set->a[w], &moved[w], scene->mode, &hit);
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

void bench_register_mask(void);
void bench_register_mask(void) {
  for (size_t i = 0; i < BENCH_PIXEL_SCENES; i++)
    bench_register_case(COL_KERNEL_MASK, "mask", bench_pixel_scenes[i].variant,
                        bench_pixel_scenes[i].scene, run, true, &bench_pixel_scenes[i]);
}
