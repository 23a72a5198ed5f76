/* The parallel sweep and prune (collide/parallel.h): the same pairs in the same order as the
 * sequential col_broadphase_pairs(COL_BROADPHASE_SAP, ...), with the same test and pair
 * counts, whatever the number of tasks and the order they run in: on collide's own pool, the
 * built-in one, and task systems here that run the tasks on the calling thread backward or
 * shuffled. Also the errors (a failing task system, the fallback, NULLs) and the cache's whole
 * frames on a task system (the pool itself and COLLIDE_THREADS: test_pool.c). */
#define _POSIX_C_SOURCE 200809L
#include "helpers.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase_sets.h"

/* Task systems on the calling thread: backward, shuffled, failing. They count the calls and
 * the largest task count asked for, so a test can tell that the work was really split. */
typedef struct test_tasks {
  int mode; /* 0 backward, 1 shuffled, 2 fails */
  uint64_t rng;
  uint32_t most;
  unsigned calls;
} test_tasks;

static bool run_test_tasks(void *user, col_task_fn *fn, void *context, uint32_t count) {
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
  return true;
}

enum par_scene { UNIFORM, CLUSTERED, ALL_EQUAL, WITH_NAN, INVERTED, HUGE, PAR_SCENES };
static const char *const par_names[] = {"uniform", "clustered", "all-equal",
                                        "nan",     "inverted",  "huge"};

static void par_fill(box_set *s, enum par_scene scene, uint64_t *rng) {
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

static void expect_same(const col_pairs *got, const col_pairs *want, const col_broadphase_stats *gs,
                        const col_broadphase_stats *ws, const char *what) {
  cr_assert_eq(got->count, want->count, "%s: %zu pairs, sequential %zu", what, got->count,
               want->count);
  for (size_t k = 0; k < got->count; k++)
    cr_assert(got->data[k].a == want->data[k].a && got->data[k].b == want->data[k].b,
              "%s: pair %zu is (%u, %u), sequential (%u, %u)", what, k, got->data[k].a,
              got->data[k].b, want->data[k].a, want->data[k].b);
  cr_assert_eq(gs->tests, ws->tests, "%s: tests", what);
  cr_assert_eq(gs->pairs, ws->pairs, "%s: pairs counted", what);
}

/* Boxes up to which the parallel call on 2 to 4 workers runs as parts, each task surveying and
 * counting every box for its own range of cells, and past which (up to col__par_counted_max) it
 * counts once and then runs as parts (sap_owned.c): both 0 here take the third form, every pass
 * split into tasks. */
extern size_t col__par_owned_max, col__par_counted_max;

/* Sets the two limits for form 0 (as built), 1 (count once, then parts) or 2 (passes split). */
static void set_form(int form, size_t owned_max, size_t counted_max) {
  col__par_owned_max = form == 0 ? owned_max : 0;
  col__par_counted_max = form == 2 ? 0 : counted_max;
}

/* Every scene, 2D and 3D, both touch rules, against every task system given; `large` sets leave
 * out the scenes whose pairs grow with the square of the count (all equal, huge boxes: the
 * small sets cover them), which would take a minute on the emulated backends. */
static void compare_sized(const col_parallel *par, const char *name, test_tasks *counted, size_t n2,
                          size_t n3, bool large) {
  uint64_t rng = 0x5eed;
  col_pairs want = {0}, got = {0};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (int scene = 0; scene < PAR_SCENES; scene++)
      for (int touch = 0; touch < 2; touch++) {
        if (large && (scene == ALL_EQUAL || scene == HUGE)) continue;
        /* All equal: a quarter of the boxes, still 125,000 pairs or more (dozens of the join's
         * blocks); at the full count its millions of pairs were most of this suite's time. */
        const size_t n = (dims == 2 ? n2 : n3) / (scene == ALL_EQUAL ? 4 : 1);
        box_set s = set_make(n, dims);
        par_fill(&s, (enum par_scene)scene, &rng);
        const col_touch t = touch ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
        col_broadphase_stats ws, gs;
        cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, t, &want, &ws), COL_OK);
        /* The three forms of the call: parts (each task its cells, counting every box
         * itself; 2 to 4 workers), parts after one shared count, every pass split into tasks. */
        for (int form = 0; form < 3; form++) {
          const size_t owned_max = col__par_owned_max, counted_max = col__par_counted_max;
          set_form(form, owned_max, counted_max);
          if (counted) counted->most = 0;
          cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, t, par, &got, &gs), COL_OK);
          col__par_owned_max = owned_max, col__par_counted_max = counted_max;
          char what[96];
          snprintf(what, sizeof what, "%s, %uD %s touch %d%s", name, dims, par_names[scene], touch,
                   form == 1   ? ", counted once"
                   : form == 2 ? ", passes split"
                               : "");
          expect_same(&got, &want, &gs, &ws, what);
          if (counted && scene == UNIFORM && par->tasks->workers > 1)
            cr_assert_gt(counted->most, 1, "%s: not split", what);
        }
        set_free(&s);
      }
  col_pairs_free(&want);
  col_pairs_free(&got);
}

static void compare_all(const col_parallel *par, const char *name, test_tasks *counted) {
  compare_sized(par, name, counted, 3000, 2000, false);
}

/* The library's threshold for the parallel sort (262,144 boxes by default, sap_sort_par.c). */
extern size_t col__par_sort_min;

/* Past two survey chunks (COL__SURVEY_CHUNK, 4,096 boxes) the split passes survey as tasks too;
 * they sort as tasks with the threshold lowered (odd w), beside the cell count otherwise; and
 * each part of the other form sorts thousands of boxes. */
Test(parallel, same_pairs_and_order_past_two_survey_chunks) {
  const uint32_t workers[] = {2, 3, 7};
  const size_t threshold = col__par_sort_min;
  for (size_t w = 0; w < 3; w++) {
    col__par_sort_min = w % 2 ? 2048 : threshold;
    test_tasks tt = {1, 7 + w, 0, 0};
    const col_task_system ts = {run_test_tasks, &tt, workers[w]};
    const col_parallel par = {&ts, 0, false};
    char name[48];
    snprintf(name, sizeof name, "shuffled, %u workers, large", workers[w]);
    compare_sized(&par, name, &tt, 30000, 20000, true);
  }
  col__par_sort_min = threshold;
}

Test(parallel, same_pairs_and_order_on_calling_thread) {
  const uint32_t workers[] = {1, 2, 3, 7};
  for (int mode = 0; mode < 2; mode++)
    for (size_t w = 0; w < 4; w++) {
      test_tasks tt = {mode, 99 + w, 0, 0};
      const col_task_system ts = {run_test_tasks, &tt, workers[w]};
      const col_parallel par = {&ts, 0, false};
      char name[48];
      snprintf(name, sizeof name, "%s, %u workers", mode ? "shuffled" : "backward", workers[w]);
      compare_all(&par, name, &tt);
      if (workers[w] == 1) cr_assert_eq(tt.calls, 0, "one worker: the sequential call");
    }
}

Test(parallel, same_pairs_and_order_on_pools) {
  const uint32_t threads[] = {1, 2, 3, 7};
  for (size_t k = 0; k < 4; k++) {
    col_thread_pool *pool = NULL;
    cr_assert_eq(col_thread_pool_create(threads[k], &pool), COL_OK);
    const col_task_system ts = col_thread_pool_tasks(pool);
    cr_assert_eq(ts.workers, threads[k]);
    const col_parallel par = {&ts, 0, false};
    char name[32];
    snprintf(name, sizeof name, "pool of %u", threads[k]);
    compare_all(&par, name, NULL);
    col_thread_pool_destroy(pool);
  }
  const col_parallel builtin = {NULL, 3, false};
  compare_all(&builtin, "built-in pool", NULL);
  compare_all(NULL, "built-in pool (NULL)", NULL);
}

/* Pairs per block of the any-order join (4,096 by default, pairs.c). */
extern size_t col__par_block_pairs;

static void sorted_copy(const col_pairs *in, col_pairs *out) {
  out->count = 0;
  for (size_t k = 0; k < in->count; k++)
    cr_assert_eq(col_pairs_push(out, in->data[k].a, in->data[k].b), COL_OK);
  col_pairs_sort(out);
}

/* The any-order call: the sequential call's pair set (each pair once) and counts, on a fresh
 * list (every task writes its own list: nothing to write blocks into), on the same list again
 * (blocks of the room the first call left), and on a list with room for about half the pairs
 * (blocks run out midway: the tasks go on in their own lists), with blocks small enough that a
 * task changes block many times, and the default. */
Test(parallel, any_order_same_pair_set) {
  const size_t saved = col__par_block_pairs, block[] = {40, 333, saved};
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(2, &pool), COL_OK);
  const col_task_system on_pool = col_thread_pool_tasks(pool);
  test_tasks tt = {1, 17, 0, 0};
  const col_task_system shuffled = {run_test_tasks, &tt, 3};
  const col_task_system *systems[] = {&on_pool, &shuffled};
  uint64_t rng = 0xa11;
  col_pairs want = {0}, sorted = {0}, got = {0};
  for (size_t b = 0; b < 3; b++)
    for (size_t sys = 0; sys < 2; sys++)
      for (unsigned dims = 2; dims <= 3; dims++)
        for (int scene = 0; scene < PAR_SCENES; scene++) {
          /* All equal and huge boxes: one cell, so the sequential call (the ordered call's
           * tests have them), and a million pairs to sort. */
          if (scene == ALL_EQUAL || scene == HUGE) continue;
          col__par_block_pairs = block[b];
          box_set s = set_make(dims == 2 ? 1500 : 1000, dims);
          par_fill(&s, (enum par_scene)scene, &rng);
          const col_touch t = scene % 2 ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
          col_broadphase_stats ws, gs;
          cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, t, &want, &ws), COL_OK);
          col_pairs_sort(&want);
          const col_parallel par = {systems[sys], 0, false};
          const size_t owned_max = col__par_owned_max, counted_max = col__par_counted_max;
          for (int call = 0; call < 9; call++) {
            /* Calls 3 to 5 again counting once, 6 to 8 with the passes split into tasks. */
            set_form(call / 3, owned_max, counted_max);
            if (call % 3 != 1) col_pairs_free(&got);
            for (size_t k = 0; call % 3 == 2 && k < want.count / 2; k++)
              cr_assert_eq(col_pairs_push(&got, 0, 1), COL_OK);
            cr_assert_eq(col_broadphase_pairs_parallel_any_order(&s.boxes, t, &par, &got, &gs),
                         COL_OK);
            sorted_copy(&got, &sorted);
            char what[96];
            snprintf(what, sizeof what, "any order, blocks of %zu, system %zu, %uD %s, call %d",
                     block[b], sys, dims, par_names[scene], call);
            expect_same(&sorted, &want, &gs, &ws, what);
          }
          col__par_owned_max = owned_max, col__par_counted_max = counted_max;
          set_free(&s);
        }
  col__par_block_pairs = saved;
  cr_assert_gt(tt.most, 1, "the any-order calls were split into tasks");
  /* A failing task system: COL_ERR_TASKS and an empty list, as the ordered call. */
  test_tasks fails = {2, 0, 0, 0};
  const col_task_system bad = {run_test_tasks, &fails, 4};
  const col_parallel par = {&bad, 0, false};
  box_set s = set_make(3000, 2);
  par_fill(&s, UNIFORM, &rng);
  cr_assert_eq(
      col_broadphase_pairs_parallel_any_order(&s.boxes, COL_TOUCH_OVERLAPS, &par, &got, NULL),
      COL_ERR_TASKS);
  cr_assert_eq(got.count, 0);
  cr_assert_eq(col_broadphase_pairs_parallel_any_order(NULL, COL_TOUCH_OVERLAPS, &par, &got, NULL),
               COL_ERR_NULL);
  set_free(&s);
  col_thread_pool_destroy(pool);
  col_pairs_free(&want);
  col_pairs_free(&sorted);
  col_pairs_free(&got);
}

/* Spins before each chunk of its own cells that part 0's task sweeps (0: none), and the chunks
 * tasks have taken from other parts (sap_steal.c). */
extern unsigned col__par_share_delay;
extern _Atomic size_t col__par_chunks_taken;

/* The parts share out their sweeps: with part 0's task held back before each of its chunks,
 * the pool's other thread sweeps part 0's last chunks; the joined list (ordered) and the pair
 * set (any order) are still the sequential call's, in both forms of parts, 2D and 3D, for
 * scenes with cells of very different fill and with NaN boxes, on fresh lists and kept ones. */
Test(parallel, parts_share_their_sweeps) {
  col_thread_pool *pool = NULL;
  cr_assert_eq(col_thread_pool_create(2, &pool), COL_OK);
  const col_task_system tasks = col_thread_pool_tasks(pool);
  const col_parallel par = {&tasks, 0, false};
  const size_t owned_max = col__par_owned_max, counted_max = col__par_counted_max;
  uint64_t rng = 0x57ea1;
  col_pairs want = {0}, sorted = {0}, got = {0}, got_any = {0};
  col__par_share_delay = 200000;
  atomic_store(&col__par_chunks_taken, 0);
  for (unsigned dims = 2; dims <= 3; dims++)
    for (int scene = 0; scene < PAR_SCENES; scene++) {
      if (scene == ALL_EQUAL || scene == HUGE) continue;
      box_set s = set_make(dims == 2 ? 6000 : 4000, dims);
      par_fill(&s, (enum par_scene)scene, &rng);
      const col_touch t = scene % 2 ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
      col_broadphase_stats ws, gs;
      cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, t, &want, &ws), COL_OK);
      for (int call = 0; call < 4; call++) {
        /* Calls 2 and 3 count once, then run the parts; 0 and 2 on fresh lists. */
        set_form(call / 2, owned_max, counted_max);
        if (call % 2 == 0) col_pairs_free(&got), col_pairs_free(&got_any);
        char what[96];
        snprintf(what, sizeof what, "shared sweeps, %uD %s, call %d", dims, par_names[scene], call);
        cr_assert_eq(col_broadphase_pairs_parallel(&s.boxes, t, &par, &got, &gs), COL_OK);
        expect_same(&got, &want, &gs, &ws, what);
        cr_assert_eq(col_broadphase_pairs_parallel_any_order(&s.boxes, t, &par, &got_any, &gs),
                     COL_OK);
        sorted_copy(&got_any, &sorted);
        col_pairs_sort(&want);
        expect_same(&sorted, &want, &gs, &ws, what);
        cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, t, &want, &ws), COL_OK);
      }
      col__par_owned_max = owned_max, col__par_counted_max = counted_max;
      set_free(&s);
    }
  col__par_share_delay = 0;
  /* Held back that long, part 0 lost chunks to the other thread in some call. */
  cr_assert_gt(atomic_load(&col__par_chunks_taken), 0, "no chunk was taken from another part");
  col_thread_pool_destroy(pool);
  col_pairs_free(&want);
  col_pairs_free(&sorted);
  col_pairs_free(&got);
  col_pairs_free(&got_any);
}

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
