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

/* The larger of two floats (the first when they are equal or b is NaN; none is NaN here). */
static inline float fmaxf_ordered(float a, float b) { return a > b ? a : b; }

/* One frame of the kept sweep and prune when few boxes moved: the previous pairs between
 * unmoved boxes carry over, and each moved box at sorted position r is looked up in two runs:
 * forward, the boxes after it whose min x is within its x extent (the backend's sap_run, as in
 * a full sweep), and backward, the boxes before it that may reach it: from the first position
 * whose running maximum of max x reaches its min x (any overlapping box before r has
 * max x >= min x[r], so it lies in that range). A pair of two moved boxes is kept from the
 * forward run of the one sorted first. The moved boxes' positions, ascending, are the
 * first `placed` entries of the moved list (merge_moved). */
static col_status sap_moved(col_broadphase_cache *c, col__bp *bp, const uint32_t *order,
                            size_t placed, uint32_t *idx) {
  const col_boxes *boxes = bp->boxes;
  const col_sap_view v = kept_view(c, boxes, bp->touch);
  col_status st = col__cache_carry_over(c, bp);
  size_t lo = 0;
  float reached = -INFINITY; /* the maximum of max x over the positions before lo */
  for (size_t p = 0; p < placed && st == COL_OK; p++) {
    const size_t r = c->moved_list[p];
    const uint32_t i = order[r];
    /* the first position before r whose running maximum of max x gets to min x[r]: both rise
     * with r, so one walk serves every moved box */
    for (; lo < r; lo++) {
      const float up_to = fmaxf_ordered(v.max[0][lo], reached);
      if (!(up_to < v.min[0][r])) break;
      reached = up_to;
    }
    /* The range rounded up to whole vectors (the boxes after r and the padding are readable):
     * a kernel then never copies a tail; hits at r and after are dropped (r itself, and the
     * forward run finds the others). */
    const size_t before = r - lo, width = bp->backend->width; /* a power of two */
    const size_t scanned = (before + width - 1) & ~(width - 1);
    size_t hits;
    if (v.dims == 3) {
      const col_aabb3 q = {{v.min[0][r], v.min[1][r], v.min[2][r]},
                           {v.max[0][r], v.max[1][r], v.max[2][r]}};
      const col_aabb3_soa set = {v.min[0] + lo, v.min[1] + lo, v.min[2] + lo, v.max[0] + lo,
                                 v.max[1] + lo, v.max[2] + lo, scanned};
      hits = bp->backend->k.aabb3_query(q, &set, bp->touch, idx);
    } else {
      const col_aabb2 q = {{v.min[0][r], v.min[1][r]}, {v.max[0][r], v.max[1][r]}};
      const col_aabb2_soa set = {v.min[0] + lo, v.min[1] + lo, v.max[0] + lo, v.max[1] + lo,
                                 scanned};
      hits = bp->backend->k.aabb2_query(q, &set, bp->touch, idx);
    }
    bp->stats.tests += before;
    for (size_t k = 0; k < hits && idx[k] < before && st == COL_OK; k++) {
      const uint32_t j = order[lo + idx[k]];
      if (!c->moved[j]) st = col__bp_push(bp, i, j);
    }
    size_t tested;
    hits = bp->backend->k.sap_run(&v, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    for (size_t k = 0; k < hits && st == COL_OK; k++) st = col__bp_push(bp, i, order[idx[k]]);
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

/* One position of the kept order copied to another (its box's position follows). */
static inline __attribute__((always_inline)) void
shift_one(col_broadphase_cache *c, float *const *arrays, unsigned count, size_t from, size_t to) {
  c->sap_keys[to] = c->sap_keys[from];
  const uint32_t i = c->sap_order[from];
  c->sap_order[to] = i, c->sap_pos[i] = (uint32_t)to;
  for (unsigned a = 0; a < count; a++) arrays[a][to] = arrays[a][from];
}

/* The order kept up to date in place when the moved boxes go a few places: each is taken out
 * of its position and put where its new min x belongs, the boxes in between shifted one place
 * (the order stays sorted on the keys it holds after every box). Gives up, the order still
 * valid (each moved box at its new place or still at its old one, usable[] saying which boxes
 * it holds), once the shifts pass `budget` places; merge_moved then redoes the frame.
 * On success the positions of the usable moved boxes, ascending, are the first *placed
 * entries of the moved list. `scratch` has 4 words per moved box. */
static bool move_in_place(col_broadphase_cache *c, const col_boxes *boxes, uint32_t *scratch,
                          size_t moved, size_t budget, size_t *placed) {
  const unsigned count = 2 * boxes->dims;
  float *arrays[6];
  const float *now[6];
  for (unsigned a = 0; a < count; a++) arrays[a] = sorted_array(c, a);
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  uint32_t *keys = c->sap_keys;
  size_t m = c->sap_m, shifted = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    const bool was = c->usable[i], is = !col__bp_has_nan(boxes, i);
    if (!was && !is) continue;
    size_t p = m; /* a box joining the order starts past its end */
    if (was) {
      p = c->sap_pos[i];
      c->sap_inverted -= arrays[1][p] < arrays[0][p];
    } else {
      m++;
    }
    size_t j = p;
    if (!is) { /* leaves the order: the boxes after it move up */
      for (; j + 1 < m; j++) shift_one(c, arrays, count, j + 1, j);
      m--, c->usable[i] = false;
    } else {
      const uint32_t key = col__float_key(boxes->min[0][i]);
      for (; j > 0 && keys[j - 1] > key; j--) shift_one(c, arrays, count, j - 1, j);
      if (j == p)
        for (; j + 1 < m && keys[j + 1] < key; j++) shift_one(c, arrays, count, j + 1, j);
      keys[j] = key, c->sap_order[j] = i, c->sap_pos[i] = (uint32_t)j;
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
  /* The moved boxes' positions in ascending order (radix on the positions). */
  uint32_t *at = scratch, *ids = scratch + moved;
  size_t k = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    if (c->usable[i]) at[k] = c->sap_pos[i], ids[k++] = i;
  }
  col__radix_sort32(at, ids, k, scratch + 2 * moved);
  memcpy(c->moved_list, at, k * sizeof *at);
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
  if (whole)
    c->sap_m = col__bp_sort_x(boxes, c->sap_order, c->sap_keys, scratch);
  else if (!move_in_place(c, boxes, scratch, moved, n, &placed))
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
    return col__bp_sap_sweep(bp, order, c->sap_m, idx);
  }
  return sap_moved(c, bp, order, placed, idx);
}
