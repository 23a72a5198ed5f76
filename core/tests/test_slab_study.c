/* The study behind docs/segment-box.md: how often the two common float formulations of the slab
 * test decide a segment against a box wrongly, judged by exact rational arithmetic
 * (harness/slab_exact.c), near edges and corners, near the segment's ends and on a face's
 * plane; with collide's own (col_segment_aabb3) beside them. Closed rule throughout. It
 * measures (printed with --verbose) and asserts only what the document relies on: every
 * formulation is exact away from the bands, collide's stays within its bound, and the worked
 * cases below. Runs once, in the scalar pass of the unit suite (it uses no backend).
 *   division: near = (plane - from) / v per axis, a still axis (v == 0) tested as a slab;
 *   reciprocal min/max: inv = 1 / v once (1 / 0 = inf), t1, t2 = (min or max - from) * inv,
 *     entry = fmaxf(entry, fminf(t1, t2)), exit = fminf(exit, fmaxf(t1, t2)), entry from 0,
 *     exit from 1 (Barnes, part 1; its NaN and boundary questions are parts 2 and 3). */
#include "slab_cases.h"
#include "slab_exact.h"

#include <stdio.h>
#include <string.h>

typedef struct verdict {
  bool hit;
  float t;
} verdict;

static verdict by_division(col_vec3 from, col_vec3 to, col_aabb3 b) {
  const float p[3] = {from.x, from.y, from.z}, q[3] = {to.x, to.y, to.z};
  const float mn[3] = {b.min.x, b.min.y, b.min.z}, mx[3] = {b.max.x, b.max.y, b.max.z};
  float n = 0.0f, f = 1.0f;
  for (int a = 0; a < 3; a++) {
    const float v = q[a] - p[a];
    if (v == 0.0f) {
      if (!(mn[a] <= p[a] && p[a] <= mx[a])) return (verdict){false, 0.0f};
      continue;
    }
    const float lo = (mn[a] - p[a]) / v, hi = (mx[a] - p[a]) / v;
    const float near = v > 0.0f ? lo : hi, far = v > 0.0f ? hi : lo;
    if (near > n) n = near;
    if (far < f) f = far;
  }
  return (verdict){n <= f, n};
}

static verdict by_reciprocal_minmax(col_vec3 from, col_vec3 to, col_aabb3 b) {
  const float p[3] = {from.x, from.y, from.z}, q[3] = {to.x, to.y, to.z};
  const float mn[3] = {b.min.x, b.min.y, b.min.z}, mx[3] = {b.max.x, b.max.y, b.max.z};
  float entry = 0.0f, exit = 1.0f;
  for (int a = 0; a < 3; a++) {
    const float v = q[a] - p[a];
    const float inv = v != 0.0f ? 1.0f / v : copysignf(INFINITY, v);
    const float t1 = (mn[a] - p[a]) * inv, t2 = (mx[a] - p[a]) * inv;
    entry = fmaxf(entry, fminf(t1, t2));
    exit = fminf(exit, fmaxf(t1, t2));
  }
  return (verdict){entry <= exit, entry};
}

typedef struct tally {
  int cases, band, division, minmax, collide;
} tally;

static void count(tally *s, col_vec3 from, col_vec3 to, col_aabb3 b) {
  const slab_exact x = slab_exact_eval(from, to, b, false);
  if (!x.valid || !x.applies) return;
  s->cases++;
  s->band += slab_in_band(&x);
  s->division += by_division(from, to, b).hit != x.hit;
  s->minmax += by_reciprocal_minmax(from, to, b).hit != x.hit;
  const col_aabb3_hit h = col_segment_aabb3(from, to, b, COL_TOUCH_OVERLAPS);
  s->collide += h.hit != x.hit;
  const char *why;
  cr_expect(slab_within_bound(&x, h, &why), "%s", why);
}

static void report(const char *name, const tally *s) {
  cr_log_info("%-34s %6d cases, %6d in the band; wrong decisions: division %5d (%.2f%%), "
              "reciprocal min/max %5d (%.2f%%), collide %5d (%.2f%%)",
              name, s->cases, s->band, s->division, 100.0 * s->division / s->cases, s->minmax,
              100.0 * s->minmax / s->cases, s->collide, 100.0 * s->collide / s->cases);
}

static bool scalar_pass(void) {
  const char *name = col_backend_name();
  return name != NULL && strcmp(name, "scalar") == 0;
}

static float uniform(uint64_t *rng, float lo, float hi) {
  return lo + (hi - lo) * (float)(splitmix64(rng) >> 40) * 0x1p-24f;
}

static float ulps(float x, int k) {
  for (; k != 0; k += k > 0 ? -1 : 1) x = nextafterf(x, k > 0 ? INFINITY : -INFINITY);
  return x;
}

enum { SAMPLES = 50000 };

Test(slab_study, formulations_near_edges_ends_and_planes) {
  if (!scalar_pass()) return;
  uint64_t rng = 41;
  tally random = {0}, edges = {0}, ends = {0}, starts = {0}, planes = {0};
  const col_aabb3 box = BOX3(-50, -25, -100, 75, 100, 50);
  const float lo[3] = {-50, -25, -100}, hi[3] = {75, 100, 50};
  for (int i = 0; i < SAMPLES; i++) {
    /* Anywhere: from and to uniform in a cube three times the box. */
    col_vec3 from =
        V3(uniform(&rng, -300, 300), uniform(&rng, -300, 300), uniform(&rng, -300, 300));
    col_vec3 to = V3(uniform(&rng, -300, 300), uniform(&rng, -300, 300), uniform(&rng, -300, 300));
    count(&random, from, to, box);
    /* Through a point within 4 ulps of an edge or corner (each coordinate a plane or the
     * middle, moved k ulps). */
    float aim[3];
    for (int a = 0; a < 3; a++) {
      const uint32_t pick = rand_below(&rng, 3);
      aim[a] = ulps(pick == 0   ? lo[a]
                    : pick == 1 ? hi[a]
                                : 0.5f * (lo[a] + hi[a]),
                    (int)rand_below(&rng, 9) - 4);
    }
    const col_vec3 d = V3(uniform(&rng, -1, 1), uniform(&rng, -1, 1), uniform(&rng, -1, 1));
    const float back = uniform(&rng, 50, 300), ahead = uniform(&rng, 50, 300);
    count(&edges, V3(aim[0] - back * d.x, aim[1] - back * d.y, aim[2] - back * d.z),
          V3(aim[0] + ahead * d.x, aim[1] + ahead * d.y, aim[2] + ahead * d.z), box);
    /* Ending within 4 ulps of the min x face (on it one time in nine), from outside. */
    from = V3(uniform(&rng, -300, -60), uniform(&rng, -20, 95), uniform(&rng, -95, 45));
    to =
        V3(ulps(-50, (int)rand_below(&rng, 9) - 4), uniform(&rng, -20, 95), uniform(&rng, -95, 45));
    count(&ends, from, to, box);
    /* Starting within 4 ulps of the min x face, moving in or out. */
    count(&starts, to, V3(uniform(&rng, -300, 300), uniform(&rng, -20, 95), to.z), box);
    /* On a face's plane, moving parallel to it (y still, on y = 100). */
    count(&planes, V3(uniform(&rng, -300, 300), 100, uniform(&rng, -95, 45)),
          V3(uniform(&rng, -300, 300), 100, uniform(&rng, -95, 45)), box);
  }
  report("anywhere", &random);
  report("through edges and corners (4 ulps)", &edges);
  report("ending at a face (4 ulps)", &ends);
  report("starting at a face (4 ulps)", &starts);
  report("sliding on a face's plane", &planes);
  cr_expect_eq(random.division + random.minmax + random.collide, 0, "wrong away from the bands");
  cr_expect_eq(planes.division + planes.collide, 0, "on a plane: division and collide exact");
  cr_expect_gt(planes.minmax, planes.cases / 4, "on a plane: min/max misses (0 * inf = NaN)");
}

/* The worked cases of docs/segment-box.md: a bullet along a row of 1 m tiles (x from 0, every
 * tile [k, k + 1] x [0, 1]), checked against the exact answers. */
Test(slab_study, worked_cases_a_bullet_through_a_tile_row) {
  if (!scalar_pass()) return;
  const col_aabb3 tile3 = BOX3(3, 0, -1, 4, 1, 1);
  /* 1. Along the row's top face (y = 1, a still axis): exact hit at x = 3 (t = 3/20). */
  const col_vec3 a0 = V3(0, 1, 0), a1 = V3(20, 1, 0);
  cr_expect(slab_exact_eval(a0, a1, tile3, false).hit);
  cr_expect(by_division(a0, a1, tile3).hit);
  cr_expect(!by_reciprocal_minmax(a0, a1, tile3).hit,
            "min/max: 0 * inf = NaN, and fminf keeps -inf");
  cr_expect(col_segment_aabb3(a0, a1, tile3, COL_TOUCH_OVERLAPS).hit);
  cr_expect(!col_segment_aabb3(a0, a1, tile3, COL_TOUCH_SEPARATES).hit, "open: sliding");
  /* 2. Ending on the tile's face, or one ulp short of it or past it: from x = k / 1000 (k =
   * 1..999) to x = 3 - ulp, 3, 3 + ulp. On the face both formulations hit (plane - from and
   * to - from are one number: v / v is 1, v * (1 / v) is 1 or just below). Off it by an ulp,
   * to - from can round to 3 - from, and the decision is rounding's: the first start where
   * collide's reciprocal errs and the division does not, and where both err, are printed. */
  int recip_only = -1, both = -1, recip_only_step = 0, both_step = 0;
  for (int k = 1; k < 1000; k++)
    for (int step = -1; step <= 1; step++) {
      const col_vec3 f = V3((float)k * 0.001f, .5f, 0), t = V3(ulps(3, step), .5f, 0);
      const bool exact = slab_exact_eval(f, t, tile3, false).hit;
      const bool div = by_division(f, t, tile3).hit;
      const bool rec = col_segment_aabb3(f, t, tile3, COL_TOUCH_OVERLAPS).hit;
      if (step == 0) cr_expect(div && rec && exact, "on the face (k = %d)", k);
      if (rec != exact && div == exact && recip_only < 0) recip_only = k, recip_only_step = step;
      if (rec != exact && div != exact && both < 0) both = k, both_step = step;
    }
  const int ks[2] = {recip_only, both}, steps[2] = {recip_only_step, both_step};
  for (int i = 0; i < 2; i++) {
    if (ks[i] < 0) {
      cr_log_info("ending near the face: no start where %s", i ? "both err" : "only collide errs");
      continue;
    }
    const float fx = (float)ks[i] * 0.001f, tx = ulps(3, steps[i]), v = tx - fx, d = 3 - fx;
    cr_log_info("ending near the face (%s): from x = %.9g, to x = %a: 3 - from = %a, to - from = "
                "%a; division t = %a, reciprocal t = %a (1/v = %a); exact: %s",
                i ? "both err" : "only collide errs", (double)fx, (double)tx, (double)d, (double)v,
                (double)(d / v), (double)(d * (1.0f / v)), (double)(1.0f / v),
                slab_exact_eval(V3(fx, .5f, 0), V3(tx, .5f, 0), tile3, false).hit ? "hit" : "miss");
  }
  cr_expect(both > 0, "some ends an ulp off the face are rounding's in both formulations");
  /* 3. Aimed at the corner between tiles 3 and 4 at (4, 1): ties go to x. */
  const col_aabb3 tile4 = BOX3(4, 0, -1, 5, 1, 1);
  const col_vec3 c0 = V3(2, 3, 0), c1 = V3(6, -1, 0);
  const col_aabb3_hit h4 = col_segment_aabb3(c0, c1, tile4, COL_TOUCH_OVERLAPS);
  cr_expect(h4.hit && h4.t == .5f && h4.normal.x == -1, "corner: t .5, -x (x wins the tie)");
  cr_expect(col_segment_aabb3(c0, c1, tile3, COL_TOUCH_OVERLAPS).hit, "tile 3 touched too");
}
