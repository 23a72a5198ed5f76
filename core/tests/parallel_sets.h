/* What the parallel sweep and prune's tests share (test_parallel.c, test_parallel_errors.c):
 * task systems on the calling thread, the scenes, and the check that a parallel call gave the
 * sequential call's list and counts. */
#ifndef COLLIDE_TESTS_PARALLEL_SETS_H
#define COLLIDE_TESTS_PARALLEL_SETS_H

#include "broadphase_sets.h"

#include <stdlib.h>

/* Task systems on the calling thread: backward, shuffled, failing. They count the calls and
 * the largest task count asked for, so a test can tell that the work was really split. */
typedef struct test_tasks {
  int mode; /* 0 backward, 1 shuffled, 2 fails, 3 runs every task and then fails */
  uint64_t rng;
  uint32_t most;
  unsigned calls;
} test_tasks;

static inline bool run_test_tasks(void *user, col_task_fn *fn, void *context, uint32_t count) {
  test_tasks *t = user;
  t->calls++;
  if (count > t->most) t->most = count;
  if (t->mode == 2) return false;
  uint32_t *order = malloc((count ? count : 1) * sizeof *order);
  cr_assert_not_null(order);
  for (uint32_t i = 0; i < count; i++) order[i] = count - 1 - i;
  if (t->mode == 1)
    for (uint32_t i = count; i > 1; i--) {
      const uint32_t k = rand_below(&t->rng, i), x = order[i - 1];
      order[i - 1] = order[k], order[k] = x;
    }
  for (uint32_t i = 0; i < count; i++) fn(context, order[i]);
  free(order);
  return t->mode != 3; /* parallel.h allows a failure after every task ran */
}

enum par_scene { UNIFORM, CLUSTERED, ALL_EQUAL, WITH_NAN, INVERTED, HUGE, PAR_SCENES };
static inline void par_fill(box_set *s, enum par_scene scene, uint64_t *rng) {
  for (size_t i = 0; i < s->n; i++)
    for (int k = 0; k < 3; k++) {
      float lo = (float)rand_below(rng, 40000) * 0.05f, size = (float)rand_below(rng, 40) * 0.1f;
      if (scene == CLUSTERED) /* a few dense heaps: cells of very different fill */
        lo = (float)(rand_below(rng, 4) * 700) + (float)rand_below(rng, 2000) * 0.01f;
      if (scene == ALL_EQUAL) lo = 3, size = 2;
      if (scene == HUGE && rand_below(rng, 50) == 0) lo = -1e30f, size = 2e30f;
      s->v[k][i] = lo, s->v[3 + k][i] = lo + size;
      if (scene == INVERTED && rand_below(rng, 20) == 0) s->v[3 + k][i] = lo - size - 1;
    }
  if (scene == WITH_NAN)
    for (size_t i = 0; i < s->n; i += 17) s->v[rand_below(rng, 6)][i] = NAN;
}

static inline void expect_same(const col_pairs *got, const col_pairs *want,
                               const col_broadphase_stats *gs, const col_broadphase_stats *ws,
                               const char *what) {
  cr_assert_eq(got->count, want->count, "%s: %zu pairs, sequential %zu", what, got->count,
               want->count);
  for (size_t k = 0; k < got->count; k++)
    cr_assert(got->data[k].a == want->data[k].a && got->data[k].b == want->data[k].b,
              "%s: pair %zu is (%u, %u), sequential (%u, %u)", what, k, got->data[k].a,
              got->data[k].b, want->data[k].a, want->data[k].b);
  cr_assert_eq(gs->tests, ws->tests, "%s: tests", what);
  cr_assert_eq(gs->pairs, ws->pairs, "%s: pairs counted", what);
}

#endif
