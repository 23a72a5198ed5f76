/* Sweep and prune's survey of the boxes: one pass per axis over every box, four lanes at a time,
 * finding what the sort (sort.c) and the grid (count.c) need to know of them (broadphase.h's
 * col__survey). It goes by chunks of COL__SURVEY_CHUNK boxes folded in order, so that the
 * parallel call, surveying chunks as tasks (tasks/sort.c), gets the same bits; built twice, for
 * the baseline and for AVX2 (broadphase.h). */
#include "../broadphase.h"

#include <math.h>

/* A chunk's sum of sizes in double, one box at a time: the lanes' float sums overflow to
 * infinity when finite sizes near FLT_MAX add up (two boxes from -FLT_MAX to 0), which would
 * make the mean size infinite and the grid a single cell, where the rule on the mean
 * (collide/broadphase.h) asks for cells. Taken only when the float sum is not finite, by every
 * build the same way, so the bits stay the same. */
static double sizes_exactly(const float *lo, const float *hi, size_t n) {
  double total = 0.0;
  for (size_t r = 0; r < n; r++) {
    const float d = hi[r] - lo[r];
    total += d == d ? (double)d : 0.0;
  }
  return total;
}

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
  if (!isfinite(total)) total = sizes_exactly(lo, hi, n);
  s->lo[a] = m0, s->hi[a] = m1, s->bad[a] = any_bad, s->size[a] = total;
  s->odd |= any_odd;
}

/* y and z of a chunk in one loop, the AVX2 build's 3D survey: eight lanes, y's four in the low
 * half and z's in the high half, so one instruction takes both axes' step and the two running
 * sums (survey_axis's chain of one add for four boxes) advance together. Each lane's steps are
 * survey_axis's (minps / maxps for its min4 / max4), so the same bits; odd is one accumulator
 * for both axes (survey_axis ors each into s->odd). */
typedef void survey_yz_fn(const float *ly, const float *hy, const float *lz, const float *hz,
                          size_t n, col__survey_part *s);
#if defined(__x86_64__) || defined(__i386__)
typedef float survey_f8 __attribute__((vector_size(32)));
typedef int32_t survey_i8 __attribute__((vector_size(32)));
COL__AVX2_BUILD static void survey_yz(const float *ly, const float *hy, const float *lz,
                                      const float *hz, size_t n, col__survey_part *s) {
  const survey_f8 inf = {INFINITY, INFINITY, INFINITY, INFINITY,
                         INFINITY, INFINITY, INFINITY, INFINITY};
  const survey_f8 ninf = -inf;
  survey_f8 mn = inf, mx = ninf, sum = {0, 0, 0, 0, 0, 0, 0, 0};
  survey_i8 bad = {0, 0, 0, 0, 0, 0, 0, 0}, odd = bad;
  size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    const survey_f8 l =
        __builtin_shufflevector(load4(ly + r), load4(lz + r), 0, 1, 2, 3, 4, 5, 6, 7);
    const survey_f8 h =
        __builtin_shufflevector(load4(hy + r), load4(hz + r), 0, 1, 2, 3, 4, 5, 6, 7);
    const survey_f8 d = h - l;
    const survey_i8 real = d == d;
    bad |= (l > h) | (l == ninf) | (h == inf), odd |= ~real;
    mn = __builtin_ia32_minps256(l, mn), mx = __builtin_ia32_maxps256(h, mx);
    sum += (survey_f8)((survey_i8)d & real);
  }
  bool any_odd = (odd[0] | odd[1] | odd[2] | odd[3] | odd[4] | odd[5] | odd[6] | odd[7]) != 0;
  const float *const lo[2] = {ly, lz}, *const hi[2] = {hy, hz};
  for (int a = 0; a < 2; a++) {
    const int q0 = 4 * a;
    bool any_bad = (bad[q0] | bad[q0 + 1] | bad[q0 + 2] | bad[q0 + 3]) != 0;
    float m0 = mn[q0], m1 = mx[q0];
    double total = (double)sum[q0] + sum[q0 + 1] + sum[q0 + 2] + sum[q0 + 3];
    for (int q = q0 + 1; q < q0 + 4; q++)
      m0 = mn[q] < m0 ? mn[q] : m0, m1 = mx[q] > m1 ? mx[q] : m1;
    for (size_t t = r; t < n; t++) {
      const float l = lo[a][t], h = hi[a][t], d = h - l;
      any_bad |= (l > h) | (l == -INFINITY) | (h == INFINITY), any_odd |= d != d;
      m0 = l < m0 ? l : m0, m1 = h > m1 ? h : m1, total += d == d ? d : 0.0f;
    }
    if (!isfinite(total)) total = sizes_exactly(lo[a], hi[a], n);
    s->lo[a] = m0, s->hi[a] = m1, s->bad[a] = any_bad, s->size[a] = total;
  }
  s->odd |= any_odd;
}
#define SURVEY_YZ survey_yz
#else
#define SURVEY_YZ NULL
#endif

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
                                  col__survey_part *part, survey_yz_fn *yz) {
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
    if (yz != NULL && boxes->dims == 3) {
      yz(boxes->min[1] + i, boxes->max[1] + i, boxes->min[2] + i, boxes->max[2] + i, len, p);
      continue;
    }
    for (int a = 0; a < (boxes->dims == 3 ? 2 : 1); a++)
      survey_axis(boxes->min[1 + a] + i, boxes->max[1 + a] + i, len, p, a);
  }
}
static void chunks_base(const col_boxes *boxes, size_t from, size_t to, col__survey_part *part) {
  survey_chunks(boxes, from, to, part, NULL);
}
COL__AVX2_BUILD static void chunks_avx2(const col_boxes *boxes, size_t from, size_t to,
                                        col__survey_part *part) {
  survey_chunks(boxes, from, to, part, SURVEY_YZ);
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
