/* The slab test against exact arithmetic (harness/slab_exact.c, GMP rationals): the oracle on
 * the table's known answers, then col_segment_aabb3 within its documented bound (collide/slab.h)
 * on random segments and boxes, on segments aimed within a few ulps of a box's edges and
 * corners (the decision band), and on segments ending a few ulps from a face (t = 1). */
#include "slab_cases.h"
#include "slab_exact.h"

#include <stdio.h>

static const col_touch rules[2] = {COL_TOUCH_OVERLAPS, COL_TOUCH_SEPARATES};

Test(slab_exact, known_answers) {
  int judged = 0;
  for (size_t i = 0; i < NSLAB_CASES; i++)
    for (int r = 0; r < 2; r++) {
      const slab_case *c = &slab_cases[i];
      const slab_exact x = slab_exact_eval(c->from, c->to, c->box, r == 1);
      const slab_want w = r ? c->open : c->closed;
      /* The judge takes finite boxes only (infinite faces are the kernel's extra), and the
       * overflowing move is outside the bound's range. */
      if (!x.valid || !x.applies) continue;
      judged++;
      cr_expect_eq(x.hit, w.hit, "%s (%s): exact hit = %d", c->name, r ? "open" : "closed", x.hit);
      if (!x.hit) continue;
      cr_expect(fabs(x.t - (double)w.t) <= SLAB_BOUND_K * x.t, "%s: exact t %.17g, table %a",
                c->name, x.t, (double)w.t);
      cr_expect_eq(x.axis, w.axis - 1, "%s: exact axis %d", c->name, x.axis);
    }
  cr_expect_gt(judged, 40);
  /* By hand: (0,0,0) -> (3,0,0) against [1,2] x [-1,1]^2: t* = 1/3 (the float is 1 * (1/3)). */
  const slab_exact x = slab_exact_eval(V3(0, 0, 0), V3(3, 0, 0), BOX3(1, -1, -1, 2, 1, 1), false);
  cr_expect(x.hit && x.t == 1.0 / 3.0 && x.axis == 0 && x.applies);
  cr_expect(!slab_in_band(&x));
}

static void judge(col_vec3 from, col_vec3 to, col_aabb3 box, int rule, int *wrong, int *band) {
  const slab_exact x = slab_exact_eval(from, to, box, rule == 1);
  const col_aabb3_hit got = col_segment_aabb3(from, to, box, rules[rule]);
  const char *why;
  const bool ok = slab_within_bound(&x, got, &why);
  cr_expect(ok,
            "%s: from (%a, %a, %a) to (%a, %a, %a) box (%a, %a, %a)-(%a, %a, %a) %s: float hit %d "
            "t %a, exact hit %d t %.17g axis %d",
            why, (double)from.x, (double)from.y, (double)from.z, (double)to.x, (double)to.y,
            (double)to.z, (double)box.min.x, (double)box.min.y, (double)box.min.z,
            (double)box.max.x, (double)box.max.y, (double)box.max.z, rule ? "open" : "closed",
            got.hit, (double)got.t, x.hit, x.t, x.axis);
  if (x.valid && x.applies && got.hit != x.hit) (*wrong)++;
  if (x.valid && x.applies && slab_in_band(&x)) (*band)++;
}

static float uniform(uint64_t *rng, float lo, float hi) {
  return lo + (hi - lo) * (float)(splitmix64(rng) >> 40) * 0x1p-24f;
}

Test(slab_exact, random_segments_within_the_bound) {
  uint64_t rng = 31;
  int wrong = 0, band = 0;
  for (int i = 0; i < 40000; i++) {
    const float s = i % 3 == 0 ? 1000.0f : i % 3 == 1 ? 1.0f : 0.001f;
    const col_vec3 from = V3(uniform(&rng, -s, s), uniform(&rng, -s, s), uniform(&rng, -s, s));
    const col_vec3 to = V3(uniform(&rng, -s, s), uniform(&rng, -s, s), uniform(&rng, -s, s));
    const col_vec3 a = V3(uniform(&rng, -s, s), uniform(&rng, -s, s), uniform(&rng, -s, s));
    const col_vec3 b = V3(uniform(&rng, -s, s), uniform(&rng, -s, s), uniform(&rng, -s, s));
    const col_aabb3 box = {{fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)},
                           {fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)}};
    judge(from, to, box, i & 1, &wrong, &band);
  }
  cr_log_info("random: %d wrong decisions, %d cases in the band", wrong, band);
}

/* Segments through a point a few ulps off an edge or corner of the box (each coordinate of the
 * point: the box's plane moved k ulps, k in -4..4, or the face's middle), from a random start
 * outside to past it: the decisions there are rounding's, and the bound must allow each. */
Test(slab_exact, grazing_edges_and_corners_within_the_bound) {
  uint64_t rng = 32;
  int wrong = 0, band = 0;
  for (int i = 0; i < 60000; i++) {
    const float s = i % 2 ? 100.0f : 0.01f;
    const col_aabb3 box = {{-s * 0.5f, -s * 0.25f, -s}, {s * 0.75f, s, s * 0.5f}};
    const float lo[3] = {box.min.x, box.min.y, box.min.z},
                hi[3] = {box.max.x, box.max.y, box.max.z};
    float aim[3];
    for (int k = 0; k < 3; k++) {
      const uint32_t pick = rand_below(&rng, 3);
      float q = pick == 0 ? lo[k] : pick == 1 ? hi[k] : 0.5f * (lo[k] + hi[k]);
      for (int u = (int)rand_below(&rng, 9) - 4; u != 0; u += u > 0 ? -1 : 1)
        q = nextafterf(q, u > 0 ? INFINITY : -INFINITY);
      aim[k] = q;
    }
    const col_vec3 dir = V3(uniform(&rng, -1, 1), uniform(&rng, -1, 1), uniform(&rng, -1, 1));
    const float back = uniform(&rng, 0.5f, 4) * s, ahead = uniform(&rng, 0.5f, 4) * s;
    const col_vec3 from = V3(aim[0] - back * dir.x, aim[1] - back * dir.y, aim[2] - back * dir.z);
    const col_vec3 to = V3(aim[0] + ahead * dir.x, aim[1] + ahead * dir.y, aim[2] + ahead * dir.z);
    judge(from, to, box, i & 1, &wrong, &band);
  }
  cr_log_info("grazing: %d wrong decisions, %d cases in the band", wrong, band);
  cr_expect_gt(band, 1000, "the aimed segments should often be in the band (%d)", band);
}

/* Segments ending a few ulps before, on or after a face: t near 1. */
Test(slab_exact, ends_near_a_face_within_the_bound) {
  uint64_t rng = 33;
  int wrong = 0, band = 0;
  for (int i = 0; i < 20000; i++) {
    const col_aabb3 box = BOX3(1, -1, -1, 2, 1, 1);
    float end = 1.0f;
    for (int u = (int)rand_below(&rng, 9) - 4; u != 0; u += u > 0 ? -1 : 1)
      end = nextafterf(end, u > 0 ? INFINITY : -INFINITY);
    const col_vec3 from = V3(uniform(&rng, -50, 0.5f), uniform(&rng, -.5f, .5f), 0);
    const col_vec3 to = V3(end, uniform(&rng, -.5f, .5f), uniform(&rng, -.5f, .5f));
    judge(from, to, box, i & 1, &wrong, &band);
  }
  cr_log_info("ends: %d wrong decisions, %d cases in the band", wrong, band);
}
