/* Slab-test benchmarks (DESIGN.md 4.9): one segment or moving box against N boxes, every
 * backend, N objects per call.
 * - slab/segment3/<backend>/cloud: a box cloud, N boxes of sides 1..10 uniform in a 1000-wide
 *   cube; each iteration sweeps the next of 64 segments between random points of opposite
 *   faces (a handful of boxes hit, almost all rejected).
 * - slab/sweep2/<backend>/tiles: a tile level, 16-unit tiles on a grid 256 cells wide, a
 *   quarter of the cells solid, filled row by row until N tiles; 64 moving player boxes (12 x 28
 *   units, moved by up to 4 tiles a step, the open rule: a platformer's step).
 * - slab/segment2/<backend>/tiles: bullets through the same level (col_segment_aabb2_first),
 *   64 segments of 23 tiles from the players' places: the same kernel with a point box, longer
 *   moves. */
#include "bench.h"

#include <stdlib.h>

static struct {
  size_t n;
  float *v[6]; /* min x y z, max x y z */
} cloud, tiles;

static void make_cloud(size_t n) {
  if (cloud.n >= n) return;
  for (int k = 0; k < 6; k++) free(cloud.v[k]), cloud.v[k] = bench_alloc(n * sizeof(float));
  uint64_t rng = 5;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      cloud.v[k][i] = bench_uniform(&rng, 0, 990);
      cloud.v[3 + k][i] = cloud.v[k][i] + bench_uniform(&rng, 1, 10);
    }
  cloud.n = n;
}

enum { TILE = 16, COLUMNS = 256 };

static void make_tiles(size_t n) {
  if (tiles.n >= n) return;
  for (int k = 0; k < 6; k++) free(tiles.v[k]), tiles.v[k] = bench_alloc(n * sizeof(float));
  uint64_t rng = 7;
  size_t i = 0;
  for (size_t cell = 0; i < n; cell++) {
    if (bench_uniform(&rng, 0, 4) >= 1) continue;
    const float x = (float)(cell % COLUMNS) * TILE, y = (float)(cell / COLUMNS) * TILE;
    tiles.v[0][i] = x, tiles.v[1][i] = y, tiles.v[2][i] = 0;
    tiles.v[3][i] = x + TILE, tiles.v[4][i] = y + TILE, tiles.v[5][i] = 0;
    i++;
  }
  tiles.n = n;
}

/* The level's height in tiles for n tiles (a quarter of the cells solid). */
static float level_rows(size_t n) { return (float)(4 * n / COLUMNS + 1); }

enum { MOVES = 64 };
typedef enum { SEGMENT3, SEGMENT2, SWEEP2 } slab_variant; /* SEGMENT2: 23-tile bullets */

static void run(gb_state *st, const char *backend, slab_variant variant) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  col_vec3 from[MOVES], to[MOVES];
  uint64_t rng = 17;
  if (variant == SEGMENT3) {
    make_cloud(n);
    for (int k = 0; k < MOVES; k++) {
      from[k] = (col_vec3){0, bench_uniform(&rng, 0, 1000), bench_uniform(&rng, 0, 1000)};
      to[k] = (col_vec3){1000, bench_uniform(&rng, 0, 1000), bench_uniform(&rng, 0, 1000)};
    }
  } else {
    make_tiles(n);
    const float w = COLUMNS * TILE, h = level_rows(n) * TILE;
    for (int k = 0; k < MOVES; k++) {
      from[k] = (col_vec3){bench_uniform(&rng, 0, w), bench_uniform(&rng, 0, h), 0};
      const float reach = (variant == SEGMENT2 ? 23.0f : 4.0f) * TILE;
      to[k] = (col_vec3){bench_uniform(&rng, -reach, reach), bench_uniform(&rng, -reach, reach),
                         0}; /* a displacement; the segment's end below */
      if (variant == SEGMENT2) to[k].x += from[k].x, to[k].y += from[k].y;
    }
  }
  const col_aabb3_soa s3 = {cloud.v[0], cloud.v[1], cloud.v[2], cloud.v[3],
                            cloud.v[4], cloud.v[5], n};
  const col_aabb2_soa s2 = {tiles.v[0], tiles.v[1], tiles.v[3], tiles.v[4], n};
  col_aabb3_hit h3 = {0};
  col_aabb2_hit h2 = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const col_vec3 a = from[k % MOVES], b = to[k % MOVES];
    if (variant == SEGMENT3)
      all |= col_segment_aabb3_first(a, b, &s3, COL_TOUCH_OVERLAPS, &h3);
    else if (variant == SEGMENT2)
      all |= col_segment_aabb2_first((col_vec2){a.x, a.y}, (col_vec2){b.x, b.y}, &s2,
                                     COL_TOUCH_OVERLAPS, &h2);
    else
      all |= col_sweep_aabb2_first((col_aabb2){{a.x, a.y}, {a.x + 12, a.y + 28}},
                                   (col_vec2){b.x, b.y}, &s2, COL_TOUCH_SEPARATES, &h2);
    k++;
    gb_do_not_optimize(&h3);
    gb_do_not_optimize(&h2);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "batch failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "hit_last_move", (variant == SEGMENT3 ? h3.hit : h2.hit) ? 1.0 : 0.0, GB_PLAIN);
}

static void segment3(gb_state *st, void *user) { run(st, user, SEGMENT3); }
static void sweep2(gb_state *st, void *user) { run(st, user, SWEEP2); }
static void segment2(gb_state *st, void *user) { run(st, user, SEGMENT2); }

void bench_register_slab(void);
void bench_register_slab(void) {
  bench_register(COL_KERNEL_SWEEP_AABB3, "slab", "segment3", "cloud", segment3, false);
  bench_register(COL_KERNEL_SWEEP_AABB2, "slab", "sweep2", "tiles", sweep2, false);
  bench_register(COL_KERNEL_SWEEP_AABB2, "slab", "segment2", "tiles", segment2, false);
}
