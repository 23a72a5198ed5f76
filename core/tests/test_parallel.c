/* The parallel sweep and prune (collide/parallel.h): the same pairs in the same order as the
 * sequential col_broadphase_pairs(COL_BROADPHASE_SAP, ...), with the same test and pair
 * counts, whatever the number of tasks and the order they run in: on collide's own pool, the
 * built-in one, and task systems here that run the tasks on the calling thread backward or
 * shuffled (the errors and the cache's whole frames: test_parallel_errors.c; the pool itself
 * and COLLIDE_THREADS: test_pool.c). */
#define _POSIX_C_SOURCE 200809L
#include "helpers.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel_sets.h"

static const char *const par_names[] = {"uniform", "clustered", "all-equal",
                                        "nan",     "inverted",  "huge"};

/* Boxes up to which the parallel call on 2 to 4 workers runs as parts, each task surveying and
 * counting every box for its own range of cells, and past which (up to col__par_counted_max) it
 * counts once and then runs as parts (tasks/parts.c): both 0 here take the third form, every pass
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

/* The library's threshold for the parallel sort (262,144 boxes by default, tasks/sort.c). */
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
 * tasks have taken from other parts (tasks/steal.c). */
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
