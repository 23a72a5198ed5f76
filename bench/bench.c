/* What every benchmark family shares (bench.h): the suites, the backends to run, registration
 * per backend, the TSC and the common counters. The families call these; nothing here calls a
 * family. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include "backend_filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define POW4 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576
#define POW2                                                                                       \
  16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288,  \
      1048576, 2097152, 4194304

/* Budgets: quick answers "what does SIMD buy me" and shows one of everything in 2 minutes;
 * default shows every family with its crossovers in 10; full runs every size. Smoke runs each
 * benchmark once at its smallest size (make bench-smoke). */
static const bench_suite suites[] = {
    {.name = "smoke",
     .complete = false,
     .counts = {16, 0},
     .sprite_sides = {16, 0},
     .move_speeds = {16, 0},
     .scene_counts = {16, 0},
     .boxprune = {1000, 0},
     .sim_counts = {16, 0},
     .quadratic_max = 16,
     .peer_max = 1000,
     .reference_sizes = false,
     .emulated = true,
     .min_time = 0.001,
     .budget = 0},
    {.name = "quick",
     .complete = false,
     .counts = {256, 4096, 65536, 0},
     .sprite_sides = {64, 256, 0},
     .move_speeds = {4, 64, 0},
     .scene_counts = {256, 4096, 0},
     .boxprune = {10000, 0},
     .sim_counts = {256, 4096, 0},
     .quadratic_max = 4096,
     .peer_max = 10000,
     .reference_sizes = false,
     .emulated = false,
     .min_time = 0.05,
     .budget = 120},
    {.name = "default",
     .complete = true,
     .counts = {POW4, 0},
     .sprite_sides = {16, 64, 256, 1024, 0},
     .move_speeds = {1, 4, 16, 64, 256, 0},
     .scene_counts = {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 0},
     .boxprune = {10000, 100000, 0},
     .sim_counts = {16, 64, 256, 1024, 4096, 16384, 65536, 0},
     .quadratic_max = 4096,
     .peer_max = 16384,
     .reference_sizes = true,
     .emulated = true,
     .min_time = 0.05,
     .budget = 600},
    {.name = "full",
     .complete = true,
     .counts = {POW2, 0},
     .sprite_sides = {16, 32, 64, 128, 256, 512, 1024, 2048, 0},
     .move_speeds = {1, 2, 4, 8, 16, 32, 64, 128, 256, 0},
     .scene_counts = {POW4, 0},
     .boxprune = {10000, 100000, 0},
     .sim_counts = {16, 64, 256, 1024, 4096, 16384, 65536, 0},
     .quadratic_max = 65536,
     .peer_max = 100000,
     .reference_sizes = true,
     .emulated = true,
     .min_time = 0.5,
     .budget = 0},
};

const bench_suite *bench_active_suite = &suites[2];

const bench_suite *bench_suite_at(size_t i) {
  return i < sizeof suites / sizeof suites[0] ? &suites[i] : NULL;
}

const bench_suite *bench_suite_named(const char *name) {
  for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
    if (strcmp(suites[i].name, name) == 0) return &suites[i];
  return NULL;
}

size_t bench_backends(col_backend_info *out, size_t max, unsigned kernels) {
  unsigned kinds = HARNESS_ALL_KINDS;
  if (!bench_active_suite->emulated) kinds &= ~HARNESS_KIND(COL_BACKEND_EMULATED);
  return harness_backends(out, max, kernels, kinds);
}

size_t bench_kernel_backends(col_backend_info *out, size_t max, unsigned kernels) {
  return harness_backends(out, max, kernels,
                          HARNESS_KIND(COL_BACKEND_NATIVE) | HARNESS_KIND(COL_BACKEND_REFERENCE) |
                              HARNESS_KIND(COL_BACKEND_USER));
}

/* The families bench_register made, with their kind (a handful: a fixed table). */
enum { MAX_FAMILIES = 32 };
static struct {
  const char *name;
  const char *kind;
} families[MAX_FAMILIES];

static void note_family(const char *family, bool pixels) {
  size_t i = 0;
  while (i < MAX_FAMILIES && families[i].name != NULL && strcmp(families[i].name, family) != 0) i++;
  if (i == MAX_FAMILIES) {
    fprintf(stderr, "collide-bench: more than %d families: raise MAX_FAMILIES\n", MAX_FAMILIES);
    exit(2);
  }
  if (families[i].name == NULL)
    families[i].name = family, families[i].kind = pixels ? "pixels" : "objects";
}

const char *bench_family_kind(const char *family) {
  for (size_t i = 0; i < MAX_FAMILIES && families[i].name != NULL; i++)
    if (strcmp(families[i].name, family) == 0) return families[i].kind;
  return "own";
}

/* One registration per backend; `user` of backend k is users[k] (a bench_case) or, without
 * cases, the backend's name. */
static void register_each(col_kernel kernel, const char *family, const char *variant,
                          const char *scene, gb_fn fn, bool sprite_sides, const void *data,
                          bool with_case) {
  /* Static storage: the registration keeps a pointer for the whole run. */
  static bench_case cases[16 * BENCH_MAX_BACKENDS];
  static size_t used;
  col_backend_info backends[BENCH_MAX_BACKENDS];
  const size_t nb = bench_backends(backends, BENCH_MAX_BACKENDS, kernel);
  const int64_t *args =
      sprite_sides ? bench_active_suite->sprite_sides : bench_active_suite->counts;
  note_family(family, sprite_sides);
  for (size_t k = 0; k < nb; k++) {
    void *user = (void *)backends[k].name;
    if (with_case) {
      if (used == sizeof cases / sizeof cases[0]) {
        fprintf(stderr, "collide-bench: too many cases for %s/%s\n", family, variant);
        exit(2);
      }
      cases[used] = (bench_case){backends[k].name, data};
      user = &cases[used++];
    }
    char name[160];
    snprintf(name, sizeof name, "%s/%s/%s/%s", family, variant, backends[k].name, scene);
    gb_benchmark *b = gb_register(name, fn, user);
    for (const int64_t *a = args; *a != 0; a++) gb_arg(b, *a);
    gb_unit(b, GB_US);
  }
}

void bench_register(col_kernel kernel, const char *family, const char *variant, const char *scene,
                    gb_fn fn, bool sprite_sides) {
  register_each(kernel, family, variant, scene, fn, sprite_sides, NULL, false);
}

void bench_register_case(col_kernel kernel, const char *family, const char *variant,
                         const char *scene, gb_fn fn, bool sprite_sides, const void *data) {
  register_each(kernel, family, variant, scene, fn, sprite_sides, data, true);
}

bool bench_select(gb_state *st, const char *backend) {
  if (col_backend_select(backend) == COL_OK) return true;
  gb_skip(st, "backend not supported here");
  return false;
}

uint64_t bench_tsc(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tsc_ghz;

double bench_tsc_ghz(void) {
  if (tsc_ghz == 0.0) {
    /* 100 ms of spinning against the monotonic clock: ticks per nanosecond. */
    const double t0 = now_seconds();
    const uint64_t c0 = bench_tsc();
    double t1;
    while ((t1 = now_seconds()) - t0 < 0.1) {
    }
    tsc_ghz = (double)(bench_tsc() - c0) / ((t1 - t0) * 1e9);
  }
  return tsc_ghz;
}

col_boxes bench_row_scene(gb_state *st, int scene, bench_scene *s) {
  bench_scene_fill(s, scene, (size_t)gb_arg_of(st, 0));
  return bench_scene_boxes(s);
}

void bench_finish(gb_state *st, int64_t items, uint64_t tsc_ticks) {
  const int64_t iterations = gb_iteration_count(st);
  gb_set_items(st, iterations * items);
  /* Both from the TSC over the timed loop (the same interval Google Benchmark times). */
  const double cycles = (double)tsc_ticks / ((double)iterations * (double)items);
  gb_counter(st, "tsc_cycles_per_item", cycles, GB_PLAIN);
  gb_counter(st, "ns_per_item", cycles / bench_tsc_ghz(), GB_PLAIN);
  gb_set_complexity_n(st, items);
}
