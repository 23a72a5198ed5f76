/* MTD batch benchmarks: N pairs of 2D boxes, every backend. Scene "uniform": box A of each
 * pair uniform in a 1000-wide world with half-extents 1..8, box B near it (offset up to
 * +-12 per axis), so that about half of the pairs penetrate. The pairs come from a pool of
 * at least 2^20 and each iteration takes the next window of N, so that the branch predictor
 * cannot learn one window's outcomes by heart (the scalar code branches on every pair). */
#include "bench.h"

#include <stdlib.h>

static struct {
  size_t n;
  col_aabb2 *a, *b;
  col_mtd *out;
} scene;

enum { POOL = 1 << 20 };

static void make_scene(size_t n) {
  n = n > POOL ? n : POOL;
  if (scene.n >= n) return;
  free(scene.a), free(scene.b), free(scene.out);
  scene.a = bench_alloc(n * sizeof(col_aabb2));
  scene.b = bench_alloc(n * sizeof(col_aabb2));
  scene.out = bench_alloc(n * sizeof(col_mtd));
  uint64_t rng = 2;
  for (size_t i = 0; i < n; i++) {
    const float ax = bench_uniform(&rng, 0, 1000), ay = bench_uniform(&rng, 0, 1000);
    const float bx = ax + bench_uniform(&rng, -12, 12), by = ay + bench_uniform(&rng, -12, 12);
    const float ea[2] = {bench_uniform(&rng, 1, 8), bench_uniform(&rng, 1, 8)};
    const float eb[2] = {bench_uniform(&rng, 1, 8), bench_uniform(&rng, 1, 8)};
    scene.a[i] = (col_aabb2){{ax - ea[0], ay - ea[1]}, {ax + ea[0], ay + ea[1]}};
    scene.b[i] = (col_aabb2){{bx - eb[0], by - eb[1]}, {bx + eb[0], by + eb[1]}};
  }
  scene.n = n;
}

static void run_batch(gb_state *st, void *user) {
  const char *backend = user;
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  make_scene(n);
  col_status all = COL_OK;
  size_t at = 0, last = 0; /* scene.n is a power of two >= n, so windows tile it */
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    all |= col_aabb2_mtd_batch(n, scene.a + at, scene.b + at, scene.out + at);
    gb_do_not_optimize(scene.out + at);
    last = at;
    at = (at + n) % scene.n;
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (all != COL_OK) {
    gb_skip(st, "batch failed");
    return;
  }
  size_t hits = 0;
  for (size_t i = last; i < last + n; i++) hits += scene.out[i].hit;
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "hit_fraction_last_window", (double)hits / (double)n, GB_PLAIN);
}

void bench_register_mtd(void);
void bench_register_mtd(void) {
  bench_register(COL_KERNEL_AABB2_MTD, "mtd", "batch", "uniform", run_batch, false);
}
