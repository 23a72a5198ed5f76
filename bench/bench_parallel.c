/* The parallel sweep and prune's scaling: col_broadphase_pairs_parallel on collide's own thread
 * pool of T threads, named broadphase/sap-par/<backend>/<scene>/N/threads:T, for T = 1, 2, ...
 * up to the online CPUs (every count up to 8, then powers of two and the count itself), on the
 * scenes its targets name: uniform 1,048,576, boxprune3d and boxprune2d 100,000, boxprune3d
 * 10,000. Before each size's threads:1 row, broadphase/sap-par/<backend>/<scene>/N/sequential
 * times col_broadphase_pairs(COL_BROADPHASE_SAP, ...) on the same boxes: the cost of the
 * parallel entry on one thread is the ratio of the two neighbouring rows. The rows of one size
 * run one after the other, so that a change in the machine's load between sizes does not
 * enter a speedup. Default, quick and smoke suites time the default (best native) backend
 * only; full every backend sweep and prune runs on. Every row makes two untimed calls first,
 * as bench_broadphase.c does. Counters: pairs, threads, kcycles_per_run, and from the wall
 * clock (TSC) boxes_per_second, tsc_cycles_per_item and ns_per_item; no items_per_second
 * (Google Benchmark divides it by the main thread's CPU time: the pool's threads left out).
 * .../N/any-order:T (T >= 2) times col_broadphase_pairs_parallel_any_order the same way (the
 * pair set without the sequential order, so no copy of the pairs into place).
 * The threads:T and any-order:T rows also time their call interleaved with a reference, one call
 * each in turn, and keep the fastest of each: interleaved_ratio = the reference's fastest over this
 * row's (threads:1: against the sequential call, so 0.97 means 3% slower; T > 1: against a pool of
 * one thread, the speedup), with both minima in interleaved_kcycles and interleaved_ref_kcycles.
 * Separate rows run seconds apart and see the machine's clock and load change in between; the
 * interleaved minima are what the report's targets read.
 * The threads:T rows (T >= 2) then time the one-thread pool alone on each of the first T CPUs
 * the process may run on, the calling thread pinned there (Linux): cpu<k>_kcycles, the fastest
 * of a few calls on the k-th such CPU. Cores of one machine differ (a hybrid CPU's small cores;
 * on a virtual machine a vCPU whose sibling hardware thread or memory another guest uses), and a
 * T-thread call can at best do the work at the sum of their speeds: the report's ceiling. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "bench.h"
#include "bench_scene_files.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_THREADS = 1024, MAX_ROWS = 4096 };
/* Rounds of the interleaved comparison: at least INTERLEAVED_MIN (unless they take 1.2 s),
 * more while they take under 0.3 s, at most INTERLEAVED_MAX. The two-thread side needs both
 * cores undisturbed for a fast round: a dozen rounds left its minimum 10-20% apart between
 * runs on a shared 2-core machine; the 1.2 s cap keeps the default suite in its budget. */
enum { INTERLEAVED_MIN = 16, INTERLEAVED_MAX = 400 };

typedef struct par_case {
  const char *backend;
  int scene;
  size_t n;
  uint32_t threads;             /* 0: the sequential call */
  bool any_order;               /* col_broadphase_pairs_parallel_any_order */
  const bench_scene_file *file; /* a scene file's row (scene unused) */
} par_case;

/* The scenes, filled once per size and kept (a row's neighbours use the same boxes). */
static bench_scene scenes[SCENE_COUNT];
/* One pool per thread count, started on its first row and kept for the run: starting threads
 * is not what the rows time. */
static col_thread_pool *pools[MAX_THREADS + 1];

/* The call a row times: sequential (no threads), ordered or any-order parallel. */
static col_status call(const par_case *c, const col_boxes *boxes, const col_parallel *parallel,
                       col_pairs *pairs, col_broadphase_stats *stats) {
  if (c->threads == 0)
    return col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, COL_TOUCH_OVERLAPS, pairs, stats);
  if (c->any_order)
    return col_broadphase_pairs_parallel_any_order(boxes, COL_TOUCH_OVERLAPS, parallel, pairs,
                                                   stats);
  return col_broadphase_pairs_parallel(boxes, COL_TOUCH_OVERLAPS, parallel, pairs, stats);
}

/* Rounds of a per-CPU one-thread timing: at least PER_CPU_MIN, more while under 0.2 s. */
enum { PER_CPU_MIN = 3, PER_CPU_MAX = 40 };

/* The one-thread pool (`single`) alone on each of the first `threads` CPUs this thread may run
 * on, pinned there in turn (the mask given back after): counters cpu<k>_kcycles. */
static col_status per_cpu(gb_state *st, const par_case *c, const col_boxes *boxes,
                          const col_parallel *single, col_pairs *pairs) {
  col_status all = COL_OK;
#ifdef __linux__
  cpu_set_t saved;
  if (sched_getaffinity(0, sizeof saved, &saved) != 0) return COL_OK;
  const uint64_t enough = (uint64_t)(0.2e9 * bench_tsc_ghz());
  uint32_t k = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && k < c->threads && all == COL_OK; cpu++) {
    if (!CPU_ISSET(cpu, &saved)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) break;
    double best = 0;
    const uint64_t start = bench_tsc();
    for (int round = 0; round < PER_CPU_MAX && all == COL_OK; round++) {
      const uint64_t c0 = bench_tsc();
      all |= col_broadphase_pairs_parallel(boxes, COL_TOUCH_OVERLAPS, single, pairs, NULL);
      const double d = (double)(bench_tsc() - c0);
      if (best == 0 || d < best) best = d;
      if (round + 1 >= PER_CPU_MIN && bench_tsc() - start > enough) break;
    }
    char name[32];
    snprintf(name, sizeof name, "cpu%u_kcycles", k++);
    gb_counter(st, name, best / 1000.0, GB_PLAIN);
  }
  sched_setaffinity(0, sizeof saved, &saved);
#else
  (void)st, (void)c, (void)boxes, (void)single, (void)pairs;
#endif
  return all;
}

static void run(gb_state *st, void *user) {
  const par_case *c = user;
  if (!bench_select(st, c->backend)) return;
  const bench_scene_file *f = c->file;
  col_boxes boxes;
  if (f != NULL) {
    boxes = bench_scene_file_frame(f, 0);
  } else {
    bench_scene *s = &scenes[c->scene];
    if (s->n != c->n) bench_scene_fill(s, c->scene, c->n);
    boxes = bench_scene_boxes(s);
  }
  col_status all = COL_OK;
  if (c->threads > 0 && pools[c->threads] == NULL)
    all = col_thread_pool_create(c->threads, &pools[c->threads]);
  if (all != COL_OK) {
    gb_skip(st, "the thread pool did not start");
    return;
  }
  col_task_system tasks = {0};
  if (c->threads > 0) tasks = col_thread_pool_tasks(pools[c->threads]);
  const col_parallel parallel = {&tasks, 0, false};
  col_pairs pairs = {0};
  col_broadphase_stats stats = {0, 0, 0, 0};
  /* Two untimed calls, as bench_broadphase.c: the list and the working memory reach their
   * size (one only when a call takes over two seconds). */
  const uint64_t warm_limit = (uint64_t)(2e9 * bench_tsc_ghz());
  for (int warm = 0; warm < 2 && all == COL_OK; warm++) {
    const uint64_t w0 = bench_tsc();
    all = call(c, &boxes, &parallel, &pairs, &stats);
    if (bench_tsc() - w0 > warm_limit) break;
  }
  uint64_t step = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    if (f != NULL) boxes = bench_scene_file_frame(f, bench_scene_file_step(f, ++step));
    all |= call(c, &boxes, &parallel, &pairs, &stats);
    gb_do_not_optimize(pairs.data);
  }
  const uint64_t ticks = bench_tsc() - t0;
  if (f != NULL) boxes = bench_scene_file_frame(f, 0);
  /* The ratio that the targets read, measured interleaved: this row's call against its
   * reference (threads:1 against the sequential call; T threads against the pool of one),
   * one call each in turn, the order alternating, and the fastest of each kept: the minima drop
   * the calls that an interruption or a slower clock hit, and both sides see the same load. */
  double ref_min = 0, this_min = 0;
  if (c->threads > 0 && all == COL_OK) {
    if (c->threads > 1 && pools[1] == NULL) all = col_thread_pool_create(1, &pools[1]);
    col_task_system one = {0};
    if (c->threads > 1 && all == COL_OK) one = col_thread_pool_tasks(pools[1]);
    const col_parallel single = {&one, 0, false};
    const uint64_t limit = (uint64_t)(1.2e9 * bench_tsc_ghz()), enough = limit / 4;
    const uint64_t start = bench_tsc();
    for (int round = 0; all == COL_OK && round < INTERLEAVED_MAX; round++) {
      for (int side = 0; side < 2; side++) {
        const bool mine = (side ^ (round & 1)) != 0;
        const uint64_t c0 = bench_tsc();
        if (mine)
          all |= call(c, &boxes, &parallel, &pairs, NULL);
        else if (c->threads == 1)
          all |= col_broadphase_pairs(COL_BROADPHASE_SAP, &boxes, COL_TOUCH_OVERLAPS, &pairs, NULL);
        else
          all |= col_broadphase_pairs_parallel(&boxes, COL_TOUCH_OVERLAPS, &single, &pairs, NULL);
        const double d = (double)(bench_tsc() - c0);
        double *keep = mine ? &this_min : &ref_min;
        if (*keep == 0 || d < *keep) *keep = d;
      }
      const uint64_t spent = bench_tsc() - start;
      if (spent > limit || (round + 1 >= INTERLEAVED_MIN && spent > enough)) break;
    }
    if (c->threads > 1 && !c->any_order && all == COL_OK)
      all = per_cpu(st, c, &boxes, &single, &pairs);
  }
  size_t last_pairs = 0;
  if (f != NULL && all == COL_OK) {
    const col_boxes last = bench_scene_file_frame(f, f->scene.frames - 1);
    all |= call(c, &last, &parallel, &pairs, NULL);
    last_pairs = pairs.count;
    all |= call(c, &boxes, &parallel, &pairs, &stats);
  }
  if (all != COL_OK) {
    gb_skip(st, "broadphase failed");
    col_pairs_free(&pairs);
    return;
  }
  if (f != NULL) {
    gb_counter(st, "pairs_last", (double)last_pairs, GB_PLAIN);
    gb_counter(st, "frames", (double)f->scene.frames, GB_PLAIN);
  }
  /* Wall-clock rates only: Google Benchmark's items per second divide by the main thread's
   * CPU time, which leaves out the pool's other threads. */
  const double runs = (double)gb_iteration_count(st), cycles = (double)ticks / runs;
  gb_counter(st, "boxes_per_second", (double)c->n / (cycles / (bench_tsc_ghz() * 1e9)), GB_PLAIN);
  gb_counter(st, "tsc_cycles_per_item", cycles / (double)c->n, GB_PLAIN);
  gb_counter(st, "ns_per_item", cycles / (double)c->n / bench_tsc_ghz(), GB_PLAIN);
  gb_counter(st, "pairs", (double)stats.pairs, GB_PLAIN);
  gb_counter(st, "threads", (double)c->threads, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", cycles / 1000.0, GB_PLAIN);
  if (this_min > 0) {
    gb_counter(st, "interleaved_ratio", ref_min / this_min, GB_PLAIN);
    gb_counter(st, "interleaved_kcycles", this_min / 1000.0, GB_PLAIN);
    gb_counter(st, "interleaved_ref_kcycles", ref_min / 1000.0, GB_PLAIN);
  }
  col_pairs_free(&pairs);
}

static void add(const char *backend, int scene, size_t n, uint32_t threads, bool any_order,
                const bench_scene_file *file) {
  /* Static storage: the registration keeps a pointer for the whole run. */
  static par_case cases[MAX_ROWS];
  static size_t used;
  if (used == MAX_ROWS) return;
  par_case *c = &cases[used++];
  *c = (par_case){backend, scene, n, threads, any_order, file};
  char name[160], part[32];
  if (threads > 0)
    snprintf(part, sizeof part, "%s:%u", any_order ? "any-order" : "threads", threads);
  else
    snprintf(part, sizeof part, "sequential");
  snprintf(name, sizeof name, "broadphase/sap-par/%s/%s/%zu/%s", backend,
           file != NULL ? file->name : bench_scene_name[scene], n, part);
  gb_unit(gb_register(name, run, c), GB_MS);
}

/* 1..8, then powers of two, then the count itself. */
static uint32_t next_threads(uint32_t t, uint32_t online) {
  const uint32_t next = t < 8 ? t + 1 : 2 * t;
  return next < online || t >= online ? next : online;
}

/* One size's rows: sequential, then threads:T and any-order:T. */
static void add_rows(const char *backend, int scene, size_t n, uint32_t online,
                     const bench_scene_file *file) {
  add(backend, scene, n, 0, false, file);
  for (uint32_t t = 1; t <= online; t = next_threads(t, online)) {
    add(backend, scene, n, t, false, file);
    /* One thread runs the sequential call in either form: any order from two. */
    if (t > 1) add(backend, scene, n, t, true, file);
  }
}

void bench_register_parallel(void);
void bench_register_parallel(void) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const uint32_t online = cpus < 1 ? 1u : cpus > MAX_THREADS ? MAX_THREADS : (uint32_t)cpus;
  const bench_suite *suite = bench_active_suite;
  const bool smoke = strcmp(suite->name, "smoke") == 0, quick = strcmp(suite->name, "quick") == 0;
  /* The targets' scenes and sizes; the quick suite the small one only, smoke its smallest. */
  const struct {
    int scene;
    size_t n;
  } sizes[] = {
      {SCENE_UNIFORM, smoke ? 16 : 1048576},
      {SCENE_BOXPRUNE3D, smoke ? 1000 : 100000},
      {SCENE_BOXPRUNE2D, smoke ? 1000 : 100000},
      {SCENE_BOXPRUNE3D, smoke ? 1000 : 10000},
  };
  col_backend_info backends[BENCH_MAX_BACKENDS];
  size_t nb = 0;
  if (strcmp(suite->name, "full") == 0) {
    nb =
        bench_kernel_backends(backends, BENCH_MAX_BACKENDS,
                              COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB3_QUERY | COL_KERNEL_SAP_RUN);
  } else {
    /* The default backend is the best native one this CPU runs (a static name). */
    backends[0].name = col_backend_name();
    nb = 1;
  }
  for (size_t k = 0; k < nb; k++) {
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !bench_scene_only(); i++) {
      if (quick && i != 3) continue;
      if (smoke && i == 3) continue; /* the same as boxprune3d's row above */
      add_rows(backends[k].name, sizes[i].scene, sizes[i].n, online, NULL);
    }
    const bench_scene_file *f;
    for (size_t i = 0; (f = bench_scene_file_at(i)) != NULL; i++)
      add_rows(backends[k].name, 0, f->scene.count, online, f);
  }
}
