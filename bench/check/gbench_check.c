/* Exercises every call of the gbench.h shim once, so that scripts/check/check-gbench.py can verify
 * in the JSON what each one did (argument lists, products, complexity, counters, pause and
 * resume, items and bytes). Run by `make test`; not a benchmark of anything. */
#include "gbench.h"

#include <stdio.h>
#include <string.h>

static void spin(int64_t n) {
  volatile uint64_t sink = 0;
  for (int64_t i = 0; i < n; i++) sink += (uint64_t)i;
  gb_do_not_optimize((const void *)&sink);
}

static void linear(gb_state *st, void *user) {
  (void)user;
  const int64_t n = gb_arg_of(st, 0);
  while (gb_keep_running(st)) {
    spin(n);
    gb_clobber_memory();
  }
  gb_set_items(st, gb_iteration_count(st) * n);
  gb_set_bytes(st, gb_iteration_count(st) * n * 8);
  gb_set_complexity_n(st, n);
  gb_counter(st, "per_iteration", 3.0, GB_AVG_ITERATIONS | GB_ITERATION_INVARIANT);
  gb_counter(st, "rate", (double)n, GB_RATE | GB_ITERATION_INVARIANT);
  gb_counter(st, "plain", 42.0, GB_PLAIN);
  gb_counter(st, "inverted", 4.0, GB_INVERT);
}

static void paused(gb_state *st, void *user) {
  (void)user;
  while (gb_keep_running(st)) {
    gb_pause(st);
    spin(1000);
    gb_resume(st);
  }
  gb_label(st, "paused-label");
}

static void product(gb_state *st, void *user) {
  const int *tag = user;
  while (gb_keep_running(st)) spin(gb_arg_of(st, 0) + gb_arg_of(st, 1));
  if (*tag != 7) gb_skip(st, "user pointer lost");
}

static void skipped(gb_state *st, void *user) {
  (void)user;
  gb_skip(st, "skipped on purpose");
  while (gb_keep_running(st)) {
  }
}

int main(int argc, char **argv) {
  static const int tag = 7;
  gb_benchmark *b = gb_register("check/linear", linear, NULL);
  gb_range_multiplier(b, 4);
  gb_range(b, 64, 1024); /* 64, 256, 1024 */
  gb_complexity(b, GB_O_N);
  gb_unit(b, GB_US);
  b = gb_register("check/dense", linear, NULL);
  gb_dense_range(b, 10, 30, 10); /* 10, 20, 30 */
  gb_arg(b, 99);
  b = gb_register("check/paused", paused, NULL);
  gb_iterations(b, 5);
  b = gb_register("check/product", product, (void *)&tag);
  static const int64_t xs[] = {1, 2}, ys[] = {5, 6, 7};
  const int64_t *lists[] = {xs, ys};
  const size_t lengths[] = {2, 3};
  gb_args_product(b, lists, lengths, 2);
  b = gb_register("check/min_time", linear, NULL);
  gb_arg(b, 8);
  gb_min_time(b, 0.01);
  gb_register("check/skipped", skipped, NULL);
  gb_add_context("check_context", "present");
  char registered[256] = "";
  for (size_t i = 0; gb_registered_name(i) != NULL; i++)
    snprintf(registered + strlen(registered), sizeof registered - strlen(registered), "%s%s",
             i > 0 ? "," : "", gb_registered_name(i));
  gb_add_context("check_registered", registered);
  return gb_main(&argc, argv);
}
