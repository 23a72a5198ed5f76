/* The parallel broadphase on an engine's own job system: a toy scheduler with a fixed set of
 * worker threads and a queue of jobs, as game engines have, handed to collide through a
 * col_task_system. Each frame asks for the pairs of 20,000 moving boxes; the result is checked
 * against the sequential call (the same pairs in the same order). Exit status 0 on success.
 * Build: cc -std=c11 -pthread engine_tasks.c -lcollide -lm */
#define _POSIX_C_SOURCE 200809L
#include <collide.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engine's scheduler: a job is "call fn(context, i) for i in [0, count)"; workers and the
 * thread that submitted it take indices until none is left. */
typedef struct engine {
  pthread_t worker[3];
  pthread_mutex_t lock;
  pthread_cond_t has_job, job_done;
  col_task_fn *fn;
  void *context;
  uint32_t count, next, running; /* next index to hand out, calls still running */
  unsigned job;                  /* bumped for each job */
  int quit;
} engine;

/* Takes one index of the current job (under the lock); false when none is left. */
static int take(engine *e, uint32_t *i) {
  if (e->fn == NULL || e->next >= e->count) return 0;
  *i = e->next++;
  e->running++;
  return 1;
}

static void work_on_job(engine *e) {
  uint32_t i;
  while (take(e, &i)) {
    col_task_fn *fn = e->fn;
    void *context = e->context;
    pthread_mutex_unlock(&e->lock);
    fn(context, i);
    pthread_mutex_lock(&e->lock);
    if (--e->running == 0 && e->next >= e->count) pthread_cond_broadcast(&e->job_done);
  }
}

static void *worker_main(void *arg) {
  engine *e = arg;
  pthread_mutex_lock(&e->lock);
  while (!e->quit) {
    work_on_job(e);
    if (!e->quit) pthread_cond_wait(&e->has_job, &e->lock);
  }
  pthread_mutex_unlock(&e->lock);
  return NULL;
}

/* col_task_system.run: submit the job, help with it, wait until every call has returned. */
static bool engine_run(void *user, col_task_fn *fn, void *context, uint32_t count) {
  engine *e = user;
  pthread_mutex_lock(&e->lock);
  e->fn = fn, e->context = context, e->count = count, e->next = 0, e->job++;
  pthread_cond_broadcast(&e->has_job);
  work_on_job(e);
  while (e->running > 0 || e->next < e->count) pthread_cond_wait(&e->job_done, &e->lock);
  e->fn = NULL;
  pthread_mutex_unlock(&e->lock);
  return true;
}

static int engine_start(engine *e) {
  memset(e, 0, sizeof *e);
  pthread_mutex_init(&e->lock, NULL);
  pthread_cond_init(&e->has_job, NULL);
  pthread_cond_init(&e->job_done, NULL);
  for (int k = 0; k < 3; k++)
    if (pthread_create(&e->worker[k], NULL, worker_main, e) != 0) return 0;
  return 1;
}

static void engine_stop(engine *e) {
  pthread_mutex_lock(&e->lock);
  e->quit = 1;
  pthread_cond_broadcast(&e->has_job);
  pthread_mutex_unlock(&e->lock);
  for (int k = 0; k < 3; k++) pthread_join(e->worker[k], NULL);
}

enum { N = 20000 };
static float min_x[N], min_y[N], max_x[N], max_y[N];

int main(void) {
  engine e;
  if (!engine_start(&e)) return 1;
  /* The engine's scheduler as collide sees it: 4 tasks at once (3 workers + the caller). */
  const col_task_system tasks = {engine_run, &e, 4};
  const col_parallel parallel = {&tasks, 0, false};
  const col_boxes boxes = {2, {min_x, min_y, NULL}, {max_x, max_y, NULL}, N};
  col_pairs pairs, check;
  col_pairs_init(&pairs);
  col_pairs_init(&check);
  unsigned seed = 1;
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    min_x[i] = (float)(seed >> 16 & 1023), min_y[i] = (float)(seed >> 6 & 1023);
    max_x[i] = min_x[i] + 3, max_y[i] = min_y[i] + 3;
  }
  int status = 0;
  for (int frame = 0; frame < 10 && status == 0; frame++) {
    for (int i = 0; i < N; i++) min_x[i] += 0.25f, max_x[i] += 0.25f; /* everything moves */
    col_broadphase_stats stats;
    col_status st =
        col_broadphase_pairs_parallel(&boxes, COL_TOUCH_OVERLAPS, &parallel, &pairs, &stats);
    if (st != COL_OK) {
      fprintf(stderr, "frame %d: %s\n", frame, col_status_string(st));
      status = 1;
      break;
    }
    st = col_broadphase_pairs(COL_BROADPHASE_SAP, &boxes, COL_TOUCH_OVERLAPS, &check, NULL);
    if (st != COL_OK || check.count != pairs.count ||
        memcmp(check.data, pairs.data, pairs.count * sizeof(col_pair)) != 0) {
      fprintf(stderr, "frame %d: the parallel pairs differ from the sequential call's\n", frame);
      status = 1;
    }
    if (frame == 9)
      printf("engine_tasks: %zu pairs of %d boxes, %llu box tests, %u jobs on the engine's "
             "scheduler: the sequential call's pairs\n",
             pairs.count, N, (unsigned long long)stats.tests, e.job);
  }
  if (e.job == 0) {
    fprintf(stderr, "the engine's scheduler was never used\n");
    status = 1;
  }
  if (e.job == 0) {
    fprintf(stderr, "the engine's scheduler was never used\n");
    status = 1;
  }
  col_pairs_free(&pairs);
  col_pairs_free(&check);
  engine_stop(&e);
  return status;
}
