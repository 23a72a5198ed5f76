/* The built-in levels (bench_levels.h): tile levels whose tiles never move and a share of boxes
 * that walk over them, made in memory as scene files (bench_scene_files.h) with the tiles marked
 * static, so that every row a scene file gets (ours from scratch and kept, with and without the
 * static rule, the peers' incremental rows) runs on them. */
#include "bench_levels.h"

#include "bench.h"
#include "bench_scene_files.h"
#include "splitmix64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A level being made: its static boxes (the tiles), then `movers` walking boxes of w x h that
 * start anywhere in the tiles' bounds and move (vx, vy) a frame, bouncing off the bounds. */
typedef struct level {
  size_t tiles, movers, frames;
  float *tile; /* 4 floats a tile: min x, min y, max x, max y */
  float lo[2], hi[2], w, h, speed;
} level;

static float uniform(uint64_t *rng, float lo, float hi) {
  return lo + (hi - lo) * (float)(splitmix64(rng) >> 40) * 0x1p-24f;
}

/* The scene of a level: frame f's arrays min x, min y, max x, max y of every box. */
static col_scene make_scene(const level *lv, uint64_t seed) {
  const size_t n = lv->tiles + lv->movers;
  col_scene sc = {2, n, lv->frames, COL_SCENE_BINARY, NULL, NULL};
  sc.data = bench_alloc(lv->frames * 4 * (n ? n : 1) * sizeof(float));
  sc.is_static = calloc(n ? n : 1, 1);
  if (sc.is_static == NULL) exit(1);
  float *pos = bench_alloc((lv->movers + 1) * 4 * sizeof(float));
  uint64_t rng = seed;
  for (size_t m = 0; m < lv->movers; m++) {
    float *p = pos + 4 * m;
    p[0] = uniform(&rng, lv->lo[0], lv->hi[0] - lv->w);
    p[1] = uniform(&rng, lv->lo[1], lv->hi[1] - lv->h);
    p[2] = uniform(&rng, -lv->speed, lv->speed), p[3] = uniform(&rng, -lv->speed, lv->speed);
  }
  for (size_t f = 0; f < lv->frames; f++) {
    float *a[4];
    for (int k = 0; k < 4; k++) a[k] = sc.data + (f * 4 + (size_t)k) * n;
    for (size_t i = 0; i < lv->tiles; i++) {
      for (int k = 0; k < 4; k++) a[k][i] = lv->tile[4 * i + (size_t)k];
      sc.is_static[i] = 1;
    }
    for (size_t m = 0; m < lv->movers; m++) {
      float *p = pos + 4 * m;
      const size_t i = lv->tiles + m;
      a[0][i] = p[0], a[1][i] = p[1], a[2][i] = p[0] + lv->w, a[3][i] = p[1] + lv->h;
      for (int k = 0; k < 2; k++) {
        p[k] += p[2 + k];
        const float top = (k == 0 ? lv->hi[0] - lv->w : lv->hi[1] - lv->h);
        if (p[k] < lv->lo[k] || p[k] > top) p[2 + k] = -p[2 + k], p[k] += 2 * p[2 + k];
      }
    }
  }
  free(pos);
  return sc;
}

/* A grid of cols x rows tiles of side `side`: every cell (dense) or the platforms of a
 * platformer (sparse: rows of runs of tiles every fourth row, a floor and two walls). */
static size_t make_tiles(level *lv, unsigned cols, unsigned rows, float side, bool dense) {
  lv->tile = bench_alloc((size_t)cols * rows * 4 * sizeof(float));
  uint64_t rng = dense ? 31 : 32;
  size_t n = 0;
  for (unsigned r = 0; r < rows; r++) {
    bool run = false;
    for (unsigned c = 0; c < cols; c++) {
      if (!dense && splitmix64(&rng) % 6 == 0) run = !run;
      const bool wall = c == 0 || c + 1 == cols || r == 0;
      if (!dense && !wall && !(r % 4 == 0 && run)) continue;
      float *t = lv->tile + 4 * n++;
      t[0] = (float)c * side, t[1] = (float)r * side;
      t[2] = t[0] + side, t[3] = t[1] + side;
    }
  }
  lv->lo[0] = lv->lo[1] = 0, lv->hi[0] = (float)cols * side, lv->hi[1] = (float)rows * side;
  return n;
}

/* One built-in tile level: `moving` percent of its boxes walk (movers = tiles x p / (100 - p)),
 * except the 10% level, which is the level of 3,000 tiles and 300 walkers the issue tracker's
 * report measured (9.1%). */
static void add_tiles(const char *name, bool dense, unsigned moving, size_t frames) {
  level lv = {.frames = frames, .w = 12, .h = 24, .speed = 2};
  lv.tiles = make_tiles(&lv, 60, 50, 16, dense);
  lv.movers = moving == 10 && dense ? 300 : lv.tiles * moving / (100 - moving);
  char path[160];
  snprintf(path, sizeof path,
           "built-in: a %s tile level, %zu static tiles of 16 units and %zu boxes of 12 x 24 "
           "walking over it (%u%% of the boxes), %zu frames",
           dense ? "dense" : "sparse", lv.tiles, lv.movers, moving, frames);
  col_scene sc = make_scene(&lv, 40 + moving + (dense ? 100 : 0));
  free(lv.tile);
  char *kept = malloc(strlen(path) + 1);
  if (kept == NULL) exit(1);
  memcpy(kept, path, strlen(path) + 1);
  bench_scene_files_add(name, kept, sc);
}

/* The real game level (bench/scenes/real.list's level-ctf2, when the run loaded it) with a tenth
 * of its boxes added as walkers of 0.75 x 1.5 tiles, its own boxes marked static. */
static void add_real_level(const char *name, size_t frames) {
  const bench_scene_file *f = NULL;
  for (size_t k = 0; (f = bench_scene_file_at(k)) != NULL; k++)
    if (!f->level && strcmp(f->name, name) == 0) break;
  if (f == NULL || f->scene.dims != 2 || f->scene.count == 0) return;
  const col_boxes b = bench_scene_file_frame(f, 0);
  level lv = {.frames = frames, .tiles = b.count, .movers = b.count / 9, .speed = 4};
  lv.tile = bench_alloc(b.count * 4 * sizeof(float));
  for (int k = 0; k < 2; k++) lv.lo[k] = b.min[k][0], lv.hi[k] = b.max[k][0];
  double side = 0;
  for (size_t i = 0; i < b.count; i++) {
    for (int k = 0; k < 2; k++) {
      lv.tile[4 * i + (size_t)k] = b.min[k][i], lv.tile[4 * i + 2 + (size_t)k] = b.max[k][i];
      if (b.min[k][i] < lv.lo[k]) lv.lo[k] = b.min[k][i];
      if (b.max[k][i] > lv.hi[k]) lv.hi[k] = b.max[k][i];
    }
    side += (double)(b.max[0][i] - b.min[0][i]);
  }
  side /= (double)b.count;
  lv.w = (float)(0.75 * side), lv.h = (float)(1.5 * side), lv.speed = (float)(side / 8);
  char *path = malloc(200);
  if (path == NULL) exit(1);
  snprintf(path, 200,
           "built-in: %s (%zu static boxes) with %zu boxes of %.3g x %.3g walking over it, %zu "
           "frames",
           f->name, lv.tiles, lv.movers, (double)lv.w, (double)lv.h, frames);
  char full[64];
  snprintf(full, sizeof full, "%s-movers", name);
  col_scene sc = make_scene(&lv, 77);
  free(lv.tile);
  bench_scene_files_add(full, path, sc);
}

void bench_levels_add(void) {
  if (bench_scene_only()) return; /* a run of the user's files alone */
  const char *suite = bench_active_suite->name;
  if (strcmp(suite, "smoke") == 0) {
    add_tiles("tiles-dense-10", true, 10, 4);
    return;
  }
  add_tiles("tiles-dense-10", true, 10, 30);
  if (strcmp(suite, "quick") == 0) return;
  add_tiles("tiles-dense-1", true, 1, 30);
  add_tiles("tiles-dense-50", true, 50, 30);
  add_tiles("tiles-sparse-1", false, 1, 30);
  add_tiles("tiles-sparse-10", false, 10, 30);
  add_tiles("tiles-sparse-50", false, 50, 30);
  add_real_level("level-ctf2", 30);
}
