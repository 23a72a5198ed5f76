/* Segment-against-spheres benchmarks: one segment against N spheres, every backend, with the
 * seed's recipe (sweep/spheres) and the robust variant (sweep/spheres-robust). Scene
 * "uniform": sphere centres uniform in a 1000-wide cube, radii 1..5; each iteration sweeps
 * the next of 64 segments that cross the cube between random points of opposite faces, so a
 * handful of spheres are hit, almost all are rejected early, and the branch predictor cannot
 * learn one segment's pattern of rejections. */
#include "bench.h"

#include <stdlib.h>

static struct {
  size_t n;
  float *x, *y, *z, *r;
} scene;

static void make_scene(size_t n) {
  if (scene.n >= n) return;
  free(scene.x), free(scene.y), free(scene.z), free(scene.r);
  scene.x = bench_alloc(n * sizeof(float)), scene.y = bench_alloc(n * sizeof(float));
  scene.z = bench_alloc(n * sizeof(float)), scene.r = bench_alloc(n * sizeof(float));
  uint64_t rng = 3;
  for (size_t i = 0; i < n; i++) {
    scene.x[i] = bench_uniform(&rng, 0, 1000), scene.y[i] = bench_uniform(&rng, 0, 1000);
    scene.z[i] = bench_uniform(&rng, 0, 1000), scene.r[i] = bench_uniform(&rng, 1, 5);
  }
  scene.n = n;
}

static void run_spheres(gb_state *st, const char *backend, bool robust) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  make_scene(n);
  const col_sphere_soa set = {scene.x, scene.y, scene.z, scene.r, n};
  enum { SEGMENTS = 64 };
  col_vec3 from[SEGMENTS], to[SEGMENTS];
  uint64_t rng = 13;
  for (int k = 0; k < SEGMENTS; k++) {
    from[k] = (col_vec3){0, bench_uniform(&rng, 0, 1000), bench_uniform(&rng, 0, 1000)};
    to[k] = (col_vec3){1000, bench_uniform(&rng, 0, 1000), bench_uniform(&rng, 0, 1000)};
  }
  col_segment_hit hit = {0};
  col_status all = COL_OK;
  unsigned k = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    all |= robust ? col_segment_spheres_robust(from[k % SEGMENTS], to[k % SEGMENTS], &set, &hit)
                  : col_segment_spheres(from[k % SEGMENTS], to[k % SEGMENTS], &set, &hit);
    k++;
    gb_do_not_optimize(&hit);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "batch failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "hit_last_segment", hit.hit ? 1.0 : 0.0, GB_PLAIN);
}

static void recipe(gb_state *st, void *user) { run_spheres(st, user, false); }
static void robust(gb_state *st, void *user) { run_spheres(st, user, true); }

void bench_register_sweep_study(void); /* bench_sweep_study.c */
void bench_register_sweep(void);
void bench_register_sweep(void) {
  bench_register(COL_KERNEL_SEGMENT, "sweep", "spheres", "uniform", recipe, false);
  bench_register(COL_KERNEL_SEGMENT_ROBUST, "sweep", "spheres-robust", "uniform", robust, false);
  bench_register_sweep_study();
}
