/* Sprite overlap benchmarks: two side x side sprites placed on each other (full overlap),
 * every backend; the argument is the side, the items are the side^2 pixels.
 * Scenes: "noise50": every alpha 0 or 255 at random (half solid), so the count mode's branchy
 * scalar loop mispredicts; "nohit": a and b solid on complementary pixels, so no pixel
 * collides and the first-hit mode must scan the whole overlap like the count mode.
 * Variants: count (COL_PIXEL_COUNT) and first (COL_PIXEL_FIRST).
 * The pixels come from one image of at least 1024 x 1024; each iteration views the next of
 * 64 windows of it, so that the branch predictor cannot learn a small sprite's pattern. */
#include "bench.h"

#include <stdlib.h>

typedef struct sprite_pair {
  int32_t side;
  uint32_t *a, *b;
} sprite_pair;

static sprite_pair noise, nohit;

enum { IMAGE = 1024, WINDOWS = 64 };

static void fill(sprite_pair *p, int32_t side, bool complementary) {
  side = side > IMAGE ? side : IMAGE;
  if (p->side >= side) return;
  free(p->a), free(p->b);
  const size_t n = (size_t)side * (size_t)side;
  p->a = bench_alloc(n * sizeof(uint32_t)), p->b = bench_alloc(n * sizeof(uint32_t));
  uint64_t rng = complementary ? 5 : 4;
  for (size_t i = 0; i < n; i++) {
    const uint64_t z = bench_next(&rng);
    const uint32_t rgb = (uint32_t)z & 0xFFFFFFu;
    const bool sa = (z >> 40) & 1, sb = complementary ? !sa : ((z >> 41) & 1);
    p->a[i] = (sa ? 0xFF000000u : 0u) | rgb;
    p->b[i] = (sb ? 0xFF000000u : 0u) | (rgb ^ 0x5A5A5Au);
  }
  p->side = side;
}

static void run(gb_state *st, const char *backend, sprite_pair *pair, bool complementary,
                col_pixel_mode mode) {
  const int32_t side = (int32_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  fill(pair, side, complementary);
  /* Windows of the image, viewed with its stride. */
  const size_t room = (size_t)(pair->side - side) + 1;
  size_t offset[WINDOWS];
  for (size_t k = 0; k < WINDOWS; k++)
    offset[k] = (k * 37 % room) * (size_t)pair->side + k * 91 % room;
  col_pixel_hit hit = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const size_t at = offset[k++ % WINDOWS];
    const col_sprite a = {pair->a + at, side, side, pair->side, 0, 0};
    const col_sprite b = {pair->b + at, side, side, pair->side, 0, 0};
    all |= col_sprite_overlap(a, b, COL_ALPHA_THRESHOLD_DEFAULT, mode, &hit);
    gb_do_not_optimize(&hit);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "overlap failed");
    return;
  }
  bench_finish(st, (int64_t)side * side, ticks);
  gb_counter(st, "colliding_pixels_last", (double)hit.count, GB_PLAIN);
}

static void count_noise(gb_state *st, void *user) { run(st, user, &noise, false, COL_PIXEL_COUNT); }
static void count_nohit(gb_state *st, void *user) { run(st, user, &nohit, true, COL_PIXEL_COUNT); }
static void first_nohit(gb_state *st, void *user) { run(st, user, &nohit, true, COL_PIXEL_FIRST); }

void bench_register_sprite(void);
void bench_register_sprite(void) {
  bench_register("sprite", "count", "noise50", count_noise, true);
  bench_register("sprite", "count", "nohit", count_nohit, true);
  bench_register("sprite", "first", "nohit", first_nohit, true);
}
