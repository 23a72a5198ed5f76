/* AABB query benchmarks: one query box against N boxes, structure-of-arrays (2D, 3D) and
 * array-of-structures (2D), every backend. Box centres are uniform in a 1000-wide world,
 * half-extents 0.5..5; a query is a 100-wide box, so about 1% of the 2D boxes (0.1% in 3D)
 * are hits. Every N takes the first N boxes of one scene.
 * Scene "uniform": each iteration queries the next of 64 query boxes spread over the world,
 * as a game's successive queries would. Scene "fixed" (2D SoA only): the same query every
 * iteration; up to a few thousand boxes the branch predictor then learns the scalar loop's
 * whole outcome pattern, which makes branchy code look several times faster than it is. */
#include "bench.h"

#include <stdlib.h>

typedef struct aabb_scene {
  size_t n;
  float *min_x, *min_y, *min_z, *max_x, *max_y, *max_z;
  col_aabb2 *aos;
  uint32_t *out;
} aabb_scene;

static aabb_scene scene;

static const aabb_scene *scene_of(size_t n) {
  if (scene.n >= n) return &scene;
  float **arrays[6] = {&scene.min_x, &scene.min_y, &scene.min_z,
                       &scene.max_x, &scene.max_y, &scene.max_z};
  for (int k = 0; k < 6; k++) {
    free(*arrays[k]);
    *arrays[k] = bench_alloc(n * sizeof(float));
  }
  free(scene.aos), free(scene.out);
  scene.aos = bench_alloc(n * sizeof(col_aabb2));
  scene.out = bench_alloc(n * sizeof(uint32_t));
  uint64_t rng = 1;
  for (size_t i = 0; i < n; i++) {
    const float c[3] = {bench_uniform(&rng, 0, 1000), bench_uniform(&rng, 0, 1000),
                        bench_uniform(&rng, 0, 1000)};
    const float e[3] = {bench_uniform(&rng, 0.5f, 5), bench_uniform(&rng, 0.5f, 5),
                        bench_uniform(&rng, 0.5f, 5)};
    scene.min_x[i] = c[0] - e[0], scene.max_x[i] = c[0] + e[0];
    scene.min_y[i] = c[1] - e[1], scene.max_y[i] = c[1] + e[1];
    scene.min_z[i] = c[2] - e[2], scene.max_z[i] = c[2] + e[2];
    scene.aos[i] = (col_aabb2){{scene.min_x[i], scene.min_y[i]}, {scene.max_x[i], scene.max_y[i]}};
  }
  scene.n = n;
  return &scene;
}

enum layout { SOA2, AOS2, SOA3 };

enum { QUERIES = 64 };

static void run(gb_state *st, const char *backend, enum layout layout, bool fixed) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  const aabb_scene *s = scene_of(n);
  col_aabb3 queries[QUERIES];
  uint64_t rng = 11;
  for (int k = 0; k < QUERIES; k++) {
    const float c[3] = {bench_uniform(&rng, 100, 900), bench_uniform(&rng, 100, 900),
                        bench_uniform(&rng, 100, 900)};
    queries[k] =
        fixed ? (col_aabb3){{450, 450, 450}, {550, 550, 550}}
              : (col_aabb3){{c[0] - 50, c[1] - 50, c[2] - 50}, {c[0] + 50, c[1] + 50, c[2] + 50}};
  }
  unsigned k = 0;
  const col_aabb2_soa set2 = {s->min_x, s->min_y, s->max_x, s->max_y, n};
  const col_aabb3_soa set3 = {s->min_x, s->min_y, s->min_z, s->max_x, s->max_y, s->max_z, n};
  size_t count = 0;
  col_status st_all = COL_OK;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    const col_aabb3 q3 = queries[k++ % QUERIES];
    const col_aabb2 q2 = {{q3.min.x, q3.min.y}, {q3.max.x, q3.max.y}};
    col_status r;
    if (layout == SOA2)
      r = col_aabb2_query(q2, &set2, COL_TOUCH_OVERLAPS, s->out, &count);
    else if (layout == AOS2)
      r = col_aabb2_query_aos(q2, s->aos, n, COL_TOUCH_OVERLAPS, s->out, &count);
    else
      r = col_aabb3_query(q3, &set3, COL_TOUCH_OVERLAPS, s->out, &count);
    st_all |= r;
    gb_do_not_optimize(s->out);
    gb_do_not_optimize(&count);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (st_all != COL_OK) {
    gb_skip(st, "query failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "hits_last_query", (double)count, GB_PLAIN);
}

static void run_soa2(gb_state *st, void *user) { run(st, user, SOA2, false); }
static void run_soa2_fixed(gb_state *st, void *user) { run(st, user, SOA2, true); }
static void run_aos2(gb_state *st, void *user) { run(st, user, AOS2, false); }
static void run_soa3(gb_state *st, void *user) { run(st, user, SOA3, false); }

void bench_register_aabb(void);
void bench_register_aabb(void) {
  bench_register(COL_KERNEL_AABB2_QUERY, "aabb2", "soa", "uniform", run_soa2, false);
  bench_register(COL_KERNEL_AABB2_QUERY, "aabb2", "soa", "fixed", run_soa2_fixed, false);
  bench_register(COL_KERNEL_AABB2_QUERY_AOS, "aabb2", "aos", "uniform", run_aos2, false);
  bench_register(COL_KERNEL_AABB3_QUERY, "aabb3", "soa", "uniform", run_soa3, false);
}
