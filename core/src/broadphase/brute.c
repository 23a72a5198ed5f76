/* Brute force: every box against every later box, N(N-1)/2 tests, each row of tests one call
 * of the active backend's query kernel (so it runs at that backend's SIMD width). */
#include "broadphase.h"

#include <stdlib.h>

col_status col__bp_brute(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  uint32_t *idx = malloc(n * sizeof(uint32_t));
  if (idx == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, n * sizeof(uint32_t));
  col_status st = COL_OK;
  for (size_t i = 0; i + 1 < n && st == COL_OK; i++) {
    const size_t rest = n - i - 1;
    const size_t hits =
        col__bp_query_run(bp, col__bp_box(boxes, i), boxes->min, boxes->max, i + 1, rest, idx);
    bp->stats.tests += rest;
    for (size_t k = 0; k < hits && st == COL_OK; k++)
      st = col__bp_push(bp, (uint32_t)i, (uint32_t)(i + 1 + idx[k]));
  }
  free(idx);
  return st;
}
