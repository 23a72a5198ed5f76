/* Sweep and prune's parallel call as "parts", on 2 to 4 workers: one task per worker takes a
 * range of the cells and sorts, deals and sweeps only the boxes that may reach it (front.c with
 * the part's pick, sap/pick.c), on its own working memory (its list's). Up to
 * col__par_owned_max boxes every task also surveys and counts every box itself (every task
 * counts the same cells, so every task computes the same split); past it the survey and the
 * count run once, split into tasks, and the parts deal from that count. Why: the split passes
 * (sap.c's parallel path: tasks/sort.c, count.c's tasks, deal.c's tasks) hand their arrays from
 * core to core at every step (the deal reads the spans the other core's count wrote, the sweep's
 * unpack the places and records its deal wrote); where cores are far apart those reads cost
 * more than the split saves. Here nothing a task writes is read by another until the join (save
 * the chunks of its cells that a faster task sweeps for it once that one is done: steal.c). The
 * survey and the count are repeated by every task of the first form, so it is for a few
 * workers. The figures behind the limits are in docs/tuning.md. */
#include "../broadphase.h"

/* Boxes up to which the parallel call takes the first form (every task surveys and counts),
 * and workers at most (each task repeats the survey and the count). Where a cache line's round
 * trip between the cores is long, the shared count's reads of what the other core wrote cost the
 * most at small sizes, and this form wins there; where it is short, the shared count wins from a
 * few thousand boxes. This limit keeps the small inputs, where far cores would cost most, in the
 * form that does not read them (docs/tuning.md). */
size_t col__par_owned_max = 1u << 15;
/* Boxes up to which larger inputs count once and then run as parts (the second form); inputs
 * past it (all of them at 0) split every pass into tasks. Counting once beat both the split
 * passes (each hands its arrays to the next across the cores) and parts that each count every
 * box, at the sizes measured (docs/tuning.md): no limit by default. */
size_t col__par_counted_max = SIZE_MAX;

size_t col__sap_owned_tasks(const col__bp *bp) {
  const size_t n = bp->boxes->count;
  col_task_system ts;
  if ((n > col__par_owned_max && n > col__par_counted_max) ||
      col__par_tasks(bp->par, &ts) != COL_OK)
    return 0;
  return ts.workers > 1 && ts.workers <= COL__OWNED_MAX_TASKS ? ts.workers : 0;
}

typedef struct owned_job {
  const col__par_join *pj;
  int *cells;                      /* the grid's cells, written by task 0 */
  const col__sap_counted *counted; /* the shared count, or NULL: each task counts */
  col__sap_share *share;           /* the parts' sweeps, shared out (steal.c) */
} owned_job;

static void owned_task(void *context, uint32_t t) {
  const owned_job *j = context;
  col__bp_task *task = &j->pj->task[t];
  col__par_out o;
  col__bp bp;
  col__par_task_begin(j->pj, task, &o, &bp);
  /* Part t of the split: the deal leaves out the boxes that never reach its cells. */
  bp.part = t, bp.parts = (uint32_t)j->pj->n, bp.counted = j->counted;
  col__sap_dealt d;
  uint32_t *idx;
  col_status st = col__sap_front(&bp, &d, &idx);
  if (st == COL_OK) {
    task->from = d.from, task->to = d.to;
    if (t == 0) *j->cells = d.cells;
    st = col__sap_share_sweep(j->share, j->pj, t, &bp, &d, idx);
  }
  col__par_task_end(j->pj, task, &o, &bp, st);
}

/* Runs the parts over `counted` (NULL: each counts); the blocks' fills in work slot fill_slot. */
static col_status run_parts(col__bp *bp, size_t tasks, const col__sap_counted *counted,
                            unsigned fill_slot) {
  col__par_join pj;
  const col_status st = col__par_join_open(bp, tasks, fill_slot, &pj);
  if (st != COL_OK) return st;
  int cells = 0;
  col__sap_share share[COL__OWNED_MAX_TASKS];
  memset(share, 0, sizeof share);
  owned_job j = {&pj, &cells, counted, share};
  if (!col__par_run(bp, owned_task, &j, tasks)) return COL_ERR_TASKS;
  /* Ordered: the parts' lists and the chunks others swept for them, in cell order. */
  col__par_seg seg[COL__OWNED_MAX_TASKS * (COL__SHARE_CHUNKS + 1)];
  if (pj.blocks == NULL) pj.seg = seg, pj.segs = col__sap_share_runs(share, tasks, pj.task, seg);
  return col__par_join_close(&pj, cells);
}

/* Past col__par_owned_max: the survey and the count split into tasks on the caller's working
 * memory (slots 1 to 3: spans, records, counts), read by every part; the parts then sort, deal
 * and sweep as above. The spans and records one core wrote are read by the other, but at these
 * sizes they are far larger than a core's cache and come from the shared one either way. */
static col_status par_counted(col__bp *bp, size_t tasks) {
  const size_t n = bp->boxes->count, bytes = COL__SORT_X_SCRATCH(n) * sizeof(uint32_t);
  /* Slot 0: the survey's parts (as in the split passes: the sort's scratch), then the join's. */
  col__survey_part *part = col__bp_work(bp, 0, bytes);
  if (part == NULL) return COL_ERR_MEMORY;
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  bool surveyed;
  col_status st = col__sap_par_survey(bp, avx2, part, &sv, &surveyed);
  if (st != COL_OK) return st;
  if (!surveyed) col__sap_survey(bp->boxes, avx2, &sv);
  col__sap_counted counted;
  st = col__sap_count(bp, &sv, avx2, sv.maybe_nan ? col__sap_sweepable(bp->boxes) : n, NULL,
                      &counted);
  if (st != COL_OK) return st;
  col__bp_scratch(bp, bytes + counted.span_bytes + counted.bytes);
  if (!counted.grid) {
    /* One cell: nothing to split; the sequential passes (which count again). */
    col__sap_dealt d;
    uint32_t *idx;
    st = col__sap_front(bp, &d, &idx);
    return st != COL_OK ? st : col__sap_sweep_cells(bp, &d, 0, d.cells, idx);
  }
  return run_parts(bp, tasks, &counted, 0);
}

col_status col__sap_par_owned(col__bp *bp, size_t tasks) {
  /* The blocks' fills in work slot 1: the caller's own passes use no slot in this form. */
  return bp->boxes->count > col__par_owned_max ? par_counted(bp, tasks)
                                               : run_parts(bp, tasks, NULL, 1);
}
