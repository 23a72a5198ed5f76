/* Broadphase benchmarks: all overlapping pairs of N boxes, per algorithm, named
 * broadphase/<algorithm>/<backend>/<scene>/N. Brute force and sweep-and-prune run on each
 * native backend (their inner loop is the backend's query kernel); the grid tests pairs with
 * the scalar rule, so it appears once, as "scalar". Brute force stops at 16,384 boxes (N(N-1)/2
 * tests get too slow to repeat), except on the box-pruning scene's 10,000.
 * Scenes (DESIGN.md 4.6), closed touch rule:
 *   uniform:     2D, centres uniform in a square of side 8 sqrt(N / density), half-extents
 *                0.5..2: the density (about `density` neighbours per box) is the same at every N;
 *                density 1 here, and 8 in the scene "dense".
 *   boxprune3d:  the published box-pruning benchmark's generator: LCG state 42,
 *                state = state * 214013 + 2531011, value = (state >> 16) & 0x7FFF; per box
 *                centre x, y, z = (value & 4095) - 2048, then extents = value & 127.
 *   boxprune2d:  the same draws (z and its extent drawn and dropped), x and y only.
 *   clustered:   2D, boxes around 64 cluster centres (density rises with N inside clusters).
 *   platformer:  2D, 80% unit tiles in rows of a level (neighbours touch: closed-rule pairs),
 *                20% entities (1..2 wide) scattered over it.
 *   moving:      the uniform scene where every frame a tenth of the boxes (a rotating tenth)
 *                moves by up to one unit per axis; each iteration is one frame. The from-scratch
 *                algorithms recompute everything; tree-incremental is col_broadphase_cache.
 * Counters: pairs, tests, savings = 1 - tests / (N(N-1)/2), kcycles_per_run (TSC),
 * scratch_bytes (peak working memory of the run, from col_broadphase_stats) and pair_list_bytes
 * (the pair list's memory after the run). */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scene {
  size_t n;
  unsigned dims;
  float *v[6]; /* min x y z, max x y z */
} scene;

enum { UNIFORM, BOXPRUNE3D, BOXPRUNE2D, CLUSTERED, PLATFORMER, MOVING, DENSE, SCENES };
#define INCREMENTAL     ((col_broadphase)99)  /* the cache keeping a tree */
#define INCREMENTAL_SAP ((col_broadphase)100) /* the cache keeping sweep and prune */

typedef struct bp_case {
  col_broadphase algorithm;
  const char *backend;
  int scene;
} bp_case;

static scene scenes[SCENES];

static void alloc_scene(scene *s, size_t n, unsigned dims) {
  for (int k = 0; k < 6; k++) {
    free(s->v[k]);
    s->v[k] = bench_alloc(n * sizeof(float));
  }
  s->n = n, s->dims = dims;
}

static void fill_uniform(scene *s, size_t n, uint64_t seed, float density) {
  alloc_scene(s, n, 2);
  uint64_t rng = seed;
  const float side = 8.0f * sqrtf((float)n / density);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      const float c = bench_uniform(&rng, 0, side), e = bench_uniform(&rng, 0.5f, 2);
      s->v[k][i] = c - e, s->v[3 + k][i] = c + e;
    }
}

static void fill_boxprune(scene *s, size_t n, unsigned dims) {
  alloc_scene(s, n, dims);
  uint32_t state = 42;
  for (size_t i = 0; i < n; i++) {
    float c[3], e[3];
    for (int k = 0; k < 3; k++) {
      state = state * 214013u + 2531011u;
      c[k] = (float)((int)((state >> 16) & 0x7FFF & 4095) - 2048);
    }
    for (int k = 0; k < 3; k++) {
      state = state * 214013u + 2531011u;
      e[k] = (float)((state >> 16) & 0x7FFF & 127);
    }
    for (int k = 0; k < 3; k++) s->v[k][i] = c[k] - e[k], s->v[3 + k][i] = c[k] + e[k];
  }
}

static void fill_clustered(scene *s, size_t n) {
  alloc_scene(s, n, 2);
  uint64_t rng = 23;
  const float side = 8.0f * sqrtf((float)n), spread = side / 40.0f;
  float centre[64][2];
  for (int c = 0; c < 64; c++)
    centre[c][0] = bench_uniform(&rng, 0, side), centre[c][1] = bench_uniform(&rng, 0, side);
  for (size_t i = 0; i < n; i++) {
    const int c = (int)(bench_next(&rng) % 64);
    for (int k = 0; k < 3; k++) {
      /* a sum of three uniforms: a bell around the centre */
      const float d =
          bench_uniform(&rng, -1, 1) + bench_uniform(&rng, -1, 1) + bench_uniform(&rng, -1, 1);
      const float m = (k < 2 ? centre[c][k] : 0.0f) + d * spread, e = bench_uniform(&rng, 0.5f, 2);
      s->v[k][i] = m - e, s->v[3 + k][i] = m + e;
    }
  }
}

static void fill_platformer(scene *s, size_t n) {
  alloc_scene(s, n, 2);
  uint64_t rng = 24;
  const size_t tiles = n - n / 5, per_row = (size_t)sqrtf((float)tiles) * 4 + 1;
  for (size_t i = 0; i < n; i++) {
    float x, y, w, h;
    if (i < tiles) { /* rows of touching unit tiles, every fourth row of the level */
      x = (float)(i % per_row), y = 4.0f * (float)(i / per_row), w = h = 1.0f;
    } else {
      x = bench_uniform(&rng, 0, (float)per_row),
      y = bench_uniform(&rng, 0, 4.0f * (float)(tiles / per_row + 1));
      w = bench_uniform(&rng, 1, 2), h = bench_uniform(&rng, 1, 2);
    }
    s->v[0][i] = x, s->v[1][i] = y, s->v[2][i] = 0, s->v[3][i] = x + w, s->v[4][i] = y + h,
    s->v[5][i] = 0;
  }
}

static const scene *make_scene(int which, size_t n) {
  scene *s = &scenes[which];
  if (s->n == n) return s;
  switch (which) {
  case BOXPRUNE3D: fill_boxprune(s, n, 3); break;
  case BOXPRUNE2D: fill_boxprune(s, n, 2); break;
  case CLUSTERED: fill_clustered(s, n); break;
  case PLATFORMER: fill_platformer(s, n); break;
  case DENSE: fill_uniform(s, n, 26, 8.0f); break;
  default: fill_uniform(s, n, 21, 1.0f); break;
  }
  return s;
}

static void run(gb_state *st, void *user) {
  const bp_case *c = user;
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, c->backend)) return;
  /* The moving scene gets its own copy: its boxes drift. */
  scene own = {0};
  const scene *s;
  if (c->scene == MOVING) {
    fill_uniform(&own, n, 22, 1.0f);
    s = &own;
  } else {
    s = make_scene(c->scene, n);
  }
  const col_boxes boxes = {s->dims, {s->v[0], s->v[1], s->v[2]}, {s->v[3], s->v[4], s->v[5]}, n};
  col_pairs pairs = {0};
  col_broadphase_stats stats = {0, 0, 0};
  col_broadphase_cache *cache = NULL;
  const bool cached = c->algorithm == INCREMENTAL || c->algorithm == INCREMENTAL_SAP;
  col_status all = cached ? col_broadphase_cache_create(&cache) : COL_OK;
  if (all == COL_OK && c->algorithm == INCREMENTAL_SAP)
    all = col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP);
  uint64_t rng = 25, frame = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    if (c->scene == MOVING) { /* a tenth of the boxes take a step */
      for (size_t i = frame % 10; i < n; i += 10) {
        const float dx = bench_uniform(&rng, -1, 1), dy = bench_uniform(&rng, -1, 1);
        own.v[0][i] += dx, own.v[3][i] += dx, own.v[1][i] += dy, own.v[4][i] += dy;
      }
      frame++;
    }
    if (cached)
      all |= col_broadphase_cache_update(cache, &boxes, COL_TOUCH_OVERLAPS, &pairs, &stats);
    else
      all |= col_broadphase_pairs(c->algorithm, &boxes, COL_TOUCH_OVERLAPS, &pairs, &stats);
    gb_do_not_optimize(pairs.data);
  }
  const uint64_t ticks = bench_tsc() - t0;
  col_broadphase_cache_destroy(cache);
  for (int k = 0; k < 6; k++) free(own.v[k]);
  if (all != COL_OK) {
    gb_skip(st, "broadphase failed");
    col_pairs_free(&pairs);
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  const double all_pairs = (double)n * (double)(n - 1) / 2.0;
  gb_counter(st, "pairs", (double)stats.pairs, GB_PLAIN);
  gb_counter(st, "tests", (double)stats.tests, GB_PLAIN);
  gb_counter(st, "savings", all_pairs > 0 ? 1.0 - (double)stats.tests / all_pairs : 0.0, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", (double)ticks / (double)gb_iteration_count(st) / 1000.0,
             GB_PLAIN);
  gb_counter(st, "pair_list_bytes", (double)(pairs.capacity * sizeof(col_pair)), GB_PLAIN);
  gb_counter(st, "scratch_bytes", (double)stats.scratch_bytes, GB_PLAIN);
  col_pairs_free(&pairs);
}

static const char *const algorithm_name[] = {"brute", "sap", "grid", "tree", "quadtree"};
static const char *const scene_name[] = {"uniform",    "boxprune3d", "boxprune2d", "clustered",
                                         "platformer", "moving",     "dense"};

static void add(col_broadphase algorithm, const char *backend, int which) {
  /* Static storage: the registration keeps a pointer for the whole run. */
  static bp_case cases[SCENES * (3 * BENCH_MAX_BACKENDS + 4)];
  static size_t used;
  if (used == sizeof cases / sizeof cases[0]) return;
  bp_case *c = &cases[used++];
  *c = (bp_case){algorithm, backend, which};
  char name[128];
  snprintf(name, sizeof name, "broadphase/%s/%s/%s",
           algorithm == INCREMENTAL       ? "tree-incremental"
           : algorithm == INCREMENTAL_SAP ? "sap-incremental"
                                          : algorithm_name[algorithm],
           backend, scene_name[which]);
  gb_benchmark *b = gb_register(name, run, c);
  gb_unit(b, GB_MS);
  if (which == BOXPRUNE3D || which == BOXPRUNE2D) {
    gb_arg(b, 10000);
    if (algorithm != COL_BROADPHASE_BRUTE && strcmp(bench_active_suite->name, "smoke") != 0)
      gb_arg(b, 100000);
    return;
  }
  const int64_t limit = algorithm == COL_BROADPHASE_BRUTE        ? 16384
                        : which == MOVING || which == PLATFORMER ? 262144
                                                                 : INT64_MAX;
  for (const int64_t *a = bench_active_suite->counts; *a != 0; a++)
    if (*a <= limit) gb_arg(b, *a);
  if (strcmp(bench_active_suite->name, "smoke") != 0) gb_arg(b, which == MOVING ? 8192 : 10000);
}

static bool is_native_simd_or_scalar(const char *name) {
  return strcmp(name, "scalar") == 0 || strcmp(name, "sse2") == 0 || strcmp(name, "avx2") == 0 ||
         strcmp(name, "avx512") == 0 || strcmp(name, "neon") == 0;
}

void bench_register_broadphase(void);
void bench_register_broadphase(void) {
  const char *names[BENCH_MAX_BACKENDS];
  const size_t nb = bench_backends(names, BENCH_MAX_BACKENDS);
  for (int which = 0; which < SCENES; which++) {
    for (size_t k = 0; k < nb; k++)
      if (is_native_simd_or_scalar(names[k])) {
        if (which != MOVING) add(COL_BROADPHASE_BRUTE, names[k], which);
        add(COL_BROADPHASE_SAP, names[k], which);
        if (which == MOVING) add(INCREMENTAL_SAP, names[k], which);
      }
    add(COL_BROADPHASE_GRID, "scalar", which);
    add(COL_BROADPHASE_TREE, "scalar", which);
    add(COL_BROADPHASE_QUADTREE, "scalar", which);
    if (which == MOVING) add(INCREMENTAL, "scalar", which);
  }
}
