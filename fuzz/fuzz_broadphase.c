/* Differential fuzz target: every registered broadphase against an independent oracle (sort on
 * min x, the single-pair rule; brute force, which runs up to BRUTE_MAX boxes below, checks it
 * in turn), as sorted pair lists: each algorithm once, those that run the backend's kernels on
 * a backend picked by the input (and on scalar in one input of four); the bipartite sweep and
 * prune across a cut of the set; then the incremental cache over three frames (and a scene made
 * to starve the tree cache's rebuild and deep queries: broadphase/starved.c). The parallel
 * calls have a target of their own (fuzz_parallel.c) on the same input encoding.
 * Input: a box set as fz_box_set_decode reads it (fuzz_common.h). */
#include "broadphase/cache.h"
#include "broadphase/oracle.h"
#include "broadphase/report.h"
#include "broadphase/starved.h"
#include "broadphase/static.h"
#include "broadphase/stats.h"
#include "broadphase/stream.h"
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "broadphase";

/* sap/deal.c's threshold for its prefetching deal (65,536 boxes). */
extern size_t col__deal_far;
extern size_t col__qt_leaf_size, col__qt_direct_tests;

enum {
  BRUTE_MAX = 256,    /* brute force runs up to this many boxes */
  PAIR_BUDGET = 2048, /* pairs per input at most (see below) */
  TEST_BUDGET = 16384 /* pairs whose x ranges overlap (a sweep's tests), at most */
};

static bool emulated(const char *name) {
  col_backend_info info;
  for (size_t i = 0; col_backend_at(i, &info); i++)
    if (strcmp(info.name, name) == 0) return info.emulated;
  return false;
}

/* Whether an algorithm runs on this set: it takes the set's dims; brute force only up to
 * BRUTE_MAX boxes; large sets are there for sweep and prune's cells (from 256 boxes): the
 * algorithms that do not run the backend's kernels have no size threshold and are left to
 * small sets (a tree over a few huge boxes among a thousand costs a quadratic number of visits). */
static bool runs_on(const col_broadphase_info *info, unsigned dims, size_t count) {
  return (dims == 2 ? info->two_d : info->three_d) &&
         !(info->algorithm == COL_BROADPHASE_BRUTE && count > BRUTE_MAX) &&
         !(count > FZ_SMALL_SET && !info->uses_backend);
}

FZ_ORACLE static int by_pair(const void *p, const void *q) {
  const col_pair *a = p, *b = q;
  if (a->a != b->a) return a->a < b->a ? -1 : 1;
  return a->b < b->b ? -1 : a->b > b->b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_box_set set;
  fz_box_set_decode(data, size, false, &set);
  col_boxes boxes = set.boxes;
  float *const *v = set.v;
  const unsigned dims = boxes.dims;
  const uint8_t flags = set.flags, n_low = set.n_low, n_high = set.n_high;
  /* The deal prefetches past 65,536 boxes only (col__deal_far): an input of odd length takes
   * that path at any size (the same places; its reads must stay in bounds). */
  col__deal_far = (size & 1) ? 0 : (size_t)1 << 16;
  /* The quadtree splits nodes of over 64 boxes and sweeps a node of over 16,384 tests
   * (col__qt_leaf_size, col__qt_direct_tests): an input whose length has bit 1 set takes leaves
   * of 4 and sweeps from 8 tests, so a few dozen boxes reach deep trees and the swept nodes. */
  const bool small_tree = (size & 2) != 0;
  col__qt_leaf_size = small_tree ? 4 : 64, col__qt_direct_tests = small_tree ? 8 : 16384;

  /* The expected pairs from the oracle (brute force among the algorithms below agrees with it
   * or the input is reported, so the oracle is checked on every set up to BRUTE_MAX). A crowded set
   * (every box over every other) costs each algorithm its pairs, and a set whose x ranges overlap
   * each other a sweep's tests (boxes long on x, apart on y): the set is cut to its first half
   * until the pairs fit PAIR_BUDGET and the x-overlapping pairs TEST_BUDGET, so every input
   * stays cheap (crowding itself is covered by the sets that fit). */
  const col_touch touch = set.touch;
  col_pairs want = {0};
  /* Every run below writes into one list kept between inputs, as a game loop keeps its list:
   * its working memory is reused (fresh allocations for each run were a quarter of the time
   * under the sanitizers: page faults and fill patterns), and reuse gets fuzzed too. */
  static col_pairs got;
  size_t tested = fb_oracle(&boxes, touch, &want);
  while (want.count > PAIR_BUDGET || tested > TEST_BUDGET) {
    boxes.count /= 2;
    tested = fb_oracle(&boxes, touch, &want);
  }
  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(
      names, FZ_MAX_BACKENDS, COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB3_QUERY | COL_KERNEL_SAP_RUN);
  /* A hash of the input's length and first bytes picks which of the costlier checks below run
   * on this input (the fuzzer can steer it). */
  uint64_t pick = size ^ (uint64_t)flags << 32 ^ (uint64_t)n_low << 40 ^ (uint64_t)n_high << 48;
  pick = splitmix64(&pick);
  /* One algorithm per input, picked by the hash among those that run on the set, every one
   * in one input of eight: those that run the backend's kernels on one backend picked by the
   * input (the corpus covers them all), and on scalar too in one input of four; the others on
   * scalar. (Each run costs the target speed twice: its own time, and libFuzzer's for the
   * coverage it touches: every algorithm on every input held the target near 300 executions
   * a second.) Brute force only up to BRUTE_MAX boxes. */
  const char *run_on[2] = {"scalar", names[nb > 1 ? 1 + (size_t)(flags >> 2) % (nb - 1) : 0]};
  const int scalar_too = (pick >> 58 & 3) == 0;
  const bool every_algorithm = (pick >> 61) == 0;
  size_t runnable = 0;
  for (size_t a = 0; a < col_broadphase_count(); a++) {
    col_broadphase_info info;
    if (!col_broadphase_at(a, &info)) abort();
    runnable += runs_on(&info, dims, boxes.count);
  }
  const size_t chosen = runnable ? (size_t)(pick >> 32 & 0xFFFF) % runnable : 0;
  uint8_t *marks = (pick >> 43 & 3) == 0 ? fb_marks(boxes.count, pick) : NULL;
  for (size_t a = 0, r = 0; a < col_broadphase_count(); a++) {
    col_broadphase_info info;
    if (!col_broadphase_at(a, &info)) abort();
    if (!runs_on(&info, dims, boxes.count)) continue;
    if (!every_algorithm && r++ != chosen) continue;
    const bool on_backend = info.uses_backend && nb > 1;
    for (int k = on_backend && !scalar_too; k < (on_backend ? 2 : 1); k++) {
      fz_select(run_on[k]);
      /* The statistics where they are defined (one input in eight passes NULL, also allowed):
       * the pairs found, and the path sweep and prune took. */
      col_broadphase_stats stats = {0, 0, 0, 0};
      const bool counted = (pick >> 54 & 7) != 0;
      if (col_broadphase_pairs(info.algorithm, &boxes, touch, &got, counted ? &stats : NULL) !=
          COL_OK)
        abort();
      /* The streamed call (one input in four): the same list, batch by batch. */
      if ((pick >> 50 & 3) == 0)
        fb_stream_check(&info, &boxes, touch, &got, 64 + (size_t)(pick >> 40 & 127), run_on[k]);
      /* The static rule (one input in four): the same list less the static pairs. */
      if (marks != NULL)
        fb_static_check(&info, &boxes, touch, &got, marks, (pick >> 42 & 3) == 0, run_on[k]);
      col_pairs_sort(&got);
      if (!fb_same(&got, &want)) {
        char label[64];
        snprintf(label, sizeof label, "%s/%s", info.name, run_on[k]);
        fb_report(&boxes, v, touch, &want, &got, label);
      }
      const char *path = counted ? fb_stats_wrong(&info, &boxes, &stats, want.count) : NULL;
      if (path != NULL) {
        fprintf(stderr,
                "fuzz broadphase: %s on %s, %uD, %zu boxes: %s (stats: %llu tests, %llu pairs, "
                "%llu cells)\n",
                info.name, run_on[k], dims, boxes.count, path, (unsigned long long)stats.tests,
                (unsigned long long)stats.pairs, (unsigned long long)stats.cells);
        fz_fail();
      }
    }
  }

  /* Bipartite sweep and prune (on one input in two, by the hash): the first h boxes (h picked
   * by the input's length) against the others, on scalar or the input's backend (by the length
   * too): exactly the oracle's pairs across the cut, (a, b - h). */
  const size_t h = (size >> 3) % (boxes.count + 1);
  col_pair *cross = fz_alloc((want.count ? want.count : 1) * sizeof *cross);
  size_t crossing = 0;
  for (size_t k = 0; k < want.count; k++)
    if (want.data[k].a < h && want.data[k].b >= h)
      cross[crossing++] = (col_pair){want.data[k].a, want.data[k].b - (uint32_t)h};
  qsort(cross, crossing, sizeof *cross, by_pair);
  col_boxes first = boxes, second = boxes;
  first.count = h, second.count = boxes.count - h;
  for (unsigned k = 0; k < dims; k++) second.min[k] += h, second.max[k] += h;
  for (int k = (int)(size >> 5 & 1) && nb > 1; k < (nb > 1 ? 2 : 1) && (pick >> 53 & 1); k += 2) {
    fz_select(run_on[k]);
    if (col_broadphase_bipartite(&first, &second, touch, &got, NULL) != COL_OK) abort();
    col_pairs_sort(&got);
    if (got.count != crossing ||
        (crossing > 0 && memcmp(got.data, cross, crossing * sizeof *cross) != 0)) {
      const col_pairs expected = {cross, crossing, crossing, NULL};
      char label[64];
      snprintf(label, sizeof label, "bipartite at %zu/%s", h, run_on[k]);
      fb_report(&boxes, v, touch, &expected, &got, label);
    }
  }
  /* The bipartite run with an allocation failing (the inputs of the starved runs below):
   * COL_ERR_MEMORY with the list empty, or, when the allocation was not needed, the exact pairs. */
  if ((pick & 3) == 0) {
    const unsigned fail_at = (unsigned)(pick >> 8 & 7);
    col_pairs fresh = {0};
    fz_select("scalar");
    fz_fail_allocation((long)fail_at);
    const col_status st = col_broadphase_bipartite(&first, &second, touch, &fresh, NULL);
    const bool failed = fz_allocation_failed();
    col_pairs_sort(&fresh);
    if (st == COL_ERR_MEMORY
            ? !failed || fresh.count != 0
            : st != COL_OK || fresh.count != crossing ||
                  (crossing > 0 && memcmp(fresh.data, cross, crossing * sizeof *cross) != 0)) {
      const col_pairs expected = {cross, crossing, crossing, NULL};
      char label[96];
      snprintf(label, sizeof label, "bipartite at %zu, allocation %u failing: status %d", h,
               fail_at, (int)st);
      fb_report(&boxes, v, touch, &expected, &fresh, label);
    }
    col_pairs_free(&fresh);
  }
  free(cross);

  /* Allocation failures, in one input of four (picked by a hash of the input's length and first
   * three bytes, so that the fuzzer can steer it): the k-th allocation of one algorithm's run into
   * a new list fails (k from the hash; the library allocates its working memory, the list grows):
   * the run must return COL_ERR_MEMORY with the list empty, or, when that allocation was not needed
   * after all, the exact pairs. Whatever is not freed again is a leak LeakSanitizer reports. The
   * cache below gets the same. */
  const bool starve = (pick & 3) == 0;
  if (starve) {
    col_broadphase_info info;
    if (!col_broadphase_at((size_t)(pick >> 2) % col_broadphase_count(), &info)) abort();
    if (runs_on(&info, dims, boxes.count)) {
      const unsigned fail_at = (unsigned)(pick >> 8 & 7);
      col_pairs fresh = {0};
      fz_select("scalar");
      fz_fail_allocation((long)fail_at);
      const col_status st = col_broadphase_pairs(info.algorithm, &boxes, touch, &fresh, NULL);
      const bool failed = fz_allocation_failed();
      col_pairs_sort(&fresh);
      if (st == COL_ERR_MEMORY ? !failed || fresh.count != 0
                               : st != COL_OK || !fb_same(&fresh, &want)) {
        char label[96];
        snprintf(label, sizeof label, "%s, allocation %u failing: status %d", info.name, fail_at,
                 (int)st);
        fb_report(&boxes, v, touch, &want, &fresh, label);
      }
      col_pairs_free(&fresh);
    }
  }

  /* One input in 4,096: a fixed scene of about 200 boxes whose tree is checked after every
   * reinsertion (COL_VALIDATE) some 25 times over; one in 64 was a fifth of the target's time.
   * (The cache target starves the tree's deep query on its chains in every such input.) */
  if (starve && (pick >> 20 & 1023) == 0) fb_cache_deep(pick >> 30);
  /* The cache on one input in four (the cache target covers it over many frames). */
  if ((pick >> 51 & 3) != 0) {
    free(marks);
    col_pairs_free(&want);
    fz_box_set_free(&set);
    return 0;
  }
  fb_cache_frames(&boxes, v, touch, &want, &got, size, pick, starve,
                  run_on[(size >> 2) & 1 && !emulated(run_on[1])]);
  free(marks);
  col_pairs_free(&want);
  fz_box_set_free(&set);
  return 0;
}
