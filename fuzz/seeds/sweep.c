/* The sweep target's seeds: the bullet and the bottle, a zero-length segment, non-finite ends
 * (one coordinate at a time), a t that would be -0.0, the edge spheres below at every length
 * of `lengths`, and far bottles steered near tangency.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdio.h>

static void sweep_file(const char *name, size_t offset, const float from[3], const float to[3],
                       size_t n, const float (*spheres)[4], size_t nspheres) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)offset);
  for (int k = 0; k < 3; k++) putf(&e, from[k]);
  for (int k = 0; k < 3; k++) putf(&e, to[k]);
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) putf(&e, spheres[i % nspheres][k]);
  save(&e, name);
}

static const float edge_spheres[][4] = {
    {0, 0, 5, 1},                                         /* head-on: t = 4 */
    {0, 0, -5, 1},                                        /* behind */
    {0, 0, 11, 1},                                        /* contact exactly at the end */
    {1, 0, 5, 1},                                         /* tangent */
    {5, 0, 5, 1},                                         /* beside */
    {0, 0, 0.5f, 1},                                      /* contains the start */
    {0, 0, 0, 0},                                         /* zero radius on the line */
    {0, 0, 3, -0.0f},                                     /* -0.0 radius */
    {0, 0, 3, -2},                                        /* negative radius */
    {NAN, 0, 5, 1},   {0, 0, 5, INFINITY}, {0, 0, 29, 1}, /* equal t with the next */
    {0, 0, 29, 1},    {0, 0, 10, 0.125f},
};
#define NSPHERES (sizeof edge_spheres / sizeof edge_spheres[0])

/* Spheres taken to the world (mode bits 5-7): the edge spheres in a model's space, placed by a
 * scale and a translation (uniform, mirrored, flat, NaN, overflowing and underflowing squares)
 * or a general matrix (a rotation about z, a shear, NaN and infinite entries), then inflated
 * by a mover's radius. */
static void world_seeds(void) {
  static const float scales[][6] = {{1, 1, 1, 0, 0, 0},
                                    {2, 2, 2, 2, 1.5f, 10},
                                    {1, 3, -2, -1, 0, 4},
                                    {0, 1, 1, 0, 0, 0},
                                    {NAN, 1, 1, 0, 0, 0},
                                    {0x1p70f, 1, 1, 0, 0, 0},
                                    {0x1p-70f, 0x1p-70f, 0x1p-70f, 0, 0, 1},
                                    {-0.0f, -1, 0.5f, -0.0f, 0, 0}};
  static const float mats[][16] = {{0.6f, 0.8f, 0, 0, -0.8f, 0.6f, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1},
                                   {1, 0.5f, 0, 0, 0, 1, 0, 0, 0.25f, 0, 1, 0, 0, 0, 0, 1},
                                   {1, 0, 0, 0, 0, NAN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
                                   {INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 5, 0, 0, 1}};
  const float movers[3] = {0, 0.5f, -0.25f};
  const float o[3] = {0, 0, 0}, z10[3] = {0, 0, 10};
  for (size_t k = 0; k < sizeof scales / sizeof scales[0] + sizeof mats / sizeof mats[0]; k++) {
    const bool general = k >= sizeof scales / sizeof scales[0];
    enc e = {.n = 0};
    put8(&e, 0xE0 | (uint8_t)(k % 16));
    for (int c = 0; c < 3; c++) putf(&e, o[c]);
    for (int c = 0; c < 3; c++) putf(&e, z10[c]);
    put8(&e, (uint8_t)NSPHERES);
    for (size_t i = 0; i < NSPHERES; i++)
      for (int c = 0; c < 4; c++) putf(&e, edge_spheres[i][c]);
    put8(&e, general ? 1 : 0);
    const float *m = general ? mats[k - sizeof scales / sizeof scales[0]] : scales[k];
    for (int c = 0; c < (general ? 16 : 6); c++) putf(&e, m[c]);
    putf(&e, movers[k % 3]);
    char name[64];
    snprintf(name, sizeof name, "world-%s-%zu", general ? "matrix" : "scale", k);
    save(&e, name);
  }
}

void seeds_write(void) {
  const float from[3] = {2, 1.5f, 0}, to[3] = {2, 1.5f, 5000.0f / 3.6f / 60.0f};
  const float bottle[1][4] = {{2, 1.5f, 10, 0.075f}};
  sweep_file("example-bullet-and-bottle", 0, from, to, 1, bottle, 1);
  const float o[3] = {0, 0, 0}, z10[3] = {0, 0, 10};
  sweep_file("zero-length", 1, o, o, 3, edge_spheres + 4, 3);
  const float nan_to[3] = {0, NAN, 10};
  sweep_file("non-finite-segment", 2, o, nan_to, 4, edge_spheres, NSPHERES);
  /* One non-finite coordinate at a time, in each end, against spheres one of which contains
   * the start: step 3 alone would call that a hit at t = 0, step 1 makes it a miss. */
  for (int k = 0; k < 6; k++) {
    float ends[2][3] = {{0, 0, 0}, {0, 0, 10}};
    ends[k / 3][k % 3] = k % 2 ? INFINITY : NAN;
    char name[64];
    snprintf(name, sizeof name, "non-finite-end-%d", k);
    sweep_file(name, (size_t)k, ends[0], ends[1], NSPHERES, edge_spheres, NSPHERES);
  }
  const float mz[3] = {-0.0f, 3, 4};
  const float surface[1][4] = {{1, -0.0f, -0.0f, 1}};
  sweep_file("t-would-be-negative-zero", 0, o, mz, 1, surface, 1);
  for (size_t l = 0; l < NLENGTHS; l++) {
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    sweep_file(name, lengths[l] % 16, o, z10, lengths[l], edge_spheres, NSPHERES);
  }
  /* Steered (mode bit 4): bottles 100 m, 1 km and 10 km down a 20 km segment, each
   * (1 + dev 2^-k) radii beside the line: where the recipe decides on rounding noise. */
  enc e = {.n = 0};
  put8(&e, 16);
  const float far_to[3] = {12000, 9000, 12000};
  for (int k = 0; k < 3; k++) putf(&e, o[k]);
  for (int k = 0; k < 3; k++) putf(&e, far_to[k]);
  const float along[3] = {100, 1000, 10000}, dev[4] = {-1, -0.25f, 0.25f, 1};
  put8(&e, 12);
  for (int a = 0; a < 3; a++)
    for (int d = 0; d < 4; d++) {
      putf(&e, along[a]), putf(&e, 0.075f), putf(&e, dev[d]);
      put8(&e, (uint8_t)(8 + 4 * a));
    }
  save(&e, "steered-far-bottles");
  world_seeds();
}
