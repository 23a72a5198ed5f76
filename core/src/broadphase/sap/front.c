/* Sweep and prune's passes before the sweep on one thread (the survey, the sort on min x, the
 * deal into cells: col__sap_front, which the sequential call runs), and the parallel call's
 * "parts" built on it (on 2 to 4 workers; past col__par_owned_max boxes after one shared count).
 * The split passes (sap_sort_par.c, sap_grid.c, sap_deal.c) hand their arrays from core to core at
 * every step: the deal reads the spans the other core's count wrote, the sweep's unpack the places
 * and records its deal wrote. Where cores are far apart those reads cost more than the split saves:
 * on a 2-vCPU Zen 5 VM a cache line's round trip between the cores took 870-1,100 TSC cycles and a
 * read of a line the other core had just written 11-24 cycles against 2-4, and at 10,000 boxes the
 * count, the deal and the unpack took 2.6-4.4x their one-thread time, the 2-thread call slower than
 * one thread. Here one task per worker surveys and counts every box itself, on its own working
 * memory (its list's), takes its range of the cells from the counts (every task counts the same
 * cells, so every task computes the same split), then sorts, deals and sweeps only the boxes that
 * may reach its range: nothing a task writes is read by another until the join (save the chunks of
 * its cells that a faster task sweeps for it once that one is done: sap_steal.c). The survey and
 * the count (about a fifth of the one-thread time) are repeated by every task, so this form is for
 * a few workers. */
#include "../broadphase.h"

/* Boxes up to which the parallel call takes this form, and workers at most (each task repeats
 * the survey and the count). 2 threads over 1, any-order call: on a Zen 5 VM whose vCPUs were far
 * apart (a cache line's round trip 870-1,100 TSC cycles) 3D box pruning at 10,000 boxes gave
 * 1.34-1.41x against 0.78-0.86x for the split passes, and at 100,000 the shared count (below) was
 * neither better nor worse than this form; on one whose vCPUs are close (240-260 cycles) the shared
 * count won from about 3,000 boxes on (3D 10,000: 1.67-1.71x against 1.45-1.49x; 3D 100,000:
 * 1.85-1.95x against 1.63-1.68x; uniform 65,536: 1.77-1.82x against 1.52-1.62x). So this form
 * keeps the small inputs, where the far cores' reads would cost most. */
size_t col__par_owned_max = 1u << 15;
/* Boxes up to which larger inputs count once and then run as parts (this file's second form);
 * inputs past it (all of them at 0) split every pass into tasks. Measured on the Zen 5 VM at
 * 1,048,576 sparse boxes in 2D, 2 threads over 1: two sequential calls at once ran as fast as one
 * alone, yet the split passes reached 1.46-1.57x (each pass hands its arrays to the next across the
 * cores) and parts that count every box each 1.56x (the count is a tenth of the call). */
size_t col__par_counted_max = SIZE_MAX;

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
 * range of min x; a stable sort on the key, so ties stay in index order) carrying their box
 * indices: the whole set's sorted order restricted to them, as the deal needs. */
typedef struct band_job {
  const col_boxes *boxes;
  const col__survey *sv;
  bool avx2, maybe_nan;
  uint32_t *order, *keys, *scratch, *own;
  float *xs;
} band_job;

/* Whether the box of span word w may have a cell in [lo, hi): its first cell before hi and its
 * last at lo or after (a narrow box's last is c00 + dy kz + dz, a wide one's its far corner). */
COL__BP_INLINE size_t span_reaches(uint32_t w, size_t down, size_t lo, size_t hi) {
  const bool wide = (w & COL__SAP_WIDE) != 0;
  const size_t first = wide ? (w & 255u) * down + (w >> 16 & 255u) : w & 0xffffu;
  const size_t last = wide ? (w >> 8 & 255u) * down + (w >> 24 & 127u)
                           : first + (w >> 16 & 1u) * down + (w >> 17 & 1u);
  return (size_t)(last >= lo) & (size_t)(first < hi);
}

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
    if (!all) keep = span_reaches(span[i], down, lo, hi);
    if (nan) keep &= (size_t)!col__bp_has_nan(b->boxes, i);
    m += keep;
  }
  return m;
}

/* The places of the kept lanes first (compress), for each 4-bit mask of kept lanes. */
static const uint32_t kept_lanes[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                           {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                           {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                           {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};

/* The picking pass with a grid and no NaN, four boxes at a time in the AVX2 build: the lanes'
 * ranges of cells compared at once, the kept lanes' indices and min x moved to the front by
 * one shuffle each and stored whole (the stores past the kept ones are overwritten by the
 * next, or lie past the part's boxes: m + 4 <= i + 4 <= n). Four boxes with a wide one among
 * them take band_pick's way. The scalar loop's per-box work (two stores, two compares, an add)
 * was the cost: 1.9 TSC cycles a box at 1,048,576 boxes, against about 0.5 this way. */
COL__AVX2_BUILD static size_t band_pick_avx2(const band_job *b, const uint32_t *span, size_t down,
                                             size_t lo, size_t hi) {
  const size_t n = b->boxes->count;
  const float *const x = b->boxes->min[0];
  uint32_t *const own = b->own;
  float *const xs = b->xs;
  const col__u4 wide = {COL__SAP_WIDE, COL__SAP_WIDE, COL__SAP_WIDE, COL__SAP_WIDE};
  const col__u4 low16 = {0xffffu, 0xffffu, 0xffffu, 0xffffu}, bit = {1, 2, 4, 8};
  const col__u4 one = {1, 1, 1, 1};
  const col__u4 v_down = {(uint32_t)down, (uint32_t)down, (uint32_t)down, (uint32_t)down};
  /* lo may be 0 and hi up to the cell count: compared as last >= lo, first < hi */
  const col__u4 v_lo = {(uint32_t)lo, (uint32_t)lo, (uint32_t)lo, (uint32_t)lo};
  const col__u4 v_hi = {(uint32_t)hi, (uint32_t)hi, (uint32_t)hi, (uint32_t)hi};
  size_t m = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    col__u4 w;
    memcpy(&w, span + i, sizeof w);
    const col__u4 any_wide = w & wide;
    if ((any_wide[0] | any_wide[1] | any_wide[2] | any_wide[3]) != 0) {
      for (size_t q = i; q < i + 4; q++)
        own[m] = (uint32_t)q, xs[m] = x[q], m += span_reaches(span[q], down, lo, hi);
      continue;
    }
    const col__u4 first = w & low16, last = first + (w >> 16 & one) * v_down + (w >> 17 & one);
    const col__u4 keep = (col__u4)((last >= v_lo) & (first < v_hi)) & bit;
    const uint32_t mask = keep[0] | keep[1] | keep[2] | keep[3];
    col__u4 lanes, ids = (col__u4){0, 1, 2, 3} + (uint32_t)i;
    memcpy(&lanes, kept_lanes[mask], sizeof lanes);
    const col__u4 id_out = COL__SHUFFLE4(ids, lanes);
    const col__f4 x_out = COL__SHUFFLE4(load4(x + i), lanes);
    memcpy(own + m, &id_out, sizeof id_out), memcpy(xs + m, &x_out, sizeof x_out);
    m += (size_t)__builtin_popcount(mask);
  }
  for (; i < n; i++) own[m] = (uint32_t)i, xs[m] = x[i], m += span_reaches(span[i], down, lo, hi);
  return m;
}

static size_t band_order(void *context, const uint32_t *span, int kz, bool all, size_t lo,
                         size_t hi, const uint32_t **order) {
  const band_job *b = context;
  const size_t down = (size_t)kz;
  size_t m;
  if (b->avx2 && !b->maybe_nan && !all)
    m = band_pick_avx2(b, span, down, lo, hi);
  else if (b->maybe_nan)
    m = all ? band_pick(b, span, down, true, true, lo, hi)
            : band_pick(b, span, down, false, true, lo, hi);
  else
    m = all ? band_pick(b, span, down, true, false, lo, hi)
            : band_pick(b, span, down, false, false, lo, hi);
  /* No box kept has a NaN: every array may be the min x. */
  const col_boxes part = {b->boxes->dims, {b->xs, b->xs, b->xs}, {b->xs, b->xs, b->xs}, m};
  col__survey sv = *b->sv;
  sv.maybe_nan = false;
  *order = b->order;
  return col__bp_sort_x_ids(&part, b->avx2, &sv, b->own, b->order, b->keys, b->scratch);
}

/* The deal after the count (its own, or a shared one: bp->counted); sap_grid.c counts, sap_deal.c
 * deals, this chooses. */
col_status col__sap_deal(col__bp *bp, const col__survey *sv, bool avx2, const uint32_t *order,
                         size_t m, const col__sap_side *side, col__sap_dealt *out) {
  const col_boxes *boxes = bp->boxes;
  const unsigned dims = boxes->dims;
  const size_t n = boxes->count;
  col__sap_counted own;
  const col__sap_counted *c = bp->counted;
  size_t *base, span_bytes = 0, counted_bytes;
  if (c == NULL) {
    const col_status st = col__sap_count(bp, sv, avx2, m, side, &own);
    if (st != COL_OK) return st;
    c = &own, base = own.base, span_bytes = own.span_bytes, counted_bytes = own.bytes;
  } else {
    /* A part of a call that counted once: the count is shared, the bases and fills its own. */
    counted_bytes = 2 * c->per * sizeof(size_t);
    base = col__bp_work(bp, 3, counted_bytes);
    if (base == NULL) return COL_ERR_MEMORY;
  }
  size_t *fill = base + c->per;
  const size_t *count = c->count;
  const int used = c->used, kz = c->kz, k = c->grid ? used : 1;
  const bool grid = c->grid;
  /* The parallel deal's parts are the counting call's. */
  const size_t tasks = c == &own ? c->tasks : 0;
  /* A part of the parallel call deals its range of the split only. */
  int from = 0, to = used;
  if (bp->parts > 1) col__sap_part_range(bp, count, used, &from, &to);
  size_t total = 0, widest = 0;
  for (int q = 0; q < used; q++) {
    const size_t room = (count[q] + COL_SAP_PAD + 15) / 16 * 16;
    base[q] = total, total += room, widest = room > widest ? room : widest;
  }
  base[used] = total;
  /* Slot 4: the places' ids and tags, then a spare place (a parallel deal's: one per task). */
  const size_t place_bytes =
      (tasks > 1 ? COL__SPARE_PLACE(total, tasks - 1) + 1 : total + 1) * sizeof(uint64_t);
  uint64_t *slot = col__bp_work(bp, 4, place_bytes);
  if (slot == NULL) return COL_ERR_MEMORY;
  /* slot 1 (the spans, once dealt) then holds one cell's arrays for the sweep (sap_cells.c) */
  const size_t sweep_bytes = col__sap_cell_bytes(dims, widest);
  col__bp_scratch(bp, bp->stats.scratch_bytes +
                          (span_bytes > sweep_bytes ? span_bytes : sweep_bytes) + counted_bytes +
                          place_bytes);
  for (int q = 0; q < used; q++) fill[q] = base[q];
  for (int q = used; q <= used + kz; q++) fill[q] = total;
  /* A part with a band: its own boxes, sorted now that their cells are known. */
  if (from < to && bp->band != NULL)
    m = bp->band->fn(bp->band->context, c->span, kz, !grid, (size_t)from, (size_t)to, &order);
  if (from == to) {
    /* a part without cells: nothing to deal */
  } else if (!grid) {
    for (size_t r = 0; r < m; r++) slot[r] = order[r] | (uint64_t)3u << 32;
  } else if (tasks > 1) {
    const col__sap_deal_plan plan = {order, c->span, m,     dims,     avx2, k,    kz,
                                     count, base,    total, c->fills, slot, tasks};
    const col_status st = col__sap_par_deal(bp, &plan);
    if (st != COL_OK) return st;
  } else {
    col__sap_deal_all(dims, order, m, c->span, kz, fill, slot, avx2);
  }
  /* The padding: the NaN record (box index n), tag 0. */
  for (int q = 0; q < used; q++)
    for (size_t p = base[q] + count[q]; p < base[q + 1]; p++) slot[p] = n;
  bp->stats.cells = (uint64_t)used; /* the path taken (broadphase.h) */
  *out = (col__sap_dealt){c->rec,
                          slot,
                          count,
                          base,
                          used,
                          widest,
                          bp->touch == COL_TOUCH_SEPARATES || c->sv->x_inverted,
                          from,
                          to};
  return COL_OK;
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
    band_job job = {
        bp->boxes, &sv, avx2, sv.maybe_nan, order, keys, scratch, own, (float *)(void *)(own + n)};
    const col__sap_band band = {band_order, &job};
    bp->band = &band;
    const size_t m = sv.maybe_nan && bp->counted == NULL ? sweepable(bp->boxes) : n;
    const col_status st = col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
    bp->band = NULL;
    return st;
  }
  const size_t m = col__bp_sort_x_surveyed(bp->boxes, avx2, &sv, order, keys, scratch);
  return col__sap_deal(bp, &sv, avx2, order, m, NULL, d);
}

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
  col__sap_share *share;           /* the parts' sweeps, shared out (sap_steal.c) */
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
  st = col__sap_count(bp, &sv, avx2, sv.maybe_nan ? sweepable(bp->boxes) : n, NULL, &counted);
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
