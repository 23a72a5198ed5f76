/* Segment against sphere (DESIGN.md 4.4), one segment against one sphere: each of XNA's steps
 * (non-finite input, start inside, zero length, behind, beside, within the step's travel), the
 * seed's bullet and bottle, large movers, the world transform; the same cases for the robust
 * variant, which must also hold its documented error bound against the exact answer
 * (harness/sweep_exact.c, itself checked on known answers here). One segment against N
 * spheres: test_sweep_batch.c. */
#include "sweep_cases.h"
#include "sweep_exact.h"

#include <stdio.h>
#include <stdlib.h>

static void expect_sweep(col_hit got, bool hit, float t, const char *what) {
  cr_expect_eq(got.hit, hit, "%s: hit = %d", what, got.hit);
  cr_expect_eq(fbits(got.t), fbits(t), "%s: t = %a, want %a", what, (double)got.t, (double)t);
}

Test(sweep, table) {
  for (size_t v = 0; v < NVARIANTS; v++)
    for (size_t i = 0; i < NCASES; i++) {
      char what[120];
      snprintf(what, sizeof what, "%s: %s", variants[v].name, cases[i].name);
      expect_sweep(variants[v].one(cases[i].from, cases[i].to, cases[i].s), cases[i].hit,
                   cases[i].t, what);
    }
}

/* The oracle on answers known by hand, so that a broken oracle cannot pass the bound tests. */
Test(sweep_exact, known_answers) {
  for (size_t i = 0; i < NCASES; i++) {
    const sweep_exact x = sweep_exact_eval(cases[i].from, cases[i].to, cases[i].s);
    const bool valid = cases[i].s.radius >= 0;
    cr_expect_eq(x.valid, valid, "%s: valid", cases[i].name);
    cr_expect_eq(x.hit, cases[i].hit, "%s: exact hit = %d", cases[i].name, x.hit);
    if (x.hit) cr_expect_eq(x.t, (double)cases[i].t, "%s: exact t = %.17g", cases[i].name, x.t);
  }
  /* Distances: from (0,0,0) to (0,0,10), centre (3,0,4): D = 5, L = 10, p = 3; entry at
   * 4 - sqrt(r^2 - 9) for r = 5: 0 (on the surface); r = 3.5: 4 - sqrt(3.25). */
  sweep_exact x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 10), SPHERE(3, 0, 4, 3.5f));
  cr_expect(x.dist == 5 && x.len == 10 && x.miss == 3, "D %g L %g p %g", x.dist, x.len, x.miss);
  cr_expect(x.hit && fabs(x.t - (4 - sqrt(3.25))) < 1e-15, "t = %.17g", x.t);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 10), SPHERE(3, 0, 4, 2.5f));
  cr_expect(!x.hit && isnan(x.t_line), "p = 3 > r = 2.5: the line misses");
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 1), SPHERE(0, 0, 4, 1));
  cr_expect(!x.hit && x.t_line == 3, "contact at 3, past the end at 1: t_line = %g", x.t_line);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 1), SPHERE(INFINITY, 0, 4, 1));
  cr_expect(!x.valid && !x.hit, "non-finite: invalid");
  /* Beyond float products: 2^100 away, radius 2^-100, the line passing exactly through the
   * centre (hit) and one ulp of the centre beside it (miss). */
  const float far = 0x1p100f, tiny = 0x1p-100f;
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 2 * far), SPHERE(0, 0, far, tiny));
  cr_expect(x.hit && x.t < 0x1p100 && x.t >= 0x1p100 * (1 - 0x1p-52), "exact far hit, t = %a", x.t);
  x = sweep_exact_eval(V3(0, 0, 0), V3(0, 0, 2 * far), SPHERE(2 * tiny, 0, far, tiny));
  cr_expect(!x.hit && x.miss == 2 * 0x1p-100, "exact far miss, p = %a", x.miss);
}

/* Step 1: every non-finite input misses. The base case starts inside (it would hit at
 * t = 0 otherwise), so the check must come first. */
Test(sweep, non_finite_input_misses) {
  const float bad[] = {NAN, INFINITY, -INFINITY, from_bits(0x7fc12345u)};
  for (size_t w = 0; w < NVARIANTS; w++)
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
      for (int field = 0; field < 10; field++) {
        float v[10] = {0, 0, 0.5f, 0, 0, 10, 0, 0, 1, 2}; /* from, to, center, radius */
        v[field] = bad[k];
        const col_hit h = variants[w].one(V3(v[0], v[1], v[2]), V3(v[3], v[4], v[5]),
                                          SPHERE(v[6], v[7], v[8], v[9]));
        expect_sweep(h, false, 0, variants[w].name);
      }
}

/* The seed's bullet: 5000 km/h at 60 updates per second covers 23.148 m per update; the
 * bottle is 15 cm wide. Neither endpoint is inside the bottle, the segment hits it. */
Test(sweep, bullet_and_bottle) {
  const float step = 5000.0f / 3.6f / 60.0f;
  cr_assert(step > 23.1f && step < 23.2f);
  const col_sphere bottle = SPHERE(2, 1.5f, 10, 0.075f);
  const col_vec3 last = V3(2, 1.5f, 0), now = V3(2, 1.5f, step);
  cr_assert(!col_segment_sphere(last, last, bottle).hit, "last position is not in the bottle");
  cr_assert(!col_segment_sphere(now, now, bottle).hit, "current position is not in the bottle");
  const col_hit h = col_segment_sphere(last, now, bottle);
  cr_assert(h.hit);
  /* The physical answer is 10 - 0.075 = 9.925 m; q = (r2 + s*s) - d2 cancels most of r2's
   * bits at s = 10, so float arithmetic lands near it, not on it (a physics check, not a
   * bit-exactness one: the bit-exact twin is the "exact 0.125 bottle" case). */
  cr_assert(fabs((double)h.t - 9.925) < 1e-4, "t = %.9g", (double)h.t);
  /* The robust variant lands on the float nearest the exact t (10 - 0.075f), where the
   * recipe is 61 ulps off. */
  const double exact = sweep_exact_eval(last, now, bottle).t;
  const col_hit g = col_segment_sphere_robust(last, now, bottle);
  cr_assert(g.hit);
  cr_expect_eq(fbits(g.t), fbits((float)exact), "robust t = %a, exact %a", (double)g.t, exact);
}

/* The reason the robust variant exists: a 7.5 cm sphere 100 m away. The recipe decides on
 * rounding noise for a few percent of these segments; the robust variant is exact except in
 * its bands, and always within its bound. */
Test(sweep_robust, far_sphere_against_the_exact_answer) {
  uint64_t rng = 18;
  enum { N = 20000 };
  int recipe_wrong = 0, robust_wrong = 0, checked = 0;
  for (int i = 0; i < N; i++) {
    col_vec3 from, to;
    col_sphere s;
    aimed(&rng, 100, 0.075, &from, &to, &s);
    const sweep_exact x = sweep_exact_eval(from, to, s);
    const col_hit g = col_segment_sphere_robust(from, to, s);
    recipe_wrong += col_segment_sphere(from, to, s).hit != x.hit;
    robust_wrong += g.hit != x.hit;
    const char *why;
    checked += sweep_bound_applies(&x, s.radius);
    cr_expect(sweep_within_bound(&x, s.radius, g, &why), "segment %d: %s", i, why);
  }
  cr_expect_eq(checked, N);
  cr_expect(recipe_wrong > N / 100, "the recipe is wrong on %d of %d", recipe_wrong, N);
  cr_expect(robust_wrong <= N / 10000, "the robust variant is wrong on %d of %d", robust_wrong, N);
}

/* Starting on the surface (or an ulp beside it), the recipe's t = s - sqrtf(q) can round
 * below zero; the robust variant's t never does (exactly +0.0 there). */
Test(sweep_robust, t_is_never_negative) {
  uint64_t rng = 21;
  int recipe_negative = 0, robust_hits = 0;
  for (int i = 0; i < 200000; i++) {
    const double a = (double)rand_below(&rng, 1u << 20) / (1 << 20) * 6.283185307179586;
    const double z = (double)rand_below(&rng, 1u << 20) / (1 << 19) - 1, w = sqrt(1 - z * z);
    const float r = 0.5f + (float)rand_below(&rng, 1000) / 100;
    const col_vec3 c = V3((float)rand_below(&rng, 100), (float)rand_below(&rng, 100), 3);
    const col_vec3 from =
        V3((float)(c.x + r * w * cos(a)), (float)(c.y + r * w * sin(a)), (float)(c.z + r * z));
    const float k = (float)rand_below(&rng, 300) / 100; /* through the centre and beyond */
    const col_vec3 to = V3(from.x + (c.x - from.x) * k + 0.25f, from.y + (c.y - from.y) * k,
                           from.z + (c.z - from.z) * k);
    const col_sphere s = SPHERE(c.x, c.y, c.z, r);
    const col_hit h = col_segment_sphere(from, to, s), g = col_segment_sphere_robust(from, to, s);
    recipe_negative += h.hit && h.t < 0;
    robust_hits += g.hit;
    cr_assert(!g.hit || (g.t >= 0 && fbits(g.t) != 0x80000000u), "robust t = %a", (double)g.t);
  }
  cr_expect(recipe_negative > 0 && robust_hits > 100000, "recipe negative %d, robust hits %d",
            recipe_negative, robust_hits);
}

/* The bound at every scale: spheres 2^-30 ... 2^30 away, radii 2^-12 ... 2^12 times that
 * distance's square root, segments aimed at the tangent (offset r (1 + k 2^-20)). */
Test(sweep_robust, bound_holds_at_every_scale) {
  uint64_t rng = 19;
  int checked = 0;
  for (int e = -30; e <= 30; e += 3)
    for (int f = -12; f <= 12; f += 4)
      for (int i = 0; i < 200; i++) {
        const double dist = ldexp(1.0 + (double)rand_below(&rng, 1000) / 1000, e);
        const double r = ldexp(sqrt(dist), f);
        if (r >= dist) continue;
        col_vec3 from, to;
        col_sphere s;
        aimed(&rng, dist, r, &from, &to, &s);
        const sweep_exact x = sweep_exact_eval(from, to, s);
        const col_hit g = col_segment_sphere_robust(from, to, s);
        const char *why;
        checked += sweep_bound_applies(&x, s.radius);
        cr_expect(sweep_within_bound(&x, s.radius, g, &why), "D %g r %g: %s", dist, r, why);
      }
  cr_expect(checked > 10000, "checked %d", checked);
}

Test(sweep, large_movers_inflate_the_target) {
  const col_sphere target = SPHERE(0, 1.25f, 5, 1);
  const col_vec3 from = V3(0, 0, 0), to = V3(0, 0, 10);
  cr_assert(!col_segment_sphere(from, to, target).hit, "the mover's centre passes beside");
  const col_sphere grown = col_sphere_inflate(target, 0.5f);
  assert_float_bits(grown.radius, 1.5f);
  assert_float_bits(grown.center.y, 1.25f);
  cr_assert(col_segment_sphere(from, to, grown).hit, "a mover of radius 0.5 touches it");
}

Test(sweep, transform_scale_translation) {
  const col_mat4 world = col_mat4_scale_translation(V3(2, -3, 0.5f), V3(10, 20, 30));
  const col_sphere t = col_sphere_transform(SPHERE(1, 2, 3, 1.5f), world);
  assert_float_bits(t.center.x, 12.0f);
  assert_float_bits(t.center.y, 14.0f);
  assert_float_bits(t.center.z, 31.5f);
  assert_float_bits(t.radius, 4.5f); /* radius times the largest |scale| */

  const col_sphere u = col_sphere_transform(
      SPHERE(0, 0, 0, 2), col_mat4_scale_translation(V3(0.25f, 0.5f, 0.125f), V3(0, 0, 0)));
  assert_float_bits(u.radius, 1.0f);
}

Test(sweep, transform_rotation_keeps_the_radius) {
  /* 90 degrees about z, row-vector convention: (x, y, z) -> (-y, x, z). */
  const col_mat4 rot = {{{0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
  const col_sphere t = col_sphere_transform(SPHERE(3, 4, 5, 2), rot);
  assert_float_bits(t.center.x, -4.0f);
  assert_float_bits(t.center.y, 3.0f);
  assert_float_bits(t.center.z, 5.0f);
  assert_float_bits(t.radius, 2.0f);
}
