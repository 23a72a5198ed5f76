/* collide/parallel.h — The parallel broadphase: sweep and prune with its passes split into tasks
 * that run on the caller's task system (a game engine's job scheduler) or on collide's own
 * thread pool. Part of the public API, included by collide.h (which defines the types it uses);
 * include collide.h, not this file.
 *
 * Thread-safety: separate calls may run at once on different pair lists (a col_pairs carries
 * its call's working memory, the per-task parts included), on different caches, and on any
 * boxes (only read). One pool may serve several callers at once: their calls are queued and
 * run one after another on its threads (each caller waits for its own). A task system given
 * to collide must let its run be called from any thread that calls collide; collide never
 * calls run from inside one of its own tasks. */
#ifndef COLLIDE_PUBLIC_PARALLEL_H
#define COLLIDE_PUBLIC_PARALLEL_H

/* ---------------------------------------------------------------------------------------- */
/* 4.5 Broadphase on every core: sweep and prune through a task system                     */
/* ---------------------------------------------------------------------------------------- */

/* One task of a parallel call: collide calls it once per index in [0, count). */
typedef void col_task_fn(void *context, uint32_t index);

/* The caller's task system. `run` must call fn(context, i) exactly once for every i in
 * [0, count), in any order, on any threads, and return only when all calls have returned; true
 * on success, false when it could not run them (then it must not have called fn at all, or
 * have called it for every index: collide discards the work either way and returns
 * COL_ERR_TASKS, or runs the work itself if the call asked for the fallback). `workers`: how
 * many tasks it can run at once (collide splits the work into about this many ranges; 0 or 1 =
 * no splitting). `user` is passed back to run. */
typedef struct col_task_system {
  bool (*run)(void *user, col_task_fn *fn, void *context, uint32_t count);
  void *user;
  uint32_t workers;
} col_task_system;

/* collide's own pool of POSIX threads, created once and reused; between calls its threads
 * sleep (no spinning). threads = 0: the value of the COLLIDE_THREADS environment variable if
 * set (a decimal 1..1024, anything else is COL_ERR_ARGUMENT), else the number of online CPUs;
 * more than 1024 is COL_ERR_SIZE. threads = 1 runs everything on the calling thread (no thread
 * is started). The calling thread of a call works as one of the threads, so a pool of n starts
 * n - 1. Errors: COL_ERR_NULL (pool), COL_ERR_ARGUMENT, COL_ERR_SIZE, COL_ERR_MEMORY,
 * COL_ERR_TASKS (a thread could not be started); *pool is set on success only. */
typedef struct col_thread_pool col_thread_pool;
col_status col_thread_pool_create(uint32_t threads, col_thread_pool **pool);
/* Stops and joins the threads; no call may be using the pool. NULL is ignored. */
void col_thread_pool_destroy(col_thread_pool *pool);
/* A task system that runs on the pool (valid until the pool is destroyed; workers = the
 * pool's thread count). Its run returns false only for a NULL fn. A NULL pool gives a task
 * system of no workers whose run returns false (and runs nothing). */
col_task_system col_thread_pool_tasks(col_thread_pool *pool);

/* How a parallel call runs: tasks == NULL means a built-in pool shared by the process, created
 * on first use (thread-safe) with `threads` as col_thread_pool_create takes it (the first
 * call's value is the one kept). When the task system fails (run returns false, or the
 * built-in pool cannot be created: a COLLIDE_THREADS that is not 1..1024, say), the call
 * returns COL_ERR_TASKS with `out` empty, unless allow_sequential_fallback is true: then it
 * runs on the calling thread and succeeds. A task system whose run is NULL is a mistake in the
 * call, not a failure: COL_ERR_NULL with `out` empty, fallback or not. */
typedef struct col_parallel {
  const col_task_system *tasks;
  uint32_t threads;
  bool allow_sequential_fallback;
} col_parallel;

/* Sweep and prune (COL_BROADPHASE_SAP, its grid of cells) with its cells swept as tasks:
 * exactly the pair set of col_broadphase_pairs(COL_BROADPHASE_SAP, ...) in exactly the same
 * order, whatever the number of tasks and the order they run in (each task sweeps a range of
 * whole cells into its own list, the first range straight into `out`; the lists are joined in
 * cell order). Up to 32,768 boxes on a
 * task system of 2 to 4 workers, one task per worker surveys the boxes and counts their cells
 * itself, on its own working memory, then sorts, deals and sweeps only the boxes of its range
 * of cells: no task reads what another wrote (on cores far apart, reading the other core's
 * output cost more than splitting those passes saved), save that a task done with its own
 * range sweeps the last cells of a range still being swept (so a faster core does more; no
 * task ever waits for another), and scratch_bytes counts every task's memory. Larger inputs on 2 to
 * 4 workers do the same after one survey and one count of the boxes' cells split into tasks (each
 * part reads that count); more workers split every pass into tasks. Inputs the sequential call
 * sweeps as one cell (under 256 boxes, non-finite or inverted boxes on y or z, ...) and a task
 * system of one worker run the sequential call itself on the calling thread. parallel == NULL: the
 * built-in pool with its default size. Errors as col_broadphase_pairs (the same checks, first) plus
 * COL_ERR_TASKS; on any error `out` is empty. Stats as the sequential call (scratch_bytes adds the
 * per-task memory). */
col_status col_broadphase_pairs_parallel(const col_boxes *boxes, col_touch touch,
                                         const col_parallel *parallel, col_pairs *out,
                                         col_broadphase_stats *stats);

/* The same pair set as col_broadphase_pairs_parallel (each pair (i, j), i < j, once), in an
 * order that depends on how the tasks ran: not the sequential call's, and not the same from
 * one call to the next (col_pairs_sort gives the canonical order). What it saves: the ordered
 * call's tasks but the first write into lists of their own that are then copied into place, one
 * more pass over most pairs; here the tasks write straight into `out`, in blocks taken in turn
 * (4,096 pairs, or 1/64 of a task's share of the room when that is more), and only the gaps the
 * blocks leave are filled (under 1/64 of the room). The
 * blocks come from the room `out` already has: the first call on a list (or one with more
 * pairs than the list ever held) copies as the ordered call does and grows the list, so later
 * calls find the room. Inputs the sequential call sweeps as one cell and task systems of one
 * worker run the sequential call (its order). Errors, stats and `out` after an error as
 * col_broadphase_pairs_parallel. */
col_status col_broadphase_pairs_parallel_any_order(const col_boxes *boxes, col_touch touch,
                                                   const col_parallel *parallel, col_pairs *out,
                                                   col_broadphase_stats *stats);

/* The static rule (collide/broadphase.h, col_broadphase_pairs_static) through the task system:
 * col_broadphase_pairs_parallel's pairs less those of two static boxes, in the order of
 * col_broadphase_pairs_static(COL_BROADPHASE_SAP, ...), whatever the tasks; is_static NULL:
 * col_broadphase_pairs_parallel itself. Errors, stats and `out` after an error as
 * col_broadphase_pairs_parallel. */
col_status col_broadphase_pairs_parallel_static(const col_boxes *boxes, const uint8_t *is_static,
                                                col_touch touch, const col_parallel *parallel,
                                                col_pairs *out, col_broadphase_stats *stats);

/* The incremental cache's whole-frame passes (the sweep and prune cache's full sort and sweep
 * of the first frame, and of frames where too many boxes moved) through a task system, with the
 * same pairs in the same order as without; NULL goes back to one thread. The cache keeps the
 * pointer: the struct must outlive it (or be replaced first). With the fallback off, a failing
 * task system makes the update return COL_ERR_TASKS (the cache is then reset). Errors:
 * COL_ERR_NULL (cache). */
col_status col_broadphase_cache_set_parallel(col_broadphase_cache *cache,
                                             const col_parallel *parallel);

#endif
