/* The circle target's seeds: the seeds' example, boundaries (distance r1 + r2 exactly and one
 * ulp either side, at growing magnitudes) and special values.
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
}
