/* Bipartite sweep and prune (set A against set B): both sets sorted on min x; a box of A is
 * tested against the run of B whose min x lies in [its min x, its max x], and a box of B
 * against the run of A whose min x lies in (its min x, its max x]: the tie on equal min x goes
 * to A's side only, so every x-overlapping pair is examined exactly once. Each run goes through
 * the active backend's query kernel on the sorted copy (all axes tested). */
#include "broadphase.h"

#include <stdlib.h>

typedef struct sorted_set {
  uint32_t *order; /* sorted position -> original index */
  float *v;        /* 2 * dims arrays of m floats: min[k], then max[k] */
  const float *min[3], *max[3];
  size_t m;
} sorted_set;

/* Frees and clears: the caller frees both sets again whatever sort_set returned. */
static void sorted_free(sorted_set *s) {
  free(s->order), free(s->v);
  *s = (sorted_set){0};
}

static col_status sort_set(const col_boxes *boxes, sorted_set *s) {
  const size_t n = boxes->count, dims = boxes->dims;
  *s = (sorted_set){0};
  s->order = malloc((n ? n : 1) * sizeof(uint32_t));
  uint32_t *keys = malloc((n + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t));
  s->v = malloc((n ? n : 1) * 2 * dims * sizeof(float));
  if (s->order == NULL || keys == NULL || s->v == NULL) {
    free(keys), sorted_free(s);
    return COL_ERR_MEMORY;
  }
  s->m = col__bp_sort_x(boxes, s->order, keys, keys + n);
  free(keys);
  for (size_t k = 0; k < dims; k++) {
    float *mn = s->v + 2 * k * n, *mx = mn + n;
    for (size_t r = 0; r < s->m; r++)
      mn[r] = boxes->min[k][s->order[r]], mx[r] = boxes->max[k][s->order[r]];
    s->min[k] = mn, s->max[k] = mx;
  }
  return COL_OK;
}

/* First sorted position whose min x is beyond `edge` (after it when `inclusive`). */
static size_t bound(const float *min_x, size_t m, float edge, bool inclusive) {
  size_t base = 0, len = m;
  while (len > 0) {
    const size_t half = len / 2,
                 next = inclusive ? min_x[base + half] <= edge : min_x[base + half] < edge;
    base += next * (half + 1);
    len = next ? len - half - 1 : half;
  }
  return base;
}

/* Every box of `from` against the run of `to` with min x in [min, max] (or (min, max]). */
static col_status sweep(col__bp *bp, const sorted_set *from, const sorted_set *to, bool from_first,
                        bool strict_start, uint32_t *idx) {
  const bool open = bp->touch == COL_TOUCH_SEPARATES;
  const unsigned dims = bp->boxes->dims;
  col_status st = COL_OK;
  for (size_t r = 0; r < from->m && st == COL_OK; r++) {
    const size_t lo = bound(to->min[0], to->m, from->min[0][r], strict_start);
    const size_t hi = bound(to->min[0], to->m, from->max[0][r], !open);
    if (hi <= lo) continue;
    col_aabb3 q = {{from->min[0][r], from->min[1][r], 0.0f},
                   {from->max[0][r], from->max[1][r], 0.0f}};
    if (dims == 3) q.min.z = from->min[2][r], q.max.z = from->max[2][r];
    const size_t hits = col__bp_query_run(bp, q, to->min, to->max, lo, hi - lo, idx);
    bp->stats.tests += hi - lo;
    for (size_t k = 0; k < hits && st == COL_OK; k++) {
      const uint32_t mine = from->order[r], theirs = to->order[lo + idx[k]];
      st = col__bp_push_ordered(bp, from_first ? mine : theirs, from_first ? theirs : mine);
    }
  }
  return st;
}

col_status col_broadphase_bipartite(const col_boxes *first, const col_boxes *second,
                                    col_touch touch, col_pairs *out, col_broadphase_stats *stats) {
  if (out == NULL) return COL_ERR_NULL;
  col_status st = col__bp_check(first, touch);
  if (st == COL_OK) st = col__bp_check(second, touch);
  if (st != COL_OK) return st;
  if (first->dims != second->dims) return COL_ERR_SIZE;
  col__bp bp = {first, touch, NULL, out, {0, 0, 0, 0}, NULL, false, NULL, 0, 0, NULL, NULL, NULL};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  sorted_set a, b;
  st = sort_set(first, &a);
  if (st == COL_OK)
    st = sort_set(second, &b);
  else
    b = (sorted_set){0};
  const size_t longest = first->count > second->count ? first->count : second->count;
  uint32_t *idx = st == COL_OK ? malloc((longest ? longest : 1) * sizeof *idx) : NULL;
  if (st == COL_OK && idx == NULL) st = COL_ERR_MEMORY;
  col__bp_scratch(&bp, (first->count + second->count) * (1 + 2 * (size_t)first->dims) *
                               sizeof(uint32_t) +
                           longest * sizeof(uint32_t));
  if (st == COL_OK) st = sweep(&bp, &a, &b, true, false, idx); /* B.min x >= A.min x */
  if (st == COL_OK) st = sweep(&bp, &b, &a, false, true, idx); /* A.min x > B.min x */
  free(idx), sorted_free(&a), sorted_free(&b);
  if (st != COL_OK) {
    out->count = 0;
    return st;
  }
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}
