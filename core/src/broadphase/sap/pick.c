/* The parallel call's parts (tasks/parts.c) each sweep a range of the cells, and deal only the
 * boxes that may reach it: picked once the count has found every box's cells (front.c hands
 * col__sap_pick_order to the deal as the part's band), then sorted as the whole set is. */
#include "../broadphase.h"

/* Whether the box of span word w may have a cell in [lo, hi): its first cell before hi and its
 * last at lo or after (a narrow box's last is c00 + dy kz + dz, a wide one's its far corner). */
COL__BP_INLINE size_t span_reaches(uint32_t w, size_t down, size_t lo, size_t hi) {
  const bool wide = (w & COL__SAP_WIDE) != 0;
  const size_t first = wide ? (w & 255u) * down + (w >> 16 & 255u) : w & 0xffffu;
  const size_t last = wide ? (w >> 8 & 255u) * down + (w >> 24 & 127u)
                           : first + (w >> 16 & 1u) * down + (w >> 17 & 1u);
  return (size_t)(last >= lo) & (size_t)(first < hi);
}

/* The picking pass, without a branch a box: `all` and `nan` (whether a box may hold a NaN)
 * are constants in each copy, and the arrays sit in locals (the stores could alias *b). */
COL__BP_INLINE size_t band_pick(const col__sap_pick *b, const uint32_t *span, size_t down, bool all,
                                bool nan, size_t lo, size_t hi) {
  const size_t n = b->boxes->count;
  const float *const x = b->boxes->min[0];
  uint32_t *const own = b->own;
  float *const xs = b->xs;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    own[m] = (uint32_t)i, xs[m] = x[i];
    size_t keep = 1;
    if (!all) keep = span_reaches(span[i], down, lo, hi);
    if (nan) keep &= (size_t)!col__bp_has_nan(b->boxes, i);
    m += keep;
  }
  return m;
}

/* The places of the kept lanes first (compress), for each 4-bit mask of kept lanes. */
static const uint32_t kept_lanes[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                           {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                           {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                           {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};

/* The picking pass with a grid and no NaN, four boxes at a time in the AVX2 build: the lanes'
 * ranges of cells compared at once, the kept lanes' indices and min x moved to the front by
 * one shuffle each and stored whole (the stores past the kept ones are overwritten by the
 * next, or lie past the part's boxes: m + 4 <= i + 4 <= n). Four boxes with a wide one among
 * them take band_pick's way. The scalar loop's per-box work (two stores, two compares, an add)
 * was the pick's cost at large sizes; this way does it for four boxes at once (docs/tuning.md). */
COL__AVX2_BUILD static size_t band_pick_avx2(const col__sap_pick *b, const uint32_t *span,
                                             size_t down, size_t lo, size_t hi) {
  const size_t n = b->boxes->count;
  const float *const x = b->boxes->min[0];
  uint32_t *const own = b->own;
  float *const xs = b->xs;
  const col__u4 wide = {COL__SAP_WIDE, COL__SAP_WIDE, COL__SAP_WIDE, COL__SAP_WIDE};
  const col__u4 low16 = {0xffffu, 0xffffu, 0xffffu, 0xffffu}, bit = {1, 2, 4, 8};
  const col__u4 one = {1, 1, 1, 1};
  const col__u4 v_down = {(uint32_t)down, (uint32_t)down, (uint32_t)down, (uint32_t)down};
  /* lo may be 0 and hi up to the cell count: compared as last >= lo, first < hi */
  const col__u4 v_lo = {(uint32_t)lo, (uint32_t)lo, (uint32_t)lo, (uint32_t)lo};
  const col__u4 v_hi = {(uint32_t)hi, (uint32_t)hi, (uint32_t)hi, (uint32_t)hi};
  size_t m = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    col__u4 w;
    memcpy(&w, span + i, sizeof w);
    const col__u4 any_wide = w & wide;
    if ((any_wide[0] | any_wide[1] | any_wide[2] | any_wide[3]) != 0) {
      for (size_t q = i; q < i + 4; q++)
        own[m] = (uint32_t)q, xs[m] = x[q], m += span_reaches(span[q], down, lo, hi);
      continue;
    }
    const col__u4 first = w & low16, last = first + (w >> 16 & one) * v_down + (w >> 17 & one);
    const col__u4 keep = (col__u4)((last >= v_lo) & (first < v_hi)) & bit;
    const uint32_t mask = keep[0] | keep[1] | keep[2] | keep[3];
    col__u4 lanes, ids = (col__u4){0, 1, 2, 3} + (uint32_t)i;
    memcpy(&lanes, kept_lanes[mask], sizeof lanes);
    const col__u4 id_out = COL__SHUFFLE4(ids, lanes);
    const col__f4 x_out = COL__SHUFFLE4(load4(x + i), lanes);
    memcpy(own + m, &id_out, sizeof id_out), memcpy(xs + m, &x_out, sizeof x_out);
    m += (size_t)__builtin_popcount(mask);
  }
  for (; i < n; i++) own[m] = (uint32_t)i, xs[m] = x[i], m += span_reaches(span[i], down, lo, hi);
  return m;
}

size_t col__sap_pick_order(void *context, const uint32_t *span, int kz, bool all, size_t lo,
                           size_t hi, const uint32_t **order) {
  const col__sap_pick *b = context;
  const size_t down = (size_t)kz;
  size_t m;
  if (b->avx2 && !b->maybe_nan && !all)
    m = band_pick_avx2(b, span, down, lo, hi);
  else if (b->maybe_nan)
    m = all ? band_pick(b, span, down, true, true, lo, hi)
            : band_pick(b, span, down, false, true, lo, hi);
  else
    m = all ? band_pick(b, span, down, true, false, lo, hi)
            : band_pick(b, span, down, false, false, lo, hi);
  /* No box kept has a NaN: every array may be the min x. */
  const col_boxes part = {b->boxes->dims, {b->xs, b->xs, b->xs}, {b->xs, b->xs, b->xs}, m};
  col__survey sv = *b->sv;
  sv.maybe_nan = false;
  *order = b->order;
  return col__bp_sort_x_ids(&part, b->avx2, &sv, b->own, b->order, b->keys, b->scratch);
}
