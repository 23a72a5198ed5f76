/* Broadphases on meshes (DESIGN.md 4.5): one box per triangle of a tessellated surface, the
 * boxes of triangles that share a vertex touching exactly, and many triangles crossing the
 * centre planes of the set's bounds, where a quadtree keeps them high in the tree. Every
 * algorithm must return exactly brute force's pair set under both touch rules; the quadtree's
 * box tests must stay within 16 per pair on such a scene (it once tested every box against
 * every box held above it: about 2,800 tests per box on an 89,000-triangle mesh). */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>

#include "broadphase_sets.h"

#define COL_TEST_PI 3.14159265358979323846

/* The boxes of a UV sphere of radius 1 centred at the origin, `seg` segments round and `rings`
 * from pole to pole (two triangles per quad, one at each pole's ring): its equator and its
 * meridians at 0, 90, 180 and 270 degrees lie on the centre planes. */
static box_set sphere(unsigned seg, unsigned rings) {
  const size_t n = (size_t)seg * 2 * (rings - 1);
  box_set s = set_make(n, 3);
  size_t m = 0;
  for (unsigned r = 0; r < rings; r++)
    for (unsigned g = 0; g < seg; g++) {
      float p[4][3];
      for (unsigned c = 0; c < 4; c++) {
        const double th = COL_TEST_PI * (r + (c >> 1)) / rings,
                     ph = 2 * COL_TEST_PI * (g + (c & 1)) / seg;
        p[c][0] = (float)(sin(th) * cos(ph)), p[c][1] = (float)(sin(th) * sin(ph));
        p[c][2] = (float)cos(th);
      }
      const unsigned tri[2][3] = {{0, 1, 3}, {0, 3, 2}};
      for (unsigned t = 0; t < 2; t++) {
        if ((r == 0 && t == 0) || (r == rings - 1 && t == 1)) continue; /* degenerate at poles */
        for (unsigned k = 0; k < 3; k++) {
          float lo = p[tri[t][0]][k], hi = lo;
          for (unsigned v = 1; v < 3; v++) {
            const float x = p[tri[t][v]][k];
            lo = x < lo ? x : lo, hi = x > hi ? x : hi;
          }
          s.v[k][m] = lo, s.v[3 + k][m] = hi;
        }
        m++;
      }
    }
  cr_assert_eq(m, n);
  return s;
}

/* A 2D triangulated grid of side x side quads over [-side/2, side/2]^2, the interior vertices
 * moved by up to a quarter of a quad (deterministically), two triangles per quad. */
static box_set sheet(unsigned side, uint64_t *rng) {
  const size_t n = (size_t)side * side * 2;
  box_set s = set_make(n, 2);
  float *vx = malloc((size_t)(side + 1) * (side + 1) * sizeof *vx);
  float *vy = malloc((size_t)(side + 1) * (side + 1) * sizeof *vy);
  cr_assert(vx && vy);
  for (unsigned j = 0; j <= side; j++)
    for (unsigned i = 0; i <= side; i++) {
      const bool inner = i > 0 && j > 0 && i < side && j < side;
      const float dx = inner ? ((float)rand_below(rng, 17) - 8.0f) / 32.0f : 0.0f;
      const float dy = inner ? ((float)rand_below(rng, 17) - 8.0f) / 32.0f : 0.0f;
      vx[j * (side + 1) + i] = (float)i - (float)side / 2 + dx;
      vy[j * (side + 1) + i] = (float)j - (float)side / 2 + dy;
    }
  size_t m = 0;
  for (unsigned j = 0; j < side; j++)
    for (unsigned i = 0; i < side; i++) {
      const unsigned a = j * (side + 1) + i, b = a + 1, c = a + side + 1, d = c + 1;
      const unsigned tri[2][3] = {{a, b, d}, {a, d, c}};
      for (unsigned t = 0; t < 2; t++, m++) {
        float x0 = vx[tri[t][0]], x1 = x0, y0 = vy[tri[t][0]], y1 = y0;
        for (unsigned v = 1; v < 3; v++) {
          const float x = vx[tri[t][v]], y = vy[tri[t][v]];
          x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1, y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        }
        s.v[0][m] = x0, s.v[1][m] = y0, s.v[3][m] = x1, s.v[4][m] = y1;
        s.v[2][m] = s.v[5][m] = 0.0f;
      }
    }
  free(vx), free(vy);
  return s;
}

static int by_pair(const void *x, const void *y) {
  const col_pair *p = x, *q = y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return (p->b > q->b) - (p->b < q->b);
}

/* Every algorithm's sorted pairs against the single-pair rule over every pair; returns the
 * quadtree's box tests. */
static uint64_t expect_exact(const box_set *s, col_touch touch, const char *scene,
                             size_t *pair_count) {
  col_pairs want = {0};
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++) {
      const col_aabb3 a = {{s->v[0][i], s->v[1][i], s->v[2][i]},
                           {s->v[3][i], s->v[4][i], s->v[5][i]}};
      const col_aabb3 b = {{s->v[0][j], s->v[1][j], s->v[2][j]},
                           {s->v[3][j], s->v[4][j], s->v[5][j]}};
      const bool hit =
          s->boxes.dims == 3
              ? col_aabb3_overlap(a, b, touch)
              : col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                                  (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
      if (!hit) continue;
      if (want.count == want.capacity) {
        want.capacity = want.capacity ? 2 * want.capacity : 1024;
        want.data = realloc(want.data, want.capacity * sizeof(col_pair));
        cr_assert(want.data);
      }
      want.data[want.count++] = (col_pair){(uint32_t)i, (uint32_t)j};
    }
  uint64_t quadtree_tests = 0;
  for (size_t k = 0; k < col_broadphase_count(); k++) {
    const col_broadphase_info info = algorithm_at(k);
    if ((s->boxes.dims == 2 && !info.two_d) || (s->boxes.dims == 3 && !info.three_d)) continue;
    col_pairs got = {0};
    col_broadphase_stats stats = {0, 0, 0, 0};
    cr_assert_eq(col_broadphase_pairs(info.algorithm, &s->boxes, touch, &got, &stats), COL_OK);
    qsort(got.data, got.count, sizeof(col_pair), by_pair);
    cr_expect_eq(got.count, want.count, "%s %s touch %d: %zu pairs, want %zu", info.name, scene,
                 touch, got.count, want.count);
    for (size_t p = 0; p < got.count && p < want.count; p++)
      if (got.data[p].a != want.data[p].a || got.data[p].b != want.data[p].b) {
        cr_expect_fail("%s %s touch %d: pair %zu is (%u, %u), want (%u, %u)", info.name, scene,
                       touch, p, got.data[p].a, got.data[p].b, want.data[p].a, want.data[p].b);
        break;
      }
    if (info.algorithm == COL_BROADPHASE_QUADTREE) quadtree_tests = stats.tests;
    col_pairs_free(&got);
  }
  *pair_count = want.count;
  free(want.data);
  return quadtree_tests;
}

Test(broadphase, meshes_exact_and_the_quadtree_tests_few_pairs) {
  uint64_t rng = 41;
  box_set sets[2] = {sphere(96, 48), sheet(48, &rng)};
  const char *names[2] = {"sphere", "sheet"};
  for (int k = 0; k < 2; k++) {
    for (int touch = 0; touch < 2; touch++) {
      size_t pairs = 0;
      const col_touch rule = touch ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
      const uint64_t tests = expect_exact(&sets[k], rule, names[k], &pairs);
      if (rule == COL_TOUCH_OVERLAPS) {
        /* Under the closed rule every triangle pairs with its neighbours (shared vertices),
         * about 12 a triangle; the classic quadtree's tests grew with the boxes above each
         * box instead (110 a pair on this sphere, 58 on this sheet). Now 6.7 and 7.4: each
         * child is handed only the boxes above that meet its own, and nodes of up to 16,384
         * tests test all against all (four boxes a step). */
        cr_expect_gt(pairs, sets[k].n * 4, "%s: %zu pairs", names[k], pairs);
        cr_expect_leq(tests, 16 * (uint64_t)pairs, "%s: the quadtree made %llu tests for %zu pairs",
                      names[k], (unsigned long long)tests, pairs);
      }
    }
    set_free(&sets[k]);
  }
}
