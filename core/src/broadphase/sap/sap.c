/* Sweep and prune, the box-pruning way: sort the boxes on min x (a bucket sort, or LSD radix on
 * the float bits; sort.c), then each box is tested only against the run of later boxes
 * whose min x lies within its own x extent; the run scan finds the run's end with the same
 * compares that test every axis, so the result is exactly brute force's: for any overlapping
 * pair the box that sorts first has max x >= the other's min x, so no pair is missed; boxes
 * with a NaN coordinate never pair and are left out. Pruning on the other axes too: the boxes
 * are dealt into a grid of cells over y (and z in 3D; count.c, deal.c) and each cell is swept
 * alone, so a run holds only boxes that share a cell. The SIMD backends sweep a whole cell per
 * call (col__backend.sap_sweep); the others call their sap_run once per run. Working memory
 * is kept in the pair list (col__bp_work), so repeated calls do not allocate. This file is the
 * top of the stack: it calls the passes before the sweep (front.c's col__sap_front, or
 * their split into tasks) and the cell sweeps (sweep.c, or as tasks, ../tasks/sweep.c; small
 * parallel inputs: ../tasks/parts.c), never the other way round. */
#include "../broadphase.h"

#include "../../validate.h"

/* The sort on min x as side work of the cell count (count.c). */
typedef struct sort_side {
  const col_boxes *boxes;
  bool avx2;
  const col__survey *sv;
  uint32_t *order, *keys, *scratch;
  size_t m;
} sort_side;

static void sort_beside(void *context) {
  sort_side *s = context;
  s->m = col__bp_sort_x_order(s->boxes, s->avx2, s->sv, s->order, s->keys, s->scratch);
}

col_status col__bp_sap(col__bp *bp) {
  if (bp->par == NULL) {
    col__sap_dealt d;
    uint32_t *idx;
    const col_status st = col__sap_front(bp, &d, &idx);
    return st != COL_OK ? st : col__sap_sweep_cells(bp, &d, 0, d.cells, idx);
  }
  /* A small input on a few workers: every task runs the passes itself (../tasks/parts.c). */
  const size_t owners = col__sap_owned_tasks(bp);
  if (owners > 1) return col__sap_par_owned(bp, owners);
  const size_t n = bp->boxes->count;
  /* One block: order, keys, the sort's scratch (the sweep's idx once sorted). */
  const size_t bytes = (2 * n + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t);
  uint32_t *mem = col__bp_work(bp, 0, bytes);
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, bytes);
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = scratch;
  /* One survey for the sort and the deal. */
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  /* The survey as tasks over chunks (../tasks/sort.c), its parts in the sort's scratch (free
   * until the sort), with the same result. */
  bool surveyed;
  col_status st =
      col__sap_par_survey(bp, avx2, (col__survey_part *)(void *)scratch, &sv, &surveyed);
  if (st != COL_OK) return st;
  if (!surveyed) col__sap_survey(bp->boxes, avx2, &sv);
  /* Large inputs sorted as tasks (../tasks/sort.c), with the same result. */
  size_t m;
  st = col__sap_par_sort(bp, &sv, order, keys, scratch, &m);
  if (st != COL_OK) return st;
  if (m == SIZE_MAX && !sv.maybe_nan) {
    /* A sort that stays on one thread runs beside the count of the boxes' cells, which only
     * needs m: with no NaN possible every box is kept, m = n. */
    sort_side s = {bp->boxes, avx2, &sv, order, keys, scratch, 0};
    const col__sap_side side = {sort_beside, &s};
    st = col__bp_sap_sweep(bp, &sv, avx2, order, n, &side, idx);
#ifdef COL_VALIDATE
    if (st == COL_OK && s.m != n)
      col__validate_fail("parallel sweep", "sort kept fewer boxes", s.m);
#endif
    return st;
  }
  if (m == SIZE_MAX) m = col__bp_sort_x_order(bp->boxes, avx2, &sv, order, keys, scratch);
  return col__bp_sap_sweep(bp, &sv, avx2, order, m, NULL, idx);
}

col_status col__bp_sap_sweep(col__bp *bp, const col__survey *sv, bool avx2, const uint32_t *order,
                             size_t m, const col__sap_side *side, uint32_t *idx) {
  col__sap_dealt d;
  const col_status st = col__sap_deal(bp, sv, avx2, order, m, side, &d);
  if (st != COL_OK) return st;
  /* A parallel call sweeps ranges of cells as tasks (../tasks/sweep.c); one cell is swept here. */
  if (bp->par != NULL && d.cells > 1) return col__sap_par_cells(bp, &d, idx);
  return col__sap_sweep_cells(bp, &d, 0, d.cells, idx);
}
