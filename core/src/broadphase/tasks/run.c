/* The task machinery of the parallel sweep and prune (col_broadphase_pairs_parallel, parallel.c,
 * and the cache's whole frames): the task system a call runs on, a task's own col__bp (its pair
 * list with its working memory, or a window onto the caller's list or onto a block of it), and
 * the join of the tasks' lists into the caller's. Task 0 of an ordered join, whose pairs come
 * first, writes into the caller's list itself; a prefix sum over the other lists' counts gives
 * each its place after task 0's pairs, and copy tasks move equal shares there: lists joined in
 * task order (or the runs steal.c gives, in cell order) make the sequential call's list, pair
 * for pair, whatever the number of tasks or the order they run in. The any-order join packs the
 * blocks instead (pairs.c). */
#include "../broadphase.h"

#include "../../parallel/parallel.h"
#include "../../validate.h"

#include <string.h>

col_status col__par_tasks(const col_parallel *par, col_task_system *out) {
  if (par->tasks != NULL) {
    *out = *par->tasks;
    return COL_OK;
  }
  return col__thread_pool_builtin(par->threads, out) == COL_OK ? COL_OK : COL_ERR_TASKS;
}

typedef struct job {
  const col__par_join *pj;
  col_pair *joined; /* the caller's list at the first place of the joined pairs */
  size_t total;     /* pairs to copy, in pj->n equal shares */
} job;

void col__par_task_begin(const col__par_join *pj, col__bp_task *task, col__par_out *o,
                         col__bp *bp) {
  const col__bp *caller = pj->bp;
  task->list.count = 0, task->stolen.count = 0, task->direct = 0;
  /* Any order: the task writes through a window onto a block of the caller's list (taken at
   * its first write), its own list only once the blocks run out. Ordered: task 0 through a
   * window onto the caller's list itself, which no other task touches until the join (the
   * copy of its pairs saved: with two tasks, about half of the pairs). */
  const bool blocks = pj->blocks != NULL, direct = !blocks && task == pj->task;
  const col_pairs *out = caller->out;
  o->window = direct ? (col_pairs){out->data, out->count, out->capacity, task->list.work}
                     : (col_pairs){NULL, 0, 0, task->list.work};
  o->writer = (col__bp_writer){pj->blocks, SIZE_MAX, &task->list, false};
  *bp = (col__bp){caller->boxes,
                  caller->touch,
                  caller->backend,
                  blocks || direct ? &o->window : &task->list,
                  {0, 0, 0, 0},
                  NULL,
                  false,
                  blocks ? &o->writer : NULL,
                  0,
                  0,
                  NULL,
                  NULL,
                  NULL};
}

void col__par_task_end(const col__par_join *pj, col__bp_task *task, col__par_out *o,
                       const col__bp *bp, col_status st) {
  if (pj->blocks != NULL) {
    col__bp_writer_close(&o->writer, &o->window);
  } else if (bp->out == &o->window) {
    /* The caller's list gets back its memory (grown here perhaps); its count is the join's. */
    col_pairs *out = pj->bp->out;
    out->data = o->window.data, out->capacity = o->window.capacity;
    task->direct = o->window.count - out->count;
    task->list.work = o->window.work;
  }
  task->status = st;
  task->stats = bp->stats;
}

/* Copy task k of n: its share of the joined pairs (the runs end to end: the tasks' lists, or
 * pj->seg), so every worker copies about as much whatever the runs' sizes. */
static void copy_task(void *context, uint32_t k) {
  const job *j = context;
  const col__par_join *pj = j->pj;
  const uint64_t total = j->total;
  const size_t lo = (size_t)(total * k / pj->n), hi = (size_t)(total * (k + 1) / pj->n);
  const size_t runs = pj->seg != NULL ? pj->segs : pj->n;
  for (size_t s = 0; s < runs; s++) {
    const col__bp_task *task = &pj->task[s];
    const col__par_seg run = pj->seg != NULL
                                 ? pj->seg[s]
                                 : (col__par_seg){task->list.data, task->list.count, task->offset};
    const size_t a = run.offset > lo ? run.offset : lo;
    const size_t end = run.offset + run.count, b = end < hi ? end : hi;
    if (a < b) memcpy(j->joined + a, run.data + (a - run.offset), (b - a) * sizeof(col_pair));
  }
}

#ifdef COL_VALIDATE
/* The ranges cover every cell once, in order (empty ones only at the end: the tasks of a
 * small input that got no cells); the offsets place the lists end to end. */
static void validate_join(int cells, const col__par_join *pj, size_t total) {
  const col__bp_task *task = pj->task;
  int next = 0;
  size_t at = 0;
  for (size_t t = 0; t < pj->n; t++) {
    const bool empty_end = task[t].from == cells && task[t].to == cells;
    if (task[t].from != next || (task[t].to <= task[t].from && !empty_end))
      col__validate_fail("parallel sweep", "cell ranges not contiguous", t);
    if (pj->seg == NULL && task[t].offset != at)
      col__validate_fail("parallel sweep", "list offset", t);
    next = task[t].to, at += task[t].list.count + task[t].stolen.count;
  }
  if (next != cells) col__validate_fail("parallel sweep", "cells left out", (size_t)next);
  if (at != total) col__validate_fail("parallel sweep", "joined count", at);
  for (size_t s = 0, end = 0; pj->seg != NULL && s < pj->segs; s++) {
    if (pj->seg[s].offset != end) col__validate_fail("parallel sweep", "run offset", s);
    end += pj->seg[s].count;
    if (s + 1 == pj->segs && end != total) col__validate_fail("parallel sweep", "runs joined", end);
  }
}

/* Every pair the tasks counted is in the joined list (the any-order join moves pairs between
 * blocks: one lost or doubled changes the count). */
static void validate_count(const col__bp_task *task, size_t n, size_t joined) {
  size_t counted = 0;
  for (size_t t = 0; t < n; t++) counted += task[t].stats.pairs;
  if (joined != counted) col__validate_fail("parallel sweep", "pairs joined", joined);
}
#endif

/* No fallback here: a task system may fail after running every task (parallel.h allows it), and
 * a pass run again over its own output (a sort in place, an append) is wrong; the entry points
 * start the whole call over on the calling thread instead (parallel.c, cache/cache.c). */
bool col__par_run(const col__bp *bp, col_task_fn *fn, void *context, size_t n) {
  col_task_system ts;
  return col__par_tasks(bp->par, &ts) == COL_OK && ts.run(ts.user, fn, context, (uint32_t)n);
}

col_status col__par_join_open(col__bp *bp, size_t n, unsigned fill_slot, col__par_join *pj) {
  *pj = (col__par_join){
      bp, col__bp_tasks(bp, n), n, NULL, {NULL, col__par_block_pairs, 0, 0, NULL}, NULL, 0};
  if (pj->task == NULL) return COL_ERR_MEMORY;
  if (!bp->any_order) return COL_OK;
  /* Any order: the room the caller's list has past its pairs, in blocks. */
  col_pairs *out = bp->out;
  if (out->data != NULL) {
    /* Blocks of at least 1/64 of a task's share of the room: each block taken is a step on one
     * counter that every core writes, its cache line's trip between the cores far slower than a
     * local write, and fixed-size blocks made thousands of steps a call on large inputs
     * (docs/tuning.md). A task leaves at
     * most one block part-filled, so the join moves under 1/64 of the room. */
    const size_t room = out->capacity - out->count, share = room / (n * 64);
    pj->room.block = share > pj->room.block ? share : pj->room.block;
    pj->room.base = out->data + out->count;
    pj->room.count = room / pj->room.block;
  }
  /* A work slot the caller has spent (the tasks sweep with their own lists' work). */
  pj->room.fill = col__bp_work(bp, fill_slot, (pj->room.count + 1) * sizeof(size_t));
  if (pj->room.fill == NULL) return COL_ERR_MEMORY;
  pj->blocks = &pj->room;
  return COL_OK;
}

col_status col__par_join_close(col__par_join *pj, int cells) {
  col__bp *bp = pj->bp;
  col__bp_task *task = pj->task;
  const size_t n = pj->n;
  size_t total = 0, scratch = n * sizeof *task;
  for (size_t t = 0; t < n; t++) {
    if (task[t].status != COL_OK) return task[t].status;
    task[t].offset = total;
    total += task[t].list.count + task[t].stolen.count;
    bp->stats.tests += task[t].stats.tests, bp->stats.pairs += task[t].stats.pairs;
    scratch += task[t].stats.scratch_bytes;
  }
  col_pairs *out = bp->out;
  if (pj->blocks != NULL) {
    /* The blocks' pairs end to end; the lists of the tasks that ran out of blocks after them. */
    col__bp_blocks *blocks = pj->blocks;
    const size_t used = blocks->next < blocks->count ? blocks->next : blocks->count;
    const size_t packed = col__bp_blocks_pack(blocks, used);
    COL_VALIDATE_CALL(validate_count(task, n, packed + total));
    out->count += packed;
  } else {
    /* Task 0's pairs are in place already. */
    out->count += task[0].direct;
    for (size_t s = 0, at = 0; pj->seg != NULL && s < pj->segs; s++)
      pj->seg[s].offset = at, at += pj->seg[s].count;
    COL_VALIDATE_CALL(validate_join(cells, pj, total));
    COL_VALIDATE_CALL(validate_count(task, n, task[0].direct + total));
  }
  bp->stats.cells = (uint64_t)cells; /* the parts dealt on their own copies of bp */
  const col_status st = col__bp_reserve(bp, total);
  if (st != COL_OK) return st;
  job j = {pj, out->data != NULL ? out->data + out->count : NULL, total};
  if (total > 0 && !col__par_run(bp, copy_task, &j, n)) return COL_ERR_TASKS;
  out->count += total;
  bp->stats.scratch_bytes += scratch;
  return COL_OK;
}
