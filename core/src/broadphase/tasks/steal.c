/* The parallel call's parts share out their sweeps (parts.c runs them; the record is
 * col__sap_share in tasks.h). A part's range of cells is fixed before its task sorts and deals
 * (the split of the count), so a slower core's part ends later, and with equal parts the
 * call runs at the slower core's pace. Cores of a virtual machine can differ in speed for hours
 * (a sibling hardware thread busy with another guest's work, memory farther away: see
 * docs/tuning.md). Here a
 * task that has swept its own cells sweeps the last cells of a part still being swept, in
 * chunks, so the cores finish together. Taking from the other end keeps each part's own pairs
 * one run in its list, and the chunks others took come after them, in cell order: the joined
 * list stays the sequential call's. */
#include "../broadphase.h"

unsigned col__par_share_delay;
_Atomic size_t col__par_chunks_taken;

/* The next chunk from the first (the part's own task) or from the last (another task). */
static bool take(col__sap_share *s, bool last, int *chunk) {
  uint64_t e = atomic_load_explicit(&s->ends, memory_order_relaxed);
  for (;;) {
    const uint32_t first = (uint32_t)(e >> 32), end = (uint32_t)e;
    if (first >= end) return false;
    const uint64_t next = last ? e - 1 : e + ((uint64_t)1 << 32);
    if (atomic_compare_exchange_weak_explicit(&s->ends, &e, next, memory_order_relaxed,
                                              memory_order_relaxed)) {
      *chunk = (int)(last ? end - 1 : first);
      return true;
    }
  }
}

static void publish(col__sap_share *s, const col__sap_dealt *d) {
  s->d = *d;
  col__bp_task range[COL__SHARE_CHUNKS];
  const size_t made = d->to > d->from ? col__sap_split(d->count + d->from, d->to - d->from, range,
                                                       COL__SHARE_CHUNKS)
                                      : 0;
  s->chunks = (int)made;
  s->border[0] = d->from;
  for (size_t c = 0; c < made; c++) s->border[c + 1] = d->from + range[c].to;
  atomic_store_explicit(&s->ends, (uint64_t)made, memory_order_relaxed);
  atomic_store_explicit(&s->ready, true, memory_order_release);
}

static void delay(uint32_t t) {
  for (unsigned k = 0; t == 0 && k < col__par_share_delay; k++)
    atomic_signal_fence(memory_order_seq_cst);
}

/* Other parts' last chunks, as long as any part has one left; bp writes them (any order) or
 * `sb`, onto task->stolen (ordered). */
static col_status take_others(col__sap_share *share, size_t parts, uint32_t t, col__bp *bp,
                              col__bp *sb, uint32_t *idx) {
  for (bool found = true; found;) {
    found = false;
    for (size_t k = 1; k < parts; k++) {
      col__sap_share *s = &share[(t + k) % parts];
      if (!atomic_load_explicit(&s->ready, memory_order_acquire)) continue;
      int c;
      while (take(s, true, &c)) {
        found = true;
        if (col__par_share_delay > 0)
          atomic_fetch_add_explicit(&col__par_chunks_taken, 1, memory_order_relaxed);
        col__bp *w = sb != NULL ? sb : bp;
        const size_t at = w->out->count;
        const col_status st = col__sap_sweep_cells(w, &s->d, s->border[c], s->border[c + 1], idx);
        if (st != COL_OK) return st;
        s->taken[c].task = t, s->taken[c].at = at, s->taken[c].count = w->out->count - at;
      }
    }
  }
  return COL_OK;
}

col_status col__sap_share_sweep(col__sap_share *share, const col__par_join *pj, uint32_t t,
                                col__bp *bp, const col__sap_dealt *d, uint32_t *idx) {
  const size_t parts = pj->n;
  col__bp_task *task = &pj->task[t];
  col__sap_share *own = &share[t];
  publish(own, d);
  int c;
  for (;;) {
    delay(t);
    if (!take(own, false, &c)) break;
    const col_status st =
        col__sap_sweep_cells(bp, &own->d, own->border[c], own->border[c + 1], idx);
    if (st != COL_OK) return st;
  }
  /* Any order: through the task's writer (a block, or its list once the blocks run out). */
  if (pj->blocks != NULL) return take_others(share, parts, t, bp, NULL, idx);
  /* Ordered: other parts' pairs into the task's second list (its working memory the task's). */
  col_pairs stolen = {task->stolen.data, 0, task->stolen.capacity, bp->out->work};
  col__bp sb = *bp;
  sb.out = &stolen, sb.stats = (col_broadphase_stats){0, 0, 0, 0};
  const col_status st = take_others(share, parts, t, bp, &sb, idx);
  task->stolen = (col_pairs){stolen.data, stolen.count, stolen.capacity, NULL};
  bp->out->work = stolen.work;
  bp->stats.tests += sb.stats.tests, bp->stats.pairs += sb.stats.pairs;
  col__bp_scratch(bp, sb.stats.scratch_bytes);
  return st;
}

size_t col__sap_share_runs(const col__sap_share *share, size_t parts, const col__bp_task *task,
                           col__par_seg *seg) {
  size_t runs = 0;
  for (size_t u = 0; u < parts; u++) {
    seg[runs++] = (col__par_seg){task[u].list.data, task[u].list.count, 0};
    const col__sap_share *s = &share[u];
    if (!atomic_load_explicit(&s->ready, memory_order_relaxed)) continue;
    const int own = (int)(atomic_load_explicit(&s->ends, memory_order_relaxed) >> 32);
    for (int c = own; c < s->chunks; c++) {
      /* A task whose taken chunks held no pair may have no list at all (NULL + 0 is undefined). */
      const col_pair *list = task[s->taken[c].task].stolen.data;
      seg[runs++] =
          (col__par_seg){list != NULL ? list + s->taken[c].at : NULL, s->taken[c].count, 0};
    }
  }
  return runs;
}
