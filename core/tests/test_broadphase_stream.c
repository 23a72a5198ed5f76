/* The streamed broadphase (col_broadphase_pairs_stream): the sink's batches, joined in the order
 * it gets them, are exactly the list col_broadphase_pairs writes (same pairs, same order, same
 * stats) for every algorithm, both rules, 2D and 3D, on the active backend; no batch is empty or
 * longer than asked; bad arguments are refused before the sink hears anything. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "broadphase_sets.h"

/* What a sink saw: every pair in order, the number of calls, the longest batch. */
typedef struct seen {
  col_pair *pairs;
  size_t count, capacity, calls, longest, empty;
} seen;

static void keep(void *context, const col_pair *pairs, size_t count) {
  seen *s = context;
  s->calls++;
  if (count == 0) s->empty++;
  if (count > s->longest) s->longest = count;
  if (s->count + count > s->capacity) {
    s->capacity = 2 * (s->count + count);
    s->pairs = realloc(s->pairs, s->capacity * sizeof(col_pair));
    cr_assert_not_null(s->pairs);
  }
  memcpy(s->pairs + s->count, pairs, count * sizeof(col_pair));
  s->count += count;
}

/* Every algorithm on `s` streamed with `batch` against its list. */
static void expect_stream_equals_list(const box_set *s, col_touch touch, size_t batch,
                                      col_pairs *buffer, const char *what) {
  for (size_t a = 0; a < col_broadphase_count(); a++) {
    const col_broadphase_info info = algorithm_at(a);
    if ((s->boxes.dims == 2 && !info.two_d) || (s->boxes.dims == 3 && !info.three_d)) continue;
    col_pairs list = {0};
    col_broadphase_stats want = {0, 0, 0, 0}, got = {9, 9, 9, 9};
    cr_assert_eq(col_broadphase_pairs(info.algorithm, &s->boxes, touch, &list, &want), COL_OK);
    seen sink = {NULL, 0, 0, 0, 0, 0};
    cr_assert_eq(col_broadphase_pairs_stream(info.algorithm, &s->boxes, touch, buffer, batch, keep,
                                             &sink, &got),
                 COL_OK, "%s %s", info.name, what);
    const size_t limit = batch == 0 ? 4096 : batch;
    cr_expect_eq(sink.count, list.count,
                 "%s %s %uD touch %d batch %zu: %zu pairs streamed, %zu listed", info.name, what,
                 s->boxes.dims, touch, batch, sink.count, list.count);
    if (sink.count == list.count && list.count > 0)
      cr_expect(memcmp(sink.pairs, list.data, list.count * sizeof(col_pair)) == 0,
                "%s %s batch %zu: the streamed pairs differ from the list's (order included)",
                info.name, what, batch);
    cr_expect_eq(sink.empty, 0u, "%s %s: an empty batch", info.name, what);
    cr_expect(sink.longest <= limit, "%s %s: a batch of %zu pairs, asked %zu", info.name, what,
              sink.longest, limit);
    cr_expect(sink.calls >= (list.count + limit - 1) / limit, "%s %s: %zu calls for %zu pairs",
              info.name, what, sink.calls, list.count);
    cr_expect(
        got.pairs == want.pairs && got.tests == want.tests && got.cells == want.cells,
        "%s %s: stats (%llu pairs, %llu tests, %llu cells) streamed, (%llu, %llu, %llu) listed",
        info.name, what, (unsigned long long)got.pairs, (unsigned long long)got.tests,
        (unsigned long long)got.cells, (unsigned long long)want.pairs,
        (unsigned long long)want.tests, (unsigned long long)want.cells);
    cr_expect_eq(buffer->count, 0u);
    cr_expect(buffer->capacity >= limit, "%s: the buffer holds a batch", info.name);
    free(sink.pairs);
    col_pairs_free(&list);
  }
}

Test(broadphase_stream, every_algorithm_streams_its_list) {
  uint64_t rng = 31;
  const size_t sizes[] = {0, 1, 2, 17, 150, 700};
  const size_t batches[] = {0, 64, 100, 1000};
  col_pairs buffer = {0};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (int scene = GRIDDED; scene <= FLOAT_RANGE; scene++)
      for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        box_set s = set_make(sizes[k], dims);
        fill(&s, (enum scene)scene, &rng);
        const size_t batch = batches[(k + (size_t)scene) % 4];
        expect_stream_equals_list(&s, COL_TOUCH_OVERLAPS, batch, &buffer, "set");
        expect_stream_equals_list(&s, COL_TOUCH_SEPARATES, batch, &buffer, "set");
        set_free(&s);
      }
  col_pairs_free(&buffer);
}

/* Many pairs a box (each overlaps hundreds): sweep and prune's cells fill many batches, and a
 * batch runs out in the middle of a run. */
Test(broadphase_stream, dense_sets_fill_many_batches) {
  uint64_t rng = 5;
  col_pairs buffer = {0};
  for (unsigned dims = 2; dims <= 3; dims++) {
    box_set s = set_make(3000, dims);
    for (size_t i = 0; i < s.n; i++)
      for (unsigned k = 0; k < 3; k++) {
        const float lo = (float)rand_below(&rng, 4096) - 2048.0f;
        s.v[k][i] = lo, s.v[3 + k][i] = lo + (float)rand_below(&rng, dims == 2 ? 300 : 900);
      }
    const size_t batches[] = {0, 64, 5000};
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++)
      expect_stream_equals_list(&s, COL_TOUCH_OVERLAPS, batches[b], &buffer, "dense");
    set_free(&s);
  }
  col_pairs_free(&buffer);
}

/* A buffer kept from a long list is cut down to a batch; a later col_broadphase_pairs with it
 * grows it again as a list. */
Test(broadphase_stream, a_list_buffer_serves_as_batch) {
  uint64_t rng = 8;
  box_set s = set_make(400, 2);
  fill(&s, SPREAD, &rng);
  col_pairs buffer = {0};
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS, &buffer, NULL),
      COL_OK);
  const size_t listed = buffer.count;
  cr_assert(listed > 64);
  seen sink = {NULL, 0, 0, 0, 0, 0};
  cr_assert_eq(col_broadphase_pairs_stream(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS,
                                           &buffer, 64, keep, &sink, NULL),
               COL_OK);
  cr_expect_eq(sink.count, listed);
  /* Cut down from the list's capacity (grown again only by a row of more than 64 hits). */
  cr_expect(buffer.capacity < listed, "capacity %zu after streaming", buffer.capacity);
  cr_assert_eq(
      col_broadphase_pairs(COL_BROADPHASE_SAP, &s.boxes, COL_TOUCH_OVERLAPS, &buffer, NULL),
      COL_OK);
  cr_expect_eq(buffer.count, listed);
  free(sink.pairs);
  col_pairs_free(&buffer);
  set_free(&s);
}

Test(broadphase_stream, bad_arguments_are_refused_before_any_batch) {
  uint64_t rng = 3;
  box_set s = set_make(50, 2);
  fill(&s, SAME_BOX, &rng);
  col_pairs buffer = {0};
  seen sink = {NULL, 0, 0, 0, 0, 0};
  const col_broadphase sap = COL_BROADPHASE_SAP;
  const col_touch t = COL_TOUCH_OVERLAPS;
  cr_expect_eq(col_broadphase_pairs_stream(sap, &s.boxes, t, NULL, 0, keep, &sink, NULL),
               COL_ERR_NULL);
  cr_expect_eq(col_broadphase_pairs_stream(sap, &s.boxes, t, &buffer, 0, NULL, &sink, NULL),
               COL_ERR_NULL);
  cr_expect_eq(col_broadphase_pairs_stream(sap, NULL, t, &buffer, 0, keep, &sink, NULL),
               COL_ERR_NULL);
  cr_expect_eq(col_broadphase_pairs_stream(sap, &s.boxes, t, &buffer, 63, keep, &sink, NULL),
               COL_ERR_SIZE);
  cr_expect_eq(
      col_broadphase_pairs_stream(sap, &s.boxes, (col_touch)7, &buffer, 0, keep, &sink, NULL),
      COL_ERR_ARGUMENT);
  cr_expect_eq(
      col_broadphase_pairs_stream((col_broadphase)999, &s.boxes, t, &buffer, 0, keep, &sink, NULL),
      COL_ERR_ARGUMENT);
  col_boxes four = s.boxes;
  four.dims = 4;
  cr_expect_eq(col_broadphase_pairs_stream(sap, &four, t, &buffer, 0, keep, &sink, NULL),
               COL_ERR_SIZE);
  cr_expect_eq(sink.calls, 0u, "the sink was called for a refused call");
  /* 64, the smallest batch, is taken; every one of the 1,225 pairs arrives. */
  cr_expect_eq(col_broadphase_pairs_stream(sap, &s.boxes, t, &buffer, 64, keep, &sink, NULL),
               COL_OK);
  cr_expect_eq(sink.count, 50u * 49u / 2u);
  free(sink.pairs);
  col_pairs_free(&buffer);
  set_free(&s);
}
