/* gbench.h — a small C API over Google Benchmark (Debian's libbenchmark-dev), so that every
 * benchmark of collide is written in C. gbench.cc is the only C++ in it.
 *
 * Registering (before gb_main):
 *   gb_benchmark *b = gb_register("family/variant/backend/scene", run, user);
 *   gb_registered_name(0);                                  // what was registered, in order
 *   gb_range_multiplier(b, 4); gb_range(b, 16, 1 << 20);    // 16, 64, ..., 1M
 *   gb_dense_range(b, 0, 8, 2); gb_arg(b, 100);             // explicit arguments
 *   gb_args_product(b, lists, lengths, 2);                  // cartesian products
 *   gb_complexity(b, GB_O_N); gb_unit(b, GB_NS); gb_min_time(b, 0.1);
 * Running (inside `run`):
 *   while (gb_keep_running(st)) { ...; gb_do_not_optimize(&result); }
 *   gb_pause(st) / gb_resume(st) around untimed work; gb_arg_of(st, 0) for the argument;
 *   gb_set_items(st, n), gb_set_bytes(st, n), gb_counter(st, "name", v, GB_RATE | ...),
 *   gb_set_complexity_n(st, n), gb_skip(st, "why"), gb_label(st, "text").
 * Main: gb_add_context("key", "value") for the JSON context, gb_set_budget(seconds, "suite"),
 * then gb_main(&argc, argv), which
 * takes the standard --benchmark_* options (filter, repetitions, out, out_format, ...). */
#ifndef COLLIDE_GBENCH_H
#define COLLIDE_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_state gb_state;         /* a running benchmark::State */
typedef struct gb_benchmark gb_benchmark; /* a registered benchmark::internal::Benchmark */
typedef void (*gb_fn)(gb_state *state, void *user);

typedef enum gb_big_o {
  GB_O_NONE,
  GB_O_1,
  GB_O_N,
  GB_O_N_LOG_N,
  GB_O_N_SQUARED,
  GB_O_AUTO
} gb_big_o;

typedef enum gb_time_unit { GB_NS, GB_US, GB_MS, GB_S } gb_time_unit;

/* Counter flags, as benchmark::Counter's: a rate divides by the time, an iteration-invariant
 * value is multiplied by the iterations, INVERT reports 1/value (e.g. seconds per item). */
enum {
  GB_PLAIN = 0,
  GB_RATE = 1 << 0,
  GB_ITERATION_INVARIANT = 1 << 2,
  GB_AVG_ITERATIONS = 1 << 3,
  GB_INVERT = 1 << 4,
};

gb_benchmark *gb_register(const char *name, gb_fn fn, void *user);
/* The name of the i-th registration (in order), or NULL past the last. */
const char *gb_registered_name(size_t i);
void gb_arg(gb_benchmark *b, int64_t value);
void gb_range(gb_benchmark *b, int64_t lo, int64_t hi);
void gb_range_multiplier(gb_benchmark *b, int multiplier);
void gb_dense_range(gb_benchmark *b, int64_t lo, int64_t hi, int step);
void gb_args_product(gb_benchmark *b, const int64_t *const *lists, const size_t *lengths,
                     size_t count);
void gb_complexity(gb_benchmark *b, gb_big_o complexity);
void gb_unit(gb_benchmark *b, gb_time_unit unit);
void gb_min_time(gb_benchmark *b, double seconds);
void gb_iterations(gb_benchmark *b, int64_t iterations);

bool gb_keep_running(gb_state *s);
int64_t gb_arg_of(gb_state *s, size_t index);
int64_t gb_iteration_count(gb_state *s);
void gb_pause(gb_state *s);
void gb_resume(gb_state *s);
void gb_set_items(gb_state *s, int64_t items);
void gb_set_bytes(gb_state *s, int64_t bytes);
void gb_counter(gb_state *s, const char *name, double value, int flags);
void gb_set_complexity_n(gb_state *s, int64_t n);
void gb_skip(gb_state *s, const char *message);
void gb_label(gb_state *s, const char *label);

void gb_add_context(const char *key, const char *value);
/* The run's time budget in seconds (0: none) and what it is for, printed with the run's total
 * time at the end (and "OVER BUDGET" when it was exceeded). */
void gb_set_budget(double seconds, const char *label);
/* Initializes from the command line, rejects unknown options and formats (returns 2), runs
 * the benchmarks the filter selects, shuts down; returns 0, or 1 (and says so) if the filter
 * matches none. Each benchmark gets one progress line: "[k/N] name ..." when it starts (N: the
 * number of names in the file COLLIDE_BENCH_PLAN, one a line, or COLLIDE_BENCH_TOTAL), then its
 * time, items per second, its wall time, the run's elapsed time and an ETA (the planned
 * benchmarks left, each at the mean wall time of its family/variant so far). The lines go to
 * stdout in the console format, to stderr with --benchmark_format=json or csv (stdout then
 * carries only that format); --benchmark_out and --benchmark_out_format work as upstream.
 * Every run that was not skipped gets two counters of where its wall time went (a
 * repetition's own, with --benchmark_repetitions): wall_seconds, from its first call of the
 * function to the end of the reported one, and search_seconds, the part the calls before the
 * reported one took (Google Benchmark's search for an iteration count; their results are
 * dropped). The rest, beyond iterations * real_time, is the reported call's untimed work. */
int gb_main(int *argc, char **argv);

/* Keep a value (and what it points to) alive and observed; a compiler barrier for memory. */
static inline void gb_do_not_optimize(const void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }
static inline void gb_clobber_memory(void) { __asm__ volatile("" : : : "memory"); }

#ifdef __cplusplus
}
#endif

#endif
