/* Internal: the parallel sweep and prune's tasks (part of broadphase.h, which includes it at
 * its end): the task records and the any-order call's blocks (pairs.c), the join of the tasks'
 * lists and running tasks on a col_parallel (run.c), the split of the cells (sweep.c), the
 * parts of the parallel call (parts.c) and their shared-out sweeps (steal.c), the deal as tasks
 * (../sap/deal.c). */
#ifndef COLLIDE_BROADPHASE_TASKS_H
#define COLLIDE_BROADPHASE_TASKS_H

/* One task of a parallel sweep: its own pair list (with its own working memory), the cells
 * [from, to) it sweeps, its result, and where its pairs go in the joined list. Task 0 of an
 * ordered join writes straight into the caller's list (its pairs come first): `direct` of them,
 * its own list left empty. */
typedef struct col__bp_task {
  col_pairs list;
  /* A part's pairs from cells of other parts it swept (steal.c; ordered join only: its data
   * kept between calls, no working memory of its own). */
  col_pairs stolen;
  int from, to;
  col_status status;
  col_broadphase_stats stats;
  size_t offset, direct;
} col__bp_task;
/* `n` task records kept in the pair list's working memory (their lists kept between calls,
 * other fields undefined); NULL when out of memory. */
col__bp_task *col__bp_tasks(col__bp *bp, size_t n);

/* The any-order join (col_broadphase_pairs_parallel_any_order): the caller's list, past its
 * pairs, cut into `count` blocks of `block` pairs, handed to the tasks in turn (`next`); each
 * block's owner records in fill[k] how many pairs it wrote there. A task's writer: the block it
 * writes (its pairs in the task's col__bp.out, which points at the block), and its own list
 * (`own`), which it writes once the blocks run out (`spilled`). */
typedef struct col__bp_blocks {
  col_pair *base;
  size_t block, count;
  _Atomic size_t next;
  size_t *fill;
} col__bp_blocks;
typedef struct col__bp_writer {
  col__bp_blocks *blocks;
  size_t at; /* the block written, SIZE_MAX before the first */
  col_pairs *own;
  bool spilled;
} col__bp_writer;
/* Pairs per block (4,096; the broadphase fuzzer lowers it to reach the block changes). */
extern size_t col__par_block_pairs;
/* Points a task's bp->out (a window struct of its own, its `work` the task's) at the next
 * block with room for `extra` pairs, or at the task's own list when none is left (bp->writer
 * then NULL: the list grows as usual). Called by col__bp_reserve when the block is full. */
col_status col__bp_next_block(col__bp *bp, size_t extra);
/* Closes the task's writing: the block's fill recorded, or the own list given its pairs. */
void col__bp_writer_close(col__bp_writer *w, col_pairs *window);
/* Closes the gaps the blocks [0, used) left, moving pairs from the last blocks into them, and
 * returns how many pairs now lie end to end from `base`. */
size_t col__bp_blocks_pack(col__bp_blocks *blocks, size_t used);

/* A parallel sweep's tasks and how their pairs reach the caller's list (run.c): bp the
 * caller's, n task records (their lists kept in bp's list), and for the any-order call the room
 * past the caller's pairs as blocks (`blocks` then points at `room`; NULL: the tasks' lists are
 * joined in task order). Opened before the tasks run (COL_ERR_MEMORY); closed after them, which
 * joins the lists into bp's (a task's failure is the call's; `cells`: the grid's, the ranges
 * checked under COL_VALIDATE to cover it). */
/* A run of pairs the ordered join puts in place: `count` pairs at `data`, `offset` pairs after
 * the first pair joined. */
typedef struct col__par_seg {
  const col_pair *data;
  size_t count, offset;
} col__par_seg;
/* seg: NULL, or the ordered join's runs in the order they join (`segs` of them, offsets set by
 * the close): the parts' lists and the cells others swept for them (steal.c). NULL: the
 * tasks' lists in task order. */
typedef struct col__par_join {
  col__bp *bp;
  col__bp_task *task;
  size_t n;
  col__bp_blocks *blocks;
  col__bp_blocks room;
  col__par_seg *seg;
  size_t segs;
} col__par_join;
col_status col__par_join_open(col__bp *bp, size_t n, unsigned fill_slot, col__par_join *pj);
col_status col__par_join_close(col__par_join *pj, int cells);
/* A task's own col__bp for its sweep (`bp`, no task system): its pairs into its list, or through
 * o's window onto the blocks (any order) or onto the caller's list past its pairs (task 0 of an
 * ordered join); its working memory its list's. task_end closes the writing (the caller's list
 * given back its memory, which task 0 may have grown) and records the task's status and stats. */
typedef struct col__par_out {
  col_pairs window;
  col__bp_writer writer;
} col__par_out;
void col__par_task_begin(const col__par_join *pj, col__bp_task *task, col__par_out *o, col__bp *bp);
void col__par_task_end(const col__par_join *pj, col__bp_task *task, col__par_out *o,
                       const col__bp *bp, col_status st);
/* `cells` cells of count[] boxes split into at most `tasks` ranges of about equal box counts (each
 * cut at the cell border nearest its share), in order, in task[].from and .to; returns how many. */
size_t col__sap_split(const size_t *count, int cells, col__bp_task *task, size_t tasks);
/* Tasks at most of the small-input parallel call (each repeats the passes; parts.c), and
 * the range of cells of bp's part in the split of `cells` cells of count[] boxes (empty, at the
 * end, for a part past the ranges made). */
#define COL__OWNED_MAX_TASKS 4
void col__sap_part_range(const col__bp *bp, const size_t *count, int cells, int *from, int *to);
/* The parallel call as parts (parts.c): how many tasks sweep a range of cells each, having
 * sorted and dealt only the boxes that reach it (0: not taken; the passes are split into tasks
 * instead), and that call, joined as col__sap_par_cells joins. Up to col__par_owned_max boxes
 * every task also surveys and counts every box itself; past it, up to col__par_counted_max,
 * the survey and the count run once, split into tasks, and the parts deal from that count. */
size_t col__sap_owned_tasks(const col__bp *bp);
col_status col__sap_par_owned(col__bp *bp, size_t tasks);
extern size_t col__par_owned_max, col__par_counted_max;
/* The deal into cells split into tasks over ranges of the sorted order (../sap/deal.c): what the
 * tasks share. fills: `tasks` arrays of k + kz + 1 entries; slot: the places, with a spare
 * place per task after the one at `total`. */
typedef struct col__sap_deal_plan {
  const uint32_t *order, *span;
  size_t m;
  unsigned dims;
  bool avx2;
  int k, kz;
  const size_t *count, *base;
  size_t total;
  size_t *fills; /* per task: k + kz + 1 fills, COL__TASK_ROUND of that apart */
  uint64_t *slot;
  size_t tasks;
} col__sap_deal_plan;
/* Per-task memory that tasks write while others run is laid out COL__TASK_STRIDE bytes apart
 * (two cache lines: neither a line nor the pair the prefetcher fetches together is shared), so
 * no two cores write one line: the deal's spare places took every unneeded copy of every box,
 * and next to each other they made the parallel deal slower than the sequential one. */
#define COL__TASK_STRIDE 128
/* n entries of `size` bytes rounded up to whole strides. */
#define COL__TASK_ROUND(n, size)                                                                   \
  (((n) * (size) + COL__TASK_STRIDE - 1) / COL__TASK_STRIDE * COL__TASK_STRIDE / (size))
/* Task t's spare place in the deal's places (slot): apart from the cells' places and from
 * each other. */
#define COL__SPARE_PLACE(total, t) ((total) + (COL__TASK_STRIDE / 8) * ((size_t)(t) + 1))
/* A part's sweep shared out (steal.c): its cells cut into `chunks` (at most
 * COL__SHARE_CHUNKS) chunks of about equal box counts, cells border[c] to border[c + 1]. Its own
 * task takes them from the first; a task whose chunks are all taken takes other parts' from the
 * last, so a faster core does more of the work (cores differ: a busy sibling thread, a far memory
 * node, a hybrid CPU's small cores). `ends` holds the chunks not yet taken, [ends >> 32, ends
 * low half); d, chunks and border are set before `ready` (release), which others read first
 * (acquire). A chunk taken from the last, for the ordered join, is `count` pairs at `at` in the
 * `stolen` list of task `task`. One record per part, a stride apart (COL__TASK_STRIDE). */
#define COL__SHARE_CHUNKS 16
typedef struct col__sap_share {
  _Alignas(COL__TASK_STRIDE) _Atomic uint64_t ends;
  _Atomic bool ready;
  _Alignas(COL__TASK_STRIDE) col__sap_dealt d;
  int chunks;
  int border[COL__SHARE_CHUNKS + 1];
  struct {
    uint32_t task;
    size_t at, count;
  } taken[COL__SHARE_CHUNKS];
} col__sap_share;
/* Part t of pj's (share[t], zeroed before the tasks run) swept by its task: its cells (d, idx
 * and bp its task's) published, then its chunks, then other parts' last chunks while any are
 * left (never waiting: a part not yet published is its own task's). Pairs of other parts go
 * through bp's writer (any order) or into the task's `stolen` list (ordered). */
col_status col__sap_share_sweep(col__sap_share *share, const col__par_join *pj, uint32_t t,
                                col__bp *bp, const col__sap_dealt *d, uint32_t *idx);
/* The ordered join's runs after the parts' tasks (seg: room for parts * (COL__SHARE_CHUNKS + 1)):
 * per part, its task's list, then the chunks others took, in cell order. Returns how many. */
size_t col__sap_share_runs(const col__sap_share *share, size_t parts, const col__bp_task *task,
                           col__par_seg *seg);
/* Test hooks: spins before each chunk part 0's task takes of its own (0: none), so that the
 * other tasks take its chunks; chunks taken from other parts so far (counted only while
 * col__par_share_delay is set). */
extern unsigned col__par_share_delay;
extern _Atomic size_t col__par_chunks_taken;
/* How many tasks the count and the deal of m boxes take on bp's task system (0 or 1: one pass;
 * ../sap/count.c). */
size_t col__sap_deal_tasks(const col__bp *bp, size_t m);
/* Every box into its cells by the tasks: the sequential deal's places, place for place. */
col_status col__sap_par_deal(const col__bp *bp, const col__sap_deal_plan *plan);
/* The sequential deal: boxes order[0, m) into their cells' places (../sap/deal.c). */
void col__sap_deal_all(unsigned dims, const uint32_t *order, size_t m, const uint32_t *span, int kz,
                       size_t *fill, uint64_t *slot, bool avx2);
/* Boxes order[from, to) dealt with their own fill; unneeded copies go to slot[spare]. */
void col__sap_deal_range(const col__sap_deal_plan *p, size_t from, size_t to, size_t *fill,
                         size_t spare);
/* The task system a col_parallel names (its own, or the built-in pool's): COL_ERR_TASKS when
 * the built-in pool cannot be created. */
col_status col__par_tasks(const col_parallel *par, col_task_system *out);
/* Runs fn(context, 0 .. n-1) on bp->par's task system. False when that failed (then the tasks
 * may have run, or not): the pass returns COL_ERR_TASKS, and the entry point runs the whole
 * call again on the calling thread when it allows the fallback. */
bool col__par_run(const col__bp *bp, col_task_fn *fn, void *context, size_t n);

#endif
