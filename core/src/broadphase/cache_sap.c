/* The kept sweep and prune of col_broadphase_cache: the usable boxes' order on min x, their
 * keys and a sorted copy of their coordinates kept between frames; per frame the moved boxes
 * are put back in place (or merged in) and only they are looked up. */
#include "cache.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sorted copy's arrays: min k at 2k, max k at 2k + 1. */
static float *sorted_array(const col_broadphase_cache *c, unsigned a) {
  return c->sap_sorted + a * (c->count + COL_SAP_PAD);
}

/* The view of the kept sorted copy (sap_m boxes; the padding after them set to NaN here). */
static col_sap_view kept_view(col_broadphase_cache *c, const col_boxes *boxes, col_touch touch) {
  col_sap_view v = {{NULL, NULL, NULL}, {NULL, NULL, NULL}, boxes->dims, false};
  for (unsigned k = 0; k < boxes->dims; k++) {
    float *lo = sorted_array(c, 2 * k), *hi = sorted_array(c, 2 * k + 1);
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

/* The order kept up to date when few boxes moved: the unmoved boxes keep their order and keys
 * (compacted), the moved ones that are usable are sorted on their new min x (radix) and merged
 * in from the back. Only moved boxes can have gained or lost a NaN. `scratch` has 4 words
 * per moved box.
 * Returns the number of boxes in the order; the positions of the *placed moved boxes, in
 * ascending order, replace the moved list. */
/* merge_moved's pass, `arrays` a constant (4 or 6) once inlined; returns how many boxes of the
 * result are inverted on x (the sweep's x_lower). */
static inline __attribute__((always_inline)) size_t
merge_pass(col_broadphase_cache *c, unsigned arrays, const float *const *sorted,
           const float *const *now, float *const *to_sorted, const uint32_t *moved_keys,
           const uint32_t *moved_order, size_t k, size_t total) {
  const uint32_t *order = c->sap_order, *keys = c->sap_keys;
  uint32_t *to_order = c->sap_order_back, *to_keys = c->sap_keys_back;
  size_t x_inverted = 0;
  for (size_t a = c->sap_m, b = k, w = total; w > 0;) {
    while (a > 0 && c->moved[order[a - 1]]) a--;
    --w;
    if (a > 0 && (b == 0 || keys[a - 1] > moved_keys[b - 1])) {
      --a;
      to_keys[w] = keys[a], to_order[w] = order[a];
      for (unsigned x = 0; x < arrays; x++) to_sorted[x][w] = sorted[x][a];
    } else {
      --b;
      const uint32_t i = moved_order[b];
      to_keys[w] = moved_keys[b], to_order[w] = i, c->moved_list[b] = (uint32_t)w;
      for (unsigned x = 0; x < arrays; x++) to_sorted[x][w] = now[x][i];
    }
    x_inverted += to_sorted[1][w] < to_sorted[0][w];
  }
  return x_inverted;
}

static size_t merge_moved(col_broadphase_cache *c, const col_boxes *boxes, uint32_t *scratch,
                          size_t moved, size_t *placed) {
  const unsigned arrays = 2 * boxes->dims;
  const float *sorted[6], *now[6];
  float *to_sorted[6];
  for (unsigned a = 0; a < arrays; a++)
    sorted[a] = sorted_array(c, a),
    to_sorted[a] = c->sap_sorted_back + a * (c->count + COL_SAP_PAD);
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  /* The moved boxes usable now, sorted; `left` counts those that were in the order. */
  uint32_t *moved_keys = scratch, *moved_order = scratch + moved;
  size_t k = 0, left = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    left += c->usable[i];
    c->usable[i] = !col__bp_has_nan(boxes, i);
    if (c->usable[i]) moved_order[k] = i, moved_keys[k++] = col__float_key(boxes->min[0][i]);
  }
  if (k > 0) col__radix_sort32(moved_keys, moved_order, k, scratch + 2 * moved);
  /* One pass from the back into the other set: the unmoved boxes in their order (moved ones
   * skipped) merged with the moved ones; then the sets swap. */
  const size_t total = c->sap_m - left + k;
  c->sap_inverted =
      boxes->dims == 3
          ? merge_pass(c, 6, sorted, now, to_sorted, moved_keys, moved_order, k, total)
          : merge_pass(c, 4, sorted, now, to_sorted, moved_keys, moved_order, k, total);
  uint32_t *t = c->sap_order;
  c->sap_order = c->sap_order_back, c->sap_order_back = t;
  t = c->sap_keys, c->sap_keys = c->sap_keys_back, c->sap_keys_back = t;
  float *f = c->sap_sorted;
  c->sap_sorted = c->sap_sorted_back, c->sap_sorted_back = f;
  for (size_t r = 0; r < total; r++) c->sap_pos[c->sap_order[r]] = (uint32_t)r;
  *placed = k;
  return total;
}

/* The kept order's arrays, held in locals while boxes are shifted. */
typedef struct {
  uint32_t *keys, *order, *pos;
  float *coords[6];
} kept_order;

/* One position of the kept order copied to another (its box's position follows); `count`
 * (4 or 6) a constant once inlined, the copies written out so that none is a loop. */
static inline __attribute__((always_inline)) void shift_one(const kept_order *o, unsigned count,
                                                            size_t from, size_t to) {
  o->keys[to] = o->keys[from];
  const uint32_t i = o->order[from];
  o->order[to] = i, o->pos[i] = (uint32_t)to;
  o->coords[0][to] = o->coords[0][from], o->coords[1][to] = o->coords[1][from];
  o->coords[2][to] = o->coords[2][from], o->coords[3][to] = o->coords[3][from];
  if (count == 6) o->coords[4][to] = o->coords[4][from], o->coords[5][to] = o->coords[5][from];
}

/* The moved boxes put back in place (move_in_place's loop), `count` a constant (4 or 6) once
 * inlined. Returns false once the shifts pass `budget` places. */
static inline __attribute__((always_inline)) bool place_moved(col_broadphase_cache *c,
                                                              const col_boxes *boxes,
                                                              unsigned count, size_t moved,
                                                              size_t budget) {
  kept_order o = {c->sap_keys, c->sap_order, c->sap_pos, {NULL}};
  const float *now[6];
  for (unsigned a = 0; a < count; a++) o.coords[a] = sorted_array(c, a);
  for (unsigned k = 0; k < count / 2; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  float *const *arrays = o.coords;
  uint32_t *keys = o.keys;
  size_t m = c->sap_m, shifted = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    const bool was = c->usable[i], is = !col__bp_has_nan(boxes, i);
    if (!was && !is) continue;
    size_t p = m; /* a box joining the order starts past its end */
    if (was) {
      p = o.pos[i];
      c->sap_inverted -= arrays[1][p] < arrays[0][p];
    } else {
      m++;
    }
    size_t j = p;
    if (!is) { /* leaves the order: the boxes after it move up */
      for (; j + 1 < m; j++) shift_one(&o, count, j + 1, j);
      m--, c->usable[i] = false;
    } else {
      const uint32_t key = col__float_key(boxes->min[0][i]);
      for (; j > 0 && keys[j - 1] > key; j--) shift_one(&o, count, j - 1, j);
      if (j == p)
        for (; j + 1 < m && keys[j + 1] < key; j++) shift_one(&o, count, j + 1, j);
      keys[j] = key, o.order[j] = i, o.pos[i] = (uint32_t)j;
      for (unsigned a = 0; a < count; a++) arrays[a][j] = now[a][i];
      c->sap_inverted += arrays[1][j] < arrays[0][j];
      c->usable[i] = true;
    }
    shifted += j > p ? j - p : p - j;
    if (shifted > budget) {
      c->sap_m = m;
      return false;
    }
  }
  c->sap_m = m;
  return true;
}

/* The order kept up to date in place when the moved boxes go a few places: each is taken out
 * of its position and put where its new min x belongs, the boxes in between shifted one place
 * (the order stays sorted on the keys it holds after every box). Gives up, the order still
 * valid (each moved box at its new place or still at its old one, usable[] saying which boxes
 * it holds), once the shifts pass `budget` places; merge_moved then redoes the frame.
 * On success the positions of the usable moved boxes, ascending, are the first *placed
 * entries of the moved list. `scratch` has 4 words per moved box and at least n / 32 + 1. */
static bool move_in_place(col_broadphase_cache *c, const col_boxes *boxes, uint32_t *scratch,
                          size_t moved, size_t budget, size_t *placed) {
  if (!(boxes->dims == 3 ? place_moved(c, boxes, 6, moved, budget)
                         : place_moved(c, boxes, 4, moved, budget)))
    return false;
  /* The moved boxes' positions in ascending order: when they are not too sparse, a bit per
   * position read back word by word (a tenth of the boxes moving sets about three bits a
   * word); otherwise a radix sort on the positions. */
  const size_t words = c->sap_m / 32 + 1;
  size_t k = 0;
  if (words <= 4 * moved) {
    uint32_t *bits = scratch;
    memset(bits, 0, words * sizeof *bits);
    for (size_t q = 0; q < moved; q++) {
      const uint32_t i = c->moved_list[q];
      const uint32_t at = c->sap_pos[i];
      if (c->usable[i]) bits[at / 32] |= 1u << (at % 32);
    }
    for (size_t w = 0; w < words; w++)
      for (uint32_t b = bits[w]; b != 0; b &= b - 1)
        c->moved_list[k++] = (uint32_t)(32 * w) + (uint32_t)__builtin_ctz(b);
  } else {
    uint32_t *at = scratch, *ids = scratch + moved;
    for (size_t q = 0; q < moved; q++) {
      const uint32_t i = c->moved_list[q];
      if (c->usable[i]) at[k] = c->sap_pos[i], ids[k++] = i;
    }
    col__radix_sort32(at, ids, k, scratch + 2 * moved);
    memcpy(c->moved_list, at, k * sizeof *at);
  }
  *placed = k;
  return true;
}

/* Sweep and prune kept up to date. The first frame, or one where more than a quarter of the
 * boxes moved, is sorted and swept whole; otherwise the moved boxes are merged into last
 * frame's order (merge_moved) and only they are looked up (sap_moved). */
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
    c->count = n; /* sorted_array's stride */
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
  } else if (!move_in_place(c, boxes, scratch, moved, n, &placed))
    c->sap_m = merge_moved(c, boxes, scratch, moved, &placed);
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
      float *lo = sorted_array(c, 2 * k), *hi = sorted_array(c, 2 * k + 1);
      for (size_t r = 0; r < c->sap_m; r++)
        lo[r] = boxes->min[k][order[r]], hi[r] = boxes->max[k][order[r]];
      for (size_t r = 0; k == 0 && r < c->sap_m; r++) x_inverted += hi[r] < lo[r];
    }
    for (size_t r = 0; r < c->sap_m; r++) c->sap_pos[order[r]] = (uint32_t)r;
    c->sap_inverted = x_inverted;
    return col__bp_sap_sweep(bp, &sv, order, c->sap_m, idx);
  }
  return sap_moved(c, bp, order, placed, idx, (float *)(void *)scratch);
}
