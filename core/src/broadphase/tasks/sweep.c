/* Sweep and prune's cells swept as tasks (the split passes' last stage: sap.c), and the split of
 * the cells into ranges of about equal box counts that the parts (tasks/parts.c) and their
 * shared-out sweeps (steal.c) use too. Each task sweeps a range of whole cells, in cell order,
 * into a pair list of its own (run.c joins them in task order), so no task writes where another
 * does and no lock is taken. */
#include "../broadphase.h"

/* Tasks per worker: ranges of cells are uneven (a crowded cell costs many sparse ones), so a
 * worker that finishes early takes another range. */
#define TASKS_PER_WORKER 4
#define MAX_TASKS        4096

typedef struct job {
  const col__par_join *pj;
  const col__sap_dealt *d;
} job;

static void sweep_task(void *context, uint32_t t) {
  const job *j = context;
  col__bp_task *task = &j->pj->task[t];
  col__par_out o;
  col__bp bp;
  col__par_task_begin(j->pj, task, &o, &bp);
  /* A run's hits are offsets within its cell: room for the widest cell. */
  const size_t idx_bytes = (j->d->widest + 64) * sizeof(uint32_t);
  uint32_t *idx = col__bp_work(&bp, 0, idx_bytes);
  const col_status st =
      idx != NULL ? col__sap_sweep_cells(&bp, j->d, task->from, task->to, idx) : COL_ERR_MEMORY;
  col__bp_scratch(&bp, idx_bytes + col__sap_cell_bytes(bp.boxes->dims, j->d->widest) +
                           task->list.capacity * sizeof(col_pair));
  col__par_task_end(j->pj, task, &o, &bp, st);
}

/* Splits the cells into ranges of about equal box counts (a cell's sweep costs about its
 * boxes times its run length; the count is the part known before sweeping). */
size_t col__sap_split(const size_t *count, int cells, col__bp_task *task, size_t tasks) {
  size_t total = 0;
  for (int c = 0; c < cells; c++) total += count[c];
  size_t made = 0, acc = 0;
  int from = 0;
  for (int c = 0; c < cells && made + 1 < tasks; c++) {
    /* Range `made` ends at the cell border nearest its share's end: before c when that is
     * nearer than after it (with a few large cells, as in 2D grids of a few dozen rows, cutting
     * after the crossing cell gave one task far more than its share: docs/tuning.md). */
    const size_t share = total * (made + 1), before = acc * tasks, after = (acc + count[c]) * tasks;
    if (after >= share) {
      const size_t short_by = before < share ? share - before : before - share;
      const int cut = c > from && short_by < after - share ? c : c + 1;
      task[made].from = from, task[made].to = cut;
      from = cut, made++;
      if (cut == c) {
        c--;
        continue;
      }
    }
    acc += count[c];
  }
  /* The last range takes the rest (empty cells past the last box included). */
  if (from < cells) task[made].from = from, task[made].to = cells, made++;
  return made;
}

void col__sap_part_range(const col__bp *bp, const size_t *count, int cells, int *from, int *to) {
  col__bp_task range[COL__OWNED_MAX_TASKS];
  const size_t made = col__sap_split(count, cells, range, bp->parts);
  *from = bp->part < made ? range[bp->part].from : cells;
  *to = bp->part < made ? range[bp->part].to : cells;
}

col_status col__sap_par_cells(col__bp *bp, const col__sap_dealt *d, uint32_t *idx) {
  const bool fallback = bp->par->allow_sequential_fallback;
  col_task_system ts;
  if (col__par_tasks(bp->par, &ts) != COL_OK)
    return fallback ? col__sap_sweep_cells(bp, d, 0, d->cells, idx) : COL_ERR_TASKS;
  if (ts.workers <= 1) return col__sap_sweep_cells(bp, d, 0, d->cells, idx);
  size_t n = (size_t)ts.workers * TASKS_PER_WORKER;
  if (n > MAX_TASKS) n = MAX_TASKS;
  if (n > (size_t)d->cells) n = (size_t)d->cells;
  col__par_join pj;
  /* The blocks' fills in work slot 1: the deal's spans, spent. */
  col_status st = col__par_join_open(bp, n, 1, &pj);
  if (st != COL_OK) return st;
  pj.n = col__sap_split(d->count, d->cells, pj.task, n);
  job j = {&pj, d};
  if (!col__par_run(bp, sweep_task, &j, pj.n)) return COL_ERR_TASKS;
  return col__par_join_close(&pj, d->cells);
}
