/* Sweep and prune's passes before the sweep on one thread (the survey, the sort on min x, the
 * deal into cells: col__sap_front, which the sequential call runs), and the parallel call's form
 * for inputs up to col__par_owned_max boxes built on it. The split passes (sap_sort_par.c,
 * sap_grid.c, sap_deal.c) hand their arrays from core to core at every step: the deal reads the
 * spans the other core's count wrote, the sweep's unpack the places and records its deal wrote.
 * Where cores are far apart those reads cost more than the split saves: on a 2-vCPU Zen 5 VM a
 * cache line's round trip between the cores took 870-1,100 TSC cycles and a read of a line the
 * other core had just written 11-24 cycles against 2-4, and at 10,000 boxes the count, the deal
 * and the unpack took 2.6-4.4x their one-thread time, the 2-thread call slower than one thread.
 * Here one task per worker surveys and counts every box itself, on its own working memory (its
 * list's), takes its range of the cells from the counts (every task counts the same cells, so
 * every task computes the same split), then sorts, deals and sweeps only the boxes that may
 * reach its range: nothing a task writes is read by another until the join. The survey and the
 * count (about a fifth of the one-thread time) are repeated by every task, so this form is for
 * a few workers. */
#include "broadphase.h"

/* Boxes up to which the parallel call takes this form, and workers at most (each task repeats
 * the survey and the count). Measured on the Zen 5 VM, 2 threads, any-order call: at 10,000
 * boxes (3D box pruning) 1.34-1.41x against 0.78-0.86x for the split passes, at 100,000
 * 1.56-1.73x against 1.45x (2D: 1.32-1.37x against 1.29x); at 1,048,576 sparse boxes no better. */
size_t col__par_owned_max = 1u << 17;

bool col__bp_avx2_passes(const col__bp *bp) {
#if defined(__x86_64__) || defined(__i386__)
  const col__backend *be = bp->backend;
  return be->kind == COL_BACKEND_NATIVE && be->width >= 8 && col__cpu_has_avx2();
#else
  (void)bp;
  return false;
#endif
}

/* A part's boxes sorted (col__sap_band): those whose cells may reach [lo, hi) picked in index
 * order without a branch (their min x beside them), sorted as the whole set is (on the same
 * range of min x; a stable sort on the key, so ties stay in index order), then mapped back to
 * box indices: the whole set's sorted order restricted to them, as the deal needs. */
typedef struct band_job {
  const col_boxes *boxes;
  const col__survey *sv;
  bool avx2, maybe_nan;
  uint32_t *order, *keys, *scratch, *own;
  float *xs;
} band_job;

/* The picking pass, without a branch a box: `all` and `nan` (whether a box may hold a NaN)
 * are constants in each copy, and the arrays sit in locals (the stores could alias *b). */
COL__BP_INLINE size_t band_pick(const band_job *b, const uint32_t *span, size_t down, bool all,
                                bool nan, size_t lo, size_t hi) {
  const size_t n = b->boxes->count;
  const float *const x = b->boxes->min[0];
  uint32_t *const own = b->own;
  float *const xs = b->xs;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    own[m] = (uint32_t)i, xs[m] = x[i];
    size_t keep = 1;
    if (!all) {
      const uint32_t w = span[i];
      const bool wide = (w & COL__SAP_WIDE) != 0;
      const size_t first = wide ? (w & 255u) * down + (w >> 16 & 255u) : w & 0xffffu;
      const size_t last = wide ? (w >> 8 & 255u) * down + (w >> 24 & 127u) : first + down + 1;
      keep = (size_t)(last >= lo) & (size_t)(first < hi);
    }
    if (nan) keep &= (size_t)!col__bp_has_nan(b->boxes, i);
    m += keep;
  }
  return m;
}

static size_t band_order(void *context, const uint32_t *span, int kz, bool all, size_t lo,
                         size_t hi, const uint32_t **order) {
  const band_job *b = context;
  const size_t down = (size_t)kz;
  size_t m;
  if (b->maybe_nan)
    m = all ? band_pick(b, span, down, true, true, lo, hi)
            : band_pick(b, span, down, false, true, lo, hi);
  else
    m = all ? band_pick(b, span, down, true, false, lo, hi)
            : band_pick(b, span, down, false, false, lo, hi);
  /* No box kept has a NaN: every array may be the min x. */
  const col_boxes part = {b->boxes->dims, {b->xs, b->xs, b->xs}, {b->xs, b->xs, b->xs}, m};
  col__survey sv = *b->sv;
  sv.maybe_nan = false;
  const size_t sorted = col__bp_sort_x_surveyed(&part, b->avx2, &sv, b->order, b->keys, b->scratch);
  for (size_t r = 0; r < sorted; r++) b->order[r] = b->own[b->order[r]];
  *order = b->order;
  return sorted;
}

/* The boxes without NaN (the sweep's m). */
static size_t sweepable(const col_boxes *boxes) {
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
  /* One survey for the sort and the deal. */
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  col__sap_survey(bp->boxes, avx2, &sv);
  if (part) {
    /* A part sorts only its boxes, once the count has found their cells; the grid is the whole
     * call's, chosen for every box without NaN. */
    uint32_t *own = scratch + COL__SORT_X_SCRATCH(n);
    band_job job = {
        bp->boxes, &sv, avx2, sv.maybe_nan, order, keys, scratch, own, (float *)(void *)(own + n)};
    const col__sap_band band = {band_order, &job};
    bp->band = &band;
    const size_t m = sv.maybe_nan ? sweepable(bp->boxes) : n;
    const col_status st = col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
    bp->band = NULL;
    return st;
  }
  const size_t m = col__bp_sort_x_surveyed(bp->boxes, avx2, &sv, order, keys, scratch);
  return col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
}

size_t col__sap_owned_tasks(const col__bp *bp) {
  col_task_system ts;
  if (bp->boxes->count > col__par_owned_max || col__par_tasks(bp->par, &ts) != COL_OK) return 0;
  return ts.workers > 1 && ts.workers <= COL__OWNED_MAX_TASKS ? ts.workers : 0;
}

typedef struct owned_job {
  const col__par_join *pj;
  int *cells; /* the grid's cells, written by task 0 */
} owned_job;

static void owned_task(void *context, uint32_t t) {
  const owned_job *j = context;
  col__bp_task *task = &j->pj->task[t];
  col__par_out o;
  col__bp bp;
  col__par_task_begin(j->pj, task, &o, &bp);
  /* Part t of the split: the deal leaves out the boxes that never reach its cells. */
  bp.part = t, bp.parts = (uint32_t)j->pj->n;
  col__sap_dealt d;
  uint32_t *idx;
  col_status st = col__sap_front(&bp, &d, &idx);
  if (st == COL_OK) {
    task->from = d.from, task->to = d.to;
    if (t == 0) *j->cells = d.cells;
    st = col__sap_sweep_cells(&bp, &d, d.from, d.to, idx);
  }
  col__par_task_end(j->pj, task, &o, &bp, st);
}

col_status col__sap_par_owned(col__bp *bp, size_t tasks) {
  col__par_join pj;
  const col_status st = col__par_join_open(bp, tasks, &pj);
  if (st != COL_OK) return st;
  int cells = 0;
  owned_job j = {&pj, &cells};
  if (!col__par_run(bp, owned_task, &j, tasks)) return COL_ERR_TASKS;
  return col__par_join_close(&pj, cells);
}
