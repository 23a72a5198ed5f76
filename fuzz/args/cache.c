/* Argument fuzzing of the per-frame cache's settings, the pair list and the streamed pair
 * search (see fuzz_args.c; the pair search itself and the bipartite sweep: broadphase.c). */
#include "args.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool no_run(void *user, col_task_fn *fn, void *context, uint32_t count) {
  (void)user, (void)fn, (void)context, (void)count;
  return false;
}

/* The cache's settings and the pair list (operation bytes 0xEC-0xEF): a choice byte, an
 * algorithm pick, the starve byte, then up to 8 pairs. broadphase.h and parallel.h:
 * col_broadphase_cache_create: COL_ERR_NULL, COL_ERR_MEMORY (*cache set on success only);
 * set_algorithm: COL_ERR_NULL, COL_ERR_ARGUMENT for anything but the tree, the kept grid and
 * sweep and prune;
 * set_parallel: COL_ERR_NULL (the cache, or a task system whose run is NULL), NULL going back
 * to one thread; destroying NULL does nothing. col_pairs_init zeroes a list (NULL: nothing),
 * col_pairs_sort orders it by (a, b), col_pairs_free releases it (twice: nothing); the static
 * marks' and contact events' settings (below). */
void fa_cache_settings(fz_reader *r) {
  static const int algorithms[8] = {COL_BROADPHASE_TREE,
                                    COL_BROADPHASE_SAP,
                                    COL_BROADPHASE_BRUTE,
                                    COL_BROADPHASE_GRID,
                                    COL_BROADPHASE_QUADTREE,
                                    -1,
                                    1000,
                                    INT_MIN};
  const uint8_t choice = fz_u8(r);
  const int algorithm = algorithms[fz_u8(r) % 8];
  const uint8_t starve = fa_starve(r);
  col_broadphase_cache *cache;
  memset(&cache, CANARY, sizeof cache);
  fa_arm(starve);
  col_status st = col_broadphase_cache_create(choice & 1 ? NULL : &cache);
  const bool kept = fa_untouched(&cache, sizeof cache);
  fa_judge_starved("col_broadphase_cache_create", st, choice & 1 ? ERR(COL_ERR_NULL) : 0, kept,
                   kept);
  if (st != COL_OK) cache = NULL;
  const bool cache_null = cache == NULL || (choice & 2);
  col_broadphase_cache *c = cache_null ? NULL : cache;
  const unsigned known = algorithm == COL_BROADPHASE_TREE || algorithm == COL_BROADPHASE_SAP ||
                         algorithm == COL_BROADPHASE_GRID;
  fa_judge("col_broadphase_cache_set_algorithm",
           col_broadphase_cache_set_algorithm(c, (col_broadphase)algorithm),
           (cache_null ? ERR(COL_ERR_NULL) : 0) | (known ? 0 : ERR(COL_ERR_ARGUMENT)), true);
  const col_task_system broken = {NULL, NULL, 4}, refusing = {no_run, NULL, 4};
  const col_parallel with_broken = {&broken, 0, false}, with_refusing = {&refusing, 0, true};
  const unsigned which = choice >> 2 & 3;
  const col_parallel *par = which == 0 ? NULL : which == 1 ? &with_broken : &with_refusing;
  fa_judge("col_broadphase_cache_set_parallel", col_broadphase_cache_set_parallel(c, par),
           (cache_null ? ERR(COL_ERR_NULL) : 0) | (which == 1 ? ERR(COL_ERR_NULL) : 0), true);
  /* Static marks and contact events (choice bits 4-7), before any update. broadphase.h:
   * set_static COL_ERR_NULL (the cache; marks NULL with a count), COL_ERR_SIZE (a count past
   * UINT32_MAX; on 32 bits that count wraps to 0), NULL with 0 clearing them; track_changes
   * COL_ERR_NULL; changes COL_ERR_NULL (any of its three), else COL_ERR_ARGUMENT (no update since
   * tracking went on), the lists kept. */
  if (choice & 16) {
    fa_arm(0); /* no allocation fails here (the create's turn is over) */
    static const uint8_t marks[3] = {1, 0, 2};
    const unsigned form = choice >> 5 & 3;
    const size_t count = form == 0 ? 0 : form == 3 ? (size_t)UINT32_MAX + 1 : 3;
    const uint8_t *given = form == 1 ? NULL : marks;
    const unsigned want = cache_null               ? ERR(COL_ERR_NULL)
                          : given == NULL && count ? ERR(COL_ERR_NULL)
                          : count > UINT32_MAX     ? ERR(COL_ERR_SIZE)
                                                   : 0;
    fa_judge("col_broadphase_cache_set_static", col_broadphase_cache_set_static(c, given, count),
             want, true);
    if (want == 0) /* the same marks again: nothing to do */
      fa_judge("col_broadphase_cache_set_static", col_broadphase_cache_set_static(c, given, count),
               0, true);
    const bool on = choice & 128;
    fa_judge("col_broadphase_cache_track_changes", col_broadphase_cache_track_changes(c, on),
             cache_null ? ERR(COL_ERR_NULL) : 0, true);
    col_pairs began = {0}, ended = {0};
    const bool lists_null = (choice & 0x60) == 0x60;
    const col_status ch =
        col_broadphase_cache_changes(c, lists_null ? NULL : &began, form == 2 ? NULL : &ended);
    fa_judge("col_broadphase_cache_changes", ch,
             cache_null || lists_null || form == 2 ? ERR(COL_ERR_NULL) : ERR(COL_ERR_ARGUMENT),
             began.count == 0 && ended.count == 0);
    if (!cache_null) {
      col_broadphase_cache_set_static(c, NULL, 0);
      col_broadphase_cache_track_changes(c, false);
    }
  }
  if (!cache_null && which >= 2) {
    /* A kept task system that refuses, with the fallback on: updates still find the pairs. */
    const float lo[2] = {0, 1}, hi[2] = {2, 3};
    const col_boxes two = {2, {lo, lo, lo}, {hi, hi, hi}, 2};
    col_pairs out = {0};
    col_broadphase_stats stats;
    if (col_broadphase_cache_update(cache, &two, COL_TOUCH_OVERLAPS, &out, &stats) != COL_OK ||
        out.count != 1 || stats.pairs != 1)
      fz_fail();
    /* A change of dims, of touch rule, of count: each rebuilds (broadphase.h), the pairs as
     * col_broadphase_pairs finds them. */
    const col_boxes three = {3, {lo, lo, lo}, {hi, hi, hi}, 2},
                    one = {2, {lo, lo, lo}, {hi, hi, hi}, 1};
    if (col_broadphase_cache_update(cache, &three, COL_TOUCH_OVERLAPS, &out, NULL) != COL_OK ||
        out.count != 1 ||
        col_broadphase_cache_update(cache, &three, COL_TOUCH_SEPARATES, &out, NULL) != COL_OK ||
        out.count != 1 ||
        col_broadphase_cache_update(cache, &one, COL_TOUCH_SEPARATES, &out, NULL) != COL_OK ||
        out.count != 0)
      fz_fail();
    col_pairs_free(&out);
  }
  col_broadphase_cache_destroy(cache);
  col_broadphase_cache_destroy(NULL);
  /* The pair list: up to 8 pairs from the input, sorted. */
  col_pairs list;
  memset(&list, CANARY, sizeof list);
  col_pairs_init(NULL);
  col_pairs_init(&list);
  if (list.data != NULL || list.count != 0 || list.capacity != 0 || list.work != NULL) fz_fail();
  const size_t n = choice >> 4 & 7;
  uint32_t seen[8][2];
  for (size_t k = 0; k < n; k++) {
    const uint32_t a = fz_u8(r) % 5, b = a + 1 + fz_u8(r) % 5;
    seen[k][0] = a, seen[k][1] = b;
    if (col_pairs_push(&list, a, b) != COL_OK) abort();
  }
  col_pairs_sort(&list);
  col_pairs_sort(NULL);
  col_pairs_free(NULL);
  if (col_pairs_push(NULL, 1, 2) != COL_ERR_NULL) {
    fputs("fuzz args: col_pairs_push(NULL, ...) is not COL_ERR_NULL (backends.h)\n", stderr);
    fz_fail();
  }
  bool sorted = list.count == n;
  for (size_t k = 1; sorted && k < n; k++)
    sorted = list.data[k - 1].a < list.data[k].a ||
             (list.data[k - 1].a == list.data[k].a && list.data[k - 1].b <= list.data[k].b);
  /* The same pairs: each one pushed is in the sorted list as often as it was pushed. */
  for (size_t k = 0; sorted && k < n; k++) {
    size_t pushed = 0, listed = 0;
    for (size_t q = 0; q < n; q++) {
      pushed += seen[q][0] == seen[k][0] && seen[q][1] == seen[k][1];
      listed += list.data[q].a == seen[k][0] && list.data[q].b == seen[k][1];
    }
    sorted = pushed == listed;
  }
  if (!sorted) {
    fprintf(stderr, "fuzz args: col_pairs_sort of %zu pairs did not give them in (a, b) order\n",
            n);
    fz_fail();
  }
  col_pairs_free(&list);
  col_pairs_free(&list);
}

/* The streamed search's sink: the pairs it is handed, appended to a list (context). */
static void collect(void *context, const col_pair *pairs, size_t count) {
  col_pairs *into = context;
  for (size_t k = 0; k < count; k++)
    if (col_pairs_push(into, pairs[k].a, pairs[k].b) != COL_OK) abort();
}

/* col_broadphase_pairs_stream (operation byte 0xEF): a NULL-flags byte (bits 0-5 the arrays, 6
 * the boxes, 7 the buffer), a count, dims (2, 3, 0, 4), touch, an algorithm pick, a batch pick
 * (0, 1, 63, 64, 65, 4096, SIZE_MAX / 8 + 1, SIZE_MAX; bit 3: a NULL sink), the arrays' floats, the
 * starve byte. broadphase.h: the errors of col_broadphase_pairs, COL_ERR_NULL for a NULL buffer or
 * sink, COL_ERR_SIZE for a batch under 64 or over SIZE_MAX / 8 (0 picks 4,096); on success the
 * batches, in order, are exactly col_broadphase_pairs' list for the same call, and the buffer is
 * left with count 0. */
void fa_stream(fz_reader *r) {
  /* The last two: batches whose bytes a size_t cannot count (broadphase.h: COL_ERR_SIZE;
   * pairs.c's batch * sizeof(col_pair) wrapped there once). */
  static const size_t batches[8] = {0,       1, 63, 64, 65, 4096, SIZE_MAX / sizeof(col_pair) + 1,
                                    SIZE_MAX};
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  static const int odd[4] = {-1, 1000, INT_MAX, INT_MIN};
  const uint8_t nulls = fz_u8(r);
  const size_t n = fa_count(r);
  const unsigned dims = dims_values[fz_u8(r) & 3];
  const int touch = fa_enum(r);
  const uint8_t pick = fz_u8(r), batch_pick = fz_u8(r);
  const int algorithm = pick & 0x80 ? odd[pick & 3] : (int)(pick % 8);
  const size_t batch = batches[batch_pick & 7];
  const bool sink_null = batch_pick & 8, boxes_null = nulls & 64, buffer_null = nulls & 128;
  float *v[6];
  bool arrays = true;
  for (int k = 0; k < 6; k++) {
    v[k] = fa_floats(r, n, nulls & (1u << k));
    if (k % 3 < (int)(dims < 3 ? dims : 3)) arrays = arrays && v[k] != NULL;
  }
  const col_boxes boxes = {dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};
  col_broadphase_info info = {0};
  const bool known = algorithm >= 0 && col_broadphase_at((size_t)algorithm, &info);
  unsigned applies = 0;
  if (boxes_null || buffer_null || sink_null || (n > 0 && (dims == 2 || dims == 3) && !arrays))
    applies |= ERR(COL_ERR_NULL);
  if ((dims != 2 && dims != 3) || n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (known && ((dims == 2 && !info.two_d) || (dims == 3 && !info.three_d)))
    applies |= ERR(COL_ERR_SIZE);
  if (batch != 0 && (batch < 64 || batch > SIZE_MAX / sizeof(col_pair)))
    applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch) || !known) applies |= ERR(COL_ERR_ARGUMENT);
  const uint8_t starve = fa_starve(r);
  if (applies != 0 || fa_fits(n)) {
    col_pairs buffer = {0}, got = {0}, want = {0};
    /* Room for every pair of MAX_ALLOC boxes first: the sink allocates nothing while a
     * failure is armed for the library's allocations. */
    for (uint32_t k = 0; k < MAX_ALLOC * MAX_ALLOC; k++)
      if (col_pairs_push(&got, 0, 1) != COL_OK) abort();
    got.count = 0;
    fa_arm(starve);
    const col_status st = col_broadphase_pairs_stream(
        (col_broadphase)algorithm, boxes_null ? NULL : &boxes, (col_touch)touch,
        buffer_null ? NULL : &buffer, batch, sink_null ? NULL : collect, &got, NULL);
    fa_judge_starved("col_broadphase_pairs_stream", st, applies, true, true);
    if (st == COL_OK) {
      if (col_broadphase_pairs((col_broadphase)algorithm, &boxes, (col_touch)touch, &want, NULL) !=
              COL_OK ||
          buffer.count != 0 || got.count != want.count ||
          (want.count && memcmp(got.data, want.data, want.count * sizeof(col_pair)) != 0)) {
        fprintf(stderr,
                "fuzz args: col_broadphase_pairs_stream handed %zu pairs (buffer left with %zu), "
                "col_broadphase_pairs lists %zu\n",
                got.count, buffer.count, want.count);
        fz_fail();
      }
    }
    col_pairs_free(&buffer), col_pairs_free(&got), col_pairs_free(&want);
  }
  for (int k = 0; k < 6; k++) free(v[k]);
}
