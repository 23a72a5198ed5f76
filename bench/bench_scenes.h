/* The broadphase scenes (DESIGN.md 4.6), shared by our broadphase benchmarks, the peer-engine
 * benchmarks and the peer pair-set tests, so that every side sees the same boxes. Plain C with
 * no benchmark dependency (the tests link it without Google Benchmark). */
#ifndef COLLIDE_BENCH_SCENES_H
#define COLLIDE_BENCH_SCENES_H

#include "collide.h"

#include <stddef.h>
#include <stdint.h>

/* Deterministic scene values: splitmix64, and a float uniform in [lo, hi) from its top 24 bits. */
uint64_t bench_next(uint64_t *state);
float bench_uniform(uint64_t *state, float lo, float hi);

/* 64-byte aligned allocation that aborts on failure; free with free(). */
void *bench_alloc(size_t bytes);

enum {
  SCENE_UNIFORM,
  SCENE_BOXPRUNE3D,
  SCENE_BOXPRUNE2D,
  SCENE_CLUSTERED,
  SCENE_PLATFORMER,
  SCENE_MOVING,
  SCENE_DENSE,
  SCENE_COUNT
};
extern const char *const bench_scene_name[SCENE_COUNT];

/* N boxes as arrays: v[0..2] = min x, y, z; v[3..5] = max x, y, z (2D scenes fill z too, and
 * the 2D broadphases ignore it). */
typedef struct bench_scene {
  size_t n;
  unsigned dims;
  float *v[6];
} bench_scene;

/* Fills `s` (reusing or replacing its arrays) with scene `which` at N = n:
 *   uniform:     2D, centres uniform in a square of side 8 sqrt(N / density), half-extents
 *                0.5..2: about `density` neighbours per box at every N (1 here, 8 in "dense").
 *   boxprune3d:  the published box-pruning benchmark's generator: LCG state 42,
 *                state = state * 214013 + 2531011, value = (state >> 16) & 0x7FFF; per box
 *                centre x, y, z = (value & 4095) - 2048, then extents = value & 127.
 *   boxprune2d:  the same draws (z and its extent drawn and dropped), x and y only.
 *   clustered:   2D, boxes around 64 cluster centres (density rises with N inside clusters).
 *   platformer:  2D, 80% unit tiles in rows of a level (neighbours touch: closed-rule pairs),
 *                20% entities (1..2 wide) scattered over it.
 *   moving:      the uniform scene's first frame (its own seed); bench_scene_step moves it. */
void bench_scene_fill(bench_scene *s, int which, size_t n);

/* One frame of the moving scene: the boxes i = frame % 10, frame % 10 + 10, ... (a rotating
 * tenth) move by dx, dy uniform in [-1, 1) drawn from `rng`, in that order. The moved
 * indices and their displacements are written to moved / delta (2 floats per box) when those
 * are not NULL (room for n / 10 + 1 boxes). Returns the number of boxes moved. */
size_t bench_scene_step(bench_scene *s, uint64_t *rng, uint64_t frame, uint32_t *moved,
                        float *delta);

/* The boxes of `s` as collide's structure of arrays. */
col_boxes bench_scene_boxes(const bench_scene *s);

void bench_scene_free(bench_scene *s);

#endif
