/* Sweep and prune, the box-pruning way: sort the boxes on min x (LSD radix on the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent; the active backend's run scan (col__backend.sap_run) finds the run's end with the
 * same compares that test every axis, so the result is exactly brute force's. For any overlapping
 * pair the box that sorts first has max x >= the other's min x, so no pair is missed; boxes with a
 * NaN coordinate never pair and are left out. */
#include "broadphase.h"

#include <math.h>
#include <stdlib.h>

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
  const size_t n = bp->boxes->count;
  /* One block: order, keys, radix scratch (2n), idx. */
  uint32_t *mem = malloc((n ? n : 1) * 5 * sizeof(uint32_t));
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, n * 5 * sizeof(uint32_t));
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = mem + 4 * n;
  const size_t m = col__bp_sort_x(bp->boxes, order, keys, scratch);
  const col_status st = col__bp_sap_sweep(bp, order, m, idx);
  free(mem);
  return st;
}

float *col__bp_sap_view(const col_boxes *boxes, const uint32_t *order, size_t m, col_touch touch,
                        col__sap_view *view) {
  const unsigned dims = boxes->dims;
  const size_t stride = m + COL__SAP_PAD;
  float *sorted = malloc(2 * dims * stride * sizeof(float));
  if (sorted == NULL) return NULL;
  *view = (col__sap_view){{NULL, NULL, NULL}, {NULL, NULL, NULL}, dims, false};
  for (unsigned k = 0; k < dims; k++) {
    float *smin = sorted + 2 * k * stride, *smax = smin + stride;
    for (size_t r = 0; r < m; r++)
      smin[r] = boxes->min[k][order[r]], smax[r] = boxes->max[k][order[r]];
    for (size_t r = m; r < stride; r++) smin[r] = smax[r] = NAN;
    view->min[k] = smin, view->max[k] = smax;
  }
  /* Under the closed rule, a run's boxes satisfy max x[j] >= min x[r] already when none is
   * inverted on x (min x[r] <= min x[j] <= max x[j]): the scan then skips that compare. */
  bool x_inverted = false;
  for (size_t r = 0; r < m; r++) x_inverted = x_inverted || view->max[0][r] < view->min[0][r];
  view->x_lower = touch == COL_TOUCH_SEPARATES || x_inverted;
  return sorted;
}

col_status col__bp_sap_sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx) {
  col__sap_view view;
  float *sorted = col__bp_sap_view(bp->boxes, order, m, bp->touch, &view);
  if (sorted == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, bp->stats.scratch_bytes + col__bp_sap_view_bytes(bp->boxes, m));
  col_status st = COL_OK;
  for (size_t r = 0; r + 1 < m && st == COL_OK; r++) {
    size_t tested;
    const size_t hits = bp->backend->sap_run(&view, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    for (size_t k = 0; k < hits && st == COL_OK; k++)
      st = col__bp_push(bp, order[r], order[idx[k]]);
  }
  free(sorted);
  return st;
}
