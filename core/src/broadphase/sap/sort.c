/* Sweep and prune's passes before the sweep: the survey of the boxes (one pass per axis: what
 * the sort and sap_grid.c's cells need to know of them) and the sort on min x (a bucket sort,
 * or the radix sort of radix.c). Both run four lanes at a time and are built twice, for the
 * baseline and for AVX2 (broadphase.h); sap.c and the cache's kept sweep and prune call them,
 * the bipartite form sorts with col__bp_sort_x. */
#include "../broadphase.h"

#include <math.h>
#include <string.h>

/* One partitioned axis (y or z) of a chunk's survey (broadphase.h). */
COL__BP_INLINE void survey_axis(const float *lo, const float *hi, size_t n, col__survey_part *s,
                                int a) {
  const col__f4 inf = splat4(INFINITY), ninf = splat4(-INFINITY);
  col__f4 mn = inf, mx = ninf, sum = splat4(0.0f);
  col__i4 bad = {0, 0, 0, 0}, odd = {0, 0, 0, 0};
  size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    const col__f4 l = load4(lo + r), h = load4(hi + r), d = h - l;
    const col__i4 real = d == d;
    bad |= (l > h) | (l == ninf) | (h == inf), odd |= ~real;
    mn = pick4(l < mn, l, mn), mx = pick4(h > mx, h, mx);
    sum += (col__f4)((col__i4)d & real);
  }
  bool any_bad = (bad[0] | bad[1] | bad[2] | bad[3]) != 0;
  bool any_odd = (odd[0] | odd[1] | odd[2] | odd[3]) != 0;
  float m0 = mn[0], m1 = mx[0];
  double total = (double)sum[0] + sum[1] + sum[2] + sum[3];
  for (int q = 1; q < 4; q++) m0 = mn[q] < m0 ? mn[q] : m0, m1 = mx[q] > m1 ? mx[q] : m1;
  for (; r < n; r++) {
    const float l = lo[r], h = hi[r], d = h - l;
    any_bad |= (l > h) | (l == -INFINITY) | (h == INFINITY), any_odd |= d != d;
    m0 = l < m0 ? l : m0, m1 = h > m1 ? h : m1, total += d == d ? d : 0.0f;
  }
  s->lo[a] = m0, s->hi[a] = m1, s->bad[a] = any_bad, s->size[a] = total;
  s->odd |= any_odd;
}

/* x: an inverted box, the range of the finite min x (NaN and infinities left out). */
COL__BP_INLINE void survey_x(const float *x0, const float *x1, size_t n, col__survey_part *s) {
  const col__f4 inf = splat4(INFINITY), ninf = splat4(-INFINITY);
  col__f4 mn = inf, mx = ninf;
  col__i4 inv = {0, 0, 0, 0}, odd = {0, 0, 0, 0};
  size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    const col__f4 l = load4(x0 + r), h = load4(x1 + r), d = h - l;
    const col__i4 finite = (l > ninf) & (l < inf); /* false for NaN too */
    mn = pick4(finite & (l < mn), l, mn), mx = pick4(finite & (l > mx), l, mx);
    inv |= h < l, odd |= d != d;
  }
  bool inverted = (inv[0] | inv[1] | inv[2] | inv[3]) != 0;
  bool any_odd = (odd[0] | odd[1] | odd[2] | odd[3]) != 0;
  float a = mn[0], b = mx[0];
  for (int q = 1; q < 4; q++) a = mn[q] < a ? mn[q] : a, b = mx[q] > b ? mx[q] : b;
  for (; r < n; r++) {
    const float l = x0[r], h = x1[r], d = h - l;
    inverted |= h < l, any_odd |= d != d;
    if (l > -INFINITY && l < INFINITY) a = l < a ? l : a, b = l > b ? l : b;
  }
  s->inverted = inverted, s->odd |= any_odd;
  s->x_lo = a, s->x_hi = b;
}

/* Chunks [from, to) of COL__SURVEY_CHUNK boxes, each into its part. */
COL__BP_INLINE void survey_chunks(const col_boxes *boxes, size_t from, size_t to,
                                  col__survey_part *part) {
  const size_t n = boxes->count;
  for (size_t c = from; c < to; c++) {
    const size_t i = c * COL__SURVEY_CHUNK,
                 len = n - i < COL__SURVEY_CHUNK ? n - i : COL__SURVEY_CHUNK;
    col__survey_part *p = &part[c - from];
    *p = (col__survey_part){{INFINITY, INFINITY},
                            {-INFINITY, -INFINITY},
                            {0, 0},
                            {false, false},
                            false,
                            false,
                            INFINITY,
                            -INFINITY};
    survey_x(boxes->min[0] + i, boxes->max[0] + i, len, p);
    for (int a = 0; a < (boxes->dims == 3 ? 2 : 1); a++)
      survey_axis(boxes->min[1 + a] + i, boxes->max[1 + a] + i, len, p, a);
  }
}
static void chunks_base(const col_boxes *boxes, size_t from, size_t to, col__survey_part *part) {
  survey_chunks(boxes, from, to, part);
}
COL__AVX2_BUILD static void chunks_avx2(const col_boxes *boxes, size_t from, size_t to,
                                        col__survey_part *part) {
  survey_chunks(boxes, from, to, part);
}

void col__sap_survey_chunks(const col_boxes *boxes, bool avx2, size_t from, size_t to,
                            col__survey_part *part) {
  (avx2 ? chunks_avx2 : chunks_base)(boxes, from, to, part);
}

/* Parts folded in chunk order (the sums' rounding is the same whoever surveyed the chunks). */
static void fold_one(const col__survey_part *p, col__survey *s) {
  for (int a = 0; a < 2; a++) {
    s->lo[a] = p->lo[a] < s->lo[a] ? p->lo[a] : s->lo[a];
    s->hi[a] = p->hi[a] > s->hi[a] ? p->hi[a] : s->hi[a];
    s->size[a] += p->size[a], s->ok[a] &= !p->bad[a];
  }
  s->x_inverted |= p->inverted, s->maybe_nan |= p->odd;
  s->x_lo = p->x_lo < s->x_lo ? p->x_lo : s->x_lo;
  s->x_hi = p->x_hi > s->x_hi ? p->x_hi : s->x_hi;
}

void col__sap_survey_fold(const col_boxes *boxes, const col__survey_part *part, size_t chunks,
                          col__survey *s) {
  *s = (col__survey){{INFINITY, INFINITY},
                     {-INFINITY, -INFINITY},
                     {0, 0},
                     {true, true},
                     false,
                     INFINITY,
                     -INFINITY,
                     false,
                     false};
  for (size_t c = 0; c < chunks; c++) fold_one(&part[c], s);
  if (boxes->dims == 2) s->lo[1] = 0, s->hi[1] = 0; /* z: not surveyed in 2D */
  s->x_spread = s->x_lo < s->x_hi && (double)s->x_hi - s->x_lo < (double)INFINITY;
}

void col__sap_survey(const col_boxes *boxes, bool avx2, col__survey *s) {
  /* Chunk by chunk, each folded as it comes: the parallel call's fold. */
  const size_t chunks = (boxes->count + COL__SURVEY_CHUNK - 1) / COL__SURVEY_CHUNK;
  col__survey_part part;
  col__sap_survey_fold(boxes, NULL, 0, s);
  for (size_t c = 0; c < chunks; c++) {
    col__sap_survey_chunks(boxes, avx2, c, c + 1, &part);
    fold_one(&part, s);
  }
  if (boxes->dims == 2) s->lo[1] = 0, s->hi[1] = 0;
  s->x_spread = s->x_lo < s->x_hi && (double)s->x_hi - s->x_lo < (double)INFINITY;
}

/* Bucket sort on min x (32 boxes or more, with a finite spread): one bucket per box over the range,
 * a monotonic map (sub, mul, clamp: a larger value never gets a lower bucket), so only boxes
 * of one bucket can be out of order after the scatter, and an insertion pass on the keys puts
 * them right. Equal keys share a bucket and keep the boxes' order throughout, as the radix
 * does. A pass that would move more than 2m entries (clustered values) hands the rest to the
 * radix sort. */
COL__BP_INLINE size_t bucket_sort_x(const col_boxes *boxes, float lo, float hi, bool maybe_nan,
                                    const uint32_t *ids, uint32_t *order, uint32_t *keys,
                                    uint32_t *scratch) {
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
    const col__f4 t = (x0 - splat4(lo)) * splat4(scale), u = pick4(t > zero, t, zero);
    const col__u4 b = (col__u4) __builtin_convertvector(pick4(u < top, u, top), col__i4);
    /* col__float_key: the bits flipped for negatives, the sign bit set for the others */
    const col__u4 bits = (col__u4)x0, neg = (col__u4)((col__i4)bits >> 31);
    const col__u4 key = bits ^ (neg | 0x80000000u);
    if ((ok[0] & ok[1] & ok[2] & ok[3]) != 0) { /* the usual case: four stores, no branches */
      col__u4 id = (col__u4){0, 1, 2, 3} + (uint32_t)i;
      if (ids != NULL) memcpy(&id, ids + i, sizeof id);
      memcpy(bucket + m, &b, sizeof b), memcpy(tkey + m, &key, sizeof key);
      memcpy(tord + m, &id, sizeof id);
      at[b[0] + 1]++, at[b[1] + 1]++, at[b[2] + 1]++, at[b[3] + 1]++, m += 4;
      continue;
    }
    for (int q = 0; q < 4; q++)
      if (ok[q] != 0) {
        bucket[m] = b[q], tkey[m] = key[q];
        tord[m] = ids != NULL ? ids[i + (size_t)q] : (uint32_t)i + (uint32_t)q;
        at[b[q] + 1]++, m++;
      }
  }
  for (; i < n; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    const float t = (x[i] - lo) * scale, u = t > 0 ? t : 0;
    const uint32_t b = (uint32_t)(u < last ? u : last);
    bucket[m] = b, tkey[m] = col__float_key(x[i]), tord[m] = ids != NULL ? ids[i] : (uint32_t)i;
    at[b + 1]++, m++;
  }
  for (size_t b = 0; b < n; b++) at[b + 1] += at[b];
  for (size_t r = 0; r < m; r++) {
    const uint32_t to = at[bucket[r]]++;
    keys[to] = tkey[r], order[to] = tord[r];
  }
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
      break;
    }
  }
  return m;
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
    return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, true, ids, order, keys, scratch);
  return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, false, ids, order, keys, scratch);
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

size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  col__survey sv;
  col__sap_survey(boxes, false, &sv);
  return col__bp_sort_x_surveyed(boxes, false, &sv, order, keys, scratch);
}
