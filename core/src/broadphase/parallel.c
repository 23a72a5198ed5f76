/* The parallel broadphase's entry points. col_broadphase_pairs_parallel (and its any-order
 * form): the checks of col_broadphase_pairs, the task system chosen (the caller's, or the
 * built-in pool), and sweep and prune run with it; inputs that have nothing to split, and task
 * systems of one worker, take the sequential call itself. (The cache's own,
 * col_broadphase_cache_set_parallel, is in cache/cache.c.) */
#include "static.h"

/* Both entry points: any_order lets the tasks write into blocks of `out` (tasks/run.c). */
static col_status run_parallel(const col_boxes *boxes, col_touch touch,
                               const col_parallel *parallel, col_pairs *out,
                               col_broadphase_stats *stats, bool any_order) {
  static const col_parallel builtin = {NULL, 0, false};
  col_status st = col__bp_check(boxes, touch);
  if (st != COL_OK) return st;
  const col_parallel *par = parallel != NULL ? parallel : &builtin;
  if (par->tasks != NULL && par->tasks->run == NULL) return COL_ERR_NULL;
  /* Under 256 boxes the sequential call sweeps one cell: nothing to split. */
  if (boxes->count < 256) return col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, touch, out, stats);
  col_task_system ts;
  if (col__par_tasks(par, &ts) != COL_OK) {
    if (par->allow_sequential_fallback)
      return col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, touch, out, stats);
    return COL_ERR_TASKS;
  }
  /* One worker: the sequential call itself, at its cost. */
  if (ts.workers <= 1) return col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, touch, out, stats);
  col__bp bp = {boxes, touch, NULL, out,  {0, 0, 0, 0}, par, any_order,
                NULL,  0,     0,    NULL, NULL,         NULL};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  st = col__bp_sap(&bp);
  /* The task system failed part way (its tasks may have run): the whole call again on this
   * thread, when allowed. */
  if (st == COL_ERR_TASKS && par->allow_sequential_fallback)
    return col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, touch, out, stats);
  if (st != COL_OK) return st;
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}

/* On any error the list is empty (the header's promise), whichever check or pass failed. */
static col_status pairs_parallel(const col_boxes *boxes, col_touch touch,
                                 const col_parallel *parallel, col_pairs *out,
                                 col_broadphase_stats *stats, bool any_order) {
  if (out == NULL) return COL_ERR_NULL;
  const col_status st = run_parallel(boxes, touch, parallel, out, stats, any_order);
  if (st != COL_OK) out->count = 0;
  return st;
}

col_status col_broadphase_pairs_parallel(const col_boxes *boxes, col_touch touch,
                                         const col_parallel *parallel, col_pairs *out,
                                         col_broadphase_stats *stats) {
  return pairs_parallel(boxes, touch, parallel, out, stats, false);
}

col_status col_broadphase_pairs_parallel_any_order(const col_boxes *boxes, col_touch touch,
                                                   const col_parallel *parallel, col_pairs *out,
                                                   col_broadphase_stats *stats) {
  return pairs_parallel(boxes, touch, parallel, out, stats, true);
}

/* The static rule through the task system: the parallel sweep and prune, then its static
 * pairs dropped (static.c). */
col_status col_broadphase_pairs_parallel_static(const col_boxes *boxes, const uint8_t *is_static,
                                                col_touch touch, const col_parallel *parallel,
                                                col_pairs *out, col_broadphase_stats *stats) {
  if (is_static == NULL) return col_broadphase_pairs_parallel(boxes, touch, parallel, out, stats);
  col_broadphase_stats found = {0, 0, 0, 0};
  const col_status st = pairs_parallel(boxes, touch, parallel, out, &found, false);
  if (st != COL_OK) return st;
  col__bp bp = {boxes, touch, NULL, out, found, NULL, false, NULL, 0, 0, NULL, NULL, NULL};
  col__bp_drop_static(&bp, is_static);
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}
