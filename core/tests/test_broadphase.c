/* Broadphases (DESIGN.md 4.5): every algorithm returns exactly the brute-force pair set, 2D and
 * 3D, both touch rules, on the active backend, for sets full of edge cases (touching and
 * duplicate boxes, zero-size and inverted boxes, NaN, infinities, huge coordinates, boxes
 * spanning many grid cells, everything overlapping). The oracle is the single-pair rule over
 * every pair, written here independently of the library's loops. */
#include "helpers.h"

#include <float.h>
#include <stdlib.h>

#include <string.h>

#include "broadphase_sets.h"

static const char *const scene_names[] = {"gridded", "edges",     "same-box",   "points",
                                          "spread",  "fractions", "float-range"};

static col_aabb3 box_of(const box_set *s, size_t i) {
  return (col_aabb3){{s->v[0][i], s->v[1][i], s->v[2][i]}, {s->v[3][i], s->v[4][i], s->v[5][i]}};
}

static bool pair_overlap(const box_set *s, size_t i, size_t j, col_touch touch) {
  const col_aabb3 a = box_of(s, i), b = box_of(s, j);
  if (s->boxes.dims == 3) return col_aabb3_overlap(a, b, touch);
  return col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                           (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
}

/* Runs every algorithm and checks its sorted pairs against the oracle's (already sorted:
 * i ascending, then j). */
static void expect_all_agree(const box_set *s, col_touch touch, const char *scene) {
  col_pairs want = {0};
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++)
      if (pair_overlap(s, i, j, touch)) {
        if (want.count == want.capacity) {
          want.capacity = want.capacity ? 2 * want.capacity : 64;
          want.data = realloc(want.data, want.capacity * sizeof(col_pair));
        }
        want.data[want.count++] = (col_pair){(uint32_t)i, (uint32_t)j};
      }
  for (size_t a = 0; a < col_broadphase_count(); a++) {
    const col_broadphase_info info = algorithm_at(a);
    const char *name = info.name;
    if ((s->boxes.dims == 2 && !info.two_d) || (s->boxes.dims == 3 && !info.three_d)) continue;
    col_pairs got = {0};
    col_broadphase_stats stats = {0, 0, 0, 0};
    cr_assert_eq(col_broadphase_pairs(info.algorithm, &s->boxes, touch, &got, &stats), COL_OK);
    col_pairs_sort(&got);
    cr_expect_eq(got.count, want.count, "%s %s %uD touch %d n=%zu: %zu pairs, want %zu", name,
                 scene, s->boxes.dims, touch, s->n, got.count, want.count);
    cr_expect_eq(stats.pairs, got.count, "%s stats.pairs", name);
    const size_t all = s->n * (s->n ? s->n - 1 : 0) / 2;
    if (info.algorithm == COL_BROADPHASE_BRUTE) cr_expect_eq(stats.tests, all);
    for (size_t k = 0; k < got.count && k < want.count; k++) {
      cr_expect(got.data[k].a == want.data[k].a && got.data[k].b == want.data[k].b,
                "%s %s: pair %zu is (%u, %u), want (%u, %u)", name, scene, k, got.data[k].a,
                got.data[k].b, want.data[k].a, want.data[k].b);
      if (got.data[k].a != want.data[k].a || got.data[k].b != want.data[k].b) break;
    }
    col_pairs_free(&got);
  }
  free(want.data);
}

Test(broadphase, every_algorithm_equals_brute_force) {
  uint64_t rng = 9;
  /* From 256 boxes on, sweep and prune deals upright finite boxes into cells over y (and z). */
  const size_t sizes[] = {0, 1, 2, 3, 5, 16, 17, 33, 64, 150, 300, 1000};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (int scene = GRIDDED; scene <= FLOAT_RANGE; scene++)
      for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        box_set s = set_make(sizes[k], dims);
        fill(&s, (enum scene)scene, &rng);
        expect_all_agree(&s, COL_TOUCH_OVERLAPS, scene_names[scene]);
        expect_all_agree(&s, COL_TOUCH_SEPARATES, scene_names[scene]);
        set_free(&s);
      }
}

Test(broadphase, pruning_prunes) {
  /* A sparse scene: sweep-and-prune and the grid must test far fewer pairs than brute force. */
  uint64_t rng = 10;
  box_set s = set_make(2000, 2);
  for (size_t i = 0; i < s.n; i++)
    for (int k = 0; k < 3; k++) {
      s.v[k][i] = (float)rand_below(&rng, 100000) * 0.01f;
      s.v[3 + k][i] = s.v[k][i] + 1.0f;
    }
  col_pairs out = {0};
  col_broadphase_stats brute, sap, grid;
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_BRUTE, &s.boxes, COL_TOUCH_OVERLAPS, &out, &brute),
      COL_OK);
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS, &out, &sap),
               COL_OK);
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_GRID, &s.boxes, COL_TOUCH_OVERLAPS, &out, &grid),
               COL_OK);
  cr_expect_eq(brute.tests, 2000u * 1999u / 2u);
  cr_expect_lt(sap.tests * 20, brute.tests, "sap tested %llu", (unsigned long long)sap.tests);
  cr_expect_lt(grid.tests * 20, brute.tests, "grid tested %llu", (unsigned long long)grid.tests);
  cr_expect_eq(sap.pairs, brute.pairs);
  cr_expect_eq(grid.pairs, brute.pairs);
  /* Working memory: brute force one index per box; sweep and prune order, keys and the sort's
   * scratch (6n + 2 words), every box's record (16 bytes in 2D, and one for the padding), per
   * cell three counters and four tallies (8 bytes each; at most 256 rows in 2D, and kz + 1 spare
   * counters), every place (8 bytes: at most 3n copies and 31 padding places per cell, one
   * spare), and the larger of the cell spans (4 bytes a box) and one cell's arrays (min and
   * max per axis, box index, tag: 6 in 2D, each at most the places, rounded up to 64 bytes). */
  const size_t n = 2000, places = 3 * n + 256 * 31 + 1;
  cr_expect_eq(brute.scratch_bytes, n * 4u);
  cr_expect_geq(sap.scratch_bytes, (6 * n + 2) * 4 + 16 * (n + 1) + 8 * n);
  cr_expect_leq(sap.scratch_bytes, (6 * n + 2) * 4 + 16 * (n + 1) + (3 * 258 + 4 * 256) * 8 +
                                       8 * places + 6 * (places * 4 + 64));
  cr_expect_gt(grid.scratch_bytes, 2000u * 16u, "at least one 16-byte cell entry per box");
  col_pairs_free(&out);
  set_free(&s);
}

Test(broadphase, errors_and_reuse) {
  float x[2] = {0, 1};
  const col_boxes ok = {2, {x, x, NULL}, {x, x, NULL}, 2};
  col_boxes bad = ok;
  col_pairs out = {0};
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, NULL, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_NULL);
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &ok, COL_TOUCH_OVERLAPS, NULL, NULL),
               COL_ERR_NULL);
  bad.dims = 4;
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &bad, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_SIZE);
  bad = ok, bad.max[1] = NULL;
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_GRID, &bad, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_NULL);
  bad = ok, bad.dims = 3; /* the z arrays are missing */
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_BRUTE, &bad, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_NULL);
  cr_assert_eq(col_broadphase_pairs((col_broadphase)9, &ok, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_ARGUMENT);
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &ok, (col_touch)5, &out, NULL),
               COL_ERR_ARGUMENT);
  /* Boxes (0,0)-(1,1) twice: one pair; a second call replaces the list. */
  for (int round = 0; round < 2; round++) {
    cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_SAP, &ok, COL_TOUCH_OVERLAPS, &out, NULL),
                 COL_OK);
    cr_assert_eq(out.count, 0,
                 "x = {0, 1} as min and max: box 0 is (0,0)-(0,0), box 1 (1,1)-(1,1)");
  }
  const col_boxes empty = {3, {NULL, NULL, NULL}, {NULL, NULL, NULL}, 0};
  cr_assert_eq(col_broadphase_pairs(COL_BROADPHASE_GRID, &empty, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_OK);
  cr_assert_eq(out.count, 0);
  col_pairs_free(&out);
  cr_assert_null(out.data);
}

/* Set A against set B: exactly the pairs of an all-against-all test, (index in A, index in B). */
Test(broadphase, bipartite_equals_all_against_all) {
  uint64_t rng = 13;
  const size_t sizes[][2] = {{0, 5}, {5, 0}, {1, 1}, {17, 33}, {100, 7}, {150, 150}};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (int scene = GRIDDED; scene <= FLOAT_RANGE; scene++)
      for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (col_touch touch = COL_TOUCH_OVERLAPS; touch <= COL_TOUCH_SEPARATES; touch++) {
          box_set a = set_make(sizes[k][0], dims), b = set_make(sizes[k][1], dims);
          fill(&a, (enum scene)scene, &rng), fill(&b, (enum scene)scene, &rng);
          col_pairs got = {0}, want = {0};
          for (size_t i = 0; i < a.n; i++)
            for (size_t j = 0; j < b.n; j++) {
              const col_aabb3 x = box_of(&a, i), y = box_of(&b, j);
              const bool hit =
                  dims == 3 ? col_aabb3_overlap(x, y, touch)
                            : col_aabb2_overlap((col_aabb2){{x.min.x, x.min.y}, {x.max.x, x.max.y}},
                                                (col_aabb2){{y.min.x, y.min.y}, {y.max.x, y.max.y}},
                                                touch);
              if (!hit) continue;
              if (want.count == want.capacity) {
                want.capacity = want.capacity ? 2 * want.capacity : 64;
                want.data = realloc(want.data, want.capacity * sizeof(col_pair));
              }
              want.data[want.count++] = (col_pair){(uint32_t)i, (uint32_t)j};
            }
          col_broadphase_stats stats;
          cr_assert_eq(col_broadphase_bipartite(&a.boxes, &b.boxes, touch, &got, &stats), COL_OK);
          col_pairs_sort(&got);
          cr_expect_eq(got.count, want.count, "%s %uD touch %d %zux%zu: %zu pairs, want %zu",
                       scene_names[scene], dims, touch, a.n, b.n, got.count, want.count);
          cr_expect(got.count != want.count || got.count == 0 ||
                        memcmp(got.data, want.data, got.count * sizeof(col_pair)) == 0,
                    "%s: pair lists differ", scene_names[scene]);
          cr_expect_eq(stats.pairs, got.count);
          col_pairs_free(&got), free(want.data);
          set_free(&a), set_free(&b);
        }
  float x[1] = {0};
  const col_boxes two = {2, {x, x, NULL}, {x, x, NULL}, 1}, three = {3, {x, x, x}, {x, x, x}, 1};
  col_pairs out = {0};
  cr_assert_eq(col_broadphase_bipartite(&two, &three, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_SIZE);
  cr_assert_eq(col_broadphase_bipartite(NULL, &two, COL_TOUCH_OVERLAPS, &out, NULL), COL_ERR_NULL);
  cr_assert_eq(col_broadphase_bipartite(&two, &two, (col_touch)3, &out, NULL), COL_ERR_ARGUMENT);
  cr_assert_eq(col_broadphase_bipartite(&two, &two, COL_TOUCH_OVERLAPS, &out, NULL), COL_OK);
  cr_assert_eq(out.count, 1, "a point box touches itself under the closed rule");
  col_pairs_free(&out);
}

/* The registry that every harness walks: row i is algorithm i (the dispatch relies on it), names
 * unique and non-empty, every algorithm in 2D and 3D here, out of range refused. */
Test(broadphase, registry) {
  const size_t n = col_broadphase_count();
  cr_assert_geq(n, 5u);
  for (size_t i = 0; i < n; i++) {
    col_broadphase_info info;
    cr_assert(col_broadphase_at(i, &info));
    cr_expect_eq((size_t)info.algorithm, i, "row %zu holds algorithm %d", i, (int)info.algorithm);
    cr_expect(info.name != NULL && info.name[0] != '\0');
    cr_expect(info.two_d && info.three_d, "%s", info.name);
    for (size_t j = 0; j < i; j++) cr_expect_str_neq(info.name, algorithm_at(j).name);
  }
  col_broadphase_info untouched = {"untouched", COL_BROADPHASE_SAP, false, false, false};
  cr_expect(!col_broadphase_at(n, &untouched));
  cr_expect_str_eq(untouched.name, "untouched");
  cr_expect(!col_broadphase_at(0, NULL));
  col_pairs out = {0};
  const float v[2] = {0, 1};
  const col_boxes one = {2, {v, v, NULL}, {v, v, NULL}, 1};
  cr_expect_eq(col_broadphase_pairs((col_broadphase)n, &one, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_ARGUMENT);
  cr_expect_eq(col_broadphase_pairs((col_broadphase)-1, &one, COL_TOUCH_OVERLAPS, &out, NULL),
               COL_ERR_ARGUMENT);
  col_pairs_free(&out);
}

Test(broadphase, working_memory_is_kept_between_calls) {
  /* Sweep and prune keeps its working memory in the pair list: a second call on the same
   * boxes reuses it and gives the same pairs; a larger set then grows it and is still exact;
   * col_pairs_free releases it (the ASan build would report a leak). */
  uint64_t rng = 41;
  box_set small = set_make(600, 3), large = set_make(3000, 3);
  fill(&small, SPREAD, &rng);
  fill(&large, SPREAD, &rng);
  col_pairs out = {0}, first = {0};
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &small.boxes, COL_TOUCH_OVERLAPS, &first, NULL),
      COL_OK);
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &small.boxes, COL_TOUCH_OVERLAPS, &out, NULL),
      COL_OK);
  cr_assert_not_null(out.work);
  const struct col_pairs_work *kept = out.work;
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &small.boxes, COL_TOUCH_OVERLAPS, &out, NULL),
      COL_OK);
  cr_expect_eq(out.work, kept, "the second call kept the same working memory");
  col_pairs_sort(&out), col_pairs_sort(&first);
  cr_assert_eq(out.count, first.count);
  cr_expect_eq(memcmp(out.data, first.data, out.count * sizeof(col_pair)), 0);
  col_pairs_free(&first);
  expect_all_agree(&large, COL_TOUCH_OVERLAPS, "spread after a smaller set");
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &large.boxes, COL_TOUCH_OVERLAPS, &out, NULL),
      COL_OK);
  col_pairs want = {0};
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_BRUTE, &large.boxes, COL_TOUCH_OVERLAPS, &want, NULL),
      COL_OK);
  col_pairs_sort(&out), col_pairs_sort(&want);
  cr_assert_eq(out.count, want.count);
  cr_expect_eq(memcmp(out.data, want.data, out.count * sizeof(col_pair)), 0);
  col_pairs_free(&out);
  cr_expect_null(out.work);
  col_pairs_free(&want);
  set_free(&small), set_free(&large);
}

/* stats.cells names the path sweep and prune took (broadphase.h): a 2D row of 1,000 unit boxes
 * stacked on y over 4,000 units is swept in cells, in the parallel calls too; one box unbounded
 * or inverted on y, every box flat on y, or fewer than 256 boxes that can pair: swept whole;
 * the other algorithms report 0. */
static uint64_t cells_of(col_broadphase algorithm, const col_boxes *b) {
  col_pairs p = {0};
  col_broadphase_stats st = {0, 0, 0, 0};
  cr_assert_eq(col_broadphase_pairs(algorithm, b, COL_TOUCH_OVERLAPS, &p, &st), COL_OK);
  col_pairs_free(&p);
  return st.cells;
}

Test(broadphase, stats_cells_name_the_path) {
  enum { N = 1000 };
  static float x0[N], y0[N], x1[N], y1[N];
  for (size_t i = 0; i < N; i++)
    x0[i] = (float)(i % 7), y0[i] = 4.0f * (float)i, x1[i] = x0[i] + 1, y1[i] = y0[i] + 1;
  col_boxes b = {2, {x0, y0, NULL}, {x1, y1, NULL}, N};
  const uint64_t cells = cells_of(COL_BROADPHASE_SAP, &b);
  cr_expect_gt(cells, 1, "finite upright boxes spread on y: swept in cells, got %llu",
               (unsigned long long)cells);
  col_pairs p = {0};
  col_broadphase_stats st = {0, 0, 0, 0};
  const col_parallel builtin = {NULL, 0, true};
  cr_assert_eq(col_broadphase_pairs_parallel(&b, COL_TOUCH_OVERLAPS, &builtin, &p, &st), COL_OK);
  cr_expect_eq(st.cells, cells, "the parallel call reports the sequential call's cells");
  col_pairs_free(&p);
  for (size_t a = 0; a < col_broadphase_count(); a++) {
    const col_broadphase_info info = algorithm_at(a);
    if (info.algorithm != COL_BROADPHASE_SAP && info.two_d)
      cr_expect_eq(cells_of(info.algorithm, &b), 0, "%s reports cells", info.name);
  }
  /* Two boxes from -FLT_MAX to 0 on y (4 apart, so the same lane of a 4- or 8-lane sum):
   * finite, and the mean height (about 6.8e35) far under a third of the y range; their sizes'
   * sum overflows a float, not the rule's mean. */
  y0[0] = y0[4] = -FLT_MAX, y1[0] = y1[4] = 0.0f;
  cr_expect_gt(cells_of(COL_BROADPHASE_SAP, &b), 1, "two boxes of height FLT_MAX: in cells");
  y0[0] = 0.0f, y0[4] = 16.0f, y1[0] = 1.0f, y1[4] = 17.0f;
  const float saved_y1 = y1[500];
  y1[500] = INFINITY;
  cr_expect_eq(cells_of(COL_BROADPHASE_SAP, &b), 1, "a box unbounded on y: swept whole");
  y1[500] = y0[500] - 1;
  cr_expect_eq(cells_of(COL_BROADPHASE_SAP, &b), 1, "a box inverted on y: swept whole");
  y1[500] = saved_y1;
  for (size_t i = 0; i < N; i++) y1[i] = y0[i];
  cr_expect_eq(cells_of(COL_BROADPHASE_SAP, &b), 1, "every box flat on y: swept whole");
  for (size_t i = 0; i < N; i++) y1[i] = y0[i] + 1, x0[i] = i < 760 ? NAN : x0[i];
  cr_expect_eq(cells_of(COL_BROADPHASE_SAP, &b), 1, "240 boxes that can pair: swept whole");
  b.count = 1;
  cr_expect_eq(cells_of(COL_BROADPHASE_SAP, &b), 0, "one box: nothing swept");
}
