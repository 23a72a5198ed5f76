/* The incremental broadphase (col_broadphase_cache, DESIGN.md 4.5): frame after frame exactly
 * brute force's pair set, with the kept tree and the kept sweep and prune, whether the cache
 * finds the moved boxes or is told them. */
#include "broadphase_sets.h"

#include <string.h>

/* The incremental cache over many frames: each frame moves some boxes (small steps, big
 * jumps, into and out of NaN), and its pairs must equal brute force's for that frame. */
/* listed: 0 the cache compares every box, 1 the caller lists the moved boxes (with repeats and
 * unmoved boxes mixed in), 2 both forms alternate frame by frame. */
Test(broadphase, cache_follows_moving_boxes_exactly) {
  /* The kept grid draws from a stream of its own, so the tree's and sweep and prune's scenes
   * stay those this test was written with. */
  uint64_t rng_old = 12, rng_grid = 13;
  uint32_t list[3 * 200];
  for (unsigned dims = 2; dims <= 3; dims++)
    for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++)
      for (int form = 0; form < 3; form++)
        for (int listed = 0; listed < 3; listed++) {
          uint64_t *rng = form == 2 ? &rng_grid : &rng_old;
          box_set s = set_make(200, dims);
          fill(&s, SPREAD, rng);
          col_broadphase_cache *cache = NULL;
          cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
          /* The kept tree, sweep and prune and grid (moved boxes looked up when few move). */
          const col_broadphase forms[] = {COL_BROADPHASE_TREE, COL_BROADPHASE_SAP,
                                          COL_BROADPHASE_GRID};
          const col_broadphase kept = forms[form];
          cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_QUADTREE),
                       COL_ERR_ARGUMENT);
          cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_BRUTE),
                       COL_ERR_ARGUMENT);
          cr_assert_eq(col_broadphase_cache_set_algorithm(cache, kept), COL_OK);
          for (int frame = 0; frame < 40; frame++) {
            size_t moved = 0;
            for (size_t i = 0; i < s.n; i++) {
              if (rand_below(rng, 30) == 0) list[moved++] = (uint32_t)i; /* unmoved, listed */
              if (rand_below(rng, 10) != 0) continue;                    /* about 10% move */
              list[moved++] = (uint32_t)i;
              if (rand_below(rng, 8) == 0) list[moved++] = (uint32_t)i; /* listed twice */
              const uint32_t kind = rand_below(rng, 20);
              for (int k = 0; k < 3; k++) {
                const float step =
                    kind == 0 ? 300.0f : (float)((int)rand_below(rng, 9) - 4) * 0.25f;
                s.v[k][i] += step, s.v[3 + k][i] += step;
              }
              if (kind == 1) s.v[1][i] = NAN;
              if (kind == 2 && s.v[1][i] != s.v[1][i]) s.v[1][i] = s.v[4][i] - 1.0f;
            }
            col_pairs got = {0}, want = {0};
            col_broadphase_stats stats;
            if (listed == 1 || (listed == 2 && frame % 2 == 1))
              cr_assert_eq(col_broadphase_cache_update_moved(cache, &s.boxes, list, moved, touch,
                                                             &got, &stats),
                           COL_OK);
            else
              cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, touch, &got, &stats),
                           COL_OK);
            cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_BRUTE, &s.boxes, touch, &want, NULL),
                         COL_OK);
            col_pairs_sort(&got), col_pairs_sort(&want);
            cr_assert_eq(got.count, want.count, "frame %d, %uD, touch %d: %zu pairs, want %zu",
                         frame, dims, touch, got.count, want.count);
            cr_assert(got.count == 0 ||
                          memcmp(got.data, want.data, got.count * sizeof(col_pair)) == 0,
                      "frame %d: pair lists differ", frame);
            cr_assert_eq(stats.pairs, got.count);
            if (frame > 0)
              cr_assert_lt(stats.tests, 200u * 199u / 2u / 4u,
                           "incremental work is small: form %d, frame %d, %uD: %llu tests", form,
                           frame, dims, (unsigned long long)stats.tests);
            col_pairs_free(&got), col_pairs_free(&want);
          }
          /* A different count rebuilds; errors leave the cache usable. */
          s.boxes.count = 150;
          col_pairs got = {0};
          cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_OK);
          cr_assert_eq(col_broadphase_cache_update(cache, NULL, COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_ERR_NULL);
          cr_assert_eq(col_broadphase_cache_update_moved(cache, &s.boxes, NULL, 1,
                                                         COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_ERR_NULL);
          list[0] = 150; /* past the 150 boxes */
          cr_assert_eq(col_broadphase_cache_update_moved(cache, &s.boxes, list, 1,
                                                         COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_ERR_SIZE);
          list[0] = 149;
          cr_assert_eq(col_broadphase_cache_update_moved(cache, &s.boxes, list, 1,
                                                         COL_TOUCH_OVERLAPS, &got, NULL),
                       COL_OK);
          cr_assert_eq(col_broadphase_cache_create(NULL), COL_ERR_NULL);
          col_pairs_free(&got);
          col_broadphase_cache_destroy(cache);
          s.boxes.count = 200;
          set_free(&s);
        }
}

/* The kept sweep and prune at the touch: a moved box that touches the box sorted just before
 * it (found by the backward look-up, whose bound is that box's max x exactly) and one that
 * touches the box after it (the forward run), under the closed rule; neither under the open. */
Test(broadphase, cache_sap_finds_touching_moved_boxes) {
  for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
    box_set s = set_make(40, 2);
    for (size_t i = 0; i < s.n; i++) /* a row of unit boxes, 10 apart */
      s.v[0][i] = 10.0f * (float)i, s.v[3][i] = s.v[0][i] + 1.0f, s.v[1][i] = 0, s.v[4][i] = 1;
    col_broadphase_cache *cache = NULL;
    cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
    cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP), COL_OK);
    col_pairs got = {0};
    cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, touch, &got, NULL), COL_OK);
    cr_assert_eq(got.count, 0);
    s.v[0][5] = 41.0f, s.v[3][5] = 42.0f; /* touches box 4's right edge */
    s.v[0][7] = 59.0f, s.v[3][7] = 60.0f; /* touches box 6's left edge */
    /* Two moved boxes with the same min x, the second of zero width: it lies in the first one's
     * forward run, and only its max x decides (touching under the closed rule only). */
    s.v[0][20] = 305.0f, s.v[3][20] = 306.0f; /* between boxes 30 and 31 */
    s.v[0][21] = s.v[3][21] = 305.0f;
    cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, touch, &got, NULL), COL_OK);
    col_pairs_sort(&got);
    if (touch == COL_TOUCH_OVERLAPS) {
      cr_assert_eq(got.count, 3);
      cr_assert(got.data[0].a == 4 && got.data[0].b == 5 && got.data[1].a == 6 &&
                got.data[1].b == 7 && got.data[2].a == 20 && got.data[2].b == 21);
    } else {
      cr_assert_eq(got.count, 0, "%zu pairs under the open rule", got.count);
    }
    col_pairs_free(&got);
    col_broadphase_cache_destroy(cache);
    set_free(&s);
  }
}

/* The kept sweep and prune on a crowd large enough for its look-up windows: 1,500 boxes about
 * 13 to a unit of x, a tenth moving by up to a unit each frame (listed on odd frames), a box
 * ten units wide every 500 (its neighbours fall back to the walk and the run), one box jumping
 * across the scene every frame; every frame exactly brute force's pairs, and window sizes that
 * do not run away. */
Test(broadphase, cache_sap_windows_follow_a_crowd) {
  uint64_t rng = 31;
  uint32_t list[1500];
  for (unsigned dims = 2; dims <= 3; dims++)
    for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
      box_set s = set_make(1500, dims);
      for (size_t i = 0; i < s.n; i++)
        for (int k = 0; k < 3; k++) {
          const float c = (float)rand_below(&rng, k == 0 ? 1200 : 400) * 0.1f;
          const float e = (float)(2 + rand_below(&rng, 8)) * 0.25f;
          const float wide = k == 0 && i % 500 == 0 ? 5.0f : 0.0f;
          s.v[k][i] = c - e - wide, s.v[3 + k][i] = c + e + wide;
        }
      col_broadphase_cache *cache = NULL;
      cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
      cr_assert_eq(col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP), COL_OK);
      for (int frame = 0; frame < 24; frame++) {
        size_t moved = 0;
        for (size_t i = (size_t)frame % 10; frame > 0 && i < s.n; i += 10) {
          const float dx = (float)((int)rand_below(&rng, 9) - 4) * 0.25f;
          const float dy = (float)((int)rand_below(&rng, 5) - 2) * 0.25f;
          s.v[0][i] += dx, s.v[3][i] += dx, s.v[1][i] += dy, s.v[4][i] += dy;
          list[moved++] = (uint32_t)i;
        }
        if (frame > 0) { /* across the scene and back */
          const float jump = frame % 2 ? 100.0f : -100.0f;
          s.v[0][7] += jump, s.v[3][7] += jump, list[moved++] = 7;
        }
        col_pairs got = {0}, want = {0};
        col_broadphase_stats stats, sweep;
        if (frame % 2)
          cr_assert_eq(
              col_broadphase_cache_update_moved(cache, &s.boxes, list, moved, touch, &got, &stats),
              COL_OK);
        else
          cr_assert_eq(col_broadphase_cache_update(cache, &s.boxes, touch, &got, &stats), COL_OK);
        cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_BRUTE, &s.boxes, touch, &want, NULL),
                     COL_OK);
        col_pairs_sort(&got), col_pairs_sort(&want);
        cr_assert_eq(got.count, want.count, "frame %d, %uD, touch %d: %zu pairs, want %zu", frame,
                     dims, touch, got.count, want.count);
        cr_assert(got.count == 0 || memcmp(got.data, want.data, got.count * sizeof(col_pair)) == 0,
                  "frame %d, %uD, touch %d: pair lists differ", frame, dims, touch);
        cr_assert_gt(want.count, s.n / 2, "a crowd: %zu pairs", want.count);
        cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, touch, &want, &sweep),
                     COL_OK);
        /* The windows (a hundred-odd positions a moved box) do not grow: under 200 tests a
         * moved box (a sweep here makes about ten a box, but pays for every box). */
        if (frame > 0)
          cr_assert_lt(stats.tests, 200 * moved,
                       "frame %d: %zu tests for %zu moved boxes (%zu in a sweep)", frame,
                       (size_t)stats.tests, moved, (size_t)sweep.tests);
        col_pairs_free(&got), col_pairs_free(&want);
      }
      col_broadphase_cache_destroy(cache);
      set_free(&s);
    }
}

Test(broadphase, cache_frames_without_pairs) {
  /* Frames with no pair at all (the kept pair list never allocated), both update forms and
   * both kept algorithms: nothing to carry over, nothing found. */
  box_set s = set_make(3, 2);
  for (size_t i = 0; i < 3; i++)
    s.v[0][i] = s.v[1][i] = (float)(10 * i), s.v[3][i] = s.v[4][i] = (float)(10 * i + 1);
  for (int sap = 0; sap < 2; sap++) {
    col_broadphase_cache *cache = NULL;
    cr_assert_eq(col_broadphase_cache_create(&cache), COL_OK);
    cr_assert_eq(
        col_broadphase_cache_set_algorithm(cache, sap ? COL_BROADPHASE_SAP : COL_BROADPHASE_TREE),
        COL_OK);
    const uint32_t moved[1] = {1};
    col_pairs got = {0};
    for (int frame = 0; frame < 4; frame++) {
      s.v[0][1] += 0.5f, s.v[3][1] += 0.5f;
      const col_status st =
          frame % 2 ? col_broadphase_cache_update_moved(cache, &s.boxes, moved, 1,
                                                        COL_TOUCH_OVERLAPS, &got, NULL)
                    : col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL);
      cr_assert_eq(st, COL_OK);
      cr_expect_eq(got.count, 0u, "frame %d", frame);
    }
    col_pairs_free(&got);
    col_broadphase_cache_destroy(cache);
  }
  set_free(&s);
}
