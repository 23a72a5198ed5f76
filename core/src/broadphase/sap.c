/* Sweep and prune, the box-pruning way: sort the boxes on min x (LSD radix on the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent, found by binary search; that run goes through the active backend's query kernel,
 * which tests every axis, so the result is exactly brute force's. For any overlapping pair the
 * box that sorts first has max x >= the other's min x, so no pair is missed; boxes with a NaN
 * coordinate never pair and are left out. */
#include "broadphase.h"

#include <stdlib.h>

/* The first position in [lo, hi) whose min x is beyond `edge` (> for the closed rule, >= for
 * the open one): min x is sorted, NaN-free. Branch-free halving (conditional moves): the
 * outcome of each comparison is unpredictable, and mispredicted branches cost more than the
 * candidate tests of a typical run. */
static size_t run_end(const float *min_x, size_t lo, size_t hi, float edge, bool open) {
  size_t base = lo, len = hi - lo;
  if (open) {
    while (len > 0) {
      const size_t half = len / 2, next = min_x[base + half] < edge;
      base += next * (half + 1);
      len = next ? len - half - 1 : half;
    }
  } else {
    while (len > 0) {
      const size_t half = len / 2, next = min_x[base + half] <= edge;
      base += next * (half + 1);
      len = next ? len - half - 1 : half;
    }
  }
  return base;
}

size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  size_t m = 0;
  for (size_t i = 0; i < boxes->count; i++)
    if (!col__bp_has_nan(boxes, i)) {
      order[m] = (uint32_t)i;
      keys[m++] = col__float_key(boxes->min[0][i]);
    }
  col__radix_sort32(keys, order, m, scratch);
  return m;
}

col_status col__bp_sap(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const unsigned dims = boxes->dims;
  const size_t n = boxes->count;
  /* One block: order, keys, radix scratch (2n), idx, and the sorted SoA copy (2 * dims). */
  uint32_t *mem = malloc(n * (5 + 2 * (size_t)dims) * sizeof(uint32_t));
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, n * (5 + 2 * (size_t)dims) * sizeof(uint32_t));
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = mem + 4 * n;
  const size_t m = col__bp_sort_x(boxes, order, keys, scratch);
  const col_status st = col__bp_sap_sweep(bp, order, m, idx);
  free(mem);
  return st;
}

col_status col__bp_sap_sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *mem) {
  const col_boxes *boxes = bp->boxes;
  const unsigned dims = boxes->dims;
  const size_t n = boxes->count;
  uint32_t *idx = mem;
  float *sorted = (float *)(void *)(mem + n);
  const float *min[3] = {NULL, NULL, NULL}, *max[3] = {NULL, NULL, NULL};
  for (unsigned k = 0; k < dims; k++) {
    float *smin = sorted + 2 * k * n, *smax = smin + n;
    for (size_t r = 0; r < m; r++)
      smin[r] = boxes->min[k][order[r]], smax[r] = boxes->max[k][order[r]];
    min[k] = smin, max[k] = smax;
  }

  const bool open = bp->touch == COL_TOUCH_SEPARATES;
  /* Under the closed rule, a run's boxes overlap box r on x already when none is inverted on x
   * (min x[r] <= min x[j] <= max x[j], and min x[j] <= max x[r]): 3D runs then go through the
   * 2D kernel on (y, z), a third fewer loads per candidate. */
  bool x_inverted = false;
  for (size_t r = 0; r < m; r++) x_inverted = x_inverted || max[0][r] < min[0][r];
  const bool yz_only = dims == 3 && !open && !x_inverted;
  const float *const yz_min[3] = {min[1], min[2], NULL}, *const yz_max[3] = {max[1], max[2], NULL};
  col_status st = COL_OK;
  for (size_t r = 0; r + 1 < m && st == COL_OK; r++) {
    const size_t end = run_end(min[0], r + 1, m, max[0][r], open);
    const size_t count = end - r - 1;
    if (count == 0) continue;
    col_aabb3 q = {{min[0][r], min[1][r], 0.0f}, {max[0][r], max[1][r], 0.0f}};
    if (dims == 3) q.min.z = min[2][r], q.max.z = max[2][r];
    size_t hits;
    if (yz_only) {
      const col_aabb2_soa run = {yz_min[0] + r + 1, yz_min[1] + r + 1, yz_max[0] + r + 1,
                                 yz_max[1] + r + 1, count};
      hits = bp->backend->aabb2_query((col_aabb2){{q.min.y, q.min.z}, {q.max.y, q.max.z}}, &run,
                                      COL_TOUCH_OVERLAPS, idx);
    } else {
      hits = col__bp_query_run(bp, q, min, max, r + 1, count, idx);
    }
    bp->stats.tests += count;
    for (size_t k = 0; k < hits && st == COL_OK; k++)
      st = col__bp_push(bp, order[r], order[r + 1 + idx[k]]);
  }
  return st;
}
