/* Internal: the built-in thread pool shared by the process (pool.c), for the parallel calls
 * (col_parallel.tasks == NULL). */
#ifndef COLLIDE_PARALLEL_H
#define COLLIDE_PARALLEL_H

#include "collide.h"

/* The built-in pool's task system, creating the pool on first use with `threads` (as
 * col_thread_pool_create takes it); its errors when it cannot be created. Thread-safe. */
col_status col__thread_pool_builtin(uint32_t threads, col_task_system *out);

#endif
