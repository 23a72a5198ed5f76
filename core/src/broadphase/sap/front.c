/* Sweep and prune's passes before the sweep on one thread, in the order they run: which build
 * of the passes serves the backend, the survey (survey.c), the sort on min x (sort.c) and the
 * deal into cells (deal.c, which first counts the boxes' cells: count.c). The sequential call
 * runs them (sap.c); so does every part of the parallel call's "parts" form (tasks/parts.c), on
 * the part's own working memory, sorting only the boxes that may reach its cells (pick.c). */
#include "../broadphase.h"

bool col__bp_avx2_passes(const col__bp *bp) {
#if defined(__x86_64__) || defined(__i386__)
  const col__backend *be = bp->backend;
  return be->kind == COL_BACKEND_NATIVE && be->width >= 8 && col__cpu_has_avx2();
#else
  (void)bp;
  return false;
#endif
}

/* The boxes without NaN (the sweep's m). */
size_t col__sap_sweepable(const col_boxes *boxes) {
  size_t m = 0;
  for (size_t i = 0; i < boxes->count; i++) m += !col__bp_has_nan(boxes, i);
  return m;
}

col_status col__sap_front(col__bp *bp, col__sap_dealt *d, uint32_t **idx) {
  const size_t n = bp->boxes->count;
  /* One block: order, keys, the sort's scratch (the sweep's idx once sorted); a part's band
   * also its boxes and their min x. */
  const bool part = bp->parts > 1;
  const size_t bytes = ((part ? 4 : 2) * n + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t);
  uint32_t *mem = col__bp_work(bp, 0, bytes);
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, bytes);
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n;
  *idx = scratch;
  /* One survey for the sort and the deal (a part of a call that counted once: that one's). */
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  if (bp->counted != NULL)
    sv = *bp->counted->sv;
  else
    col__sap_survey(bp->boxes, avx2, &sv);
  if (part) {
    /* A part sorts only its boxes, once the count has found their cells; the grid is the whole
     * call's, chosen for every box without NaN. */
    uint32_t *own = scratch + COL__SORT_X_SCRATCH(n);
    col__sap_pick job = {
        bp->boxes, &sv, avx2, sv.maybe_nan, order, keys, scratch, own, (float *)(void *)(own + n)};
    const col__sap_band band = {col__sap_pick_order, &job};
    bp->band = &band;
    const size_t m = sv.maybe_nan && bp->counted == NULL ? col__sap_sweepable(bp->boxes) : n;
    const col_status st = col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
    bp->band = NULL;
    return st;
  }
  const size_t m = col__bp_sort_x_order(bp->boxes, avx2, &sv, order, keys, scratch);
  return col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
}
