/* collide's thread pool (collide/parallel.h): its size from COLLIDE_THREADS (a plain decimal
 * 1..1024, an explicit size winning over it, the online CPUs by default; a variable it cannot
 * read makes the built-in pool fail to start: COL_ERR_TASKS, or the fallback), and every task
 * index run exactly once per call, from two callers at once. The parallel broadphase on it:
 * test_parallel.c. */
#define _POSIX_C_SOURCE 200809L
#include "helpers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "broadphase_sets.h"

static col_status pool_size_for(const char *env, uint32_t *threads) {
  if (env != NULL)
    setenv("COLLIDE_THREADS", env, 1);
  else
    unsetenv("COLLIDE_THREADS");
  col_thread_pool *pool = NULL;
  const col_status st = col_thread_pool_create(0, &pool);
  if (st == COL_OK) *threads = col_thread_pool_tasks(pool).workers;
  col_thread_pool_destroy(pool);
  return st;
}

Test(pool, collide_threads_variable) {
  uint32_t threads = 0;
  cr_assert_eq(pool_size_for("3", &threads), COL_OK);
  cr_assert_eq(threads, 3);
  cr_assert_eq(pool_size_for("1", &threads), COL_OK);
  cr_assert_eq(threads, 1);
  cr_assert_eq(pool_size_for("64", &threads), COL_OK);
  cr_assert_eq(threads, 64);
  const char *bad[] = {"", "0", "1025", "-2", "+2", "2 ", " 2", "two", "99999999999"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    cr_assert_eq(pool_size_for(bad[k], &threads), COL_ERR_ARGUMENT, "COLLIDE_THREADS=\"%s\"",
                 bad[k]);
  cr_assert_eq(pool_size_for(NULL, &threads), COL_OK);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cr_assert_eq(threads, cpus < 1 ? 1u : (uint32_t)cpus);
  /* An explicit size wins over the variable. */
  setenv("COLLIDE_THREADS", "junk", 1);
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(2, &pool), COL_OK);
  cr_assert_eq(col_thread_pool_tasks(pool).workers, 2);
  col_thread_pool_destroy(pool);
  /* A built-in pool that cannot be created: COL_ERR_TASKS, or the fallback. */
  box_set s = set_make(1000, 2);
  for (size_t i = 0; i < s.n; i++) { /* a 40-wide grid of boxes, each overlapping its neighbours */
    s.v[0][i] = (float)(i % 40), s.v[1][i] = (float)(i / 40);
    s.v[3][i] = s.v[0][i] + 1.5f, s.v[4][i] = s.v[1][i] + 1.5f;
  }
  col_pairs out = {0};
  col_parallel par = {NULL, 0, false};
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &out, NULL),
               COL_ERR_TASKS);
  par.allow_sequential_fallback = true;
  cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, COL_TOUCH_OVERLAPS, &par, &out, NULL),
               COL_OK);
  cr_assert_gt(out.count, 0);
  col_pairs_free(&out);
  set_free(&s);
}

/* The pool itself: every index run exactly once per call, over many short calls (a worker that
 * wakes late must not run a task of a later call), from two caller threads at once. */
typedef struct tally {
  _Atomic unsigned hits[64];
} tally;

static void count_task(void *context, uint32_t i) {
  tally *t = context;
  atomic_fetch_add(&t->hits[i], 1);
}

typedef struct caller {
  col_task_system ts;
  int failures;
} caller;

static void *call_many(void *arg) {
  caller *c = arg;
  for (int round = 0; round < 3000; round++) {
    tally t;
    const uint32_t count = 1 + (uint32_t)round % 64;
    for (int i = 0; i < 64; i++) atomic_init(&t.hits[i], 0);
    if (!c->ts.run(c->ts.user, count_task, &t, count)) c->failures++;
    for (uint32_t i = 0; i < 64; i++) c->failures += atomic_load(&t.hits[i]) != (i < count);
  }
  return NULL;
}

Test(pool, runs_each_task_once) {
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(4, &pool), COL_OK);
  caller a = {col_thread_pool_tasks(pool), 0}, b = a;
  cr_assert_not(a.ts.run(a.ts.user, NULL, NULL, 3), "a NULL task function fails");
  pthread_t other;
  cr_assert_eq(pthread_create(&other, NULL, call_many, &b), 0);
  call_many(&a);
  pthread_join(other, NULL);
  cr_assert_eq(a.failures + b.failures, 0);
  col_thread_pool_destroy(pool);
}
