/* The parallel sweep and prune's errors (a failing task system, the fallback, NULLs and bad
 * arguments, each leaving the list empty) and the sweep and prune cache's whole frames on a task
 * system (the ordered and any-order pair lists: test_parallel.c). */
#define _POSIX_C_SOURCE 200809L
#include "helpers.h"

#include <stdio.h>

#include "parallel_sets.h"

Test(parallel, errors_and_fallback) {
  uint64_t rng = 7;
  box_set s = set_make(3000, 2);
  par_fill(&s, UNIFORM, &rng);
  test_tasks fails = {2, 0, 0, 0};
  const col_task_system ts = {run_test_tasks, &fails, 4};
  col_parallel par = {&ts, 0, false};
  col_pairs out = {0}, want = {0};
  col_broadphase_stats ws, gs;
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS, &want, &ws),
               COL_OK);
  cr_assert_gt(want.count, 0);
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, NULL, &out, NULL),
               COL_OK);
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &out, NULL),
               COL_ERR_TASKS);
  cr_assert_eq(out.count, 0, "a failed call leaves the list empty");
  cr_assert_gt(fails.calls, 0);
  par.allow_sequential_fallback = true;
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &out, &gs),
               COL_OK);
  expect_same(&out, &want, &gs, &ws, "fallback");
  /* NULLs and bad arguments: as col_broadphase_pairs, checked first; each leaves the list
   * empty, as the header promises for any error (each call starts from a full list). */
#define FAILS_EMPTY(call, status)                                                                  \
  do {                                                                                             \
    cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, NULL, &out, NULL),    \
                 COL_OK);                                                                          \
    cr_assert_gt(out.count, 0);                                                                    \
    cr_assert_eq(call, status, "%s", #call);                                                       \
    cr_assert_eq(out.count, 0, "%s leaves the list empty", #call);                                 \
  } while (0)
  FAILS_EMPTY(col_broadphase_pairs_parallel(NULL, COL_TOUCH_OVERLAPS, NULL, &out, NULL),
              COL_ERR_NULL);
  FAILS_EMPTY(col_broadphase_pairs_parallel_any_order(NULL, COL_TOUCH_OVERLAPS, NULL, &out, NULL),
              COL_ERR_NULL);
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, NULL, NULL, NULL),
               COL_ERR_NULL);
  FAILS_EMPTY(col_broadphase_pairs_parallel(&s.boxes, (col_touch)9, NULL, &out, NULL),
              COL_ERR_ARGUMENT);
  FAILS_EMPTY(col_broadphase_pairs_parallel_any_order(&s.boxes, (col_touch)9, NULL, &out, NULL),
              COL_ERR_ARGUMENT);
  /* A task system without run is the caller's mistake, not a failing one: no fallback. */
  const col_task_system no_run = {NULL, NULL, 4};
  const col_parallel bad = {&no_run, 0, true};
  FAILS_EMPTY(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &bad, &out, NULL),
              COL_ERR_NULL);
  col_boxes wrong = s.boxes;
  wrong.dims = 4;
  FAILS_EMPTY(col_broadphase_pairs_parallel(&wrong, COL_TOUCH_OVERLAPS, NULL, &out, NULL),
              COL_ERR_SIZE);
  wrong = s.boxes;
  wrong.max[1] = NULL;
  FAILS_EMPTY(col_broadphase_pairs_parallel_any_order(&wrong, COL_TOUCH_OVERLAPS, NULL, &out, NULL),
              COL_ERR_NULL);
#undef FAILS_EMPTY
  cr_assert_eq(col_thread_pool_create(2, NULL), COL_ERR_NULL);
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(1025, &pool), COL_ERR_SIZE);
  cr_assert_null(pool);
  col_thread_pool_destroy(NULL);
  cr_assert_eq(col_broadphase_cache_set_parallel(NULL, NULL), COL_ERR_NULL);
  col_pairs_free(&out);
  col_pairs_free(&want);
  set_free(&s);
}

/* The SAP cache with whole frames on a task system: frame by frame the pairs of the cache
 * without one, in the same order; a failing task system fails the update. */
Test(parallel, cache_whole_frames) {
  uint64_t rng = 11;
  box_set s = set_make(4000, 3);
  par_fill(&s, UNIFORM, &rng);
  test_tasks tt = {1, 5, 0, 0};
  const col_task_system ts = {run_test_tasks, &tt, 3};
  const col_parallel par = {&ts, 0, false};
  col_broadphase_cache *seq = NULL, *para = NULL;
  cr_assert_eq(col_broadphase_cache_create(&seq), COL_OK);
  cr_assert_eq(col_broadphase_cache_create(&para), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_algorithm(seq, COL_BROADPHASE_SAP), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_algorithm(para, COL_BROADPHASE_SAP), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_parallel(para, &par), COL_OK);
  col_pairs want = {0}, got = {0};
  for (int frame = 0; frame < 6; frame++) {
    /* every other frame moves half the boxes (a whole frame), else a few */
    const size_t step = frame % 2 ? 2 : 97;
    for (size_t i = 0; frame && i < s.n; i += step)
      for (int k = 0; k < 3; k++) s.v[k][i] += 0.5f, s.v[3 + k][i] += 0.5f;
    col_broadphase_stats ws, gs;
    cr_assert_eq(col_broadphase_cache_update(seq, &s.boxes, COL_TOUCH_OVERLAPS, &want, &ws),
                 COL_OK);
    cr_assert_eq(col_broadphase_cache_update(para, &s.boxes, COL_TOUCH_OVERLAPS, &got, &gs),
                 COL_OK);
    char what[32];
    snprintf(what, sizeof what, "cache frame %d", frame);
    expect_same(&got, &want, &gs, &ws, what);
  }
  cr_assert_gt(tt.most, 1, "the whole frames were split into tasks");
  tt.mode = 2;
  for (size_t i = 0; i < s.n; i += 2) s.v[0][i] += 1, s.v[3][i] += 1;
  cr_assert_eq(col_broadphase_cache_update(para, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
               COL_ERR_TASKS);
  cr_assert_eq(got.count, 0);
  cr_assert_eq(col_broadphase_cache_set_parallel(para, NULL), COL_OK);
  cr_assert_eq(col_broadphase_cache_update(para, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL), COL_OK);
  col_broadphase_cache_destroy(seq);
  col_broadphase_cache_destroy(para);
  col_pairs_free(&want);
  col_pairs_free(&got);
  set_free(&s);
}

/* A task system that runs every task and then says it failed (parallel.h allows it): with the
 * fallback the call starts over on the calling thread and gives the sequential pairs (it once ran
 * the failed pass's tasks a second time over their own output); without, COL_ERR_TASKS and an
 * empty list. The cache's whole frames the same. */
Test(parallel, fallback_after_tasks_that_ran) {
  uint64_t rng = 5;
  box_set s = set_make(6000, 2);
  par_fill(&s, UNIFORM, &rng);
  col_pairs want = {0}, got = {0};
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS, &want, NULL),
               COL_OK);
  col_pairs_sort(&want);
  test_tasks t = {3, 1, 0, 0};
  const col_task_system ts = {run_test_tasks, &t, 2};
  col_parallel par = {&ts, 2, true};
  for (int any = 0; any < 2; any++) {
    const col_status st =
        any ? col_broadphase_pairs_parallel_any_order(&s.boxes, COL_TOUCH_OVERLAPS, &par, &got,
                                                      NULL)
            : col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &got, NULL);
    cr_assert_eq(st, COL_OK);
    col_pairs_sort(&got);
    cr_assert_eq(got.count, want.count, "any order %d: %zu pairs, want %zu", any, got.count,
                 want.count);
    cr_assert(memcmp(got.data, want.data, want.count * sizeof(col_pair)) == 0);
  }
  cr_assert_gt(t.calls, 0u, "the task system was asked");
  col_broadphase_cache *cache;
  cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_parallel(cache, &par), COL_OK);
  cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
               COL_OK);
  col_pairs_sort(&got);
  cr_assert_eq(got.count, want.count);
  par.allow_sequential_fallback = false;
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &got, NULL),
               COL_ERR_TASKS);
  cr_assert_eq(got.count, 0u);
  col_broadphase_cache_destroy(cache);
  col_pairs_free(&want), col_pairs_free(&got);
  set_free(&s);
}
