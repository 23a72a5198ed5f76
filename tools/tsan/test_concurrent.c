/* Concurrent callers, for ThreadSanitizer only (make tsan; compiled against the stand-in
 * criterion.h): several threads call col_broadphase_pairs_parallel at once, each with its own
 * pair list, on one shared pool and on the built-in pool (whose first use races to create it),
 * on sets large enough (20,000 boxes, up to about 80 neighbours each) that every thread of a
 * pool takes part in both passes.
 * Each result must be the sequential call's list, pair for pair; ThreadSanitizer watches the
 * rest (the header promises that one pool serves several callers at once). */
#define _POSIX_C_SOURCE 200809L
#include "collide.h"
#include "splitmix64.h"

#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>

enum { CALLERS = 3, BOXES = 20000, CALLS = 3 };

typedef struct caller {
  float *v[4];
  col_boxes boxes;
  col_pairs want;
  const col_parallel *parallel;
  int mismatches;
} caller;

/* Uniform 2D boxes, about one neighbour each (as the benchmarks' uniform scene) at scale 1,
 * about scale^2 at larger ones: lists long enough that joining them (each task copies its
 * pairs into the caller's list) takes every thread of the pool, not only the caller's. */
static void fill(caller *c, uint64_t seed, float scale) {
  const float side = 8.0f * sqrtf((float)BOXES);
  for (int k = 0; k < 4; k++) c->v[k] = malloc(BOXES * sizeof(float));
  for (size_t i = 0; i < BOXES; i++) {
    const float x = (float)(splitmix64(&seed) >> 40) * 0x1p-24f * side;
    const float y = (float)(splitmix64(&seed) >> 40) * 0x1p-24f * side;
    const float hx = scale * (0.5f + (float)(splitmix64(&seed) >> 40) * 0x1p-24f * 1.5f);
    const float hy = scale * (0.5f + (float)(splitmix64(&seed) >> 40) * 0x1p-24f * 1.5f);
    c->v[0][i] = x - hx, c->v[1][i] = y - hy, c->v[2][i] = x + hx, c->v[3][i] = y + hy;
  }
  c->boxes = (col_boxes){2, {c->v[0], c->v[1], NULL}, {c->v[2], c->v[3], NULL}, BOXES};
  c->want = (col_pairs){0};
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &c->boxes, COL_TOUCH_OVERLAPS, &c->want, NULL),
      COL_OK);
  cr_assert_gt(c->want.count, 1000);
  c->mismatches = 0;
}

static void drop(caller *c) {
  for (int k = 0; k < 4; k++) free(c->v[k]);
  col_pairs_free(&c->want);
}

static void *call(void *arg) {
  caller *c = arg;
  col_pairs got = {0};
  for (int k = 0; k < CALLS; k++) {
    const col_status st =
        col_broadphase_pairs_parallel(&c->boxes, COL_TOUCH_OVERLAPS, c->parallel, &got, NULL);
    if (st != COL_OK || got.count != c->want.count ||
        memcmp(got.data, c->want.data, got.count * sizeof(col_pair)) != 0)
      c->mismatches++;
  }
  col_pairs_free(&got);
  return NULL;
}

static void run_callers(caller *c) {
  pthread_t t[CALLERS];
  for (int k = 0; k < CALLERS; k++) cr_assert_eq(pthread_create(&t[k], NULL, call, &c[k]), 0);
  for (int k = 0; k < CALLERS; k++) pthread_join(t[k], NULL);
  for (int k = 0; k < CALLERS; k++)
    cr_expect_eq(c[k].mismatches, 0, "caller %d: %d calls differ from the sequential call", k,
                 c[k].mismatches);
}

Test(tsan, callers_share_one_pool) {
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(3, &pool), COL_OK);
  const col_task_system tasks = col_thread_pool_tasks(pool);
  const col_parallel parallel = {&tasks, 0, false};
  caller c[CALLERS];
  for (int k = 0; k < CALLERS; k++)
    fill(&c[k], 11 + (uint64_t)k, 1.0f + 4.0f * (float)k), c[k].parallel = &parallel;
  run_callers(c);
  for (int k = 0; k < CALLERS; k++) drop(&c[k]);
  col_thread_pool_destroy(pool);
}

Test(tsan, callers_create_the_built_in_pool_at_once) {
  /* A fresh process (the runner forks one per test): the callers' first calls race to
   * create the built-in pool. */
  const col_parallel parallel = {NULL, 2, false};
  caller c[CALLERS];
  for (int k = 0; k < CALLERS; k++)
    fill(&c[k], 21 + (uint64_t)k, 1.0f + 4.0f * (float)k),
        c[k].parallel = k == 0 ? NULL : &parallel;
  run_callers(c);
  for (int k = 0; k < CALLERS; k++) drop(&c[k]);
}
