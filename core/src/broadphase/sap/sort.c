/* Sweep and prune's sort on min x, after the survey (survey.c): a bucket sort, or the radix sort
 * of radix.c. It runs four lanes at a time and is built twice, for the baseline and for AVX2
 * (broadphase.h); front.c, sap.c and the cache's kept sweep and prune call it, the bipartite
 * form sorts with col__bp_sort_x. */
#include "../broadphase.h"

#include <math.h>
#include <string.h>

/* Bucketed keys are in order but within a bucket: an insertion pass puts them in order, and
 * hands over to the radix sort (scratch: 2m words) once it has shifted more than 2m places. */
void col__sap_sort_fix(uint32_t *keys, uint32_t *order, size_t m, uint32_t *scratch) {
  size_t moved = 0;
  for (size_t r = 1; r < m; r++) {
    const uint32_t key = keys[r];
    if (key >= keys[r - 1]) continue;
    const uint32_t o = order[r];
    size_t p = r;
    do keys[p] = keys[p - 1], order[p] = order[p - 1], p--;
    while (p > 0 && keys[p - 1] > key);
    keys[p] = key, order[p] = o, moved += r - p;
    if (moved > 2 * m) {
      col__radix_sort32(keys, order, m, scratch);
      return;
    }
  }
}

/* col__sap_sort_fix for a bucket sort that wrote no keys (keyed false below): each box's key
 * read from its min x (box i's index i), the same order: sorted on the key, equal keys in
 * index order (the scatter keeps a bucket's boxes in index order and the pass never passes an
 * equal key; the radix sort it may hand over to is stable on the same keys, recomputed). */
COL__BP_INLINE void sort_fix_x(const float *x, uint32_t *order, size_t m, uint32_t *keys,
                               uint32_t *scratch) {
  size_t moved = 0;
  uint32_t last = m > 0 ? col__float_key(x[order[0]]) : 0; /* the key at r - 1 */
  for (size_t r = 1; r < m; r++) {
    const uint32_t o = order[r], key = col__float_key(x[o]);
    if (key >= last) {
      last = key;
      continue;
    }
    size_t p = r;
    do order[p] = order[p - 1], p--;
    while (p > 0 && col__float_key(x[order[p - 1]]) > key);
    order[p] = o, moved += r - p;
    if (moved > 2 * m) {
      for (size_t q = 0; q < m; q++) keys[q] = col__float_key(x[order[q]]);
      col__radix_sort32(keys, order, m, scratch);
      return;
    }
  }
}

/* Bucket sort on min x (32 boxes or more, with a finite spread): one bucket per box over the
 * range, a monotonic map (sub, mul, clamp: a larger value never gets a lower bucket), so only boxes
 * of one bucket can be out of order after the scatter, and an insertion pass on the keys puts
 * them right. Equal keys share a bucket and keep the boxes' order throughout, as the radix
 * does. A pass that would move more than 2m entries (clustered values) hands the rest to the
 * radix sort. With keyed false (a caller that needs only the order, ids NULL; `keys` is then
 * scratch, left undefined) no keys are written beside the order, so the scatter has one store
 * in random places a box instead of two. */
COL__BP_INLINE size_t bucket_sort_x(const col_boxes *boxes, float lo, float hi, bool maybe_nan,
                                    bool keyed, const uint32_t *ids, uint32_t *order,
                                    uint32_t *keys, uint32_t *scratch) {
  const size_t n = boxes->count;
  const float *x = boxes->min[0];
  uint32_t *bucket = scratch, *tkey = scratch + n, *tord = scratch + 2 * n, *at = scratch + 3 * n;
  const float scale = (float)((double)n / ((double)hi - lo)), last = (float)(n - 1);
  memset(at, 0, (n + 1) * sizeof *at);
  size_t m = 0, i = 0;
  /* Four boxes at a time: NaN test, bucket and key in lanes, then each kept box stored. */
  const col__f4 zero = splat4(0.0f), top = splat4(last);
  const bool z = boxes->dims == 3;
  /* The arrays in locals: the stores below could alias *boxes as far as the compiler knows. */
  const float *const hx = boxes->max[0], *const ly = boxes->min[1], *const hy = boxes->max[1];
  const float *const lz = boxes->min[2], *const hz = boxes->max[2];
  for (; i + 4 <= n; i += 4) {
    const col__f4 x0 = load4(x + i);
    col__i4 ok = {-1, -1, -1, -1};
    if (maybe_nan) { /* the survey found no NaN otherwise */
      const col__f4 x1 = load4(hx + i), y0 = load4(ly + i), y1 = load4(hy + i);
      ok = (x0 == x0) & (x1 == x1) & (y0 == y0) & (y1 == y1);
      if (z) {
        const col__f4 z0 = load4(lz + i), z1 = load4(hz + i);
        ok &= (z0 == z0) & (z1 == z1);
      }
    }
    const col__f4 t = (x0 - splat4(lo)) * splat4(scale);
    const col__u4 b = (col__u4) __builtin_convertvector(min4(max4(t, zero), top), col__i4);
    /* col__float_key: the bits flipped for negatives, the sign bit set for the others */
    const col__u4 bits = (col__u4)x0, neg = (col__u4)((col__i4)bits >> 31);
    const col__u4 key = bits ^ (neg | 0x80000000u);
    if ((ok[0] & ok[1] & ok[2] & ok[3]) != 0) { /* the usual case: four stores, no branches */
      col__u4 id = (col__u4){0, 1, 2, 3} + (uint32_t)i;
      if (ids != NULL) memcpy(&id, ids + i, sizeof id);
      memcpy(bucket + m, &b, sizeof b), memcpy(tord + m, &id, sizeof id);
      if (keyed) memcpy(tkey + m, &key, sizeof key);
      at[b[0] + 1]++, at[b[1] + 1]++, at[b[2] + 1]++, at[b[3] + 1]++, m += 4;
      continue;
    }
    for (int q = 0; q < 4; q++)
      if (ok[q] != 0) {
        bucket[m] = b[q];
        if (keyed) tkey[m] = key[q];
        tord[m] = ids != NULL ? ids[i + (size_t)q] : (uint32_t)i + (uint32_t)q;
        at[b[q] + 1]++, m++;
      }
  }
  for (; i < n; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    const float t = (x[i] - lo) * scale, u = t > 0 ? t : 0;
    const uint32_t b = (uint32_t)(u < last ? u : last);
    bucket[m] = b, tord[m] = ids != NULL ? ids[i] : (uint32_t)i;
    if (keyed) tkey[m] = col__float_key(x[i]);
    at[b + 1]++, m++;
  }
  for (size_t b = 0; b < n; b++) at[b + 1] += at[b];
  if (!keyed) { /* one store in random places a box instead of two */
    for (size_t r = 0; r < m; r++) order[at[bucket[r]]++] = tord[r];
    sort_fix_x(x, order, m, keys, scratch);
    return m;
  }
  for (size_t r = 0; r < m; r++) {
    const uint32_t to = at[bucket[r]]++;
    keys[to] = tkey[r], order[to] = tord[r];
  }
  col__sap_sort_fix(keys, order, m, scratch);
  return m;
}

COL__AVX2_BUILD static size_t bucket_order_avx2(const col_boxes *boxes, const col__survey *sv,
                                                uint32_t *order, uint32_t *keys,
                                                uint32_t *scratch) {
  if (sv->maybe_nan)
    return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, true, false, NULL, order, keys, scratch);
  return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, false, false, NULL, order, keys, scratch);
}

/* Under 32 boxes or without a finite spread of min x: the radix sort. */
static size_t radix_sort_x(const col_boxes *boxes, const uint32_t *ids, uint32_t *order,
                           uint32_t *keys, uint32_t *scratch) {
  size_t m = 0;
  for (size_t i = 0; i < boxes->count; i++)
    if (!col__bp_has_nan(boxes, i)) {
      order[m] = ids != NULL ? ids[i] : (uint32_t)i;
      keys[m++] = col__float_key(boxes->min[0][i]);
    }
  col__radix_sort32(keys, order, m, scratch);
  return m;
}

/* The bucket sort with the survey's range, without NaN tests when it found none; its two
 * builds (broadphase.h). */
COL__BP_INLINE size_t bucket_sort_surveyed(const col_boxes *boxes, const col__survey *sv,
                                           const uint32_t *ids, uint32_t *order, uint32_t *keys,
                                           uint32_t *scratch) {
  if (sv->maybe_nan)
    return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, true, true, ids, order, keys, scratch);
  return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, false, true, ids, order, keys, scratch);
}
static size_t bucket_base(const col_boxes *boxes, const col__survey *sv, const uint32_t *ids,
                          uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  return bucket_sort_surveyed(boxes, sv, ids, order, keys, scratch);
}
COL__AVX2_BUILD static size_t bucket_avx2(const col_boxes *boxes, const col__survey *sv,
                                          const uint32_t *ids, uint32_t *order, uint32_t *keys,
                                          uint32_t *scratch) {
  return bucket_sort_surveyed(boxes, sv, ids, order, keys, scratch);
}

size_t col__bp_sort_x_ids(const col_boxes *boxes, bool avx2, const col__survey *sv,
                          const uint32_t *ids, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  if (boxes->count < 32 || !sv->x_spread) return radix_sort_x(boxes, ids, order, keys, scratch);
  if (avx2) return bucket_avx2(boxes, sv, ids, order, keys, scratch);
  return bucket_base(boxes, sv, ids, order, keys, scratch);
}

size_t col__bp_sort_x_surveyed(const col_boxes *boxes, bool avx2, const col__survey *sv,
                               uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  return col__bp_sort_x_ids(boxes, avx2, sv, NULL, order, keys, scratch);
}

size_t col__bp_sort_x_order(const col_boxes *boxes, bool avx2, const col__survey *sv,
                            uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  if (avx2 && boxes->count >= 32 && sv->x_spread)
    return bucket_order_avx2(boxes, sv, order, keys, scratch);
  return col__bp_sort_x_ids(boxes, avx2, sv, NULL, order, keys, scratch);
}

size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  col__survey sv;
  col__sap_survey(boxes, false, &sv);
  return col__bp_sort_x_surveyed(boxes, false, &sv, order, keys, scratch);
}
