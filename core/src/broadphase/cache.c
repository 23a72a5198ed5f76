/* The incremental broadphase (col_broadphase_cache): per frame, only the boxes that moved are
 * looked up again; the pairs between boxes that did not move are carried over. The tree's fat
 * leaves make most small moves free (no reinsertion). See collide.h for the contract. */
#include "broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct col_broadphase_cache {
  col_broadphase algorithm; /* TREE or SAP */
  /* SAP: the usable boxes sorted on min x (sap_m of them): their indices, keys and a copy of
   * their coordinates (min and max per axis, each array n + COL_SAP_PAD long), and a second
   * set of the three that a frame's merge writes into before the two sets swap. */
  uint32_t *sap_order, *sap_keys, *sap_order_back, *sap_keys_back;
  float *sap_sorted, *sap_sorted_back;
  uint32_t *sap_work;  /* the sweep's indices (n + COL_SAP_PAD), radix scratch (2n + 1) */
  uint32_t *sap_pos;   /* box i's position in the order (when usable) */
  size_t sap_inverted; /* boxes of the order inverted on x (the sweep's x_lower when > 0) */
  size_t sap_m;
  unsigned dims;
  col_touch touch;
  size_t count;
  bool valid;    /* a previous frame is cached */
  float *coords; /* the previous frame's boxes, axis by axis (see remember_all) */
  bool *moved;
  bool moved_clear;     /* no moved flag is set (list_moved needs them clear) */
  uint32_t *moved_list; /* the boxes that moved this frame */
  bool *usable;
  float margin;
  size_t reinserted; /* leaves reinserted since the tree was built */
  col__tree tree;
  col_pairs pairs; /* the previous frame's pairs */
  uint32_t *cand;
  size_t cand_cap;
};

col_status col_broadphase_cache_create(col_broadphase_cache **cache) {
  if (cache == NULL) return COL_ERR_NULL;
  col_broadphase_cache *c = calloc(1, sizeof *c);
  if (c == NULL) return COL_ERR_MEMORY;
  c->tree.root = c->tree.free_list = -1;
  c->algorithm = COL_BROADPHASE_TREE;
  *cache = c;
  return COL_OK;
}

static void reset(col_broadphase_cache *c) {
  free(c->coords), free(c->moved), free(c->moved_list), free(c->usable), free(c->cand);
  free(c->sap_order), free(c->sap_keys), free(c->sap_sorted), free(c->sap_work), free(c->sap_pos);
  free(c->sap_order_back), free(c->sap_keys_back), free(c->sap_sorted_back);
  c->sap_order = c->sap_keys = c->sap_order_back = c->sap_keys_back = c->sap_work = NULL;
  c->sap_pos = NULL;
  c->sap_sorted = c->sap_sorted_back = NULL, c->sap_m = 0;
  col__tree_free(&c->tree);
  col_pairs_free(&c->pairs);
  c->coords = NULL, c->moved = NULL, c->moved_list = NULL, c->usable = NULL, c->cand = NULL;
  c->cand_cap = 0, c->count = 0, c->valid = false;
}

col_status col_broadphase_cache_set_algorithm(col_broadphase_cache *cache,
                                              col_broadphase algorithm) {
  if (cache == NULL) return COL_ERR_NULL;
  if (algorithm != COL_BROADPHASE_TREE && algorithm != COL_BROADPHASE_SAP) return COL_ERR_ARGUMENT;
  if (algorithm != cache->algorithm) reset(cache), cache->algorithm = algorithm;
  return COL_OK;
}

/* The per-box state both kept algorithms need: coordinates, moved flags and list, usable. */
static bool alloc_frame_state(col_broadphase_cache *c, size_t n) {
  c->coords = malloc((n ? n : 1) * 6 * sizeof(float));
  c->moved = calloc(n ? n : 1, sizeof(bool));
  c->moved_clear = true;
  c->moved_list = malloc((n ? n : 1) * sizeof(uint32_t));
  c->usable = calloc(n ? n : 1, sizeof(bool));
  return c->coords && c->moved && c->moved_list && c->usable;
}

/* Keeps this frame's boxes axis by axis: min k at coords[2k n], max k at coords[(2k + 1) n]. */
static void remember_all(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  for (unsigned k = 0; k < boxes->dims && n > 0; k++) {
    memcpy(c->coords + 2 * k * n, boxes->min[k], n * sizeof(float));
    memcpy(c->coords + (2 * k + 1) * n, boxes->max[k], n * sizeof(float));
  }
}

/* Flags and lists the boxes whose coordinates changed bit for bit since the last frame (the
 * bits, not the values: -0.0 vs +0.0 and NaN payloads count as moves), keeps the new ones;
 * returns how many moved. Axis by axis over the arrays: one pass per array, no gathers. */
static size_t find_moved(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  const unsigned arrays = 2 * boxes->dims;
  const float *now[6];
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    bool moved = false;
    for (unsigned a = 0; a < arrays; a++) {
      uint32_t x, y;
      memcpy(&x, now[a] + i, sizeof x);
      memcpy(&y, c->coords + a * n + i, sizeof y);
      moved |= x != y;
    }
    c->moved[i] = moved;
    c->moved_list[count] = (uint32_t)i;
    count += moved;
  }
  c->moved_clear = count == 0;
  for (unsigned a = 0; a < arrays && n > 0; a++)
    memcpy(c->coords + a * n, now[a], n * sizeof(float));
  return count;
}

/* The caller's list of moved boxes (col_broadphase_cache_update_moved): flags and lists each
 * once and keeps its new coordinates; returns how many. The flags are cleared again by
 * unlist_moved at the end of the update. */
static size_t list_moved(col_broadphase_cache *c, const col_boxes *boxes, const uint32_t *list,
                         size_t listed) {
  const size_t n = boxes->count;
  size_t count = 0;
  if (!c->moved_clear) memset(c->moved, 0, n * sizeof(bool)); /* after a comparing update */
  for (size_t q = 0; q < listed; q++) {
    const uint32_t i = list[q];
    if (c->moved[i]) continue;
    c->moved[i] = true;
    c->moved_list[count++] = i;
    for (unsigned k = 0; k < boxes->dims; k++)
      c->coords[2 * k * n + i] = boxes->min[k][i],
                            c->coords[(2 * k + 1) * n + i] = boxes->max[k][i];
  }
  return count;
}

static void unlist_moved(col_broadphase_cache *c, const uint32_t *list, size_t listed) {
  for (size_t q = 0; q < listed; q++) c->moved[list[q]] = false;
  c->moved_clear = true;
}

/* The previous frame's pairs between boxes that did not move, into the pair list (room made
 * once, written without branches: which pairs survive is unpredictable). */
static col_status carry_over(const col_broadphase_cache *c, col__bp *bp) {
  if (c->pairs.count == 0) return COL_OK; /* the list's data may still be NULL */
  const col_status st = col__bp_reserve(bp, c->pairs.count);
  if (st != COL_OK) return st;
  col_pair *dst = bp->out->data + bp->out->count;
  size_t kept = 0;
  for (size_t k = 0; k < c->pairs.count; k++) {
    const col_pair p = c->pairs.data[k];
    dst[kept] = p;
    kept += !(c->moved[p.a] | c->moved[p.b]);
  }
  bp->out->count += kept, bp->stats.pairs += kept;
  return COL_OK;
}

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
  col_status st = carry_over(c, bp);
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
static col_status sap_frame(col_broadphase_cache *c, col__bp *bp, bool first, const uint32_t *list,
                            size_t listed) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  if (first) {
    reset(c);
    const size_t words = (n ? n : 1) * sizeof(uint32_t);
    const size_t coords = 2 * boxes->dims * (n + COL_SAP_PAD) * sizeof(float);
    c->sap_order = malloc(words), c->sap_order_back = malloc(words);
    c->sap_keys = malloc(words), c->sap_keys_back = malloc(words);
    c->sap_sorted = malloc(coords), c->sap_sorted_back = malloc(coords);
    /* the sweep's indices (room for a look-up rounded up to whole vectors), radix scratch */
    c->sap_work = malloc((3 * n + 1 + COL_SAP_PAD) * sizeof(uint32_t));
    c->sap_pos = malloc(words);
    c->count = n; /* sorted_array's stride */
    if (!alloc_frame_state(c, n) || !c->sap_order || !c->sap_keys || !c->sap_sorted ||
        !c->sap_order_back || !c->sap_keys_back || !c->sap_sorted_back || !c->sap_work ||
        !c->sap_pos)
      return COL_ERR_MEMORY;
    remember_all(c, boxes);
    for (size_t i = 0; i < n; i++) c->usable[i] = !col__bp_has_nan(boxes, i); /* = in order */
  }
  uint32_t *idx = c->sap_work, *scratch = c->sap_work + n + COL_SAP_PAD;
  const size_t moved = first ? 0 : list ? list_moved(c, boxes, list, listed) : find_moved(c, boxes);
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
  col__bp_scratch(bp, (8 * n + 1 + COL_SAP_PAD) * sizeof(uint32_t) +
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

void col_broadphase_cache_destroy(col_broadphase_cache *cache) {
  if (cache == NULL) return;
  reset(cache);
  free(cache);
}

static col_aabb3 fat_box(col_aabb3 b, float margin) {
  return (col_aabb3){{b.min.x - margin, b.min.y - margin, b.min.z - margin},
                     {b.max.x + margin, b.max.y + margin, b.max.z + margin}};
}

/* A fresh top-down tree over the current boxes, with fat leaves (the first frame, and
 * when reinsertions have loosened the tree; the pairs are not touched). */
static col_status build_tree(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  col_aabb3 *fat = calloc(n ? n : 1, sizeof *fat);
  if (fat == NULL) return COL_ERR_MEMORY;
  for (size_t i = 0; i < n; i++)
    fat[i] = fat_box(col__normalized(col__bp_box(boxes, i)), c->margin);
  const col_status st = col__tree_build(&c->tree, fat, c->usable, n);
  c->reinserted = 0;
  free(fat);
  return st;
}

/* First frame, or a different shape: everything from scratch, with fat leaves. */
static col_status rebuild(col_broadphase_cache *c, col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  reset(c);
  col_status st = alloc_frame_state(c, n) ? COL_OK : COL_ERR_MEMORY;
  if (st == COL_OK) remember_all(c, boxes);
  double extent = 0.0;
  size_t measured = 0;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    c->usable[i] = !col__bp_has_nan(boxes, i);
    const col_aabb3 b = col__normalized(col__bp_box(boxes, i));
    const double e = ((double)b.max.x - b.min.x) + ((double)b.max.y - b.min.y);
    if (c->usable[i] && e == e && e < 1e30) extent += e / 2.0, measured++;
  }
  c->margin = measured ? (float)(0.25 * extent / (double)measured) : 0.0f;
  if (st == COL_OK) st = build_tree(c, boxes);
  if (st == COL_OK) st = col__tree_all_pairs(bp, &c->tree, c->usable, &c->cand, &c->cand_cap);
  c->dims = boxes->dims, c->touch = bp->touch, c->count = n;
  return st;
}

/* Later frames: carry over the pairs of unmoved boxes, look up the moved ones. */
static col_status step(col_broadphase_cache *c, col__bp *bp, const uint32_t *list, size_t listed) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col_status st = COL_OK;
  const size_t moved = list ? list_moved(c, boxes, list, listed) : find_moved(c, boxes);
  for (size_t k = 0; k < moved && st == COL_OK; k++) {
    const uint32_t i = c->moved_list[k];
    bool reinserted;
    c->usable[i] = !col__bp_has_nan(boxes, i);
    st = col__tree_move(&c->tree, i, col__normalized(col__bp_box(boxes, i)), c->margin,
                        c->usable[i], &reinserted);
    c->reinserted += reinserted;
  }
  /* Insertion without rotations slowly loosens the tree: once as many leaves have been
   * reinserted as there are boxes, rebuild it top-down (amortized over those frames). */
  if (st == COL_OK && c->reinserted > n) st = build_tree(c, boxes);
  if (st == COL_OK) st = carry_over(c, bp);
  for (size_t m = 0; m < moved && st == COL_OK; m++) {
    const uint32_t i = c->moved_list[m];
    if (!c->usable[i]) continue;
    size_t found = 0;
    const col_aabb3 a = col__bp_box(boxes, i);
    st = col__tree_query(&c->tree, col__normalized(a), &c->cand, &c->cand_cap, &found);
    for (size_t k = 0; k < found && st == COL_OK; k++) {
      const uint32_t j = c->cand[k];
      if (j == i || (c->moved[j] && j < i)) continue; /* a moved pair is found from its lower */
      bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, j), bp->touch)) st = col__bp_push(bp, i, j);
    }
  }
  return st;
}

/* Both update forms; `list` NULL: find the moved boxes by comparing with the last frame. */
static col_status update(col_broadphase_cache *cache, const col_boxes *boxes, col_touch touch,
                         col_pairs *out, col_broadphase_stats *stats, const uint32_t *list,
                         size_t listed) {
  if (cache == NULL || out == NULL) return COL_ERR_NULL;
  col_status st = col__bp_check(boxes, touch);
  if (st != COL_OK) return st;
  for (size_t q = 0; q < listed; q++)
    if (list[q] >= boxes->count) return COL_ERR_SIZE;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0}};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  const bool same = cache->valid && cache->dims == boxes->dims && cache->touch == touch &&
                    cache->count == boxes->count;
  const bool sap = cache->algorithm == COL_BROADPHASE_SAP;
  if (sap) {
    st = sap_frame(cache, &bp, !same, list, listed);
    cache->dims = boxes->dims, cache->touch = touch, cache->count = boxes->count;
  } else {
    st = same ? step(cache, &bp, list, listed) : rebuild(cache, &bp);
  }
  if (same && list != NULL && cache->moved != NULL) unlist_moved(cache, list, listed);
  if (st == COL_OK) {
    /* Keep this frame's pairs for the next one. */
    if (cache->pairs.capacity < out->count) {
      col_pair *data = realloc(cache->pairs.data, out->count * sizeof(col_pair));
      if (data == NULL)
        st = COL_ERR_MEMORY;
      else
        cache->pairs.data = data, cache->pairs.capacity = out->count;
    }
    if (st == COL_OK && out->count)
      memcpy(cache->pairs.data, out->data, out->count * sizeof(col_pair));
    cache->pairs.count = out->count;
  }
  if (st != COL_OK) {
    reset(cache);
    out->count = 0;
    return st;
  }
  cache->valid = true;
  if (sap) {
    if (stats != NULL) *stats = bp.stats;
    return COL_OK;
  }
  /* What the cache holds between frames: boxes, flags, tree, pairs, candidates. */
  col__bp_scratch(&bp, cache->count * (6 * sizeof(float) + 2 * sizeof(bool) + sizeof(int32_t)) +
                           cache->tree.capacity * sizeof(col__tree_node) +
                           cache->pairs.capacity * sizeof(col_pair) +
                           cache->cand_cap * sizeof(uint32_t));
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}

col_status col_broadphase_cache_update(col_broadphase_cache *cache, const col_boxes *boxes,
                                       col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats) {
  return update(cache, boxes, touch, out, stats, NULL, 0);
}

col_status col_broadphase_cache_update_moved(col_broadphase_cache *cache, const col_boxes *boxes,
                                             const uint32_t *moved, size_t moved_count,
                                             col_touch touch, col_pairs *out,
                                             col_broadphase_stats *stats) {
  if (moved == NULL && moved_count > 0) return COL_ERR_NULL;
  static const uint32_t none = 0;
  return update(cache, boxes, touch, out, stats, moved_count ? moved : &none, moved_count);
}
