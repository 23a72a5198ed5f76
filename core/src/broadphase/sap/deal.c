/* Sweep and prune's deal into cells (the cells are chosen and counted in count.c): the deal
 * itself (col__sap_deal: the count, the cells' places, then the boxes into them), and for the
 * parallel call the same deal split into tasks: each task takes a range of the sorted order and
 * counts its boxes' places per cell; a prefix sum over (cell, task) then gives each task, in each
 * cell, the place after the boxes of the tasks before it; each task writes its range there with a
 * fill of its own. Within a cell the boxes of task 0 come first, then task 1's, each range in
 * sorted order: the sequential deal's places, place for place, whatever the number of tasks or the
 * order they run in. The tasks' fills live in the deal's work slot, so no call allocates once the
 * slot has grown. */
#include "../broadphase.h"

#include "../../validate.h"

#include <string.h>

enum { AHEAD = 16 };

/* Past col__deal_far boxes the deal's reads of the spans in sorted order miss the caches: it
 * prefetches AHEAD boxes ahead. */
size_t col__deal_far = 1u << 16;

/* Boxes order[0..m) into their cells' places, in sorted order, so each cell's boxes stay
 * sorted on min x: at each place the box's index and its tag, bit 0 when the place is in the
 * box's first row, bit 1 in its first layer (always in 2D), one 8-byte store. A box covering
 * at most two cells per axis is written without branches: four copies (two in 2D), one the
 * box does not need (dy or dz 0) written to the next free place of the neighbouring cell
 * without taking it, where that cell's next box or the padding overwrites it (a real place is
 * only ever written after every such copy). */
/* A box covering more than two cells on an axis: every cell, with a loop (rare; kept out of
 * deal's loop, whose registers it would take). */
COL__BP_INLINE void deal_wide_at(uint32_t i, uint32_t w, int kz, size_t *fill, uint32_t *fill32,
                                 uint64_t *restrict slot) {
  const int y0 = (int)(w & 255u), y1 = (int)(w >> 8 & 255u);
  const int z0 = (int)(w >> 16 & 255u), z1 = (int)(w >> 24 & 127u);
  for (int y = y0; y <= y1; y++)
    for (int z = z0; z <= z1; z++) {
      const size_t c = (size_t)(y * kz + z), at = fill32 != NULL ? fill32[c]++ : fill[c]++;
      slot[at] = i | (uint64_t)((y == y0) | (z == z0) << 1) << 32;
    }
}
static __attribute__((noinline)) void deal_wide(uint32_t i, uint32_t w, int kz, size_t *fill,
                                                uint64_t *restrict slot) {
  deal_wide_at(i, w, kz, fill, NULL, slot);
}

/* own: a task's range with its own fill (below); unneeded copies go to its spare place, as
 * a cell's next free place may be the next task's first. */
COL__BP_INLINE void deal(unsigned dims, const uint32_t *order, size_t from, size_t to,
                         const uint32_t *span, int kz, size_t *fill, uint64_t *restrict slot,
                         bool far, bool own, size_t spare) {
  const size_t down = (size_t)kz;
  for (size_t r = from; r < to; r++) {
    const uint32_t i = order[r];
    if (far && r + AHEAD < to) __builtin_prefetch(&span[order[r + AHEAD]]);
    const uint32_t w = span[i];
    if (__builtin_expect(w & COL__SAP_WIDE, 0)) {
      deal_wide(i, w, kz, fill, slot);
      continue;
    }
    /* Four different cells always, as in count_cells (fill past the grid: a spare place). */
    size_t *f = fill + (w & 0xffffu);
    const size_t dy = w >> 16 & 1u, dz = w >> 17 & 1u;
    const size_t p0 = f[0], p1 = f[down];
    slot[p0] = i | (uint64_t)3u << 32, f[0] = p0 + 1;
    slot[own && !dy ? spare : p1] = i | (uint64_t)2u << 32, f[down] = p1 + dy;
    if (dims == 3) {
      const size_t p2 = f[1], p3 = f[down + 1];
      slot[own && !dz ? spare : p2] = i | (uint64_t)1u << 32, f[1] = p2 + dz;
      slot[own && !(dy & dz) ? spare : p3] = i, f[down + 1] = p3 + (dy & dz);
    }
  }
}

/* The deal when there is a grid (own: as above): its variants by dimension and distance. */
COL__BP_INLINE void deal_all(unsigned dims, const uint32_t *order, size_t from, size_t to, size_t m,
                             const uint32_t *span, int kz, size_t *fill, uint64_t *restrict slot,
                             bool own, size_t spare) {
  if (own && dims == 3)
    deal(3, order, from, to, span, kz, fill, slot, m > col__deal_far, true, spare);
  else if (own)
    deal(2, order, from, to, span, kz, fill, slot, m > col__deal_far, true, spare);
  else if (dims == 3 && m > col__deal_far)
    deal(3, order, 0, m, span, kz, fill, slot, true, false, 0);
  else if (dims == 3)
    deal(3, order, 0, m, span, kz, fill, slot, false, false, 0);
  else if (m > col__deal_far)
    deal(2, order, 0, m, span, kz, fill, slot, true, false, 0);
  else
    deal(2, order, 0, m, span, kz, fill, slot, false, false, 0);
}
static void deal_base(unsigned dims, const uint32_t *order, size_t from, size_t to, size_t m,
                      const uint32_t *span, int kz, size_t *fill, uint64_t *restrict slot, bool own,
                      size_t spare) {
  deal_all(dims, order, from, to, m, span, kz, fill, slot, own, spare);
}
COL__AVX2_BUILD static void deal_avx2(unsigned dims, const uint32_t *order, size_t from, size_t to,
                                      size_t m, const uint32_t *span, int kz, size_t *fill,
                                      uint64_t *restrict slot, bool own, size_t spare) {
  deal_all(dims, order, from, to, m, span, kz, fill, slot, own, spare);
}

/* The AVX2 build's 3D deal on one thread: the fills as 32-bit words, so that a cell's and its
 * next layer's (f[0] and f[1], f[down] and f[down + 1]) are read and advanced as one 64-bit
 * word, by the box's shape from a table: two loads and two stores of fills a box instead of
 * four each. The same places as deal(). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PAIR(first, second) ((uint64_t)(first) << 32 | (second))
#define FIRST(pair)         ((pair) >> 32)
#define SECOND(pair)        ((uint32_t)(pair))
#else
#define PAIR(first, second) ((uint64_t)(second) << 32 | (first))
#define FIRST(pair)         ((uint32_t)(pair))
#define SECOND(pair)        ((pair) >> 32)
#endif
/* By shape dy | dz << 1: the steps of (f[0], f[1]) and of (f[down], f[down + 1]). */
static const uint64_t pair_step[4][2] = {{PAIR(1, 0), PAIR(0, 0)},
                                         {PAIR(1, 0), PAIR(1, 0)},
                                         {PAIR(1, 1), PAIR(0, 0)},
                                         {PAIR(1, 1), PAIR(1, 1)}};

/* deal_wide with deal3_paired's 32-bit fills. */
static __attribute__((noinline)) void deal_wide32(uint32_t i, uint32_t w, int kz, uint32_t *fill,
                                                  uint64_t *restrict slot) {
  deal_wide_at(i, w, kz, NULL, fill, slot);
}

COL__BP_INLINE void deal3_paired(const uint32_t *order, size_t m, const uint32_t *span, int kz,
                                 uint32_t *fill, uint64_t *restrict slot, bool far) {
  const size_t down = (size_t)kz;
  for (size_t r = 0; r < m; r++) {
    const uint32_t i = order[r];
    if (far && r + AHEAD < m) __builtin_prefetch(&span[order[r + AHEAD]]);
    const uint32_t w = span[i];
    if (__builtin_expect(w & COL__SAP_WIDE, 0)) {
      deal_wide32(i, w, kz, fill, slot);
      continue;
    }
    uint32_t *f = fill + (w & 0xffffu);
    const uint64_t *step = pair_step[w >> 16 & 3u];
    uint64_t a, b;
    memcpy(&a, f, sizeof a), memcpy(&b, f + down, sizeof b);
    const uint64_t a1 = a + step[0], b1 = b + step[1];
    memcpy(f, &a1, sizeof a1), memcpy(f + down, &b1, sizeof b1);
    slot[FIRST(a)] = i | (uint64_t)3u << 32, slot[FIRST(b)] = i | (uint64_t)2u << 32;
    slot[SECOND(a)] = i | (uint64_t)1u << 32, slot[SECOND(b)] = i;
  }
}
static COL__AVX2_BUILD void deal3_paired_avx2(const uint32_t *order, size_t m, const uint32_t *span,
                                              int kz, uint32_t *fill, uint64_t *restrict slot) {
  if (m > col__deal_far)
    deal3_paired(order, m, span, kz, fill, slot, true);
  else
    deal3_paired(order, m, span, kz, fill, slot, false);
}

void col__sap_deal_range(const col__sap_deal_plan *p, size_t from, size_t to, size_t *fill,
                         size_t spare) {
  (p->avx2 ? deal_avx2 : deal_base)(p->dims, p->order, from, to, p->m, p->span, p->kz, fill,
                                    p->slot, true, spare);
}

void col__sap_deal_all(unsigned dims, const uint32_t *order, size_t m, const uint32_t *span, int kz,
                       size_t *fill, uint64_t *slot, bool avx2) {
  (avx2 ? deal_avx2 : deal_base)(dims, order, 0, m, m, span, kz, fill, slot, false, 0);
}

/* The deal stage: the count (its own, count.c, or a shared one: bp->counted), the cells' places,
 * then the boxes dealt into them by the loop above or by the tasks below. */
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
  /* slot 1 (the spans, once dealt) then holds one cell's arrays for the sweep (sweep.c) */
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
  } else if (avx2 && dims == 3 && total < UINT32_MAX / 2) {
    /* the fills as 32-bit words, in place of the size_t ones (read before they are written) */
    uint32_t *fill32 = (uint32_t *)(void *)fill;
    for (int q = 0; q <= used + kz; q++) fill32[q] = (uint32_t)fill[q];
    deal3_paired_avx2(order, m, c->span, kz, fill32, slot);
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

/* The deal as tasks. */
typedef struct deal_job {
  const col__sap_deal_plan *p;
  size_t per;    /* entries per task's fill */
  size_t stride; /* from one task's fill to the next */
} deal_job;

static size_t range_at(const col__sap_deal_plan *p, size_t t) { return p->m * t / p->tasks; }

/* Task t's places per cell, in its fill (the span word's format: count.c's count_cells). */
static void count_task(void *context, uint32_t t) {
  const deal_job *j = context;
  const col__sap_deal_plan *p = j->p;
  size_t *cnt = p->fills + t * j->stride;
  memset(cnt, 0, j->per * sizeof *cnt);
  const size_t down = (size_t)p->kz, to = range_at(p, t + 1);
  for (size_t r = range_at(p, t); r < to; r++) {
    if (r + AHEAD < to) __builtin_prefetch(&p->span[p->order[r + AHEAD]]);
    const uint32_t w = p->span[p->order[r]];
    if (__builtin_expect(w & COL__SAP_WIDE, 0)) {
      col__sap_count_wide(w, p->kz, cnt);
      continue;
    }
    size_t *f = cnt + (w & 0xffffu);
    const size_t dy = w >> 16 & 1u, dz = w >> 17 & 1u;
    f[0]++, f[down] += dy;
    if (p->dims == 3) f[1] += dz, f[down + 1] += dy & dz;
  }
}

static void deal_task(void *context, uint32_t t) {
  const deal_job *j = context;
  col__sap_deal_range(j->p, range_at(j->p, t), range_at(j->p, t + 1), j->p->fills + t * j->stride,
                      COL__SPARE_PLACE(j->p->total, t));
}

col_status col__sap_par_deal(const col__bp *bp, const col__sap_deal_plan *p) {
  const size_t per = (size_t)p->k + (size_t)p->kz + 1;
  deal_job j = {p, per, COL__TASK_ROUND(per, sizeof(size_t))};
  if (!col__par_run(bp, count_task, &j, p->tasks)) return COL_ERR_TASKS;
  /* Counts to first places: cell by cell, the tasks in order. Past the grid (where unneeded
   * copies' fills point): the task's spare place. */
  for (int c = 0; c < p->k; c++) {
    size_t at = p->base[c];
    for (size_t t = 0; t < p->tasks; t++) {
      size_t *f = p->fills + t * j.stride + c;
      const size_t here = *f;
      *f = at, at += here;
    }
#ifdef COL_VALIDATE
    if (at != p->base[c] + p->count[c]) col__validate_fail("parallel deal", "cell count", c);
#endif
  }
  for (size_t t = 0; t < p->tasks; t++)
    for (size_t c = (size_t)p->k; c < j.per; c++)
      p->fills[t * j.stride + c] = COL__SPARE_PLACE(p->total, t);
  return col__par_run(bp, deal_task, &j, p->tasks) ? COL_OK : COL_ERR_TASKS;
}
