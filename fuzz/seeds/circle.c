/* The circle target's seeds: the seeds' example, boundaries (distance r1 + r2 exactly and one
 * ulp either side, at growing magnitudes), special values, and near-touching pairs (the n
 * byte's bit 7: b placed at distance r1 + r2 along a direction, a few ulps off).
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>

typedef struct circle_pair {
  float ax, ay, ar, bx, by, br, avx, avy, bvx, bvy;
  uint8_t am, bm; /* mass = (byte + 1) / 4 */
} circle_pair;

static void circle_file(const char *name, const circle_pair *p, size_t n) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++) {
    const float v[10] = {p[i].ax, p[i].ay,  p[i].ar,  p[i].bx,  p[i].by,
                         p[i].br, p[i].avx, p[i].avy, p[i].bvx, p[i].bvy};
    for (int k = 0; k < 10; k++) putf(&e, v[k]);
    put8(&e, p[i].am), put8(&e, p[i].bm);
  }
  save(&e, name);
}

/* A near-touching pair (fuzz_circle.c, place_touching): a (x, y, r), b's r, the direction
 * (x, y) and the k byte (the ulp steps of b's x, low nibble, and y, high nibble: 0, 1, -1, 2,
 * -2 ...); velocities and masses as above. */
typedef struct touching_pair {
  float ax, ay, ar, br, ux, uy;
  uint8_t k;
  float avx, avy, bvx, bvy;
  uint8_t am, bm;
} touching_pair;

static void touching_file(const char *name, const touching_pair *p, size_t n) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)(0x80 | n));
  for (size_t i = 0; i < n; i++) {
    const float v[6] = {p[i].ax, p[i].ay, p[i].ar, p[i].br, p[i].ux, p[i].uy};
    for (int k = 0; k < 6; k++) putf(&e, v[k]);
    put8(&e, p[i].k);
    const float w[4] = {p[i].avx, p[i].avy, p[i].bvx, p[i].bvy};
    for (int k = 0; k < 4; k++) putf(&e, w[k]);
    put8(&e, p[i].am), put8(&e, p[i].bm);
  }
  save(&e, name);
}

/* 127 near-touching pairs around `base`: radii and directions on the quarter grid (axes, 3-4-5
 * and directions whose components are irrational: dx and dy with full significands), b at
 * 0, +-1 and +-2 ulps on each axis; velocities head-on along the direction. */
static void touching_seeds(const char *name, float base, float rscale, uint64_t seed) {
  touching_pair p[127];
  static const float dirs[][2] = {{1, 0},  {0, -1}, {3, 4},     {-4, 3},  {1, 2},     {2, -3},
                                  {-5, 1}, {1, 1},  {7, -0.5f}, {-3, -7}, {0.25f, 6}, {5, 12}};
  static const uint8_t ks[] = {0x00, 0x01, 0x10, 0x02, 0x20, 0x11, 0x22, 0x12,
                               0x21, 0x03, 0x30, 0x04, 0x40, 0x34, 0x43};
  for (size_t i = 0; i < 127; i++) {
    const uint64_t u = splitmix64(&seed);
    const float *d = dirs[u % 12];
    const float ar = rscale * (float)(1 + (u >> 8) % 40) / 4,
                br = rscale * (float)(1 + (u >> 16) % 40) / 4;
    const float ax = base + (float)((int)((u >> 24) % 64) - 32) / 4;
    const float ay = base - (float)((int)((u >> 32) % 64) - 32) / 4;
    const uint8_t k = ks[i % sizeof ks], am = (uint8_t)(u >> 40), bm = (uint8_t)(u >> 48);
    p[i] = (touching_pair){ax, ay, ar, br, d[0], d[1], k, d[0], d[1], -d[0], -d[1], am, bm};
  }
  touching_file(name, p, 127);
}

void seeds_write(void) {
  /* The seed's example: masses 10 (byte 39), 5 against -1, head-on. */
  const circle_pair example = {0, 0, 10, 19, 0, 10, 5, 0, -1, 0, 39, 39};
  circle_file("example", &example, 1);
  /* Boundaries: distance r1 + r2 exactly and one ulp either side, on an axis and on a 3-4-5
   * diagonal, at growing magnitudes (where the box check's sums round differently). */
  circle_pair edge[48];
  size_t n = 0;
  for (int scale = 0; scale < 4; scale++) {
    const float base = scale == 0 ? 0.0f : scale == 1 ? 1000.0f : scale == 2 ? 1048576.0f : 3.0e7f;
    const float r2s[3] = {nextafterf(3.0f, 0.0f), 3.0f, nextafterf(3.0f, 10.0f)};
    for (int k = 0; k < 3; k++) {
      edge[n++] = (circle_pair){base, base, 2, base + 3, base + 4, r2s[k], 1, 2, -3, 0.5f, 3, 200};
      edge[n++] =
          (circle_pair){base, -base, 2.5f, base + 5, -base, r2s[k] - 0.5f, 2, 0, -2, 0, 7, 7};
      edge[n++] = (circle_pair){-base, base, 0.1f, -base + 0.3f, base + 0.4f, r2s[k] - 2.6f,
                                0,     1,    0,    -1,           0,           255};
      edge[n++] = (circle_pair){base, base, 1, base, base, 1, 1, 1, 1, 1, 5, 9};
    }
  }
  circle_file("boundaries", edge, n);
  const circle_pair specials[4] = {
      {NAN, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 1},
      {0, 0, INFINITY, 5, 5, 1, 0, 0, 0, 0, 1, 1},
      {-0.0f, 0, 1, 0.0f, 2, 1, 0x1p-149f, 0, -0x1p-149f, 0, 1, 1},
      {1e30f, 1e30f, 1e30f, -1e30f, -1e30f, 1e30f, 1e30f, 0, -1e30f, 0, 255, 0},
  };
  circle_file("specials", specials, 4);
  /* Centres 1e-23 apart: the normal's squared length underflows to zero (no normal), while
   * the relative speed times that offset does not; nothing may change. */
  const circle_pair near[2] = {
      {0, 0, 1, 1e-23f, 0, 1, 0, 0, -3e38f, 0, 3, 3},
      {0, 0, 1, 0, -2e-23f, 1, 0, 1e38f, 0, 5, 3, 200},
  };
  circle_file("no-normal", near, 2);
  /* Near-touching pairs: small values; radii 25 to 1000 around (1000, 1000); short inputs of
   * one and three pairs (the third at 1e30, where (r1 + r2)^2 overflows). */
  touching_seeds("near-touching", 0.0f, 1.0f, 1);
  touching_seeds("near-touching-large", 1000.0f, 100.0f, 2);
  const touching_pair one[3] = {
      {0, 0, 2, 3, 1, 2, 0x00, 1, 2, -1, -2, 3, 3},
      {0.25f, -1, 1.5f, 0.75f, -5, 1, 0x11, 0, 0, 0, 0, 0, 0},
      {1e30f, 1e30f, 1e30f, 1e30f, 3, 4, 0x21, 1, 0, -1, 0, 7, 7},
  };
  touching_file("near-touching-one", one, 1);
  touching_file("near-touching-three", one, 3);
}
