/* The parallel broadphase's entry points. col_broadphase_pairs_parallel (and its any-order
 * form): the checks of col_broadphase_pairs, the task system chosen (the caller's, or the
 * built-in pool), and sweep and prune run with it; inputs that have nothing to split, and task
 * systems of one worker, take the sequential call itself. (The cache's own,
 * col_broadphase_cache_set_parallel, is in cache/cache.c.) */
#include "broadphase.h"

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
