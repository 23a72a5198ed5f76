/* Static boxes and contact events: col_broadphase_pairs_static and its parallel form against
 * brute force with the static pairs dropped by hand, the cache's static marks in every kept
 * form, the kept grid on a tile level (work that follows what moved, the fall-back when most
 * moved), and the began and ended pairs against the difference of two brute-force sets. */
#include "broadphase_sets.h"

#include <stdlib.h>
#include <string.h>

/* Brute force's pairs less those of two boxes with nonzero marks, sorted. */
static void want_static(const col_boxes *b, const uint8_t *marks, col_touch touch,
                        col_pairs *want) {
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_BRUTE, b, touch, want, NULL), COL_OK);
  size_t kept = 0;
  for (size_t k = 0; k < want->count; k++)
    if (marks == NULL || !(marks[want->data[k].a] && marks[want->data[k].b]))
      want->data[kept++] = want->data[k];
  want->count = kept;
  col_pairs_sort(want);
}

static void assert_same(col_pairs *got, const col_pairs *want, const char *what) {
  col_pairs_sort(got);
  cr_assert_eq(got->count, want->count, "%s: %zu pairs, want %zu", what, got->count, want->count);
  cr_assert(got->count == 0 || memcmp(got->data, want->data, got->count * sizeof(col_pair)) == 0,
            "%s: pair lists differ", what);
}

/* Marks of several nonzero values (any nonzero byte marks a box static), about one box in
 * `one_in` marked. */
static uint8_t *marks_make(size_t n, uint64_t *rng, uint32_t one_in) {
  uint8_t *m = calloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++)
    if (rand_below(rng, one_in) == 0) m[i] = (uint8_t)(1 + rand_below(rng, 255));
  return m;
}

Test(broadphase, static_rule_every_algorithm) {
  uint64_t rng = 91;
  const enum scene scenes[] = {GRIDDED, EDGES, SPREAD, POINTS, SAME_BOX};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (size_t sc = 0; sc < sizeof scenes / sizeof scenes[0]; sc++)
      for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
        box_set s = set_make(300, dims);
        fill(&s, scenes[sc], &rng);
        uint8_t *marks = marks_make(s.n, &rng, 1 + (uint32_t)sc);
        col_pairs want = {0};
        want_static(&s.boxes, marks, touch, &want);
        for (size_t a = 0; a < col_broadphase_count(); a++) {
          col_broadphase_info info;
          cr_assert(col_broadphase_at(a, &info));
          if (!(dims == 2 ? info.two_d : info.three_d)) continue;
          col_pairs got = {0};
          col_broadphase_stats st;
          cr_assert_eq(
              col_broadphase_pairs_static(info.algorithm, &s.boxes, marks, touch, &got, &st),
              COL_OK);
          cr_assert_eq(st.pairs, got.count, "%s: stats count the pairs reported", info.name);
          assert_same(&got, &want, info.name);
          col_pairs_free(&got);
        }
        /* The parallel form: the same pairs as the sequential sweep and prune, in its order. */
        col_pairs seq = {0}, par = {0};
        cr_assert_eq(
            col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, marks, touch, &seq, NULL),
            COL_OK);
        col_thread_pool *pool;
        cr_assert_eq(col_thread_pool_create(2, &pool), COL_OK);
        const col_task_system tasks = col_thread_pool_tasks(pool);
        const col_parallel p = {&tasks, 0, false};
        cr_assert_eq(col_broadphase_pairs_parallel_static(&s.boxes, marks, touch, &p, &par, NULL),
                     COL_OK);
        cr_assert_eq(par.count, seq.count);
        cr_assert(seq.count == 0 || memcmp(par.data, seq.data, seq.count * sizeof(col_pair)) == 0,
                  "the parallel static pairs are the sequential ones in their order");
        col_thread_pool_destroy(pool);
        col_pairs_free(&seq), col_pairs_free(&par), col_pairs_free(&want);
        free(marks);
        set_free(&s);
      }
}

Test(broadphase, static_rule_edges) {
  box_set s = set_make(4, 2);
  for (size_t i = 0; i < 4; i++) /* four copies of one box: six pairs */
    s.v[0][i] = s.v[1][i] = 0, s.v[3][i] = s.v[4][i] = 1;
  uint8_t all[4] = {1, 1, 1, 1}, none[4] = {0, 0, 0, 0}, one[4] = {0, 7, 7, 7};
  col_pairs got = {0};
  cr_assert_eq(col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, all, COL_TOUCH_OVERLAPS,
                                           &got, NULL),
               COL_OK);
  cr_assert_eq(got.count, 0, "every box static: no pair");
  cr_assert_eq(col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, none, COL_TOUCH_OVERLAPS,
                                           &got, NULL),
               COL_OK);
  cr_assert_eq(got.count, 6);
  cr_assert_eq(col_broadphase_pairs_static(COL_BROADPHASE_GRID, &s.boxes, one, COL_TOUCH_OVERLAPS,
                                           &got, NULL),
               COL_OK);
  cr_assert_eq(got.count, 3, "only the pairs of box 0, the one box not static");
  cr_assert_eq(col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, NULL, COL_TOUCH_OVERLAPS,
                                           &got, NULL),
               COL_OK);
  cr_assert_eq(got.count, 6, "no marks: every pair");
  cr_assert_eq(col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, one, COL_TOUCH_OVERLAPS,
                                           NULL, NULL),
               COL_ERR_NULL);
  cr_assert_eq(
      col_broadphase_pairs_static(COL_BROADPHASE_SAP, &s.boxes, one, (col_touch)7, &got, NULL),
      COL_ERR_ARGUMENT);
  cr_assert_eq(col_broadphase_pairs_static((col_broadphase)99, &s.boxes, one, COL_TOUCH_OVERLAPS,
                                           &got, NULL),
               COL_ERR_ARGUMENT);
  cr_assert_eq(
      col_broadphase_pairs_parallel_static(NULL, one, COL_TOUCH_OVERLAPS, NULL, &got, NULL),
      COL_ERR_NULL);
  col_pairs_free(&got);
  set_free(&s);
}

/* A level: a w x h grid of touching unit tiles (static, boxes 0 .. w h - 1) and `movers`
 * boxes of 0.75 x 1.5 that walk over it. */
static box_set level_make(size_t w, size_t h, size_t movers, uint8_t **marks) {
  box_set s = set_make(w * h + movers, 2);
  *marks = calloc(s.n, 1);
  for (size_t i = 0; i < w * h; i++) {
    s.v[0][i] = (float)(i % w), s.v[1][i] = (float)(i / w);
    s.v[3][i] = s.v[0][i] + 1, s.v[4][i] = s.v[1][i] + 1;
    (*marks)[i] = 1;
  }
  for (size_t m = 0; m < movers; m++) {
    const size_t i = w * h + m;
    s.v[0][i] = (float)(m * 7 % w) + 0.25f, s.v[1][i] = (float)(m * 3 % h) + 0.5f;
    s.v[3][i] = s.v[0][i] + 0.75f, s.v[4][i] = s.v[1][i] + 1.5f;
  }
  return s;
}

static void walk(box_set *s, size_t first, size_t count, int frame) {
  for (size_t i = first; i < first + count; i++) {
    const float dx = 0.25f * (float)((int)((i + (size_t)frame) % 5) - 2);
    s->v[0][i] += dx, s->v[3][i] += dx;
  }
}

Test(broadphase, cache_static_marks_every_form) {
  const col_broadphase forms[] = {COL_BROADPHASE_TREE, COL_BROADPHASE_SAP, COL_BROADPHASE_GRID};
  for (size_t f = 0; f < 3; f++)
    for (int listed = 0; listed < 2; listed++) {
      uint8_t *marks;
      box_set s = level_make(30, 20, 40, &marks);
      col_broadphase_cache *cache;
      cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
      cr_assert_eq(col_broadphase_cache_set_algorithm(cache, forms[f]), COL_OK);
      cr_assert_eq(col_broadphase_cache_set_static(cache, marks, s.n), COL_OK);
      uint32_t list[64];
      for (int frame = 0; frame < 12; frame++) {
        size_t moved = 0;
        if (frame > 0) {
          walk(&s, 600, 40, frame);
          for (uint32_t m = 0; m < 40; m++) list[moved++] = 600 + m;
          /* A static box moves too (a door): its pairs with the movers follow it. */
          s.v[1][5 + frame] += 0.5f, s.v[4][5 + frame] += 0.5f;
          list[moved++] = (uint32_t)(5 + frame);
        }
        col_pairs got = {0}, want = {0};
        const col_status st =
            listed && frame > 0
                ? col_broadphase_cache_update_moved(cache, &s.boxes, list, moved,
                                                    COL_TOUCH_OVERLAPS, &got, NULL)
                : col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL);
        cr_assert_eq(st, COL_OK);
        want_static(&s.boxes, marks, COL_TOUCH_OVERLAPS, &want);
        assert_same(&got, &want, "static marks");
        col_pairs_free(&got), col_pairs_free(&want);
      }
      /* Marks of another count: the update refuses, the cache is left as it was. */
      cr_assert_eq(col_broadphase_cache_set_static(cache, marks, s.n - 1), COL_OK);
      col_pairs got = {0}, want = {0};
      cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
                   COL_ERR_SIZE);
      /* Cleared: every pair again. */
      cr_assert_eq(col_broadphase_cache_set_static(cache, NULL, 0), COL_OK);
      cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
                   COL_OK);
      want_static(&s.boxes, NULL, COL_TOUCH_OVERLAPS, &want);
      assert_same(&got, &want, "marks cleared");
      cr_assert_eq(col_broadphase_cache_set_static(NULL, marks, 1), COL_ERR_NULL);
      cr_assert_eq(col_broadphase_cache_set_static(cache, NULL, 3), COL_ERR_NULL);
      col_pairs_free(&got), col_pairs_free(&want);
      col_broadphase_cache_destroy(cache);
      free(marks);
      set_free(&s);
    }
}

Test(broadphase, kept_grid_work_follows_what_moved) {
  uint8_t *marks;
  box_set s = level_make(60, 50, 30, &marks);
  col_broadphase_cache *cache;
  cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
  cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_GRID), COL_OK);
  col_pairs got = {0}, want = {0};
  col_broadphase_stats st;
  for (int frame = 0; frame < 6; frame++) {
    if (frame > 0) walk(&s, 3000, 30, frame);
    cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, &st),
                 COL_OK);
    want_static(&s.boxes, NULL, COL_TOUCH_OVERLAPS, &want);
    assert_same(&got, &want, "tile level");
    /* 30 of 3,030 boxes move: a frame tests each against the few tiles of its cells (sweep and
     * prune from scratch tests every tile against its neighbours: over 10,000 tests). */
    if (frame > 0)
      cr_assert_lt(st.tests, 30u * 60u, "frame %d: %llu tests", frame,
                   (unsigned long long)st.tests);
  }
  /* Most boxes move: the frame is found from scratch, and stays exact. */
  walk(&s, 0, s.n, 9);
  cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, &st), COL_OK);
  want_static(&s.boxes, NULL, COL_TOUCH_OVERLAPS, &want);
  assert_same(&got, &want, "most moved");
  cr_assert_gt(st.tests, 3000u, "a whole frame tests the tiles too");
  walk(&s, 3000, 30, 10);
  cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, &st), COL_OK);
  want_static(&s.boxes, NULL, COL_TOUCH_OVERLAPS, &want);
  assert_same(&got, &want, "after the whole frame");
  col_pairs_free(&got), col_pairs_free(&want);
  col_broadphase_cache_destroy(cache);
  free(marks);
  set_free(&s);
}

/* The set difference a \ b of two sorted lists, into out. */
static void minus(const col_pairs *a, const col_pairs *b, col_pairs *out) {
  out->count = 0;
  size_t j = 0;
  for (size_t i = 0; i < a->count; i++) {
    while (j < b->count && (b->data[j].a < a->data[i].a ||
                            (b->data[j].a == a->data[i].a && b->data[j].b < a->data[i].b)))
      j++;
    if (j < b->count && b->data[j].a == a->data[i].a && b->data[j].b == a->data[i].b) continue;
    cr_assert_eq(col_pairs_push(out, a->data[i].a, a->data[i].b), COL_OK);
  }
}

Test(broadphase, cache_changes_are_the_difference) {
  uint64_t rng = 77;
  const col_broadphase forms[] = {COL_BROADPHASE_TREE, COL_BROADPHASE_SAP, COL_BROADPHASE_GRID};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (size_t f = 0; f < 3; f++)
      for (int use_marks = 0; use_marks < 2; use_marks++) {
        box_set s = set_make(250, dims);
        fill(&s, SPREAD, &rng);
        uint8_t *marks = marks_make(s.n, &rng, 3);
        col_broadphase_cache *cache;
        cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
        cr_assert_eq(col_broadphase_cache_set_algorithm(cache, forms[f]), COL_OK);
        if (use_marks) cr_assert_eq(col_broadphase_cache_set_static(cache, marks, s.n), COL_OK);
        col_pairs began = {0}, ended = {0}, prev = {0}, now = {0}, d = {0};
        cr_assert_eq(col_broadphase_cache_changes(cache, &began, &ended), COL_ERR_ARGUMENT,
                     "tracking off");
        cr_assert_eq(col_broadphase_cache_track_changes(cache, true), COL_OK);
        cr_assert_eq(col_broadphase_cache_changes(cache, &began, &ended), COL_ERR_ARGUMENT,
                     "no update yet");
        for (int frame = 0; frame < 25; frame++) {
          /* Most frames a few boxes move; every fifth frame most of them do. */
          const uint32_t one_in = frame % 5 == 4 ? 2 : 12;
          for (size_t i = 0; frame > 0 && i < s.n; i++) {
            if (rand_below(&rng, one_in) != 0) continue;
            const float step = (float)((int)rand_below(&rng, 9) - 4) * 1.5f;
            s.v[0][i] += step, s.v[3][i] += step;
          }
          col_pairs got = {0};
          cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_OK);
          want_static(&s.boxes, use_marks ? marks : NULL, COL_TOUCH_OVERLAPS, &now);
          cr_assert_eq(col_broadphase_cache_changes(cache, &began, &ended), COL_OK);
          minus(&now, &prev, &d);
          assert_same(&began, &d, "began");
          minus(&prev, &now, &d);
          assert_same(&ended, &d, "ended");
          col_pairs t = prev;
          prev = now, now = t;
          col_pairs_free(&got);
        }
        cr_assert_eq(col_broadphase_cache_changes(NULL, &began, &ended), COL_ERR_NULL);
        cr_assert_eq(col_broadphase_cache_changes(cache, NULL, &ended), COL_ERR_NULL);
        cr_assert_eq(col_broadphase_cache_track_changes(NULL, true), COL_ERR_NULL);
        col_pairs_free(&began), col_pairs_free(&ended), col_pairs_free(&prev);
        col_pairs_free(&now), col_pairs_free(&d);
        col_broadphase_cache_destroy(cache);
        free(marks);
        set_free(&s);
      }
}
