/* Shared by collide's benchmarks: the suite (which sizes, how long), the TSC, scenes drawn from
 * splitmix64, the backends to run, and the common counters. Each family file registers its
 * benchmarks, named family/variant/backend/scene with the object count as the argument
 * (DESIGN.md 5). */
#ifndef COLLIDE_BENCH_H
#define COLLIDE_BENCH_H

#include "bench_scenes.h" /* bench_next, bench_uniform, bench_alloc, the scenes */
#include "collide.h"
#include "gbench.h"

/* A suite: which sizes each family runs, how long, and the wall-time budget it is sized for
 * (on a 2-core machine). All lists are 0-terminated. */
typedef struct bench_suite {
  const char *name;         /* smoke, quick, default, full */
  int64_t counts[24];       /* object counts of the batch kernels */
  int64_t sprite_sides[16]; /* sprite side lengths (items = side^2) */
  int64_t move_speeds[12];  /* pixel-stepping movement speeds */
  int64_t scene_counts[16]; /* broadphase scenes (uniform, clustered, ...), ours and peers */
  int64_t boxprune[4];      /* sizes of the published box-pruning scenes */
  int64_t sim_counts[12];   /* simulation sizes */
  int64_t quadratic_max;    /* brute-force pairs and the naive simulation loops stop here */
  int64_t peer_max;         /* the peer engines stop here (box pruning: its sizes whole) */
  bool reference_sizes;     /* add the sizes the report's comparisons name (10,000; 8,192) */
  bool emulated;            /* also time the SIMDe-emulated backends */
  double min_time;          /* seconds per benchmark */
  double budget;            /* seconds of wall time the whole run fits in; 0: no budget */
} bench_suite;

extern const bench_suite *bench_active_suite;

/* The backends every family runs: the supported ones that implement any of `kernels`
 * (col_kernel bits; user backends may fill only some), natives first (the emulated ones only
 * in suites that ask for them). */
size_t bench_backends(const char **names, size_t max, unsigned kernels);
/* The backends worth timing where a family's inner loop runs some backend kernel (broadphases,
 * simulations): the hand-written natives, scalar, and user backends implementing any of
 * `kernels` (not the emulated or auto-vectorized ones). */
size_t bench_kernel_backends(const char **names, size_t max, unsigned kernels);
#define BENCH_MAX_BACKENDS (16 + COL_USER_MAX)

/* Registers `fn` once per backend implementing `kernel` as "<family>/<variant>/<backend>/<scene>"
 * over the counts (or the sprite sides); `fn` receives the backend's name (a static string) as
 * `user`. */
void bench_register(col_kernel kernel, const char *family, const char *variant, const char *scene,
                    gb_fn fn, bool sprite_sides);

/* Selects the backend of this benchmark or skips it (returns false). */
bool bench_select(gb_state *st, const char *backend);

/* The time stamp counter (rdtsc on x86; nanoseconds elsewhere) and its rate in GHz,
 * calibrated once against CLOCK_MONOTONIC. */
uint64_t bench_tsc(void);
double bench_tsc_ghz(void);

/* Sets items_per_second, ns_per_item and tsc_cycles_per_item from one timed loop of
 * `items` per iteration that took `tsc_ticks`. */
void bench_finish(gb_state *st, int64_t items, uint64_t tsc_ticks);

#endif
