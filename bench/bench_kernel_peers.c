/* Kernel peers' rows (bench/kernel-peers/, docs/coming-from.md): every kernel of the list built
 * in, beside collide's batch call and its single-pair call, on the same items.
 *
 * kpeer/<family>/<backend>/<kernel>/N: one benchmark times the three in interleaved rounds in
 * this process (the order rotated every round; each side's fastest round kept), so their ratios
 * come from blocks milliseconds apart. <backend> is the fastest native backend implementing the
 * family's kernel, the one collide picks by default. Counters: ours_cycles_per_item (the batch
 * call), single_cycles_per_item, peer_cycles_per_item (TSC cycles), ratio_batch and
 * ratio_single (the peer's cycles over ours), rounds.
 *
 * kpeer-answers/<family>/<set>/<kernel>/N: the kernel's answers to the first N inputs of a
 * shared set, classified by its declared rules and the exact judges (kp_tally.h); counters
 * differ, rule_<key> per declared key, ours_wrong_diff, accuracy, unexplained, judged,
 * peer_wrong, peer_false_hits, peer_misses, ours_wrong, ours_false_hits, ours_misses,
 * alt_wrong. An unexplained difference is printed on stderr with its input. */
#include "bench.h"
#include "kernel-peers/kp_ours.h"
#include "kernel-peers/kp_tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned family_kernel[KP_FAMILIES] = {
    COL_KERNEL_AABB2_QUERY,    COL_KERNEL_AABB3_QUERY, COL_KERNEL_AABB2_MTD,
    COL_KERNEL_SWEEP_AABB2,    COL_KERNEL_SWEEP_AABB3, COL_KERNEL_SEGMENT_ROBUST,
    COL_KERNEL_SEGMENT_ROBUST, COL_KERNEL_CIRCLE};

/* The fastest native backend of a family's kernel (the first listed: newest first), else
 * scalar. */
static const char *best_backend(kp_family f) {
  col_backend_info b[BENCH_MAX_BACKENDS];
  const size_t n = bench_kernel_backends(b, BENCH_MAX_BACKENDS, family_kernel[f]);
  for (size_t i = 0; i < n; i++)
    if (b[i].kind == COL_BACKEND_NATIVE) return b[i].name;
  return "scalar";
}

static void *room(size_t bytes) {
  void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (p == NULL) {
    fprintf(stderr, "collide-bench: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

typedef struct row {
  const kp_kernel *kernel;
  const char *backend;
  kp_set set; /* answer rows */
} row;

enum { MAX_ROWS = 64 * 3 };
static row rows[MAX_ROWS];
static size_t nrows;

static double sink;

/* Seconds of rounds per row, and the bounds on their count. */
#define ROW_SECONDS 0.02
enum { MIN_ROUNDS = 5, MAX_ROUNDS = 400 };

static void run_timing(gb_state *st, void *user) {
  const row *r = user;
  const kp_kernel *k = r->kernel;
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, r->backend)) return;
  if (k->impl->max_count && n > k->impl->max_count) {
    gb_skip(st, "past the kernel's largest size (its items are library objects)");
    return;
  }
  kp_item *items = kp_timing_items(k->family, n);
  void *native = room(KP_QUERY_ROOM + n * k->impl->native_size);
  k->impl->prepare(items, n, native);
  kp_ours_batch *ours = kp_ours_prepare(k->family, items, n);
  /* Each timed block runs at least about 16,384 items, so that the TSC's reads cost little. */
  const size_t reps = n >= 16384 ? 1 : 16384 / n;
  uint64_t best[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  const double ghz = bench_tsc_ghz();
  int rounds = 0;
  const uint64_t start = bench_tsc();
  while (gb_keep_running(st)) {
    while (rounds < MAX_ROUNDS &&
           (rounds < MIN_ROUNDS || (double)(bench_tsc() - start) < ROW_SECONDS * ghz * 1e9)) {
      for (int s = 0; s < 3; s++) {
        const int side = (s + rounds) % 3;
        const uint64_t t0 = bench_tsc();
        for (size_t i = 0; i < reps; i++)
          sink += side == 0   ? kp_ours_batch_run(ours)
                  : side == 1 ? kp_ours_single_run(ours)
                              : k->impl->loop(native, n);
        const uint64_t t = bench_tsc() - t0;
        best[side] = t < best[side] ? t : best[side];
      }
      rounds++;
    }
  }
  const double items_timed = (double)n * (double)reps;
  const double ours_c = (double)best[0] / items_timed, single_c = (double)best[1] / items_timed,
               peer_c = (double)best[2] / items_timed;
  gb_counter(st, "ours_cycles_per_item", ours_c, GB_PLAIN);
  gb_counter(st, "single_cycles_per_item", single_c, GB_PLAIN);
  gb_counter(st, "peer_cycles_per_item", peer_c, GB_PLAIN);
  gb_counter(st, "tsc_cycles_per_item", ours_c, GB_PLAIN);
  gb_counter(st, "ratio_batch", peer_c / ours_c, GB_PLAIN);
  gb_counter(st, "ratio_single", peer_c / single_c, GB_PLAIN);
  gb_counter(st, "rounds", rounds, GB_PLAIN);
  gb_label(st, k->impl->version);
  kp_ours_free(ours);
  if (k->impl->release) k->impl->release(native, n);
  free(native);
  free(items);
}

static void run_answers(gb_state *st, void *user) {
  const row *r = user;
  const kp_kernel *k = r->kernel;
  const uint32_t n = (uint32_t)gb_arg_of(st, 0);
  kp_rules rules;
  const char *why = kp_rules_parse(k->rules, &rules);
  if (why) {
    gb_skip(st, why);
    return;
  }
  kp_tally t = {0};
  t.first_unexplained = UINT32_MAX;
  int shown = 0;
  while (gb_keep_running(st)) {
    for (uint32_t i = 0; i < n; i++) {
      const kp_item it = kp_input(k->family, r->set, i);
      const kp_class c = kp_classify(k->family, &rules, &it, kp_peer_answer(k->impl, &it));
      kp_tally_add(&t, &c, i);
      if (c.verdict == KP_UNEXPLAINED && shown++ < 3) {
        fprintf(stderr, "collide-bench: unexplained difference, set %s input %u:\n",
                kp_set_name(r->set), i);
        kp_print_class(stderr, k, &it, &c);
      }
    }
  }
  gb_counter(st, "inputs", t.inputs, GB_PLAIN);
  gb_counter(st, "differ", t.differ, GB_PLAIN);
  for (int key = 0; key < KP_RULE_KEYS; key++) {
    if (!rules.set[key]) continue;
    char name[32];
    snprintf(name, sizeof name, "rule_%s", kp_rule_name((kp_rule_key)key));
    gb_counter(st, name, t.by_rule[key], GB_PLAIN);
  }
  const struct {
    const char *name;
    uint32_t v;
  } counters[] = {{"ours_wrong_diff", t.ours_wrong_diff},
                  {"accuracy", t.accuracy},
                  {"unexplained", t.unexplained},
                  {"judged", t.judged},
                  {"peer_wrong", t.peer_wrong},
                  {"peer_false_hits", t.peer_false_hits},
                  {"peer_misses", t.peer_misses},
                  {"ours_wrong", t.ours_wrong},
                  {"ours_false_hits", t.ours_false_hits},
                  {"ours_misses", t.ours_misses},
                  {"alt_wrong", t.alt_wrong}};
  for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
    gb_counter(st, counters[i].name, counters[i].v, GB_PLAIN);
  gb_label(st, k->rules);
}

/* Inputs per answer row: the whole set in the default and full suites. */
static int64_t answer_inputs(kp_set s) {
  const char *suite = bench_active_suite->name;
  const int64_t all = kp_set_size(s);
  if (strcmp(suite, "smoke") == 0) return 16;
  if (strcmp(suite, "quick") == 0) return all < 1024 ? all : 1024;
  return all;
}

void bench_register_kernel_peers(void);
void bench_register_kernel_peers(void) {
  const kp_kernel *ks;
  const size_t nk = kp_kernels(&ks);
  static char context[4096];
  size_t used = 0;
  for (size_t i = 0; i < nk; i++) {
    if (used < sizeof context)
      used += (size_t)snprintf(
          context + used, sizeof context - used, "%s%s=%s %s|%s", used ? ";" : "", ks[i].name,
          ks[i].impl ? ks[i].impl->version : "absent", ks[i].function, ks[i].rules);
    if (ks[i].impl == NULL) continue;
    if (nrows + 1 + KP_SETS > MAX_ROWS) {
      fprintf(stderr, "collide-bench: more kernel peers than MAX_ROWS\n");
      exit(2);
    }
    const kp_family f = ks[i].family;
    row *t = &rows[nrows++];
    *t = (row){&ks[i], best_backend(f), KP_RANDOM};
    char name[160];
    snprintf(name, sizeof name, "kpeer/%s/%s/%s", kp_family_name(f), t->backend, ks[i].name);
    gb_benchmark *b = gb_register(name, run_timing, t);
    const size_t max = ks[i].impl->max_count;
    for (const int64_t *a = bench_active_suite->counts; *a != 0; a++)
      if (max == 0 || (size_t)*a <= max) gb_arg(b, *a);
    gb_iterations(b, 1);
    gb_unit(b, GB_US);
    for (int s = 0; s < KP_SETS; s++) {
      row *a = &rows[nrows++];
      *a = (row){&ks[i], t->backend, (kp_set)s};
      snprintf(name, sizeof name, "kpeer-answers/%s/%s/%s", kp_family_name(f),
               kp_set_name((kp_set)s), ks[i].name);
      gb_benchmark *ab = gb_register(name, run_answers, a);
      gb_arg(ab, answer_inputs((kp_set)s));
      gb_iterations(ab, 1);
      gb_unit(ab, GB_MS);
    }
  }
  gb_add_context("collide_kernel_peers", context);
  const char *absent = kp_absent();
  if (*absent) fprintf(stderr, "%s", absent);
}
