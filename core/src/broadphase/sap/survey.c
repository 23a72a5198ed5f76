/* Sweep and prune's survey of the boxes: one pass per axis over every box, four lanes at a time,
 * finding what the sort (sort.c) and the grid (count.c) need to know of them (broadphase.h's
 * col__survey). It goes by chunks of COL__SURVEY_CHUNK boxes folded in order, so that the
 * parallel call, surveying chunks as tasks (tasks/sort.c), gets the same bits; built twice, for
 * the baseline and for AVX2 (broadphase.h). */
#include "../broadphase.h"

#include <math.h>

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
    mn = min4(l, mn), mx = max4(h, mx);
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
    /* a value not finite as +inf to the minimum, -inf to the maximum: never taken */
    mn = min4(pick4(finite, l, inf), mn), mx = max4(pick4(finite, l, ninf), mx);
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
