/* Circles and elastic response (the bouncing-balls seed): the seed's strict overlap rule and
 * its box pre-check, the squared form on exactly representable cases, the contact point and
 * the midpoint, the seed's worked example (masses 10, velocities 5 and -1 exchange), the
 * normal rule's cases, conservation of momentum and energy within stated bounds, and both
 * batches against the single-pair functions bit for bit (tails, NaN, infinities). */
#include "helpers.h"

#include <stdlib.h>

static col_circle C(float x, float y, float r) { return (col_circle){{x, y}, r}; }

Test(circle, seed_rule_is_strict_and_squared_agrees_on_exact_cases) {
  static const struct {
    const char *name;
    col_circle a, b;
    bool want;
  } cases[] = {
      {"3-4-5 touching", {{0, 0}, 2}, {{3, 4}, 3}, false},
      {"3-4-5 one ulp closer", {{0, 0}, 2}, {{3, 4}, 3.0f + 0x1p-21f}, true}, /* sum 5 + 2^-21 */
      {"concentric", {{1, 1}, 1}, {{1, 1}, 1}, true},
      {"apart on x", {{0, 0}, 1}, {{2.5f, 0}, 1}, false},
      {"overlapping on x", {{0, 0}, 1}, {{1.5f, 0}, 1}, true},
      {"touching on y", {{0, 0}, 1}, {{0, -2}, 1}, false},
      {"boxes overlap, circles do not", {{0, 0}, 1}, {{1.5f, 1.5f}, 1}, false},
      {"zero radii, same centre", {{0, 0}, 0}, {{0, 0}, 0}, false},
      {"NaN centre", {{NAN, 0}, 1}, {{0, 0}, 1}, false},
      {"NaN radius", {{0, 0}, NAN}, {{0, 0}, 1}, false},
      {"infinite radius", {{0, 0}, INFINITY}, {{5, 5}, 1}, true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_expect_eq(col_circle_overlap(cases[i].a, cases[i].b), cases[i].want, "%s", cases[i].name);
    cr_expect_eq(col_circle_overlap(cases[i].b, cases[i].a), cases[i].want, "%s swapped",
                 cases[i].name);
    cr_expect_eq(col_circle_overlap_squared(cases[i].a, cases[i].b), cases[i].want, "%s squared",
                 cases[i].name);
  }
}

Test(circle, contact_point_is_weighted_by_radii) {
  const col_circle a = C(0, 0, 1), b = C(3, 6, 2);
  const col_vec2 p = col_circle_contact(a, b), m = col_circle_contact_midpoint(a, b);
  /* One third of the way from a (a's radius over the sum of radii): on a's surface. */
  assert_float_bits(p.x, 1.0f);
  assert_float_bits(p.y, 2.0f);
  assert_float_bits(m.x, 1.5f);
  assert_float_bits(m.y, 3.0f);
  const col_circle c = C(-4, 8, 3), d = C(4, -8, 3);
  const col_vec2 q = col_circle_contact(c, d), n = col_circle_contact_midpoint(c, d);
  assert_float_bits(q.x, 0.0f); /* equal radii: the two agree */
  assert_float_bits(q.y, 0.0f);
  assert_float_bits(n.x, 0.0f);
  assert_float_bits(n.y, 0.0f);
}

static col_ball ball(float x, float y, float vx, float vy, float m) {
  return (col_ball){{x, y}, {vx, vy}, m};
}

/* Zeros come back as +0.0: both centres at -0.0, and products that underflow to -0.0. */
Test(circle, contact_points_never_return_negative_zero) {
  const col_circle a = {{-0.0f, -0.0f}, 1.0f}, b = {{-0.0f, -0.0f}, 3.0f};
  col_vec2 p = col_circle_contact(a, b), m = col_circle_contact_midpoint(a, b);
  assert_float_bits(p.x, 0.0f);
  assert_float_bits(p.y, 0.0f);
  assert_float_bits(m.x, 0.0f);
  assert_float_bits(m.y, 0.0f);
  /* -1e-30 * 1e-30 underflows to -0.0; the other product is +0.0 * 1e-30 = +0.0; the sum of
   * the two is -0.0 + +0.0 = +0.0 in IEEE, so make both products -0.0. */
  const col_circle c = {{-1e-30f, 2.0f}, 1e-30f}, d = {{-1e-30f, 2.0f}, 1e-30f};
  p = col_circle_contact(c, d);
  assert_float_bits(p.x, 0.0f);
  m = col_circle_contact_midpoint((col_circle){{-0x1p-149f, 0}, 1}, (col_circle){{0x0p0f, 0}, 1});
  assert_float_bits(m.x, 0.0f); /* -2^-149 / 2 rounds to -0.0 */
  /* Radii summing to 0 (two points, or a negative radius): no weights, the midpoint. */
  p = col_circle_contact((col_circle){{2, 4}, 0}, (col_circle){{6, -8}, 0});
  assert_float_bits(p.x, 4.0f);
  assert_float_bits(p.y, -2.0f);
  p = col_circle_contact((col_circle){{2, 4}, 3}, (col_circle){{6, -8}, -3});
  assert_float_bits(p.x, 4.0f);
}

Test(circle, the_seeds_example_exchanges_velocities) {
  /* Masses 10 (radius = mass), 5 units/update to the right against 1 to the left. */
  for (int rule = 0; rule < 2; rule++) {
    const col_velocities v =
        col_elastic_response(ball(0, 0, 5, 0, 10), ball(20, 0, -1, 0, 10), (col_elastic_rule)rule);
    assert_float_bits(v.a.x, -1.0f);
    assert_float_bits(v.b.x, 5.0f);
    assert_float_bits(v.a.y, 0.0f);
    assert_float_bits(v.b.y, 0.0f);
  }
  /* Unequal masses, worked by hand: v1' = (4 (1 - 3) + 0) / 4 = -2, v2' = (2 * 1 * 4) / 4 = 2. */
  const col_velocities u =
      col_elastic_response(ball(0, 0, 4, 0, 1), ball(0, 9, 0, 0, 3), COL_ELASTIC_AXES);
  assert_float_bits(u.a.x, -2.0f);
  assert_float_bits(u.b.x, 2.0f);
}

Test(circle, rules_differ_on_oblique_hits) {
  /* b sits at 45 degrees below-right of a and a moves right: the normal rule gives b the
   * normal component only; the per-axis rule hands b all of a's x motion. Equal masses. */
  const col_ball a = ball(0, 0, 2, 0, 1), b = ball(1, 1, 0, 0, 1);
  const col_velocities axes = col_elastic_response(a, b, COL_ELASTIC_AXES);
  assert_float_bits(axes.a.x, 0.0f);
  assert_float_bits(axes.b.x, 2.0f);
  assert_float_bits(axes.b.y, 0.0f);
  const col_velocities normal = col_elastic_response(a, b, COL_ELASTIC_NORMAL);
  /* Exact: n = (1, 1) / sqrt 2, s = sqrt 2, so each ball gets (1, 1) and loses it: within the
   * rounding of 1 / sqrt 2 (a few ulps). */
  cr_expect(fabsf(normal.a.x - 1.0f) < 1e-6f && fabsf(normal.a.y + 1.0f) < 1e-6f);
  cr_expect(fabsf(normal.b.x - 1.0f) < 1e-6f && fabsf(normal.b.y - 1.0f) < 1e-6f);
  /* Separating, resting and coincident: the normal rule leaves velocities alone. */
  const struct {
    col_ball a, b;
  } calm[] = {{ball(0, 0, -1, 0, 1), ball(1, 0, 1, 0, 1)},
              {ball(0, 0, 0, 3, 1), ball(1, 0, 0, 3, 1)},
              {ball(2, 2, 5, 0, 1), ball(2, 2, -5, 0, 1)},
              {ball(0, 0, NAN, 0, 1), ball(1, 0, 0, 0, 1)}};
  for (size_t i = 0; i < sizeof calm / sizeof calm[0]; i++) {
    const col_velocities v = col_elastic_response(calm[i].a, calm[i].b, COL_ELASTIC_NORMAL);
    cr_expect_eq(fbits(v.a.x), fbits(calm[i].a.velocity.x), "case %zu", i);
    cr_expect_eq(fbits(v.b.x), fbits(calm[i].b.velocity.x), "case %zu", i);
    cr_expect_eq(fbits(v.a.y), fbits(calm[i].a.velocity.y), "case %zu", i);
  }
}

/* Conservation, in double precision from the float results: momentum within 1e-5 of the
 * total |m v|, kinetic energy within 1e-4 relative (a few float roundings of products
 * of the inputs), no NaN, for masses in [0.1, 100] and velocities in [-1000, 1000]. */
Test(circle, momentum_and_energy_are_conserved) {
  uint64_t rng = 5;
  const float lo = 0.1f, hi = 100.0f;
  for (int round = 0; round < 20000; round++) {
    float r[10];
    for (int k = 0; k < 10; k++) r[k] = (float)(splitmix64(&rng) >> 40) * 0x1p-24f;
    const col_ball a =
        ball(r[0] * 100, r[1] * 100, r[2] * 2000 - 1000, r[3] * 2000 - 1000, lo + (hi - lo) * r[4]);
    const col_ball b =
        ball(r[5] * 100, r[6] * 100, r[7] * 2000 - 1000, r[8] * 2000 - 1000, lo + (hi - lo) * r[9]);
    for (int rule = 0; rule < 2; rule++) {
      const col_velocities v = col_elastic_response(a, b, (col_elastic_rule)rule);
      cr_assert(isfinite(v.a.x) && isfinite(v.a.y) && isfinite(v.b.x) && isfinite(v.b.y));
      const double ma = a.mass, mb = b.mass;
      /* Scaled by the total momentum magnitude: the normal rule moves momentum between axes. */
      const double scale = ma * (fabs(a.velocity.x) + fabs(a.velocity.y)) +
                           mb * (fabs(b.velocity.x) + fabs(b.velocity.y)) + 1e-30;
      for (int axis = 0; axis < 2; axis++) {
        const double va = axis ? a.velocity.y : a.velocity.x,
                     vb = axis ? b.velocity.y : b.velocity.x;
        const double wa = axis ? v.a.y : v.a.x, wb = axis ? v.b.y : v.b.x;
        cr_assert(fabs((ma * wa + mb * wb) - (ma * va + mb * vb)) <= 1e-5 * scale,
                  "rule %d axis %d: momentum %.9g -> %.9g", rule, axis, ma * va + mb * vb,
                  ma * wa + mb * wb);
      }
      const double e0 =
          ma * ((double)a.velocity.x * a.velocity.x + (double)a.velocity.y * a.velocity.y) +
          mb * ((double)b.velocity.x * b.velocity.x + (double)b.velocity.y * b.velocity.y);
      const double e1 = ma * ((double)v.a.x * v.a.x + (double)v.a.y * v.a.y) +
                        mb * ((double)v.b.x * v.b.x + (double)v.b.y * v.b.y);
      cr_assert(fabs(e1 - e0) <= 1e-4 * e0 + 1e-30, "rule %d: energy %.9g -> %.9g", rule, e0, e1);
    }
  }
}

/* ---- Batches: bit-exact with the single-pair functions on every backend ---- */

static float pick(uint64_t *rng) {
  static const float special[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 0x1p-149f, 1.0f, 2.0f};
  const uint64_t z = splitmix64(rng);
  if (z % 8 == 0) return special[(z >> 8) % 8];
  return (float)((int)((z >> 16) % 33) - 16) / 4.0f; /* a grid: touching cases are common */
}

Test(circle, overlap_batch_matches_the_single_pair_bit_for_bit) {
  uint64_t rng = 17;
  for (size_t n = 0; n <= MAX_TAIL; n++) {
    float *f[6];
    for (int k = 0; k < 6; k++) {
      f[k] = guard_floats(n);
      for (size_t i = 0; i < n; i++) f[k][i] = pick(&rng);
    }
    uint8_t *hit = guard_alloc(n ? n : 1);
    const col_circle_soa a = {f[0], f[1], f[2], n}, b = {f[3], f[4], f[5], n};
    for (int test = 0; test < 2; test++) {
      memset(hit, 0x77, n ? n : 1);
      cr_assert_eq(col_circle_overlap_batch(&a, &b, (col_circle_test)test, hit), COL_OK);
      for (size_t i = 0; i < n; i++) {
        const col_circle ca = C(f[0][i], f[1][i], f[2][i]), cb = C(f[3][i], f[4][i], f[5][i]);
        const bool want = test ? col_circle_overlap_squared(ca, cb) : col_circle_overlap(ca, cb);
        cr_assert_eq(hit[i], want, "n %zu, pair %zu, test %d", n, i, test);
      }
    }
    guard_free(hit, n ? n : 1);
    for (int k = 0; k < 6; k++) guard_free(f[k], n * sizeof(float));
  }
}

Test(circle, elastic_batch_matches_the_single_pair_bit_for_bit) {
  uint64_t rng = 23;
  for (size_t n = 0; n <= MAX_TAIL; n++) {
    float *f[10];
    for (int k = 0; k < 10; k++) f[k] = guard_floats(n);
    for (int rule = 0; rule < 2; rule++) {
      for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 10; k++) {
          const bool mass = k == 4 || k == 9;
          f[k][i] = mass ? 0.25f + (float)(splitmix64(&rng) % 40) : pick(&rng);
        }
      col_ball before[2][MAX_TAIL + 1];
      for (size_t i = 0; i < n; i++) {
        before[0][i] = ball(f[0][i], f[1][i], f[2][i], f[3][i], f[4][i]);
        before[1][i] = ball(f[5][i], f[6][i], f[7][i], f[8][i], f[9][i]);
      }
      col_ball_soa a = {f[0], f[1], f[2], f[3], f[4], n}, b = {f[5], f[6], f[7], f[8], f[9], n};
      cr_assert_eq(col_elastic_batch(&a, &b, (col_elastic_rule)rule), COL_OK);
      for (size_t i = 0; i < n; i++) {
        const col_velocities want =
            col_elastic_response(before[0][i], before[1][i], (col_elastic_rule)rule);
        cr_assert(fbits(f[2][i]) == fbits(want.a.x) && fbits(f[3][i]) == fbits(want.a.y) &&
                      fbits(f[7][i]) == fbits(want.b.x) && fbits(f[8][i]) == fbits(want.b.y),
                  "n %zu pair %zu rule %d: got (%a, %a) (%a, %a), want (%a, %a) (%a, %a)", n, i,
                  rule, (double)f[2][i], (double)f[3][i], (double)f[7][i], (double)f[8][i],
                  (double)want.a.x, (double)want.a.y, (double)want.b.x, (double)want.b.y);
      }
    }
    for (int k = 0; k < 10; k++) guard_free(f[k], n * sizeof(float));
  }
}

Test(circle, batch_errors_write_nothing) {
  float x[2] = {0, 1}, y[2] = {0, 0}, r[2] = {1, 1}, vx[2] = {1, -1}, vy[2] = {0, 0}, m[2] = {1, 1};
  uint8_t hit[2] = {9, 9};
  const col_circle_soa a = {x, y, r, 2}, b1 = {x, y, r, 1}, none = {NULL, y, r, 2};
  cr_expect_eq(col_circle_overlap_batch(NULL, &a, COL_CIRCLE_SEED, hit), COL_ERR_NULL);
  cr_expect_eq(col_circle_overlap_batch(&a, &a, COL_CIRCLE_SEED, NULL), COL_ERR_NULL);
  cr_expect_eq(col_circle_overlap_batch(&a, &b1, COL_CIRCLE_SEED, hit), COL_ERR_SIZE);
  cr_expect_eq(col_circle_overlap_batch(&a, &none, COL_CIRCLE_SEED, hit), COL_ERR_NULL);
  cr_expect_eq(col_circle_overlap_batch(&a, &a, (col_circle_test)2, hit), COL_ERR_ARGUMENT);
  cr_expect(hit[0] == 9 && hit[1] == 9);
  col_ball_soa p = {x, y, vx, vy, m, 2}, q = {x, y, vx, vy, m, 1}, broken = {x, y, NULL, vy, m, 2};
  cr_expect_eq(col_elastic_batch(&p, NULL, COL_ELASTIC_AXES), COL_ERR_NULL);
  cr_expect_eq(col_elastic_batch(&p, &q, COL_ELASTIC_AXES), COL_ERR_SIZE);
  cr_expect_eq(col_elastic_batch(&p, &broken, COL_ELASTIC_AXES), COL_ERR_NULL);
  cr_expect_eq(col_elastic_batch(&p, &p, (col_elastic_rule)5), COL_ERR_ARGUMENT);
  cr_expect(vx[0] == 1 && vx[1] == -1);
  const col_circle_soa empty = {NULL, NULL, NULL, 0};
  cr_expect_eq(col_circle_overlap_batch(&empty, &empty, COL_CIRCLE_SQUARED, hit), COL_OK);
}

/* Velocities come back canonical whatever the rule and the path: -0.0 as +0.0, any NaN (here a
 * signalling one with a payload) as the default quiet NaN. */
Test(circle, velocities_are_canonical) {
  const float snan = from_bits(0xffa0cbe4u);
  for (int rule = 0; rule < 2; rule++) {
    const col_velocities z = col_elastic_response(
        ball(0, 0, -0.0f, -0.0f, 1), ball(5, 0, -0.0f, -0.0f, 1), (col_elastic_rule)rule);
    cr_expect(fbits(z.a.x) == 0 && fbits(z.a.y) == 0 && fbits(z.b.x) == 0 && fbits(z.b.y) == 0,
              "rule %d", rule);
    const col_velocities n =
        col_elastic_response(ball(0, 0, snan, 1, 1), ball(5, 0, 0, 0, 1), (col_elastic_rule)rule);
    cr_expect_eq(fbits(n.a.x), 0x7fc00000u, "rule %d: %08x", rule, fbits(n.a.x));
  }
}
