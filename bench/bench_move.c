/* Pixel-stepping movement benchmarks (the GameMaker seed): col_pixel_move_reference (the
 * seed's loop, a box scan per test) against col_pixel_move (word-level row scans), per move,
 * for speeds of 1..256 pixels per step. Names: move/reference/scalar/slopes/<speed> and
 * move/fast/scalar/slopes/<speed> (neither uses a SIMD backend; the items are moves).
 * The level is generated: 4096 x 512 pixels of ground whose height changes by 0, 1 or 2
 * pixels per column in runs (slopes both ways), with walls of 3-10 pixels, pits and floating
 * platforms. The actor is 16 x 24 pixels with slope_max 2 (the seed's steepest listing); 64
 * start states stand on the ground at random places, half walking left, half right, with
 * vy = 1 (gravity), and every iteration moves the next 16 of them. Before timing, every start
 * is checked: the fast move must end exactly where the reference does. */
#include "bench.h"

#include <stdlib.h>

enum { LEVEL_W = 4096, LEVEL_H = 512, ACTOR_W = 16, ACTOR_H = 24, SLOPE_MAX = 2 };
enum { STARTS = 64, BATCH = 16 };

static col_mask level;
static col_pixel_actor starts[STARTS];

static void set_solid(uint64_t *bits, size_t per_row, int32_t x, int32_t y) {
  bits[(size_t)y * per_row + (size_t)x / 64] |= (uint64_t)1 << (x % 64);
}

static void build_level(void) {
  if (level.words != NULL) return;
  const size_t per_row = LEVEL_W / 64;
  uint64_t *bits = calloc(per_row * LEVEL_H, sizeof(uint64_t));
  uint64_t rng = 7;
  int32_t ground = 400, run = 0, slope = 0;
  for (int32_t x = 0; x < LEVEL_W; x++) {
    if (run-- <= 0) {
      static const int32_t slopes[7] = {-2, -1, 0, 0, 0, 1, 2};
      slope = slopes[bench_next(&rng) % 7];
      run = 16 + (int32_t)(bench_next(&rng) % 80);
      const uint64_t feature = bench_next(&rng) % 10;
      if (feature == 0) ground -= 3 + (int32_t)(bench_next(&rng) % 8);  /* a wall */
      if (feature == 1) ground += 6 + (int32_t)(bench_next(&rng) % 15); /* a pit */
    }
    ground += slope;
    ground = ground < 120 ? 120 : ground > LEVEL_H - 8 ? LEVEL_H - 8 : ground;
    for (int32_t y = ground; y < LEVEL_H; y++) set_solid(bits, per_row, x, y);
  }
  for (int k = 0; k < 60; k++) { /* platforms */
    const int32_t x0 = (int32_t)(bench_next(&rng) % (LEVEL_W - 128));
    const int32_t len = 32 + (int32_t)(bench_next(&rng) % 96);
    const int32_t y = 60 + (int32_t)(bench_next(&rng) % 300);
    for (int32_t x = x0; x < x0 + len; x++)
      for (int32_t t = 0; t < 4; t++) set_solid(bits, per_row, x, y + t);
  }
  if (col_mask_from_words(bits, per_row, LEVEL_W, LEVEL_H, 0, 0, &level) != COL_OK) abort();
  free(bits);
  /* Starts: dropped from the top onto whatever is below (ground or a platform). */
  for (int k = 0; k < STARTS; k++) {
    col_pixel_actor a = {64 + (int32_t)(bench_next(&rng) % (LEVEL_W - 128 - ACTOR_W)),
                         0,
                         ACTOR_W,
                         ACTOR_H,
                         0,
                         LEVEL_H};
    if (col_pixel_move(&level, SLOPE_MAX, &a) != COL_OK) abort();
    starts[k] = (col_pixel_actor){a.x, a.y, ACTOR_W, ACTOR_H, 0, 1};
  }
}

typedef col_status (*move_fn)(const col_mask *, int32_t, col_pixel_actor *);

static void run(gb_state *st, move_fn fn) {
  const int32_t speed = (int32_t)gb_arg_of(st, 0);
  build_level();
  col_pixel_actor batch[STARTS];
  int64_t travelled = 0;
  for (int k = 0; k < STARTS; k++) {
    batch[k] = starts[k];
    batch[k].vx = k % 2 ? speed : -speed;
    col_pixel_actor ref = batch[k], fast = batch[k];
    if (col_pixel_move_reference(&level, SLOPE_MAX, &ref) != COL_OK ||
        col_pixel_move(&level, SLOPE_MAX, &fast) != COL_OK || ref.x != fast.x || ref.y != fast.y ||
        ref.vx != fast.vx || ref.vy != fast.vy) {
      gb_skip(st, "the fast move differs from the reference");
      return;
    }
    travelled += llabs((int64_t)ref.x - batch[k].x);
  }
  col_status all = COL_OK;
  unsigned next = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    for (int k = 0; k < BATCH; k++) {
      col_pixel_actor a = batch[next++ % STARTS];
      all |= fn(&level, SLOPE_MAX, &a);
      gb_do_not_optimize(&a);
    }
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "move failed");
    return;
  }
  bench_finish(st, BATCH, ticks);
  gb_counter(st, "pixels_per_move", (double)travelled / STARTS, GB_PLAIN);
}

static void reference(gb_state *st, void *user) { (void)user, run(st, col_pixel_move_reference); }
static void fast(gb_state *st, void *user) { (void)user, run(st, col_pixel_move); }

void bench_register_move(void);
void bench_register_move(void) {
  static const struct {
    const char *name;
    gb_fn fn;
  } variants[2] = {{"move/reference/scalar/slopes", reference}, {"move/fast/scalar/slopes", fast}};
  for (size_t v = 0; v < 2; v++) {
    gb_benchmark *b = gb_register(variants[v].name, variants[v].fn, NULL);
    for (const int64_t *s = bench_active_suite->move_speeds; *s != 0; s++) gb_arg(b, *s);
    gb_unit(b, GB_US);
  }
}
