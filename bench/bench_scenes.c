/* The broadphase scenes (see bench_scenes.h): generators moved out of the broadphase
 * benchmarks unchanged, so results stay comparable with earlier runs. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include "bench_scenes.h"
#include "splitmix64.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *const bench_scene_name[SCENE_COUNT] = {
    "uniform", "boxprune3d", "boxprune2d", "clustered", "platformer", "moving", "dense"};

uint64_t bench_next(uint64_t *state) { return splitmix64(state); }

float bench_uniform(uint64_t *state, float lo, float hi) {
  return lo + (hi - lo) * (float)(bench_next(state) >> 40) * 0x1p-24f;
}

void *bench_alloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
    fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static void alloc_scene(bench_scene *s, size_t n, unsigned dims) {
  for (int k = 0; k < 6; k++) {
    free(s->v[k]);
    s->v[k] = bench_alloc(n * sizeof(float));
  }
  s->n = n, s->dims = dims;
}

static void fill_uniform(bench_scene *s, size_t n, uint64_t seed, float density) {
  alloc_scene(s, n, 2);
  uint64_t rng = seed;
  const float side = 8.0f * sqrtf((float)n / density);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      const float c = bench_uniform(&rng, 0, side), e = bench_uniform(&rng, 0.5f, 2);
      s->v[k][i] = c - e, s->v[3 + k][i] = c + e;
    }
}

static void fill_boxprune(bench_scene *s, size_t n, unsigned dims) {
  alloc_scene(s, n, dims);
  uint32_t state = 42;
  for (size_t i = 0; i < n; i++) {
    float c[3], e[3];
    for (int k = 0; k < 3; k++) {
      state = state * 214013u + 2531011u;
      c[k] = (float)((int)((state >> 16) & 0x7FFF & 4095) - 2048);
    }
    for (int k = 0; k < 3; k++) {
      state = state * 214013u + 2531011u;
      e[k] = (float)((state >> 16) & 0x7FFF & 127);
    }
    for (int k = 0; k < 3; k++) s->v[k][i] = c[k] - e[k], s->v[3 + k][i] = c[k] + e[k];
  }
}

static void fill_clustered(bench_scene *s, size_t n) {
  alloc_scene(s, n, 2);
  uint64_t rng = 23;
  const float side = 8.0f * sqrtf((float)n), spread = side / 40.0f;
  float centre[64][2];
  for (int c = 0; c < 64; c++)
    centre[c][0] = bench_uniform(&rng, 0, side), centre[c][1] = bench_uniform(&rng, 0, side);
  for (size_t i = 0; i < n; i++) {
    const int c = (int)(bench_next(&rng) % 64);
    for (int k = 0; k < 3; k++) {
      /* a sum of three uniforms: a bell around the centre */
      const float d =
          bench_uniform(&rng, -1, 1) + bench_uniform(&rng, -1, 1) + bench_uniform(&rng, -1, 1);
      const float m = (k < 2 ? centre[c][k] : 0.0f) + d * spread, e = bench_uniform(&rng, 0.5f, 2);
      s->v[k][i] = m - e, s->v[3 + k][i] = m + e;
    }
  }
}

static void fill_platformer(bench_scene *s, size_t n) {
  alloc_scene(s, n, 2);
  uint64_t rng = 24;
  const size_t tiles = n - n / 5, per_row = (size_t)sqrtf((float)tiles) * 4 + 1;
  for (size_t i = 0; i < n; i++) {
    float x, y, w, h;
    if (i < tiles) { /* rows of touching unit tiles, every fourth row of the level */
      x = (float)(i % per_row), y = 4.0f * (float)(i / per_row), w = h = 1.0f;
    } else {
      x = bench_uniform(&rng, 0, (float)per_row),
      y = bench_uniform(&rng, 0, 4.0f * (float)(tiles / per_row + 1));
      w = bench_uniform(&rng, 1, 2), h = bench_uniform(&rng, 1, 2);
    }
    s->v[0][i] = x, s->v[1][i] = y, s->v[2][i] = 0, s->v[3][i] = x + w, s->v[4][i] = y + h,
    s->v[5][i] = 0;
  }
}

void bench_scene_fill(bench_scene *s, int which, size_t n) {
  switch (which) {
  case SCENE_BOXPRUNE3D: fill_boxprune(s, n, 3); break;
  case SCENE_BOXPRUNE2D: fill_boxprune(s, n, 2); break;
  case SCENE_CLUSTERED: fill_clustered(s, n); break;
  case SCENE_PLATFORMER: fill_platformer(s, n); break;
  case SCENE_DENSE: fill_uniform(s, n, 26, 8.0f); break;
  case SCENE_MOVING: fill_uniform(s, n, 22, 1.0f); break;
  default: fill_uniform(s, n, 21, 1.0f); break;
  }
}

size_t bench_scene_step(bench_scene *s, uint64_t *rng, uint64_t frame, uint32_t *moved,
                        float *delta) {
  size_t m = 0;
  for (size_t i = frame % 10; i < s->n; i += 10, m++) {
    const float dx = bench_uniform(rng, -1, 1), dy = bench_uniform(rng, -1, 1);
    s->v[0][i] += dx, s->v[3][i] += dx, s->v[1][i] += dy, s->v[4][i] += dy;
    if (moved) moved[m] = (uint32_t)i;
    if (delta) delta[2 * m] = dx, delta[2 * m + 1] = dy;
  }
  return m;
}

col_boxes bench_scene_boxes(const bench_scene *s) {
  return (col_boxes){s->dims, {s->v[0], s->v[1], s->v[2]}, {s->v[3], s->v[4], s->v[5]}, s->n};
}

void bench_scene_free(bench_scene *s) {
  for (int k = 0; k < 6; k++) free(s->v[k]);
  *s = (bench_scene){0};
}
