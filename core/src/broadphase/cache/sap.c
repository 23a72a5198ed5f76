/* The kept sweep and prune of col_broadphase_cache: the usable boxes' order on min x, their
 * keys and a sorted copy of their coordinates kept between frames; per frame the moved boxes
 * are put back in place or merged in (sap_order.c) and only they are looked up (here). */
#include "../../validate.h"
#include "state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The view of the kept sorted copy (sap_m boxes; the padding after them set to NaN here). */
static col_sap_view kept_view(col_broadphase_cache *c, const col_boxes *boxes, col_touch touch) {
  col_sap_view v = {{NULL, NULL, NULL}, {NULL, NULL, NULL}, boxes->dims, false};
  for (unsigned k = 0; k < boxes->dims; k++) {
    float *lo = col__cache_sap_array(c, 2 * k), *hi = col__cache_sap_array(c, 2 * k + 1);
    for (size_t r = c->sap_m; r < c->sap_m + COL_SAP_PAD; r++) lo[r] = hi[r] = NAN;
    v.min[k] = lo, v.max[k] = hi;
  }
  v.x_lower = touch == COL_TOUCH_SEPARATES || c->sap_inverted > 0;
  return v;
}

/* The largest of x[0..7] (none is NaN): a tree of maxss, no branch. */
static inline float max_of_8(const float *x) {
  float m[4];
  for (unsigned k = 0; k < 4; k++) m[k] = x[k] > x[k + 4] ? x[k] : x[k + 4];
  const float a = m[0] > m[2] ? m[0] : m[2], b = m[1] > m[3] ? m[1] : m[3];
  return a > b ? a : b;
}

/* The windows of sap_moved: 16 positions a block; the two reaches (cache fields sap_back and
 * sap_ahead) stay multiples of a block within these bounds. */
enum { BLOCK = 16, REACH_MIN = BLOCK, REACH_MAX = 64 * BLOCK };

/* A reach widened by a block when over one look-up in 16 fell back for want of it (by a block
 * or less), narrowed by one when under one in 64 did (a fallback costs about as much as a
 * window of a hundred positions more: two kernel calls and their mispredicted loop exits). */
static size_t adapt_reach(size_t reach, size_t short_of, size_t looked) {
  if (short_of * 16 > looked && reach < REACH_MAX) return reach + BLOCK;
  if (short_of * 64 < looked && reach > REACH_MIN) return reach - BLOCK;
  return reach;
}

/* Moved box r tested against the boxes at positions [s, s + len) (all readable; whole vectors
 * of the built-in backends in the windows); the pairs kept are those with the unmoved boxes
 * before r and, when `ahead`, with every box after r (a pair of two moved boxes is kept from
 * the one sorted first). */
static col_status look_up(const col_broadphase_cache *c, col__bp *bp, const col_sap_view *v,
                          const uint32_t *order, size_t r, size_t s, size_t len, bool ahead,
                          uint32_t *idx) {
  if (len == 0) return COL_OK; /* kernels are called with at least one box */
  size_t hits;
  if (v->dims == 3) {
    const col_aabb3 q = {{v->min[0][r], v->min[1][r], v->min[2][r]},
                         {v->max[0][r], v->max[1][r], v->max[2][r]}};
    const col_aabb3_soa set = {v->min[0] + s,
                               v->min[1] + s,
                               v->min[2] + s,
                               v->max[0] + s,
                               v->max[1] + s,
                               v->max[2] + s,
                               len};
    hits = bp->backend->k.aabb3_query(q, &set, bp->touch, idx);
  } else {
    const col_aabb2 q = {{v->min[0][r], v->min[1][r]}, {v->max[0][r], v->max[1][r]}};
    const col_aabb2_soa set = {v->min[0] + s, v->min[1] + s, v->max[0] + s, v->max[1] + s, len};
    hits = bp->backend->k.aabb2_query(q, &set, bp->touch, idx);
  }
  const size_t self = r - s;
  const uint32_t i = order[r];
  col_status st = COL_OK;
  for (size_t k = 0; k < hits && st == COL_OK; k++) {
    const size_t at = idx[k];
    const uint32_t j = order[s + at];
    if (at < self ? !c->moved[j] : ahead && at > self) st = col__bp_push(bp, i, j);
  }
  return st;
}

/* One frame of the kept sweep and prune when few boxes moved: the previous pairs between
 * unmoved boxes carry over, and each moved box at sorted position r is looked up.
 * Any box that overlaps it lies between the first position whose max x reaches its min x and
 * the last position whose min x is within its max x. Usually a window of fixed size around r
 * holds that range: from r - sap_back (rounded down to a block) to r + sap_ahead and a block.
 * Two checks say so without a branch that depends on the data: the maximum of max x over the
 * blocks before the window (a prefix maximum per block, made once per frame) is below min x[r],
 * and the min x just past the window is beyond max x[r] (or the window reaches the last box). Then
 * one query of fixed length tests the window (no loop exit to mispredict). Otherwise the box falls
 * back to two looks: backward from a walk to the first block whose max x reaches min x[r], and
 * forward along its sweep run (the backend's sap_run, as in a full sweep). The reaches adapt to the
 * share of fallbacks. The moved boxes' positions, ascending, are the first `placed` entries of the
 * moved list; `scratch` has room for sap_m / 16 floats. */
static col_status sap_moved(col_broadphase_cache *c, col__bp *bp, const uint32_t *order,
                            size_t placed, uint32_t *idx, float *scratch) {
  const col_boxes *boxes = bp->boxes;
  const col_sap_view v = kept_view(c, boxes, bp->touch);
  col_status st = col__cache_carry_over(c, bp);
  const size_t m = c->sap_m, blocks = m / BLOCK;
  /* The windows pay for the prefix maximum once a block in eight has a moved box. */
  const bool windows = placed * 8 >= blocks && blocks > 0;
  float *reached = scratch; /* reached[b]: the maximum of max x over positions < BLOCK (b + 1) */
  if (windows) {
    float top = -INFINITY;
    for (size_t b = 0; b < blocks; b++) {
      const float *x = v.max[0] + BLOCK * b;
      const float h0 = max_of_8(x), h1 = max_of_8(x + 8), h = h0 > h1 ? h0 : h1;
      top = top > h ? top : h;
      reached[b] = top;
    }
  }
  const size_t back = c->sap_back, ahead = c->sap_ahead, len = back + ahead + BLOCK;
  size_t lo = 0, short_back = 0, short_ahead = 0;
  for (size_t p = 0; p < placed && st == COL_OK; p++) {
    const size_t r = c->moved_list[p];
    const float from = v.min[0][r];
    bool back_ok = true, ahead_ok = true;
    if (windows) {
      const size_t s = r >= back ? (r - back) & ~(size_t)(BLOCK - 1) : 0, end = s + len;
      back_ok = s == 0 || reached[s / BLOCK - 1] < from;
      ahead_ok = end >= m || v.min[0][end] > v.max[0][r];
      if (back_ok & ahead_ok) {
        /* a window past the last box ends at the padding's first whole block */
        const size_t span = end <= m ? len : (m - s + BLOCK - 1) & ~(size_t)(BLOCK - 1);
        bp->stats.tests += (end <= m ? len : m - s) - 1;
        st = look_up(c, bp, &v, order, r, s, span, true, idx);
        continue;
      }
    }
    /* The walk to the first block of eight holding a max x that reaches min x[r] (the boxes
     * before it cannot overlap r; those after it that do not reach fail the query's test).
     * The blocks passed have max x below an earlier moved box's min x, which is no larger
     * (the moved boxes come in sorted order), so one walk serves every moved box. */
    for (; lo + 8 < r; lo += 8)
      if (!(max_of_8(v.max[0] + lo) < from)) break;
    /* The range rounded up to whole vectors (the boxes after r and the padding are readable):
     * a kernel then never copies a tail. */
    const size_t before = r - lo, width = bp->backend->width; /* a power of two */
    bp->stats.tests += before;
    st = look_up(c, bp, &v, order, r, lo, (before + width - 1) & ~(width - 1), false, idx);
    size_t tested;
    const size_t hits = bp->backend->k.sap_run(&v, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    /* A near miss (a block more would have done) asks for a wider window; a box that needs
     * far more (next to a wide box) does not, or the windows would grow past any use. */
    short_back += !back_ok && before <= back + BLOCK;
    short_ahead += !ahead_ok && tested < ahead + BLOCK;
    for (size_t k = 0; k < hits && st == COL_OK; k++)
      st = col__bp_push(bp, order[r], order[idx[k]]);
  }
  if (windows) {
    c->sap_back = adapt_reach(back, short_back, placed);
    c->sap_ahead = adapt_reach(ahead, short_ahead, placed);
  }
  return st;
}

#ifdef COL_VALIDATE
static _Noreturn void sap_fail(const char *invariant, size_t index) {
  col__validate_fail("kept sweep and prune", invariant, index);
}

/* The kept order's invariants, once the frame's moved boxes are in place and before the
 * sweep or look-ups read it: the order holds each usable box once, sorted on its key (min x);
 * sap_pos is the order's inverse; each key and sorted coordinate is the box's own; the
 * inverted count is the number of boxes with max x < min x; the first `placed` entries of the
 * moved list are ascending positions of moved boxes. O(boxes), no memory of its own. */
static void sap_validate(const col_broadphase_cache *c, const col_boxes *boxes, bool whole,
                         size_t placed) {
  const size_t n = boxes->count, m = c->sap_m;
  if (m > n) sap_fail("more boxes in the order than in the set", m);
  size_t usable = 0, inverted = 0;
  for (size_t i = 0; i < n; i++) usable += c->usable[i];
  if (usable != m) sap_fail("order count differs from the usable boxes", usable);
  for (size_t r = 0; r < m; r++) {
    const uint32_t i = c->sap_order[r];
    if (i >= n || !c->usable[i]) sap_fail("order holds an unusable or out-of-range box", r);
    if (c->sap_pos[i] != r) sap_fail("positions are not the inverse of the order", r);
    if (r > 0 && c->sap_keys[r - 1] > c->sap_keys[r]) sap_fail("order not sorted on min x", r);
    if (c->sap_keys[r] != col__float_key(boxes->min[0][i]))
      sap_fail("key differs from the box's min x", r);
    for (unsigned k = 0; k < boxes->dims; k++) {
      const float lo = col__cache_sap_array(c, 2 * k)[r],
                  hi = col__cache_sap_array(c, 2 * k + 1)[r];
      if (memcmp(&lo, &boxes->min[k][i], sizeof lo) || memcmp(&hi, &boxes->max[k][i], sizeof hi))
        sap_fail("sorted copy differs from the box", r);
    }
    inverted += col__cache_sap_array(c, 1)[r] < col__cache_sap_array(c, 0)[r];
  }
  if (inverted != c->sap_inverted) sap_fail("inverted boxes miscounted", inverted);
  for (size_t k = 0; !whole && k < placed; k++) {
    const uint32_t r = c->moved_list[k];
    if (r >= m || (k > 0 && c->moved_list[k - 1] >= r) || !c->moved[c->sap_order[r]])
      sap_fail("moved positions not ascending positions of moved boxes", k);
  }
}
#endif

/* Sweep and prune kept up to date. The first frame, or one where more than a quarter of the
 * boxes moved, is sorted and swept whole; otherwise the moved boxes are merged into last
 * frame's order (sap_order.c) and only they are looked up (sap_moved). */
col_status col__cache_sap_frame(col_broadphase_cache *c, col__bp *bp, bool first,
                                const uint32_t *list, size_t listed) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  if (first) {
    col__cache_reset(c);
    const size_t words = (n ? n : 1) * sizeof(uint32_t);
    const size_t coords = 2 * boxes->dims * (n + COL_SAP_PAD) * sizeof(float);
    c->sap_order = malloc(words), c->sap_order_back = malloc(words);
    c->sap_keys = malloc(words), c->sap_keys_back = malloc(words);
    c->sap_sorted = malloc(coords), c->sap_sorted_back = malloc(coords);
    /* the sweep's indices (room for a look-up rounded up to whole vectors), sort scratch */
    c->sap_work = malloc((n + COL_SAP_PAD + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t));
    c->sap_pos = malloc(words);
    c->count = n; /* col__cache_sap_array's stride */
    c->sap_back = c->sap_ahead = 4 * BLOCK;
    if (!col__cache_alloc_frame_state(c, n) || !c->sap_order || !c->sap_keys || !c->sap_sorted ||
        !c->sap_order_back || !c->sap_keys_back || !c->sap_sorted_back || !c->sap_work ||
        !c->sap_pos)
      return COL_ERR_MEMORY;
    col__cache_remember_all(c, boxes);
    for (size_t i = 0; i < n; i++) c->usable[i] = !col__bp_has_nan(boxes, i); /* = in order */
  }
  uint32_t *idx = c->sap_work, *scratch = c->sap_work + n + COL_SAP_PAD;
  const size_t moved = first  ? 0
                       : list ? col__cache_list_moved(c, boxes, list, listed)
                              : col__cache_find_moved(c, boxes);
  const bool whole = first || moved > n / 4;
  size_t placed = 0;
  if (whole)
    for (size_t k = 0; k < moved; k++) /* the first frame set every box's flag above */
      c->usable[c->moved_list[k]] = !col__bp_has_nan(boxes, c->moved_list[k]);
  /* In place while the moved boxes go about as many places in all as there are boxes; past
   * that, one merge pass over the order costs less. */
  /* A whole frame: one survey for the sort and the deal. */
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  if (whole) {
    col__sap_survey(boxes, avx2, &sv);
    c->sap_m = col__bp_sort_x_surveyed(boxes, avx2, &sv, c->sap_order, c->sap_keys, scratch);
  } else if (!col__cache_sap_move_in_place(c, boxes, scratch, moved, n, &placed))
    c->sap_m = col__cache_sap_merge_moved(c, boxes, scratch, moved, &placed);
  const uint32_t *order = c->sap_order;
  /* Kept between frames: two sets of order and keys, indices and radix scratch, the moved
   * list, coordinates, flags, two sorted copies, pairs. */
  col__bp_scratch(bp, (6 * n + COL_SAP_PAD + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t) +
                          n * (6 * sizeof(float) + 2 * sizeof(bool)) +
                          4 * boxes->dims * (n + COL_SAP_PAD) * sizeof(float) +
                          c->pairs.capacity * sizeof(col_pair));
  if (whole) {
    size_t x_inverted = 0;
    for (unsigned k = 0; k < boxes->dims; k++) {
      float *lo = col__cache_sap_array(c, 2 * k), *hi = col__cache_sap_array(c, 2 * k + 1);
      for (size_t r = 0; r < c->sap_m; r++)
        lo[r] = boxes->min[k][order[r]], hi[r] = boxes->max[k][order[r]];
      for (size_t r = 0; k == 0 && r < c->sap_m; r++) x_inverted += hi[r] < lo[r];
    }
    for (size_t r = 0; r < c->sap_m; r++) c->sap_pos[order[r]] = (uint32_t)r;
    c->sap_inverted = x_inverted;
    COL_VALIDATE_CALL(sap_validate(c, boxes, true, 0));
    return col__bp_sap_sweep(bp, &sv, avx2, order, c->sap_m, NULL, idx);
  }
  COL_VALIDATE_CALL(sap_validate(c, boxes, false, placed));
  return sap_moved(c, bp, order, placed, idx, (float *)(void *)scratch);
}
