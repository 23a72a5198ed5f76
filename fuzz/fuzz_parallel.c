/* Differential fuzz target: the parallel sweep and prune against the sequential one. The set is
 * swept by col_broadphase_pairs (sweep and prune) on scalar or a backend picked by the input;
 * then col_broadphase_pairs_parallel must give that exact list, in its order, and the same pair
 * and test counts, through the built-in pool, collide's pools of 1, 2 and 3 threads and a task
 * system of the fuzzer's own that runs the tasks in an order the input picks (and one that
 * fails); col_broadphase_pairs_parallel_any_order the same pair set (parallel/parallel.c).
 * Whether the sequential list itself is right is the broadphase target's question (the same
 * input encoding, fuzz_broadphase.c): this one is about the parallel calls only, so that each
 * target's executions stay cheap.
 * Input: a box set as fz_box_set_decode reads it (fuzz_common.h), always with up to 1,023
 * boxes: the tasks start at 256. */
#include "fuzz_common.h"
#include "parallel/parallel.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "parallel";

/* sap/deal.c's threshold for its prefetching deal (65,536 boxes). */
extern size_t col__deal_far;

enum {
  PAIR_BUDGET = 2048, /* pairs per input at most */
  TEST_BUDGET = 4096  /* box tests of the sequential sweep, at most */
};

static _Noreturn void report(const col_boxes *s, float *const v[6], col_touch touch,
                             const col_pairs *want, const col_pairs *got, const char *who) {
  size_t at = 0;
  while (at < want->count && at < got->count && want->data[at].a == got->data[at].a &&
         want->data[at].b == got->data[at].b)
    at++;
  fprintf(stderr,
          "fuzz parallel: touch rule %s, %uD, %zu boxes\n  %s  <- DIFFERS from the sequential "
          "call: %zu pairs against its %zu, first difference at position %zu",
          touch == COL_TOUCH_OVERLAPS ? "closed (touching boxes overlap)" : "open", s->dims,
          s->count, who, got->count, want->count, at);
  if (at < want->count)
    fprintf(stderr, " (sequential: (%u,%u)", want->data[at].a, want->data[at].b);
  if (at < got->count)
    fprintf(stderr, "%s parallel: (%u,%u)", at < want->count ? "," : " (", got->data[at].a,
            got->data[at].b);
  fputs(at < want->count || at < got->count ? ")\n" : "\n", stderr);
  for (size_t i = 0; i < s->count && i < 64; i++) {
    char name[48];
    snprintf(name, sizeof name, "box %zu min, max", i);
    const float box[6] = {v[0][i], v[1][i], v[2][i], v[3][i], v[4][i], v[5][i]};
    fz_print_floats(name, box, 6);
  }
  if (s->count > 64) fprintf(stderr, "  (%zu more boxes)\n", s->count - 64);
  fz_fail();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_box_set set;
  fz_box_set_decode(data, size, true, &set);
  col_boxes boxes = set.boxes;
  /* The deal prefetches past 65,536 boxes only (col__deal_far): an input of odd length takes
   * that path at any size (the same places; its reads must stay in bounds). */
  col__deal_far = (size & 1) ? 0 : (size_t)1 << 16;
  uint64_t pick =
      size ^ (uint64_t)set.flags << 32 ^ (uint64_t)set.n_low << 40 ^ (uint64_t)set.n_high << 48;
  pick = splitmix64(&pick);
  /* The first native backend after scalar (the fastest: the task machinery is the same on
   * every backend), or in one input of four scalar or another native backend the input picks.
   * Not the emulated ones: their kernels are the broadphase target's, and at a tenth of the
   * speed they held this target's slowest inputs. */
  const char *names[FZ_MAX_BACKENDS], *native[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(
      names, FZ_MAX_BACKENDS, COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB3_QUERY | COL_KERNEL_SAP_RUN);
  size_t nn = 0;
  for (size_t i = 0; i < nb; i++) {
    col_backend_info info;
    for (size_t j = 0; col_backend_at(j, &info); j++)
      if (strcmp(info.name, names[i]) == 0 && !info.emulated) native[nn++] = names[i];
  }
  const char *backend = nn < 2                 ? native[0]
                        : (pick >> 6 & 3) != 0 ? native[1]
                                               : native[(size_t)(set.flags >> 2) % nn];
  fz_select(backend);
  /* The sequential list; a set whose pairs or tests exceed the budgets is cut to its first half
   * until they fit (each parallel form costs a sweep). */
  static col_pairs sequential, got;
  col_broadphase_stats stats = {0, 0, 0, 0};
  for (;;) {
    if (col_broadphase_pairs(COL_BROADPHASE_SAP, &boxes, set.touch, &sequential, &stats) != COL_OK)
      abort();
    if (stats.pairs <= PAIR_BUDGET && stats.tests <= TEST_BUDGET) break;
    boxes.count /= 2;
  }
  const char *bad = fz_parallel_check(&boxes, set.touch, &sequential, &stats, pick >> 8, &got);
  if (bad != NULL) {
    char label[200];
    snprintf(label, sizeof label, "%s/%s", bad, backend);
    report(&boxes, set.v, set.touch, &sequential, &got, label);
  }
  fz_box_set_free(&set);
  return 0;
}
