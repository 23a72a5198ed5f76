/* The static rule (col_broadphase_pairs_static): the pairs of two static boxes (a level's
 * tiles touching tiles) left out of the list. From scratch every algorithm finds all pairs and
 * the static ones are dropped, in one pass without branches: on a tile level the full sweep
 * and prune and that pass cost less than sorting and sweeping the static boxes against the
 * moving ones apart (measured: 3,000 static tiles and 300 moving boxes). The kept grid of
 * col_broadphase_cache is the form that never tests two static boxes. */
#include "static.h"

void col__bp_drop_static(col__bp *bp, const uint8_t *is_static) {
  col_pairs *out = bp->out;
  col_pair *data = out->data;
  const size_t count = out->count;
  size_t kept = 0, k = 0;
  /* Two pairs a step: the second's test does not wait for the first's store. */
  for (; k + 2 <= count; k += 2) {
    const col_pair p = data[k], q = data[k + 1];
    const size_t drop_p = (is_static[p.a] != 0) & (is_static[p.b] != 0);
    const size_t drop_q = (is_static[q.a] != 0) & (is_static[q.b] != 0);
    data[kept] = p;
    kept += 1 - drop_p;
    data[kept] = q;
    kept += 1 - drop_q;
  }
  for (; k < count; k++) {
    const col_pair p = data[k];
    data[kept] = p;
    kept += !(is_static[p.a] != 0 && is_static[p.b] != 0);
  }
  bp->stats.pairs -= count - kept;
  out->count = kept;
}

col_status col_broadphase_pairs_static(col_broadphase algorithm, const col_boxes *boxes,
                                       const uint8_t *is_static, col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats) {
  if (is_static == NULL) return col_broadphase_pairs(algorithm, boxes, touch, out, stats);
  if (out == NULL) return COL_ERR_NULL;
  size_t k;
  col_status st = col__bp_check_call(algorithm, boxes, touch, &k);
  if (st != COL_OK) return st;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0, 0}, NULL, false, NULL, 0, 0, NULL, NULL, NULL};
  st = col__backend_active(&bp.backend);
  out->count = 0;
  if (st == COL_OK) st = col__bp_run(k, &bp);
  if (st != COL_OK) {
    out->count = 0;
    return st;
  }
  col__bp_drop_static(&bp, is_static);
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}
