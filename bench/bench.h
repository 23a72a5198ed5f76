/* Shared by collide's benchmarks (bench.c): the suites (which sizes, how long), the TSC, the
 * backends to run, registration per backend, and the common counters. Each family file
 * registers its benchmarks, named family/variant/backend/scene with the object count as the
 * argument (DESIGN.md 5); bench_main.c only drives them. */
#ifndef COLLIDE_BENCH_H
#define COLLIDE_BENCH_H

#include "bench_scenes.h" /* bench_next, bench_uniform, bench_alloc, the scenes */
#include "collide.h"
#include "gbench.h"

/* A suite: which sizes each family runs, how long, and the wall-time budget it is sized for
 * (on a 2-core machine). All lists are 0-terminated. */
typedef struct bench_suite {
  const char *name;         /* smoke, quick, default, full */
  bool complete;            /* an unfiltered run of it may replace results/REPORT.md */
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

/* The suites, in order of size: the i-th, or NULL past the last. */
const bench_suite *bench_suite_at(size_t i);
/* The suite of that name, or NULL. */
const bench_suite *bench_suite_named(const char *name);
/* The suite registration uses (default unless the driver picks another). */
extern const bench_suite *bench_active_suite;

/* The backends every family runs: the supported ones that implement any of `kernels`
 * (col_kernel bits; user backends may fill only some), natives first (the emulated ones only
 * in suites that ask for them). */
size_t bench_backends(col_backend_info *out, size_t max, unsigned kernels);
/* The backends worth timing where a family's inner loop runs some backend kernel (broadphases,
 * simulations): the hand-written natives, scalar, and user backends implementing any of
 * `kernels` (not the emulated or auto-vectorized ones). */
size_t bench_kernel_backends(col_backend_info *out, size_t max, unsigned kernels);
#define BENCH_MAX_BACKENDS (16 + COL_USER_MAX)

/* Registers `fn` once per backend implementing `kernel` as "<family>/<variant>/<backend>/<scene>"
 * over the counts (or the sprite sides); `fn` receives the backend's name (a static string) as
 * `user`. The family is listed as an "objects" (or "pixels") family. */
void bench_register(col_kernel kernel, const char *family, const char *variant, const char *scene,
                    gb_fn fn, bool sprite_sides);

/* What bench_register_case hands its function as `user`. */
typedef struct bench_case {
  const char *backend; /* a static string */
  const void *data;    /* the caller's, as given */
} bench_case;

/* As bench_register, for a function that needs more than the backend: it receives a
 * bench_case (kept for the whole run) with `data`. */
void bench_register_case(col_kernel kernel, const char *family, const char *variant,
                         const char *scene, gb_fn fn, bool sprite_sides, const void *data);

/* The kind of a family's benchmarks (the first part of their names), for the listing and the
 * report: "objects" or "pixels" when bench_register made them (every backend, over object
 * counts or sprite sides), "own" otherwise (its own variants and sizes). */
const char *bench_family_kind(const char *family);

/* Selects the backend of this benchmark or skips it (returns false). */
bool bench_select(gb_state *st, const char *backend);

/* The time stamp counter (rdtsc on x86; nanoseconds elsewhere) and its rate in GHz,
 * calibrated once against CLOCK_MONOTONIC. */
uint64_t bench_tsc(void);
double bench_tsc_ghz(void);

/* A built-in scene at the row's size (its first argument): `s` filled (free it with
 * bench_scene_free) and its boxes returned. */
col_boxes bench_row_scene(gb_state *st, int scene, bench_scene *s);

/* Sets items_per_second, ns_per_item and tsc_cycles_per_item from one timed loop of
 * `items` per iteration that took `tsc_ticks`. */
void bench_finish(gb_state *st, int64_t items, uint64_t tsc_ticks);

#endif
