/* Argument fuzzing of collide's thread pool and of the parallel broadphase's entry points (see
 * fuzz_args.c): col_thread_pool_create with every documented error (COLLIDE_THREADS included,
 * set for the call and restored), what the pool's task system then does, and
 * col_broadphase_pairs_parallel (and its any-order form) with invalid arguments, task systems
 * that fail, refuse or have one worker, and the built-in pool before it exists. The parallel
 * target fuzzes the pair sets on working task systems; here the contract around them. */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* COLLIDE_THREADS values: unset, and strings around parallel.h's "a decimal 1..1024". */
static const char *const env_values[] = {NULL,   "",   "0",  "1",           "3",  "01", "2x",
                                         "1025", "-1", " 2", "99999999999", "+2", "x"};
enum { ENV_VALUES = sizeof env_values / sizeof env_values[0] };

/* The variable's value as parallel.h reads it: 1..1024 (0 when it is not such a decimal). */
static uint32_t env_threads(const char *s) {
  if (s == NULL || s[0] == '\0' || strlen(s) > 9 || strspn(s, "0123456789") != strlen(s)) return 0;
  const unsigned long v = strtoul(s, NULL, 10);
  return v >= 1 && v <= 1024 ? (uint32_t)v : 0;
}

/* Sets COLLIDE_THREADS (NULL unsets it), returning the value it had (to give to restore). */
static char *set_env(const char *value) {
  const char *was = getenv("COLLIDE_THREADS");
  char *saved = was ? strcpy(fz_alloc(strlen(was) + 1), was) : NULL;
  if (value == NULL)
    unsetenv("COLLIDE_THREADS");
  else
    setenv("COLLIDE_THREADS", value, 1);
  return saved;
}
static void restore_env(char *saved) {
  if (saved)
    setenv("COLLIDE_THREADS", saved, 1);
  else
    unsetenv("COLLIDE_THREADS");
  free(saved);
}

/* A task that counts its index's calls (from any of the pool's threads). */
enum { MAX_TASKS = 64 };
typedef struct tally {
  atomic_uint calls[MAX_TASKS];
} tally;
static void count_call(void *context, uint32_t index) {
  tally *t = context;
  if (index >= MAX_TASKS) fz_fail();
  atomic_fetch_add(&t->calls[index], 1u);
}

/* parallel.h: run calls fn once for every index of [0, count), none for 0, and returns false
 * only for a NULL fn. */
static void check_tasks(col_task_system ts, uint32_t want_workers, uint32_t count) {
  tally t;
  for (int i = 0; i < MAX_TASKS; i++) atomic_init(&t.calls[i], 0u);
  bool ok = ts.run != NULL && ts.workers == want_workers && !ts.run(ts.user, NULL, &t, count) &&
            ts.run(ts.user, count_call, &t, 0) && atomic_load(&t.calls[0]) == 0 &&
            ts.run(ts.user, count_call, &t, count);
  for (uint32_t i = 0; ok && i < MAX_TASKS; i++) ok = atomic_load(&t.calls[i]) == (i < count);
  if (ok) return;
  fprintf(stderr,
          "fuzz args: a pool's task system (workers %u, %u expected) did not run %u tasks "
          "once each, none for 0, refusing a NULL fn\n",
          ts.workers, want_workers, count);
  fz_fail();
}

/* col_thread_pool_create (operation bytes 0xE4-0xE5): a threads pick (0, 1, 2, 3, 1025,
 * UINT32_MAX, each twice), a COLLIDE_THREADS pick, a flags byte (bit 0: NULL out; bits 1-6:
 * the tasks run), the starve byte. parallel.h: COL_ERR_NULL (pool), COL_ERR_SIZE (threads >
 * 1024), COL_ERR_ARGUMENT (threads 0 and the variable set to anything but 1..1024),
 * COL_ERR_MEMORY; *pool set on success only. The pool then has `threads` workers (0: the
 * variable's value, else the online CPUs). A NULL pool's task system has no workers and a run
 * that refuses; destroying NULL does nothing. */
void fa_pool(fz_reader *r) {
  static const uint32_t picks[8] = {0, 1, 2, 3, 1025, UINT32_MAX, 0, 2};
  const uint32_t threads = picks[fz_u8(r) % 8];
  const char *env = env_values[fz_u8(r) % ENV_VALUES];
  const uint8_t flags = fz_u8(r);
  const uint8_t starve = fa_starve(r);
  const bool out_null = flags & 1;
  unsigned applies = 0;
  if (out_null) applies |= ERR(COL_ERR_NULL);
  if (threads > 1024) applies |= ERR(COL_ERR_SIZE);
  if (threads == 0 && env != NULL && env_threads(env) == 0) applies |= ERR(COL_ERR_ARGUMENT);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const uint32_t want = threads       ? threads
                        : env         ? env_threads(env)
                        : cpus < 1    ? 1u
                        : cpus > 1024 ? 1024u
                                      : (uint32_t)cpus;
  char *saved = set_env(env);
  col_thread_pool *pool;
  memset(&pool, CANARY, sizeof pool);
  fa_arm(starve);
  const col_status st = col_thread_pool_create(threads, out_null ? NULL : &pool);
  const bool kept = fa_untouched(&pool, sizeof pool);
  fa_judge_starved("col_thread_pool_create", st, applies, kept, kept);
  restore_env(saved);
  if (st == COL_OK) {
    check_tasks(col_thread_pool_tasks(pool), want, (flags >> 1) % (MAX_TASKS + 1));
    col_thread_pool_destroy(pool);
  }
  const col_task_system none = col_thread_pool_tasks(NULL);
  if (none.workers != 0 || none.run == NULL || none.run(none.user, count_call, NULL, 1)) {
    fputs("fuzz args: a NULL pool's task system has workers or runs tasks\n", stderr);
    fz_fail();
  }
  col_thread_pool_destroy(NULL);
}

/* A task system that runs its first `runs` calls and fails the next ones: refusing at once, or
 * running every task and then reporting failure (parallel.h allows both; collide discards the
 * work either way). */
typedef struct failing {
  uint32_t runs, calls;
  bool after_running;
} failing;
static bool run_or_fail(void *user, col_task_fn *fn, void *context, uint32_t count) {
  failing *f = user;
  const bool fails = f->calls++ >= f->runs;
  if (fails && !f->after_running) return false;
  for (uint32_t i = 0; i < count; i++) fn(context, i);
  return !fails;
}
static bool run_in_turn(void *user, col_task_fn *fn, void *context, uint32_t count) {
  (void)user;
  for (uint32_t i = 0; i < count; i++) fn(context, i);
  return true;
}

/* Whether the built-in pool exists: made by this target's first call that could make it (no
 * other code of this process makes it), after which its size and COLLIDE_THREADS no longer
 * matter. */
static bool builtin_made;

/* Boxes on a lattice seeded by the input: n of them, 2D or 3D, some overlapping (a pair set to
 * compare), spread with their number so that a few thousand cost what a few hundred do. */
static void lattice(float *v[6], size_t n, unsigned dims, uint8_t seed) {
  const size_t side = n > 512 ? 512 : 37;
  for (size_t i = 0; i < n; i++)
    for (unsigned k = 0; k < dims; k++) {
      const float at = (float)((i * (4 * k + 3u) + seed) % side) * 0.5f;
      v[k][i] = at, v[3 + k][i] = at + (float)((i + k + seed) % 3u);
    }
}

/* The built-in pool's failure shows only on the first call that needs it (a failed creation
 * is not remembered, a made pool is kept): this target's first parallel operation makes that
 * call with COLLIDE_THREADS broken, without and with the fallback, whatever the input, so that
 * a corpus replay reaches it in any order. parallel.h: COL_ERR_TASKS with the list empty, or
 * with the fallback the sequential call's pairs. */
static void builtin_fails_first(void) {
  enum { N = 256 };
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = fz_alloc(N * sizeof(float));
  lattice(v, N, 2, 5);
  const col_boxes boxes = {2, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, N};
  col_pairs got = {0}, want = {0};
  if (col_broadphase_pairs(COL_BROADPHASE_SAP, &boxes, COL_TOUCH_OVERLAPS, &want, NULL) != COL_OK)
    abort();
  char *saved = set_env("x");
  const col_parallel fallback = {NULL, 0, true};
  col_pairs_push(&got, 7, 9);
  const col_status refused =
      col_broadphase_pairs_parallel(&boxes, COL_TOUCH_OVERLAPS, NULL, &got, NULL);
  const size_t left = got.count;
  const col_status ran =
      col_broadphase_pairs_parallel(&boxes, COL_TOUCH_OVERLAPS, &fallback, &got, NULL);
  restore_env(saved);
  if (refused != COL_ERR_TASKS || left != 0 || ran != COL_OK || got.count != want.count ||
      memcmp(got.data, want.data, want.count * sizeof *want.data) != 0) {
    fprintf(stderr,
            "fuzz args: the built-in pool unmade (COLLIDE_THREADS=x): %d with %zu pairs "
            "left, then with the fallback %d and %zu pairs of %zu\n",
            refused, left, ran, got.count, want.count);
    fz_fail();
  }
  col_pairs_free(&got), col_pairs_free(&want);
  for (int k = 0; k < 6; k++) free(v[k]);
}

/* tasks/sort.c's threshold of the parallel sort (2^18 boxes, for speed, not for the answers):
 * 2,048 here, as in the parallel target, so that its tasks run on inputs of this size. */
extern size_t col__par_sort_min;

/* The parallel calls (operation bytes 0xE6-0xE7): a flags byte (bit 0: the any-order form;
 * bit 1: NULL boxes; bit 2: NULL out; bit 3: NULL stats; bit 4: a NULL array; bit 5: the
 * fallback; bits 6-7 with the next byte's bits 0-1: the task system), a count pick (0, 2, 255,
 * 256, 300, 512, 2048, 4100), dims (2, 3, 0, 4), touch, the built-in pool's size pick and a
 * COLLIDE_THREADS pick (for the call that may make it), a lattice seed. parallel.h: errors as
 * col_broadphase_pairs, first; a task system whose run is NULL is COL_ERR_NULL; one that fails a
 * call, or a built-in pool that cannot be made, is COL_ERR_TASKS unless the fallback is on (then
 * the sequential call); under 256 boxes, and with one worker, the sequential call. On success
 * exactly the sequential sweep and prune's pairs (in its order unless any-order), on any error
 * an empty list. */
void fa_parallel(fz_reader *r) {
  static const size_t counts[8] = {0, 2, 255, 256, 300, 512, 2048, 300};
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  static const uint32_t sizes[4] = {0, 1, 2, 1025};
  const uint8_t flags = fz_u8(r), how = fz_u8(r);
  size_t n = counts[fz_u8(r) % 8];
  const unsigned dims = dims_values[fz_u8(r) & 3];
  const int touch = fa_enum(r);
  const uint32_t size = sizes[fz_u8(r) & 3];
  const char *env = env_values[fz_u8(r) % ENV_VALUES];
  const uint8_t seed = fz_u8(r);
  const bool any_order = flags & 1, boxes_null = flags & 2, out_null = flags & 4;
  const bool stats_null = flags & 8, array_null = flags & 16;
  col__par_sort_min = 2048;
  static bool probed;
  if (!probed && !builtin_made) builtin_fails_first();
  probed = true;
  const unsigned choice = ((flags >> 6) | (how & 3u) << 2) % 6;
  /* 2,048 boxes (the parallel sort's smallest) only for the failing systems, whose passes are
   * the point of it: one input costs milliseconds. */
  if (n > 512 && choice < 4) n = 512;
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = fz_alloc((n ? n : 1) * sizeof(float));
  lattice(v, n, dims == 3 ? 3 : 2, seed);
  const col_boxes boxes = {dims, {array_null ? NULL : v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};
  /* The task system: 0 the built-in pool (parallel NULL), 1 the built-in pool of `size`, 2 a
   * NULL run, 3 run in turn on `how` >> 2 workers (0..63), 4 failing (refusing) from its
   * (how >> 2 & 3)-th call on, 5 the same after running every task; 4 and 5 on 2 + (how >> 4)
   * workers (2..17: from 5 on, every pass is split into tasks), so that each pass can be the
   * one that fails. */
  /* With the fallback on, a system that fails after running its tasks has the whole call
   * started over on the calling thread (tasks/run.c once ran the failed pass again over its own
   * output: UBSan in tasks/sort.c, a SEGV, extra pairs). */
  failing fail = {(uint32_t)how >> 2 & 3u, 0, choice == 5};
  col_task_system ts = {choice == 2   ? NULL
                        : choice >= 4 ? run_or_fail
                                      : run_in_turn,
                        choice >= 4 ? (void *)&fail : NULL,
                        choice == 3 ? (uint32_t)how >> 2 : 2u + ((uint32_t)how >> 4)};
  const col_parallel par = {choice >= 2 ? &ts : NULL, size, (flags & 32) != 0};
  unsigned applies = 0;
  if (boxes_null || out_null || (n > 0 && array_null) || choice == 2) applies |= ERR(COL_ERR_NULL);
  if (dims != 2 && dims != 3) applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  /* Whether the work goes to a task system (the built-in pool is made, or found, first), and
   * whether that fails. */
  const bool tasks = applies == 0 && n >= 256;
  const uint32_t pool_size = choice == 1 ? size : 0;
  const bool builtin_fails = choice < 2 && !builtin_made &&
                             (pool_size > 1024 || (pool_size == 0 && env && env_threads(env) == 0));
  const bool makes_builtin = tasks && choice < 2 && !builtin_fails;
  /* Choice 0 passes no col_parallel: the defaults, no fallback, whatever flags bit 5 says. */
  const bool fallback = choice != 0 && par.allow_sequential_fallback;
  if (tasks && builtin_fails && !fallback) applies |= ERR(COL_ERR_TASKS);
  col_pairs want = {0}, got = {0};
  col_broadphase_stats want_stats, got_stats;
  memset(&got_stats, CANARY, sizeof got_stats);
  col_pairs_push(&got, 7, 9);
  char *saved = set_env(env);
  const col_status st =
      (any_order ? col_broadphase_pairs_parallel_any_order : col_broadphase_pairs_parallel)(
          boxes_null ? NULL : &boxes, (col_touch)touch, choice == 0 ? NULL : &par,
          out_null ? NULL : &got, stats_null ? NULL : &got_stats);
  restore_env(saved);
  builtin_made = builtin_made || makes_builtin;
  /* Whether a call went past the failing system's runs is the parallel call's own business
   * (how many passes it splits): COL_ERR_TASKS exactly when one did, unless the fallback is on. */
  if (choice >= 4 && fail.calls > fail.runs && !fallback) applies |= ERR(COL_ERR_TASKS);
  fa_judge(any_order ? "col_broadphase_pairs_parallel_any_order" : "col_broadphase_pairs_parallel",
           st, applies, out_null || got.count == 0);
  if (st == COL_OK) {
    if (col_broadphase_pairs(COL_BROADPHASE_SAP, &boxes, (col_touch)touch, &want, &want_stats) !=
        COL_OK)
      abort();
    if (any_order) col_pairs_sort(&got), col_pairs_sort(&want);
    const bool same =
        got.count == want.count &&
        (want.count == 0 || memcmp(got.data, want.data, want.count * sizeof *want.data) == 0) &&
        (stats_null ||
         (got_stats.pairs == want_stats.pairs && got_stats.cells == want_stats.cells));
    if (!same) {
      fprintf(stderr,
              "fuzz args: the parallel call (task system %u, %zu boxes) found %zu pairs, "
              "the sequential one %zu (or other stats)\n",
              choice, n, got.count, want.count);
      fz_fail();
    }
  }
  col_pairs_free(&want), col_pairs_free(&got);
  for (int k = 0; k < 6; k++) free(v[k]);
}
