/* The broadphase target's incremental cache (fuzz_broadphase.c): one of its three kept forms
 * over three frames of the input's set, against the oracle. */
#include "cache.h"

#include "oracle.h"
#include "report.h"
#include "static.h"

#include <math.h>
#include <stdlib.h>

void fb_cache_frames(const col_boxes *boxes, float *const v[6], col_touch touch, col_pairs *want,
                     col_pairs *got, size_t size, uint64_t pick, bool starve, const char *backend) {
  /* The incremental cache (the tree, sweep and prune or the kept grid, picked by the input's
   * length and hash; sweep and prune for large sets unless the grid is picked) over three frames:
   * the boxes as decoded, then every eighth box moved (by a grid step; one in three of them far,
   * all by the same offset, so that the pairs among them stay but every one of them leaves its old
   * place and its fat box; or to NaN and back), each frame against the oracle; told which boxes
   * moved (every eighth, and every thirteenth whether it moved or not: under a quarter of the
   * boxes, so that the kept order is updated in place) or left to find them, by the input's length
   * too, on scalar or the input's backend (by its length again; scalar when that one is emulated,
   * whose kernels the runs above cover at a tenth of the speed). */
  const bool listed = (size & 2) != 0;
  uint32_t *list = fz_alloc((boxes->count / 8 + boxes->count / 13 + 2) * sizeof(uint32_t));
  col_broadphase_cache *cache = NULL;
  if (starve && (pick >> 11 & 1)) { /* *cache is set on success only */
    fz_fail_allocation(0);
    const col_status st = col_broadphase_cache_create(&cache);
    if (!fz_allocation_failed() || st != COL_ERR_MEMORY || cache != NULL) {
      fprintf(stderr,
              "fuzz broadphase: col_broadphase_cache_create with its allocation failing: "
              "status %d, cache %s\n",
              (int)st, cache ? "set" : "NULL");
      fz_fail();
    }
  }
  if (col_broadphase_cache_create(&cache) != COL_OK) abort();
  fz_select(backend);
  /* The kept grid on one input in four, sweep and prune on half the others (and large sets),
   * the tree on the rest; static marks on one input in two (the oracle's static pairs dropped). */
  const bool grid_cache = (pick >> 45 & 3) == 1;
  const bool sap_cache = !grid_cache && ((size & 1) || boxes->count > FZ_SMALL_SET);
  if (grid_cache && col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_GRID) != COL_OK)
    abort();
  if (sap_cache && col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP) != COL_OK) abort();
  uint8_t *marks = (pick >> 47 & 1) ? fb_marks(boxes->count, pick) : NULL;
  if (marks != NULL && col_broadphase_cache_set_static(cache, marks, boxes->count) != COL_OK)
    abort();
  col_pairs kept = {0};
  /* Half the sweep and prune caches take their whole frames through the built-in pool (the
   * cache keeps the pointer: static); the others say NULL, which must be accepted too. */
  static const col_parallel builtin_pool = {NULL, 0, false};
  const col_parallel *cache_par = sap_cache && (pick >> 41 & 1) ? &builtin_pool : NULL;
  if (col_broadphase_cache_set_parallel(cache, cache_par) != COL_OK) {
    fprintf(stderr, "fuzz broadphase: col_broadphase_cache_set_parallel(cache, %s) failed\n",
            cache_par ? "built-in pool" : "NULL");
    fz_fail();
  }
  for (int frame = 0; frame < 3; frame++) {
    size_t listed_count = 0;
    if (frame > 0) {
      for (size_t i = (size_t)frame; i < boxes->count; i += 8) {
        const float step = i % 3 ? (float)((int)(i % 7) - 3) * 0.25f : 64.0f;
        for (int k = 0; k < 6; k++) v[k][i] += step;
        if (i % 11 == 0) v[1][i] = frame == 1 ? NAN : v[4][i];
        list[listed_count++] = (uint32_t)i;
      }
      for (size_t i = 0; i < boxes->count; i += 13) list[listed_count++] = (uint32_t)i;
    }
    if (frame > 0) fb_oracle(boxes, touch, want);
    const col_pairs *expected = want;
    if (marks != NULL) fb_drop_static(want, marks, &kept), expected = &kept;
    /* With an allocation failing (one frame of a starved input): COL_ERR_MEMORY with the list
     * empty and the cache reset, so the same update again gives the exact pairs. */
    const bool starved = starve && frame == (int)(pick >> 12) % 3;
    const unsigned fail_at = (unsigned)(pick >> 14 & 31);
    for (int again = 0; again < 2; again++) {
      if (starved && again == 0) fz_fail_allocation((long)fail_at);
      const col_status st = listed ? col_broadphase_cache_update_moved(
                                         cache, boxes, list, listed_count, touch, got, NULL)
                                   : col_broadphase_cache_update(cache, boxes, touch, got, NULL);
      const bool failed = starved && again == 0 && fz_allocation_failed();
      if (st == COL_OK) break;
      if (st != COL_ERR_MEMORY || !failed || got->count != 0) {
        fprintf(stderr,
                "fuzz broadphase: cache frame %d, allocation %u %s: status %d, %zu pairs left\n",
                frame, fail_at, failed ? "failing" : "not failing", (int)st, got->count);
        fz_fail();
      }
    }
    col_pairs_sort(got);
    if (!fb_same(got, expected)) {
      char label[96];
      snprintf(label, sizeof label, "cache frame %d (%s%s)", frame,
               grid_cache  ? "kept grid"
               : sap_cache ? "sweep and prune"
                           : "tree",
               marks != NULL ? ", static marks" : "");
      fb_report(boxes, v, touch, expected, got, label);
    }
  }

  col_broadphase_cache_destroy(cache);
  col_pairs_free(&kept);
  free(marks);
  free(list);
}
