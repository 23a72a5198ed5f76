/* collide's own thread pool (col_thread_pool) and the process's built-in one: POSIX threads
 * started once and reused. A call publishes its job under the lock and wakes the workers; every
 * worker, and the calling thread itself, then claims task indices from one atomic word until
 * none is left, so the tasks spread over whoever is awake first. The word holds the job's
 * number with the next index, and a claim is a compare-and-swap of both: a worker that woke
 * late, or was preempted, can never claim an index of a later job with this job's function.
 * The caller returns once every task has returned, without waiting for workers that took no
 * task (on a busy machine a worker may not get a core for a while). Calls from several
 * threads are serialized by a second mutex: one job runs at a time.
 * Waiting: a broadphase call runs several jobs back to back (survey, sort, deal, sweep, join),
 * a few microseconds apart, and a sleeping thread takes tens of microseconds to wake (more in
 * a virtual machine, whose idle CPU is halted). So a worker that ran out of tasks watches for
 * the next job for SPIN_NS before it sleeps on the condition variable, and the caller watches
 * for the last task's end as long before it sleeps; the caller only signals when a worker
 * sleeps. An idle pool costs no CPU once SPIN_NS has passed. */
#define _POSIX_C_SOURCE 200809L

#include "parallel.h"

#include <errno.h>
#if defined(__wasi__) && !defined(_REENTRANT)
/* WASI without threads (wasi-libc built without them has no pthread.h): no worker can be
 * started, so a pool is the calling thread alone (threads == 1: pool_run runs the tasks
 * inline) and asking for more is COL_ERR_TASKS, as when pthread_create fails. Nothing else
 * runs, so the locks are no-ops. */
typedef int pthread_t, pthread_mutex_t, pthread_cond_t, pthread_attr_t;
#define PTHREAD_MUTEX_INITIALIZER       0
#define pthread_attr_init(a)            ((void)(a), EAGAIN)
#define pthread_attr_setstacksize(a, n) ((void)(a), (void)(n), EAGAIN)
#define pthread_attr_destroy(a)         ((void)(a), 0)
#define pthread_create(t, a, f, arg)    ((void)(t), (void)(f), (void)(arg), EAGAIN)
#define pthread_join(t, r)              ((void)(t), 0)
#define pthread_mutex_init(m, a)        ((void)(m), 0)
#define pthread_mutex_destroy(m)        ((void)(m), 0)
#define pthread_mutex_lock(m)           ((void)(m), 0)
#define pthread_mutex_unlock(m)         ((void)(m), 0)
#define pthread_cond_init(c, a)         ((void)(c), 0)
#define pthread_cond_destroy(c)         ((void)(c), 0)
#define pthread_cond_signal(c)          ((void)(c), 0)
#define pthread_cond_broadcast(c)       ((void)(c), 0)
#define pthread_cond_wait(c, m)         ((void)(c), (void)(m), 0)
#else
#include <pthread.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 1024u
/* How long a thread watches before it sleeps: longer than the gaps between one call's jobs,
 * short against a frame (16 ms at 60 Hz). */
#define SPIN_NS 200000

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Watches until done(arg) or SPIN_NS have passed: true when done. */
static bool spin(bool (*done)(const void *), const void *arg) {
  const uint64_t start = now_ns();
  for (;;) {
    for (int k = 0; k < 64; k++) {
      if (done(arg)) return true;
      cpu_relax();
    }
    if (now_ns() - start > SPIN_NS) return done(arg);
  }
}

struct col_thread_pool {
  uint32_t threads; /* the calling thread included */
  uint32_t started; /* workers running (threads - 1 once created) */
  pthread_t *ids;
  pthread_mutex_t serial;      /* one job at a time */
  pthread_mutex_t lock;        /* the job fields below; written under it, watched without */
  pthread_cond_t wake;         /* workers: a new generation, or stop */
  pthread_cond_t idle;         /* the caller: the last task returned */
  uint32_t sleepers;           /* workers waiting on `wake` */
  bool caller_sleeps;          /* the caller waits on `idle` */
  _Atomic uint64_t generation; /* the job's number */
  atomic_bool stop;
  col_task_fn *fn;
  void *context;
  uint32_t count;
  _Atomic uint64_t claim; /* the job's number (low 32 bits) << 32 | the next unclaimed index */
  atomic_uint finished;   /* tasks of the job that have returned */
};

/* Runs tasks of job `job` until none is left (workers and caller alike); whoever finishes
 * the last one wakes the caller if it sleeps. */
static void drain(col_thread_pool *p, uint64_t job, col_task_fn *fn, void *context,
                  uint32_t count) {
  const uint64_t tag = (job & 0xffffffffu) << 32;
  for (;;) {
    uint64_t c = atomic_load_explicit(&p->claim, memory_order_relaxed);
    do {
      if ((c & ~(uint64_t)0xffffffffu) != tag || (uint32_t)c >= count) return;
    } while (!atomic_compare_exchange_weak_explicit(&p->claim, &c, c + 1, memory_order_relaxed,
                                                    memory_order_relaxed));
    fn(context, (uint32_t)c);
    if (atomic_fetch_add_explicit(&p->finished, 1, memory_order_acq_rel) + 1 == count) {
      pthread_mutex_lock(&p->lock);
      if (p->caller_sleeps) pthread_cond_signal(&p->idle);
      pthread_mutex_unlock(&p->lock);
    }
  }
}

typedef struct watch {
  col_thread_pool *p;
  uint64_t seen;
} watch;

static bool job_or_stop(const void *arg) {
  const watch *w = arg;
  return atomic_load_explicit(&w->p->generation, memory_order_relaxed) != w->seen ||
         atomic_load_explicit(&w->p->stop, memory_order_relaxed);
}

static void *worker(void *arg) {
  col_thread_pool *p = arg;
  watch w = {p, 0};
  for (;;) {
    spin(job_or_stop, &w);
    pthread_mutex_lock(&p->lock);
    while (!atomic_load_explicit(&p->stop, memory_order_relaxed) &&
           atomic_load_explicit(&p->generation, memory_order_relaxed) == w.seen) {
      p->sleepers++;
      pthread_cond_wait(&p->wake, &p->lock);
      p->sleepers--;
    }
    if (atomic_load_explicit(&p->stop, memory_order_relaxed)) break;
    w.seen = atomic_load_explicit(&p->generation, memory_order_relaxed);
    col_task_fn *fn = p->fn;
    void *context = p->context;
    const uint32_t count = p->count;
    pthread_mutex_unlock(&p->lock);
    drain(p, w.seen, fn, context, count);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

typedef struct job_end {
  col_thread_pool *p;
  uint32_t count;
} job_end;

static bool all_finished(const void *arg) {
  const job_end *e = arg;
  return atomic_load_explicit(&e->p->finished, memory_order_acquire) >= e->count;
}

static bool pool_run(void *user, col_task_fn *fn, void *context, uint32_t count) {
  col_thread_pool *p = user;
  if (p == NULL || fn == NULL) return false;
  if (count == 0) return true;
  if (p->started == 0 || count == 1) {
    for (uint32_t i = 0; i < count; i++) fn(context, i);
    return true;
  }
  pthread_mutex_lock(&p->serial);
  pthread_mutex_lock(&p->lock);
  const uint64_t job = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
  p->fn = fn, p->context = context, p->count = count;
  atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
  atomic_store_explicit(&p->claim, (job & 0xffffffffu) << 32, memory_order_relaxed);
  /* Watching workers see the new number and then take the lock to read the job. */
  atomic_store_explicit(&p->generation, job, memory_order_relaxed);
  if (p->sleepers > 0) pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  drain(p, job, fn, context, count);
  const job_end e = {p, count};
  if (!spin(all_finished, &e)) {
    pthread_mutex_lock(&p->lock);
    p->caller_sleeps = true;
    while (!all_finished(&e)) pthread_cond_wait(&p->idle, &p->lock);
    p->caller_sleeps = false;
    pthread_mutex_unlock(&p->lock);
  }
  pthread_mutex_unlock(&p->serial);
  return true;
}

/* COLLIDE_THREADS: a plain decimal 1..1024 (no sign, no spaces, no suffix). */
static col_status threads_from_env(uint32_t *threads) {
  const char *s = getenv("COLLIDE_THREADS");
  if (s == NULL) return COL_ERR_SIZE; /* not set: the caller counts the CPUs */
  uint32_t v = 0;
  if (*s == '\0') return COL_ERR_ARGUMENT;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return COL_ERR_ARGUMENT;
    v = v * 10 + (uint32_t)(*s - '0');
    if (v > MAX_THREADS) return COL_ERR_ARGUMENT;
  }
  if (v == 0) return COL_ERR_ARGUMENT;
  *threads = v;
  return COL_OK;
}

static uint32_t online_cpus(void) {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1u : n > (long)MAX_THREADS ? MAX_THREADS : (uint32_t)n;
}

static void stop_workers(col_thread_pool *p) {
  pthread_mutex_lock(&p->lock);
  atomic_store_explicit(&p->stop, true, memory_order_relaxed);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (uint32_t k = 0; k < p->started; k++) pthread_join(p->ids[k], NULL);
}

static void release(col_thread_pool *p) {
  pthread_cond_destroy(&p->idle);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->serial);
  free(p->ids);
  free(p);
}

col_status col_thread_pool_create(uint32_t threads, col_thread_pool **pool) {
  if (pool == NULL) return COL_ERR_NULL;
  if (threads > MAX_THREADS) return COL_ERR_SIZE;
  if (threads == 0) {
    const col_status st = threads_from_env(&threads);
    if (st == COL_ERR_ARGUMENT) return st;
    if (st != COL_OK) threads = online_cpus();
  }
  col_thread_pool *p = calloc(1, sizeof *p);
  if (p == NULL) return COL_ERR_MEMORY;
  p->threads = threads;
  p->ids = calloc(threads, sizeof *p->ids);
  if (p->ids == NULL) {
    free(p);
    return COL_ERR_MEMORY;
  }
  pthread_mutex_init(&p->serial, NULL);
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->idle, NULL);
  atomic_init(&p->claim, 0);
  atomic_init(&p->finished, 0);
  atomic_init(&p->generation, 0);
  atomic_init(&p->stop, false);
  /* A 32-bit address space cannot hold 1,024 threads of glibc's default stack (8 MiB each, from
   * RLIMIT_STACK: 8 GiB; found by cross-test ARCH=i386, where col_thread_pool_create(1024)
   * returned COL_ERR_TASKS). collide's tasks need little stack (their largest frame is the radix
   * sort's 16 KiB of counts), so 32-bit workers get 1 MiB; 64-bit ones keep the default. */
  pthread_attr_t attr, *attr_p = NULL;
  if (sizeof(void *) == 4 && pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstacksize(&attr, (size_t)1 << 20) == 0)
      attr_p = &attr;
    else
      pthread_attr_destroy(&attr);
  }
  for (uint32_t k = 0; k + 1 < threads; k++) {
    if (pthread_create(&p->ids[k], attr_p, worker, p) != 0) {
      if (attr_p) pthread_attr_destroy(attr_p);
      stop_workers(p);
      release(p);
      return COL_ERR_TASKS;
    }
    p->started++;
  }
  if (attr_p) pthread_attr_destroy(attr_p);
  *pool = p;
  return COL_OK;
}

void col_thread_pool_destroy(col_thread_pool *pool) {
  if (pool == NULL) return;
  stop_workers(pool);
  release(pool);
}

col_task_system col_thread_pool_tasks(col_thread_pool *pool) {
  return (col_task_system){pool_run, pool, pool != NULL ? pool->threads : 0};
}

/* The built-in pool: created by the first call that needs it, with that call's size; a
 * failed creation is not remembered, so a later call tries again. Never destroyed (its
 * threads sleep). The pointer is read without the lock once set. */
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(col_thread_pool *) builtin;

col_status col__thread_pool_builtin(uint32_t threads, col_task_system *out) {
  col_thread_pool *p = atomic_load_explicit(&builtin, memory_order_acquire);
  col_status st = COL_OK;
  if (p == NULL) {
    pthread_mutex_lock(&builtin_lock);
    p = atomic_load_explicit(&builtin, memory_order_relaxed);
    if (p == NULL && (st = col_thread_pool_create(threads, &p)) == COL_OK)
      atomic_store_explicit(&builtin, p, memory_order_release);
    pthread_mutex_unlock(&builtin_lock);
  }
  if (st == COL_OK) *out = col_thread_pool_tasks(p);
  return st;
}
