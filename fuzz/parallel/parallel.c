/* The parallel sweep and prune against the sequential one, in the parallel target
 * (parallel.h). Every form must give the sequential call's list exactly, in its order (the
 * header promises the order whatever the number of tasks), and its pair count in the stats;
 * the any-order call its pair set (compared sorted) and counts.
 * (Sets the sequential call sweeps as one cell, under 256 boxes among them, run it directly: the
 * large inputs, one in sixteen, reach the tasks.) The pools start their threads once per process,
 * not per input: a fuzzer runs thousands of inputs a second, and starting threads for each would be
 * most of its time. */
#include "parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fuzzer's own task system: all tasks on the calling thread, in an order picked by the
 * input (an affine permutation i -> (a i + b) mod count, a coprime with count: reversed,
 * strided or rotated orders, no allocation). A failing one returns false from its
 * `fail_on`-th call (0: the first), having run none of its tasks or all of them (the two cases
 * the header allows). */
typedef struct shuffled {
  uint64_t seed;
  bool failing;
  uint32_t fail_on;
  bool run_then_fail;
  uint32_t calls;
  bool failed;
} shuffled;

static uint32_t gcd(uint32_t a, uint32_t b) {
  while (b != 0) {
    const uint32_t t = a % b;
    a = b, b = t;
  }
  return a;
}

static bool shuffled_run(void *user, col_task_fn *fn, void *context, uint32_t count) {
  shuffled *s = user;
  const uint32_t call = s->calls++;
  uint64_t z = s->seed + call;
  const uint64_t pick = splitmix64(&z);
  uint32_t a = count > 1 ? 1u + (uint32_t)(pick % count) : 1u;
  while (count > 1 && gcd(a, count) != 1) a = a % (count - 1) + 1;
  const uint32_t b = count > 0 ? (uint32_t)(pick >> 32) % count : 0u;
  const bool fail = s->failing && call == s->fail_on;
  const uint32_t runs = fail && !s->run_then_fail ? 0u : count;
  for (uint32_t i = 0; i < runs; i++) fn(context, (uint32_t)(((uint64_t)a * i + b) % count));
  if (fail) s->failed = true;
  return !fail;
}

/* collide's pools of 1, 2 and 3 threads, created on the first input and kept. */
static col_thread_pool *pools[3];

static void start_pools(void) {
  for (uint32_t k = 0; k < 3; k++)
    if (pools[k] == NULL && col_thread_pool_create(k + 1, &pools[k]) != COL_OK) {
      fprintf(stderr, "fuzz parallel: col_thread_pool_create(%u) failed\n", k + 1);
      fz_fail();
    }
  /* A pool of 0 threads takes COLLIDE_THREADS or the online CPUs: at least one worker (once). */
  static bool sized;
  if (!sized) {
    sized = true;
    col_thread_pool *p = NULL;
    const col_status st = col_thread_pool_create(0, &p);
    const uint32_t workers = st == COL_OK ? col_thread_pool_tasks(p).workers : 0;
    col_thread_pool_destroy(p);
    if (st != COL_OK || workers < 1) {
      fprintf(stderr, "fuzz parallel: col_thread_pool_create(0): status %s, %u workers\n",
              col_status_string(st), workers);
      fz_fail();
    }
    /* The limit (parallel.h): 1,024 threads are taken, more are COL_ERR_SIZE. */
    p = NULL;
    const col_status most = col_thread_pool_create(1024, &p);
    const uint32_t most_workers = most == COL_OK ? col_thread_pool_tasks(p).workers : 0;
    col_thread_pool_destroy(p);
    p = NULL;
    const col_status over = col_thread_pool_create(1025, &p);
    if (most != COL_OK || most_workers != 1024 || over != COL_ERR_SIZE || p != NULL) {
      fprintf(stderr,
              "fuzz parallel: col_thread_pool_create(1024): status %s, %u workers; (1025): "
              "status %s (parallel.h: up to 1,024 threads, more is COL_ERR_SIZE)\n",
              col_status_string(most), most_workers, col_status_string(over));
      fz_fail();
    }
  }
}

static bool same_list(const col_pairs *x, const col_pairs *y) {
  return x->count == y->count &&
         (x->count == 0 || memcmp(x->data, y->data, x->count * sizeof(col_pair)) == 0);
}

/* One call; NULL when it gave the sequential list and stats (or, when the task system failed,
 * COL_ERR_TASKS with the list empty), else the label with `what` in it. */
static const char *one(const col_boxes *boxes, col_touch touch, const col_parallel *parallel,
                       const shuffled *system, const col_pairs *sequential,
                       const col_broadphase_stats *sequential_stats, col_pairs *got,
                       const char *what) {
  static char label[160];
  col_broadphase_stats stats = {0, 0, 0, 0};
  const col_status st = col_broadphase_pairs_parallel(boxes, touch, parallel, got, &stats);
  const bool failed = system != NULL && system->failed;
  const bool fallback = parallel != NULL && parallel->allow_sequential_fallback;
  if (failed && !fallback) {
    if (st == COL_ERR_TASKS && got->count == 0) return NULL;
    snprintf(label, sizeof label, "parallel, %s: status %s, %zu pairs (want COL_ERR_TASKS, none)",
             what, col_status_string(st), got->count);
    return label;
  }
  if (st != COL_OK) {
    snprintf(label, sizeof label, "parallel, %s: status %s", what, col_status_string(st));
    return label;
  }
  if (!same_list(got, sequential)) {
    snprintf(label, sizeof label, "parallel, %s (list or order differs from the sequential call)",
             what);
    return label;
  }
  if (stats.pairs != sequential_stats->pairs || stats.tests != sequential_stats->tests ||
      stats.cells != sequential_stats->cells) {
    snprintf(label, sizeof label,
             "parallel, %s: stats %llu pairs, %llu tests, %llu cells; the sequential call's "
             "%llu, %llu, %llu",
             what, (unsigned long long)stats.pairs, (unsigned long long)stats.tests,
             (unsigned long long)stats.cells, (unsigned long long)sequential_stats->pairs,
             (unsigned long long)sequential_stats->tests,
             (unsigned long long)sequential_stats->cells);
    return label;
  }
  return NULL;
}

extern size_t col__par_block_pairs;

static int by_pair(const void *x, const void *y) {
  const col_pair *p = x, *q = y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return (p->b > q->b) - (p->b < q->b);
}

static const char *any_order_check(const col_boxes *boxes, col_touch touch,
                                   const col_pairs *sequential,
                                   const col_broadphase_stats *sequential_stats, uint64_t seed,
                                   col_pairs *got) {
  static char label[200];
  static col_pair *want;
  static size_t want_room;
  if (sequential->count > want_room) {
    free(want);
    want_room = sequential->count;
    want = fz_alloc(want_room * sizeof *want);
  }
  if (sequential->count) {
    memcpy(want, sequential->data, sequential->count * sizeof *want);
    qsort(want, sequential->count, sizeof *want, by_pair);
  }
  const size_t saved = col__par_block_pairs;
  col__par_block_pairs = (seed >> 44 & 3) ? 32 + (size_t)(seed >> 46) % 256 : saved;
  const col_task_system pool = col_thread_pool_tasks(pools[1]);
  shuffled sys = {seed ^ 0x5a5a, false, 0, false, 0, false};
  const col_task_system mine = {shuffled_run, &sys, (seed & 2) ? 4u : 3u};
  const col_task_system *systems[2] = {&pool, &mine};
  const char *bad = NULL;
  for (int f = 0; f < 2 && bad == NULL; f++) {
    const col_parallel p = {systems[f], 0, false};
    col_broadphase_stats stats = {0, 0, 0, 0};
    const col_status st = col_broadphase_pairs_parallel_any_order(boxes, touch, &p, got, &stats);
    const char *what = f ? "shuffled tasks" : "pool of 2 threads";
    if (st != COL_OK) {
      snprintf(label, sizeof label, "parallel any order, %s: status %s", what,
               col_status_string(st));
      bad = label;
      break;
    }
    if (got->count) qsort(got->data, got->count, sizeof *got->data, by_pair);
    if (got->count != sequential->count ||
        (got->count && memcmp(got->data, want, got->count * sizeof *want) != 0) ||
        stats.pairs != sequential_stats->pairs || stats.tests != sequential_stats->tests ||
        stats.cells != sequential_stats->cells) {
      snprintf(label, sizeof label,
               "parallel any order, %s, blocks of %zu pairs: %zu pairs (stats %llu pairs, %llu "
               "tests) against the sequential call's %zu (%llu, %llu), or a different set",
               what, col__par_block_pairs, got->count, (unsigned long long)stats.pairs,
               (unsigned long long)stats.tests, sequential->count,
               (unsigned long long)sequential_stats->pairs,
               (unsigned long long)sequential_stats->tests);
      bad = label;
    }
  }
  /* One input in four: the k-th allocation of either call (into a fresh list, the shuffled
   * tasks on this thread, so the count is the same every run) fails: COL_ERR_MEMORY with the
   * list empty (the header: on any error out is empty), or the exact pairs when that allocation
   * was not needed after all; what is not freed again LeakSanitizer reports. */
  for (int any = 0; any < 2 && bad == NULL && (seed >> 48 & 3) == 0; any++) {
    const unsigned fail_at = (unsigned)(seed >> 52) % 12u;
    shuffled starved = {seed, false, 0, false, 0, false};
    const col_task_system on_this_thread = {shuffled_run, &starved, 3};
    const col_parallel p = {&on_this_thread, 0, false};
    col_pairs fresh = {0};
    fz_fail_allocation((long)fail_at);
    const col_status st =
        any ? col_broadphase_pairs_parallel_any_order(boxes, touch, &p, &fresh, NULL)
            : col_broadphase_pairs_parallel(boxes, touch, &p, &fresh, NULL);
    const bool failed = fz_allocation_failed();
    if (any && fresh.count) qsort(fresh.data, fresh.count, sizeof *fresh.data, by_pair);
    const col_pair *expect = any ? want : sequential->data;
    const bool ok = st == COL_ERR_MEMORY
                        ? failed && fresh.count == 0
                        : st == COL_OK && fresh.count == sequential->count &&
                              (fresh.count == 0 ||
                               memcmp(fresh.data, expect, fresh.count * sizeof *expect) == 0);
    if (!ok) {
      snprintf(label, sizeof label,
               "parallel%s, allocation %u failing: status %s, %zu pairs (the sequential call's "
               "%zu)",
               any ? " any order" : "", fail_at, col_status_string(st), fresh.count,
               sequential->count);
      bad = label;
    }
    col_pairs_free(&fresh);
  }
  col__par_block_pairs = saved;
  return bad;
}

/* The threshold under which the parallel call sorts on one thread (beside the cell count), 262,144
 * boxes by default (tasks/sort.c): lowered here so that the tiled sets below reach the
 * parallel sort. */
extern size_t col__par_sort_min;

/* The input's boxes tiled along x into a set of 4,200 to 5,300 boxes, each copy shifted by
 * twice the range of the finite x values (or by 1), through the pool of two threads or the
 * shuffled system (by the seed): the fuzzer's inputs hold at most 1,024 boxes, and the survey's
 * chunks (4,096 boxes) and the parallel sort (2,048 boxes and up) need more. Reports and stops
 * on a difference. */
enum { TILED_BOXES = 4200 };

static void tiled_check(const col_boxes *boxes, col_touch touch, uint64_t seed) {
  const size_t n = boxes->count, tiles = TILED_BOXES / n + 1, total = n * tiles;
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = fz_alloc(total * sizeof(float));
  float lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    const float a = boxes->min[0][i], b = boxes->max[0][i];
    if (isfinite(a)) lo = a < lo ? a : lo, hi = a > hi ? a : hi;
    if (isfinite(b)) lo = b < lo ? b : lo, hi = b > hi ? b : hi;
  }
  const float width = hi > lo && isfinite(2.0f * (hi - lo)) ? 2.0f * (hi - lo) : 1.0f;
  for (size_t t = 0; t < tiles; t++)
    for (size_t i = 0; i < n; i++) {
      const size_t at = t * n + i;
      v[0][at] = boxes->min[0][i] + (float)t * width,
      v[3][at] = boxes->max[0][i] + (float)t * width;
      v[1][at] = boxes->min[1][i], v[4][at] = boxes->max[1][i];
      v[2][at] = boxes->dims == 3 ? boxes->min[2][i] : 0.0f;
      v[5][at] = boxes->dims == 3 ? boxes->max[2][i] : 0.0f;
    }
  const col_boxes tiled = {boxes->dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, total};
  static col_pairs sequential, got;
  col_broadphase_stats sequential_stats = {0, 0, 0, 0};
  if (col_broadphase_pairs(COL_BROADPHASE_SAP, &tiled, touch, &sequential, &sequential_stats) !=
      COL_OK)
    abort();
  col__par_sort_min = 2048;
  const col_task_system pool = col_thread_pool_tasks(pools[1]);
  shuffled sys = {seed, false, 0, false, 0, false};
  const col_task_system mine = {shuffled_run, &sys, (seed & 1) ? 5u : 3u};
  const col_parallel forms[2] = {{&pool, 0, false}, {&mine, 0, false}};
  for (int f = (int)(seed >> 3 & 1); f < 2; f += 2) { /* one of the two, by the seed */
    const char *bad = one(&tiled, touch, &forms[f], f ? &sys : NULL, &sequential, &sequential_stats,
                          &got, f ? "shuffled tasks" : "pool of 2 threads");
    if (bad == NULL) continue;
    size_t at = 0;
    while (at < got.count && at < sequential.count && got.data[at].a == sequential.data[at].a &&
           got.data[at].b == sequential.data[at].b)
      at++;
    fprintf(stderr,
            "fuzz parallel: %s, on the input's %zu boxes tiled %d times along x (shift %a): "
            "%zu pairs against the sequential call's %zu, first difference at position %zu\n",
            bad, n, (int)tiles, (double)width, got.count, sequential.count, at);
    fz_fail();
  }
  for (int k = 0; k < 6; k++) free(v[k]);
}

/* Boxes up to which the parallel call on 2 to 4 workers runs as parts, each task surveying and
 * counting every box for its own range of cells (tasks/parts.c, 32,768 by default: every input
 * here), and past which it counts once and then runs as parts (up to col__par_counted_max):
 * owned 0 for one input in two (the shared count), and of those, counted 0 for one in two (the
 * passes split into tasks). */
extern size_t col__par_owned_max, col__par_counted_max;
/* For one input in four (by the seed), part 0's task of the parallel parts spins before each
 * chunk of its own cells, so that the pools' other threads sweep its last chunks (tasks/steal.c:
 * a core that finishes early takes another part's chunks; with tasks run one after another
 * no part is ever left half swept). */
extern unsigned col__par_share_delay;

static const char *checks(const col_boxes *boxes, col_touch touch, const col_pairs *sequential,
                          const col_broadphase_stats *sequential_stats, uint64_t seed,
                          col_pairs *got) {
  const char *bad = NULL;
  char what[96];
  /* Every form below on one input in sixteen (by a hash of the seed); on the others one of the
   * eight single calls, picked by the hash (each call costs a sweep), and the any-order call on
   * one in four. */
  uint64_t z = seed ^ 0x6a09e667f3bcc908u;
  const uint64_t h = splitmix64(&z);
  const bool all = (h & 15) == 0;
  const unsigned only = (unsigned)(h >> 2) % 8u;
#define FORM(i) (all || only == (i))
  /* The built-in pool, by default (NULL) or asked for explicitly (by the seed). */
  const col_parallel builtin = {NULL, 0, false};
  if (FORM(0))
    bad = one(boxes, touch, (seed >> 32 & 1) ? &builtin : NULL, NULL, sequential, sequential_stats,
              got, (seed >> 32 & 1) ? "built-in pool, {NULL, 0, false}" : "built-in pool (NULL)");
  if (bad) return bad;
  /* The pools of 1, 2 and 3 threads. */
  for (uint32_t k = 0; k < 3; k++) {
    if (!FORM(1 + k)) continue;
    const col_task_system tasks = col_thread_pool_tasks(pools[k]);
    /* The header: workers = the pool's thread count (a pool that said 1 would run the
     * sequential call, with the same pairs: only this check would see it). */
    if (tasks.workers != k + 1) {
      fprintf(stderr, "fuzz parallel: col_thread_pool_tasks of a %u-thread pool says %u workers\n",
              k + 1, tasks.workers);
      fz_fail();
    }
    const col_parallel p = {&tasks, 0, false};
    snprintf(what, sizeof what, "pool of %u threads", k + 1);
    bad = one(boxes, touch, &p, NULL, sequential, sequential_stats, got, what);
    if (bad) return bad;
  }
  /* The shuffled system with 1, 2 and 3 or 5 workers (by the seed). */
  const uint32_t workers[3] = {1, 2, (seed & 1) ? 5u : 3u};
  for (int k = 0; k < 3; k++) {
    if (!FORM(4 + (unsigned)k)) continue;
    shuffled sys = {seed + (uint64_t)k, false, 0, false, 0, false};
    const col_task_system tasks = {shuffled_run, &sys, workers[k]};
    const col_parallel p = {&tasks, 0, false};
    snprintf(what, sizeof what, "shuffled tasks, %u workers (seed %llu)", workers[k],
             (unsigned long long)sys.seed);
    bad = one(boxes, touch, &p, &sys, sequential, sequential_stats, got, what);
    if (bad) return bad;
  }
  /* A system that fails (in its first, second or third call, having run none or all of that
   * call's tasks): COL_ERR_TASKS with the list empty; with the fallback (by the seed), the
   * exact list. */
  const bool fallback = (seed >> 33 & 1) != 0;
  shuffled sys = {seed, true, (uint32_t)(seed >> 8) % 3u, (seed >> 16 & 1) != 0, 0, false};
  const col_task_system tasks = {shuffled_run, &sys, workers[(seed >> 24) % 3]};
  const col_parallel p = {&tasks, 0, fallback};
  snprintf(what, sizeof what, "tasks failing in call %u having run %s, %u workers%s", sys.fail_on,
           sys.run_then_fail ? "all" : "none", tasks.workers, fallback ? ", fallback allowed" : "");
  if (FORM(7)) bad = one(boxes, touch, &p, &sys, sequential, sequential_stats, got, what);
  if (bad) return bad;
#undef FORM
  /* The any-order call (pool of 2 threads, shuffled tasks): the same pairs, each once, and the
   * same counts, in any order; blocks of 32 to 287 pairs or the default (by the seed), into
   * a list that holds whatever room the last input left (none, too little, or enough). */
  if (all || (h >> 8 & 3) == 0)
    bad = any_order_check(boxes, touch, sequential, sequential_stats, seed, got);
  if (bad) return bad;
  /* The tiled sets (eight times the boxes: a twentieth of the inputs took half the target's
   * time when they ran on one in four), on one input in sixteen that has the boxes for cells. */
  if (boxes->count >= 256 && (h >> 16 & 15) == 0) tiled_check(boxes, touch, seed);
  return NULL;
}

const char *fz_parallel_check(const col_boxes *boxes, col_touch touch, const col_pairs *sequential,
                              const col_broadphase_stats *sequential_stats, uint64_t seed,
                              col_pairs *got) {
  start_pools();
  const size_t owned_max = col__par_owned_max, counted_max = col__par_counted_max;
  if (seed >> 36 & 1) col__par_owned_max = 0;
  if ((seed >> 36 & 3) == 3) col__par_counted_max = 0;
  if ((seed >> 38 & 3) == 0) col__par_share_delay = 2000;
  const char *bad = checks(boxes, touch, sequential, sequential_stats, seed, got);
  col__par_owned_max = owned_max, col__par_counted_max = counted_max;
  col__par_share_delay = 0;
  return bad;
}
