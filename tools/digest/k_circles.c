/* The digest's circle kernels: the two overlap tests, the contact points and the elastic
 * responses, single and batched. Half the pairs are placed a few ulps from touching, where an
 * FMA or a reordered sum changes the answer. */
#include "digest.h"

#include <math.h>
#include <stdlib.h>

typedef struct circle_pair {
  float ax, ay, ar, bx, by, br;
} circle_pair;

static circle_pair draw_pair(dg_ctx *c) {
  circle_pair p;
  p.ax = dg_coord(c, 4), p.ay = dg_coord(c, 4), p.ar = dg_size(c, 4);
  p.br = dg_size(c, 4);
  if (dg_chance(c, 128)) {
    /* b's centre on a ray from a's at the distance ar + br, then a few ulps off on each axis. */
    const float dx = (float)((int)dg_below(c, 33) - 16), dy = (float)((int)dg_below(c, 33) - 16);
    const float len = sqrtf(dx * dx + dy * dy), d = p.ar + p.br;
    const float s = len > 0 ? d / len : 0;
    p.bx = dg_ulps(p.ax + dx * s, (int)dg_below(c, 9) - 4);
    p.by = dg_ulps(p.ay + dy * s, (int)dg_below(c, 9) - 4);
  } else {
    p.bx = dg_coord(c, 4), p.by = dg_coord(c, 4);
  }
  return p;
}

static void pair(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const circle_pair p = draw_pair(c);
  dg_in_floats(c, "a (x, y, r), b (x, y, r)", &p.ax, 6);
  const col_circle a = {{p.ax, p.ay}, p.ar}, b = {{p.bx, p.by}, p.br};
  dg_out_bool(c, "col_circle_overlap", col_circle_overlap(a, b));
  dg_out_bool(c, "col_circle_overlap_squared", col_circle_overlap_squared(a, b));
  const col_vec2 t = col_circle_contact(a, b), m = col_circle_contact_midpoint(a, b);
  dg_out_floats(c, "col_circle_contact", &t.x, 2);
  dg_out_floats(c, "col_circle_contact_midpoint", &m.x, 2);
}

/* Masses must be positive (circles.h): quarter steps, some wide, some subnormal. */
static float draw_mass(dg_ctx *c) {
  const uint32_t k = dg_below(c, 16);
  if (k == 0) return 1e-42f * (float)(1 + dg_below(c, 100));
  if (k < 3) return (float)(1 + (dg_u64(c) >> 44)) / 64.0f;
  return (float)(1 + dg_below(c, 64)) / 4.0f;
}

static col_ball draw_ball(dg_ctx *c, float x, float y) {
  return (col_ball){{x, y}, {dg_coord(c, 4), dg_coord(c, 4)}, draw_mass(c)};
}

static void response(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const circle_pair p = draw_pair(c);
  const col_ball a = draw_ball(c, p.ax, p.ay), b = draw_ball(c, p.bx, p.by);
  dg_in_floats(c, "a (x, y, vx, vy, mass)", &a.position.x, 5);
  dg_in_floats(c, "b (x, y, vx, vy, mass)", &b.position.x, 5);
  for (int rule = 0; rule < 2; rule++) {
    const col_velocities v = col_elastic_response(a, b, (col_elastic_rule)rule);
    dg_out_floats(c, rule ? "normal rule (a, b)" : "axes rule (a, b)", &v.a.x, 4);
  }
}

/* n pairs as SoA: x, y, r of a then of b (circle) or x, y, vx, vy, mass (balls). */
static size_t draw_count(dg_ctx *c) {
  return dg_chance(c, 200) ? dg_below(c, 40) : dg_below(c, 300);
}

static void circle_batch(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const size_t n = draw_count(c);
  float *v[6];
  for (int i = 0; i < 6; i++) v[i] = dg_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    const circle_pair p = draw_pair(c);
    const float *f = &p.ax;
    for (int j = 0; j < 6; j++) v[j][i] = f[j];
  }
  static const char *names[6] = {"a x", "a y", "a r", "b x", "b y", "b r"};
  for (int j = 0; j < 6; j++) dg_in_floats(c, names[j], v[j], n);
  const col_circle_soa a = {v[0], v[1], v[2], n}, b = {v[3], v[4], v[5], n};
  uint8_t *hit = dg_alloc(n);
  for (int test = 0; test < 2; test++) {
    const col_status s = col_circle_overlap_batch(&a, &b, (col_circle_test)test, hit);
    dg_out_status(c, "status", s);
    dg_out_u8s(c, test ? "squared test" : "seed test", hit, s == COL_OK ? n : 0);
  }
  free(hit);
  for (int i = 0; i < 6; i++) free(v[i]);
}

static void elastic_batch(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const size_t n = draw_count(c);
  float *v[10];
  for (int i = 0; i < 10; i++) v[i] = dg_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    const circle_pair p = draw_pair(c);
    const col_ball a = draw_ball(c, p.ax, p.ay), b = draw_ball(c, p.bx, p.by);
    const float *f[2] = {&a.position.x, &b.position.x};
    for (int j = 0; j < 10; j++) v[j][i] = f[j / 5][j % 5];
  }
  static const char *names[10] = {"a x", "a y", "a vx", "a vy", "a mass",
                                  "b x", "b y", "b vx", "b vy", "b mass"};
  for (int j = 0; j < 10; j++) dg_in_floats(c, names[j], v[j], n);
  const int rule = (int)dg_below(c, 2);
  dg_in_int(c, "rule", rule);
  col_ball_soa a = {v[0], v[1], v[2], v[3], v[4], n}, b = {v[5], v[6], v[7], v[8], v[9], n};
  const col_status s = col_elastic_batch(&a, &b, (col_elastic_rule)rule);
  dg_out_status(c, "status", s);
  static const int outs[4] = {2, 3, 7, 8};
  for (int j = 0; j < 4 && s == COL_OK; j++) dg_out_floats(c, names[outs[j]], v[outs[j]], n);
  for (int i = 0; i < 10; i++) free(v[i]);
}

size_t dg_circles_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"circle_pair", 4096, 0, 0, pair, NULL},
      {"elastic_response", 4096, 0, 0, response, NULL},
      {"circle_overlap_batch", 256, COL_KERNEL_CIRCLE, 0, circle_batch, NULL},
      {"elastic_batch", 256, COL_KERNEL_ELASTIC, 0, elastic_batch, NULL},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
