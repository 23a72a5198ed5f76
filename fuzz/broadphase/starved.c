/* The tree cache's allocations that random scenes do not reach: its periodic rebuild (once more
 * boxes were reinserted than there are boxes) and the query's stack past its fixed size (a
 * tree deeper than it). The scene: n boxes on a grid (frame 0); then the first m of them moved
 * one after another along a far diagonal, each overlapping the last, so that each reinsertion goes
 * down beside the previous one and the tree grows a chain m deep, which the last boxes' queries
 * walk (frame 1); then every box moved a little, past its fat leaf (frame 2: reinserted > n,
 * the rebuild). For each frame, a cache brought to the frame before it is updated with its
 * first allocation failing, then its second, third and fourth (the deep query's stack grows
 * at the third of frame 1), then one later one picked by the input, stopping at an update
 * that needs no more (each try costs the frames before it: every allocation of every frame
 * would cost a tenth of the target's speed):
 * broadphase.h promises COL_ERR_MEMORY with the list empty and the cache reset (the same update
 * again gives the exact pairs), and the exact pairs from an update that did not fail. */
#include "starved.h"

#include <stdlib.h>
#include <string.h>

enum { FRAMES = 3 };

typedef struct scene {
  size_t n, m;
  float *v[4]; /* min x, min y, max x, max y */
  col_boxes boxes;
} scene;

static void place(scene *s, int frame) {
  for (size_t i = 0; i < s->n; i++) {
    float x = (float)(i % 16) * 4, y = (float)(i / 16) * 4;
    if (frame >= 1 && i < s->m) x = 4096 + 0.75f * (float)i, y = 4096 + 0.75f * (float)i;
    if (frame >= 2) x += 3;
    s->v[0][i] = x, s->v[1][i] = y, s->v[2][i] = x + 1, s->v[3][i] = y + 1;
  }
}

/* The pairs by their definition (touching boxes overlap), sorted. */
FZ_ORACLE static void pairs_of(const scene *s, col_pairs *want) {
  want->count = 0;
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++) {
      const col_aabb2 a = {{s->v[0][i], s->v[1][i]}, {s->v[2][i], s->v[3][i]}};
      const col_aabb2 b = {{s->v[0][j], s->v[1][j]}, {s->v[2][j], s->v[3][j]}};
      if (col_aabb2_overlap(a, b, COL_TOUCH_OVERLAPS) &&
          col_pairs_push(want, (uint32_t)i, (uint32_t)j) != COL_OK)
        abort();
    }
}

static _Noreturn void deep_fail(const scene *s, int frame, long k, col_status st, bool failed,
                                const char *why) {
  fprintf(stderr,
          "fuzz broadphase: tree cache, deep scene of %zu boxes (%zu in a chain), frame %d, "
          "allocation %ld %s: status %d, %s\n",
          s->n, s->m, frame, k, failed ? "failing" : "not failing", (int)st, why);
  fz_fail();
}

static bool same_pairs(col_pairs *got, const col_pairs *want) {
  col_pairs_sort(got);
  return got->count == want->count &&
         (got->count == 0 || memcmp(got->data, want->data, got->count * sizeof(col_pair)) == 0);
}

void fb_cache_deep(uint64_t pick) {
  /* A chain of at least 145 (the query's fixed stack holds 128 nodes): about 30 to 60
   * allocations in frame 1, most of them the stack's growth. */
  scene s = {.n = 160 + pick % 48};
  s.m = s.n - 8 - (pick >> 8) % 8;
  for (int k = 0; k < 4; k++) s.v[k] = fz_alloc(s.n * sizeof(float));
  s.boxes = (col_boxes){2, {s.v[0], s.v[1], NULL}, {s.v[2], s.v[3], NULL}, s.n};
  col_pairs want[FRAMES] = {{0}}, got = {0};
  for (int frame = 0; frame < FRAMES; frame++) place(&s, frame), pairs_of(&s, &want[frame]);
  for (int frame = 0; frame < FRAMES; frame++) {
    bool failed = true;
    const long later = 4 + (long)(pick >> 16 & 63);
    for (long t = 0; failed && t <= 4; t++) {
      const long k = t < 4 ? t : later;
      col_broadphase_cache *cache = NULL;
      if (col_broadphase_cache_create(&cache) != COL_OK) abort();
      for (int before = 0; before < frame; before++) {
        place(&s, before);
        if (col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL) != COL_OK)
          abort();
      }
      place(&s, frame);
      fz_fail_allocation(k);
      col_status st = col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL);
      failed = fz_allocation_failed();
      if (st == COL_ERR_MEMORY && failed && got.count == 0)
        st = col_broadphase_cache_update(cache, &s.boxes, COL_TOUCH_OVERLAPS, &got, NULL);
      else if (st != COL_OK || failed)
        deep_fail(&s, frame, k, st, failed,
                  "expected COL_ERR_MEMORY with the list empty, or COL_OK from an update that "
                  "did not fail");
      if (st != COL_OK || !same_pairs(&got, &want[frame]))
        deep_fail(&s, frame, k, st, failed,
                  failed ? "the update after the failed one does not give the exact pairs"
                         : "the pairs differ from the definition's");
      col_broadphase_cache_destroy(cache);
    }
  }
  for (int frame = 0; frame < FRAMES; frame++) col_pairs_free(&want[frame]);
  col_pairs_free(&got);
  for (int k = 0; k < 4; k++) free(s.v[k]);
}
