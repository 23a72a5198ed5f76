/* The memory floor of the box-pruning scenes: what no broadphase of a scene can beat on this
 * machine, measured in the same run as the broadphases. Per iteration: every float of the boxes'
 * arrays read once (bench_floor_read) and the scene's exact number of pairs written as col_pair
 * records (bench_floor_write), the indices a plain pattern; nothing is tested. Two rows per scene
 * and size, beside the broadphase rows:
 *   broadphase/floor-plain/<scene>/N   plain stores (each line read before it is written);
 *   broadphase/floor-nt/<scene>/N      non-temporal stores on x86 (bench_floor_x86.c); other
 *                                      architectures store plainly and the row's label says so.
 * The pair count is our sweep and prune's on the same boxes, found once before timing (untimed,
 * kept for the other row of the scene and size). At boxprune2d 100,000 that is 18.7 million
 * pairs, 150 MB: the write is most of the floor, and the report reads our fastest sweep over the
 * non-temporal row as "k x the floor" (scripts/bench/report/floor.py). The scenes and sizes are
 * the suite's box-pruning ones (the same as bench_broadphase.c's). Like the broadphase rows,
 * two untimed passes come first, so the pair buffer's pages are in place.
 * Counters: pairs, kcycles_per_run (TSC), pair_bytes (the bytes of pairs written per run); the
 * label names the stores. */
#include "bench_floor.h"
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#if !BENCH_FLOOR_X86
const char *const bench_floor_stream_kind =
    "plain stores: no non-temporal store on this architecture's build";

float bench_floor_read(const col_boxes *boxes) {
  float lo = INFINITY, hi = -INFINITY;
  for (unsigned k = 0; k < boxes->dims; k++)
    for (size_t i = 0; i < boxes->count; i++) {
      lo = boxes->min[k][i] < lo ? boxes->min[k][i] : lo;
      hi = boxes->max[k][i] > hi ? boxes->max[k][i] : hi;
    }
  return hi - lo;
}

void bench_floor_write(col_pair *out, size_t count, uint32_t n, bool stream) {
  (void)stream;
  uint32_t a = 0;
  for (size_t k = 0; k < count; k++, a = a + 1 < n - 1 ? a + 1 : 0) out[k] = (col_pair){a, a + 1};
}
#endif

typedef struct floor_case {
  int scene;
  bool stream;
} floor_case;

/* The pair counts found so far, per scene and size (the suites have a few of each). */
enum { COUNTED_MAX = 16 };
static struct {
  int scene;
  size_t n, pairs;
} counted[COUNTED_MAX];
static size_t counted_used;

/* The exact pair count of the scene at its size, from our sweep and prune (closed rule, as the
 * broadphase rows run it); false when that call fails. */
static bool pair_count(int scene, const col_boxes *boxes, size_t *pairs) {
  for (size_t k = 0; k < counted_used; k++)
    if (counted[k].scene == scene && counted[k].n == boxes->count) {
      *pairs = counted[k].pairs;
      return true;
    }
  col_pairs list = {0};
  const col_status status =
      col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, COL_TOUCH_OVERLAPS, &list, NULL);
  *pairs = list.count;
  col_pairs_free(&list);
  if (status != COL_OK) return false;
  if (counted_used < COUNTED_MAX)
    counted[counted_used].scene = scene, counted[counted_used].n = boxes->count,
    counted[counted_used++].pairs = *pairs;
  return true;
}

static void run(gb_state *st, void *user) {
  const floor_case *c = user;
  bench_scene scene = {0};
  const col_boxes boxes = bench_row_scene(st, c->scene, &scene);
  const size_t n = boxes.count;
  size_t pairs = 0;
  if (!pair_count(c->scene, &boxes, &pairs)) {
    bench_scene_free(&scene);
    gb_skip(st, "sweep and prune failed: no pair count");
    return;
  }
  col_pair *out = bench_alloc((pairs > 0 ? pairs : 1) * sizeof(col_pair));
  float extent = 0.0f;
  for (int warm = 0; warm < 2; warm++) {
    extent += bench_floor_read(&boxes);
    bench_floor_write(out, pairs, (uint32_t)n, c->stream);
  }
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    extent += bench_floor_read(&boxes);
    bench_floor_write(out, pairs, (uint32_t)n, c->stream);
    gb_do_not_optimize(out);
    gb_do_not_optimize(&extent);
  }
  const uint64_t ticks = bench_tsc() - t0;
  const int64_t iterations = gb_iteration_count(st);
  bench_finish(st, (int64_t)n, ticks);
  const double pair_bytes = (double)pairs * (double)sizeof(col_pair);
  gb_set_bytes(st, iterations * (int64_t)pair_bytes);
  gb_counter(st, "pairs", (double)pairs, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", (double)ticks / (double)iterations / 1000.0, GB_PLAIN);
  gb_counter(st, "pair_bytes", pair_bytes, GB_PLAIN);
  gb_label(st, c->stream ? bench_floor_stream_kind : "plain stores");
  free(out);
  bench_scene_free(&scene);
}

/* The streamed sweep and prune (col_broadphase_pairs_stream): the same boxes and call as the
 * broadphase rows' sap, its pairs handed to a sink in batches of 4,096 (32 KB) instead of
 * written to a list. The sink reads the last pair of each batch (a consumer would read them all;
 * that reading is its work, not the broadphase's), so the row times the broadphase with its
 * output kept in the cache: what the memory floor's pair writes cost, or not, beside it. */
typedef struct stream_case {
  int scene;
  const char *backend;
} stream_case;

typedef struct stream_sink {
  uint64_t batches, fold;
} stream_sink;

static void take_batch(void *context, const col_pair *pairs, size_t count) {
  stream_sink *s = context;
  s->batches++, s->fold += pairs[count - 1].a ^ pairs[count - 1].b;
}

static void run_stream(gb_state *st, void *user) {
  const stream_case *c = user;
  if (!bench_select(st, c->backend)) return;
  bench_scene scene = {0};
  const col_boxes boxes = bench_row_scene(st, c->scene, &scene);
  const size_t n = boxes.count;
  col_pairs buffer = {0};
  stream_sink sink = {0, 0};
  col_broadphase_stats stats = {0, 0, 0, 0};
  col_status all = COL_OK;
  for (int warm = 0; warm < 2; warm++)
    all |= col_broadphase_pairs_stream(COL_BROADPHASE_SAP, &boxes, COL_TOUCH_OVERLAPS, &buffer, 0,
                                       take_batch, &sink, &stats);
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    all |= col_broadphase_pairs_stream(COL_BROADPHASE_SAP, &boxes, COL_TOUCH_OVERLAPS, &buffer, 0,
                                       take_batch, &sink, &stats);
    gb_do_not_optimize(&sink);
  }
  const uint64_t ticks = bench_tsc() - t0;
  col_pairs_free(&buffer);
  bench_scene_free(&scene);
  if (all != COL_OK) {
    gb_skip(st, "streamed sweep and prune failed");
    return;
  }
  const int64_t iterations = gb_iteration_count(st);
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "pairs", (double)stats.pairs, GB_PLAIN);
  gb_counter(st, "tests", (double)stats.tests, GB_PLAIN);
  const double all_pairs = (double)n * ((double)n - 1) / 2.0;
  gb_counter(st, "savings", all_pairs > 0 ? 1.0 - (double)stats.tests / all_pairs : 0.0, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", (double)ticks / (double)iterations / 1000.0, GB_PLAIN);
  gb_counter(st, "scratch_bytes", (double)stats.scratch_bytes, GB_PLAIN);
  gb_label(st, "pairs streamed in batches of 4,096");
}

void bench_register_floor(void);
void bench_register_floor(void) {
  /* Static storage: the registration keeps a pointer for the whole run. The plain and the
   * non-temporal row of a scene follow each other, so they run seconds apart at most. */
  static const int scenes[] = {SCENE_BOXPRUNE3D, SCENE_BOXPRUNE2D};
  static floor_case cases[2 * sizeof scenes / sizeof scenes[0]];
  size_t used = 0;
  for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++)
    for (int stream = 0; stream < 2; stream++) {
      floor_case *c = &cases[used++];
      *c = (floor_case){scenes[s], stream == 1};
      char name[96];
      snprintf(name, sizeof name, "broadphase/floor-%s/%s", stream ? "nt" : "plain",
               bench_scene_name[scenes[s]]);
      gb_benchmark *b = gb_register(name, run, c);
      gb_unit(b, GB_MS);
      for (const int64_t *a = bench_active_suite->boxprune; *a != 0; a++) gb_arg(b, *a);
    }
  static col_backend_info backends[BENCH_MAX_BACKENDS];
  static stream_case streams[BENCH_MAX_BACKENDS * sizeof scenes / sizeof scenes[0]];
  const size_t nb = bench_kernel_backends(backends, BENCH_MAX_BACKENDS, COL_KERNEL_SAP_RUN);
  size_t made = 0;
  for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++)
    for (size_t k = 0; k < nb; k++) {
      stream_case *c = &streams[made++];
      *c = (stream_case){scenes[s], backends[k].name};
      char name[128];
      snprintf(name, sizeof name, "broadphase/sap-stream/%s/%s", backends[k].name,
               bench_scene_name[scenes[s]]);
      gb_benchmark *b = gb_register(name, run_stream, c);
      gb_unit(b, GB_MS);
      for (const int64_t *a = bench_active_suite->boxprune; *a != 0; a++) gb_arg(b, *a);
    }
}
