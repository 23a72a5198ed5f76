/* Peer engines' broadphases (bench/peers/) on our broadphase scenes, in the same run as ours:
 * broadphase/peer-<engine>-<structure>[-count]/<scene>/N, "-count" being the count-only
 * pair store (peers.h). From-scratch scenes time, per iteration, a fresh structure with every
 * box inserted (build_kcycles) and the engine's pair update (find_kcycles); kcycles_per_run is
 * their sum (dropping the previous structure is not timed). The moving scene builds once, then
 * each iteration is one frame: a tenth of the boxes move (bench_scene_step, as for ours) and
 * the engine updates them and its pairs.
 * After timing, the engine's reported pairs are re-tested with the closed rule and compared
 * with our sweep and prune on the same boxes.
 * Counters: engine_pairs (as reported), pairs (after the re-test; own store only), missed_pairs
 * (our pairs missing from the engine's after the re-test: Chipmunk's sweep misses x touches),
 * kcycles_per_run (moving: the frame's update), build_kcycles and find_kcycles (from scratch).
 * Scene files' peer rows: bench_peer_files.c; what both share: bench_peer_rows.c. */
#include "bench_peers.h"
#include "bench.h"
#include "bench_scene_files.h"
#include "peers/peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct peer_case {
  const peer_structure *peer;
  bool count_only;
  int scene;
} peer_case;

/* The engine's reported and re-tested lists, their memory kept from row to row (18.7 million
 * pairs at boxprune2d 100,000: grown by doubling and faulted in afresh, they took seconds a row
 * outside the timed loop). */
static col_pairs engine_reported, engine_exact;

static void run(gb_state *st, void *user) {
  const peer_case *c = user;
  bench_scene s = {0};
  const col_boxes boxes = bench_row_scene(st, c->scene, &s);
  const size_t n = boxes.count;
  void *peer = c->peer->ops->create(c->peer->kind, c->count_only);
  uint32_t *moved = bench_alloc((n / 10 + 1) * sizeof *moved);
  float *delta = bench_alloc((n / 10 + 1) * 2 * sizeof *delta);
  bool ok = peer != NULL;
  uint64_t build = 0, find = 0, rng = 25, frame = 0;
  if (ok && c->scene == SCENE_MOVING) {
    ok = c->peer->ops->build(peer, &boxes);
    if (ok) c->peer->ops->find(peer);
    while (ok && gb_keep_running(st)) {
      const uint64_t t0 = bench_tsc();
      const size_t m = bench_scene_step(&s, &rng, frame++, moved, delta);
      c->peer->ops->move(peer, &boxes, moved, delta, m);
      find += bench_tsc() - t0;
    }
  } else {
    while (ok && gb_keep_running(st))
      ok = bench_peer_rebuild(st, c->peer, peer, &boxes, &build, &find);
  }
  if (!ok) {
    gb_skip(st, "the engine refused the scene");
  } else {
    engine_reported.count = 0;
    const size_t engine_pairs = c->peer->ops->reported_pairs(peer, &engine_reported);
    bench_peer_counters(st, n, engine_pairs, build, find, c->scene != SCENE_MOVING);
    if (!c->count_only) {
      peer_exact(&boxes, &engine_reported, &engine_exact);
      bench_peer_exact_counters(st, c->scene, &boxes, NULL, &engine_exact);
    }
  }
  if (peer) c->peer->ops->destroy(peer);
  free(moved);
  free(delta);
  bench_scene_free(&s);
}

/* ODE's spaces keep no pairs: every frame finds them all again (slow per frame at 8,192 boxes:
 * docs/peers.md). To fit the default suite's budget they run there at one size
 * per scene (box pruning 10,000; moving 8,192; uniform and clustered at their largest size) and
 * only the quadtree, the fastest per frame, is paired (own store); the full suite runs every size.
 */
static bool trimmed(const peer_structure *p) {
  return strcmp(p->engine, "ode") == 0 && strcmp(bench_active_suite->name, "default") == 0;
}

static void add(const peer_structure *p, bool count_only, int scene) {
  static peer_case cases[PEER_MAX_STRUCTURES * 2 * SCENE_COUNT];
  static size_t used;
  const bench_suite *suite = bench_active_suite;
  /* The published box-pruning sizes run whole (the report's comparisons name them); the other
   * scenes stop at the suite's peer_max. A structure's own limit applies to both; a scene
   * none of whose sizes it runs at is not registered. */
  const bool boxprune = scene == SCENE_BOXPRUNE3D || scene == SCENE_BOXPRUNE2D;
  int64_t limit = p->max_count ? (int64_t)p->max_count : 262144;
  if ((!boxprune || trimmed(p)) && limit > suite->peer_max) limit = suite->peer_max;
  /* The clustered scene's density rises with N (its clusters stay 64): at 16,384 boxes Bullet's
   * simple and axis-sweep structures take 4-5 s a run, so peers stop at a quarter of the
   * suite's peer size there. */
  if (scene == SCENE_CLUSTERED && limit > suite->peer_max / 4) limit = suite->peer_max / 4;
  int64_t sizes[24];
  size_t k = 0;
  for (const int64_t *a = boxprune ? suite->boxprune : suite->scene_counts; *a != 0; a++)
    if (*a <= limit) sizes[k++] = *a;
  if (trimmed(p) && !boxprune && k > 1) sizes[0] = sizes[k - 1], k = 1; /* the largest */
  /* The count-only form at 100,000 box-pruning boxes: a second build of 100,000 boxes per
   * engine (10-40 s each on a shared 2-core machine) for a size the report gives without a
   * target; the default suite keeps it at 10,000 (the goals' size), the full suite at both. */
  if (count_only && boxprune && strcmp(suite->name, "default") == 0)
    while (k > 0 && sizes[k - 1] > 10000) k--;
  if (scene == SCENE_MOVING && suite->reference_sizes && 8192 <= limit) {
    if (trimmed(p)) k = 0; /* the reference size alone */
    sizes[k++] = 8192;
  }
  if (k == 0 || used == sizeof cases / sizeof cases[0]) return; /* no size fits */
  peer_case *c = &cases[used++];
  *c = (peer_case){p, count_only, scene};
  char name[128];
  snprintf(name, sizeof name, "broadphase/peer-%s-%s%s/%s", p->engine, p->name,
           count_only ? "-count" : "", bench_scene_name[scene]);
  gb_benchmark *b = gb_register(name, run, c);
  gb_unit(b, GB_MS);
  for (size_t i = 0; i < k; i++) gb_arg(b, sizes[i]);
}

/* Ours against one engine on the moving scene, interleaved in one benchmark:
 * broadphase/paired-<engine>-<structure>[-count]/<backend>/moving/N. Two copies of the scene
 * take the same frames (same seed); each iteration runs a block of PAIRED_FRAMES frames on our
 * kept sweep and prune (told which boxes moved, on the backend a program gets by default) and
 * the same block on the engine, the order alternating between iterations. Both see the same
 * clock, the same machine load and the same boxes, so their ratio survives the run-to-run
 * swings of a shared machine that separate benchmarks do not. Counters: kcycles_per_run and
 * peer_kcycles (per frame, over all blocks), ratio (the engine's smallest block over ours:
 * the minima drop blocks an interruption slowed) and ratio_of_sums. */
enum {
  PAIRED_FRAMES = 40, /* four turns of the rotating tenth that moves */
  PAIRED_BLOCKS = 16  /* per side: 640 frames, 0.1 s of ours, 0.5-2.4 s of an engine */
};

typedef struct paired_case {
  const peer_structure *peer;
  bool count_only;
  const char *backend;
} paired_case;

static uint64_t block_of_ours(bench_scene *s, uint64_t *rng, uint64_t *frame, uint32_t *moved,
                              col_broadphase_cache *cache, col_pairs *pairs, col_status *all) {
  const col_boxes boxes = bench_scene_boxes(s);
  uint64_t ticks = 0;
  for (int k = 0; k < PAIRED_FRAMES; k++) {
    const size_t m = bench_scene_step(s, rng, (*frame)++, moved, NULL);
    const uint64_t t0 = bench_tsc();
    *all |=
        col_broadphase_cache_update_moved(cache, &boxes, moved, m, COL_TOUCH_OVERLAPS, pairs, NULL);
    ticks += bench_tsc() - t0;
  }
  return ticks;
}

static uint64_t block_of_peer(const paired_case *c, void *peer, bench_scene *s, uint64_t *rng,
                              uint64_t *frame, uint32_t *moved, float *delta) {
  const col_boxes boxes = bench_scene_boxes(s);
  uint64_t ticks = 0;
  for (int k = 0; k < PAIRED_FRAMES; k++) {
    const size_t m = bench_scene_step(s, rng, (*frame)++, moved, delta);
    const uint64_t t0 = bench_tsc();
    c->peer->ops->move(peer, &boxes, moved, delta, m);
    ticks += bench_tsc() - t0;
  }
  return ticks;
}

static void run_paired(gb_state *st, void *user) {
  const paired_case *c = user;
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, c->backend)) return;
  bench_scene ours_scene = {0}, peer_scene = {0};
  bench_scene_fill(&ours_scene, SCENE_MOVING, n);
  bench_scene_fill(&peer_scene, SCENE_MOVING, n);
  const col_boxes ours_boxes = bench_scene_boxes(&ours_scene);
  const col_boxes peer_boxes = bench_scene_boxes(&peer_scene);
  uint32_t *moved = bench_alloc((n / 10 + 1) * sizeof *moved);
  float *delta = bench_alloc((n / 10 + 1) * 2 * sizeof *delta);
  col_broadphase_cache *cache = NULL;
  col_pairs pairs = {0};
  col_status all = col_broadphase_cache_create(&cache);
  if (all == COL_OK) all = col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP);
  /* Two untimed updates, as the separate benchmark makes (memory reaches its size). */
  for (int warm = 0; warm < 2 && all == COL_OK; warm++)
    all = col_broadphase_cache_update(cache, &ours_boxes, COL_TOUCH_OVERLAPS, &pairs, NULL);
  void *peer = c->peer->ops->create(c->peer->kind, c->count_only);
  const bool built = peer != NULL && c->peer->ops->build(peer, &peer_boxes);
  if (built) c->peer->ops->find(peer);
  uint64_t ours = 0, theirs = 0, ours_min = UINT64_MAX, theirs_min = UINT64_MAX;
  uint64_t ours_rng = 25, peer_rng = 25, ours_frame = 0, peer_frame = 0, block = 0;
  while (built && all == COL_OK && gb_keep_running(st)) {
    uint64_t a, b;
    if (block++ & 1) {
      b = block_of_peer(c, peer, &peer_scene, &peer_rng, &peer_frame, moved, delta);
      a = block_of_ours(&ours_scene, &ours_rng, &ours_frame, moved, cache, &pairs, &all);
    } else {
      a = block_of_ours(&ours_scene, &ours_rng, &ours_frame, moved, cache, &pairs, &all);
      b = block_of_peer(c, peer, &peer_scene, &peer_rng, &peer_frame, moved, delta);
    }
    gb_do_not_optimize(pairs.data);
    ours += a, theirs += b;
    ours_min = a < ours_min ? a : ours_min;
    theirs_min = b < theirs_min ? b : theirs_min;
  }
  if (!built) {
    gb_skip(st, "the engine refused the scene");
  } else if (all != COL_OK) {
    gb_skip(st, "our kept sweep and prune failed");
  } else {
    const double frames = (double)gb_iteration_count(st) * PAIRED_FRAMES;
    bench_finish(st, (int64_t)n * PAIRED_FRAMES, ours);
    gb_counter(st, "kcycles_per_run", (double)ours / frames / 1000.0, GB_PLAIN);
    gb_counter(st, "peer_kcycles", (double)theirs / frames / 1000.0, GB_PLAIN);
    gb_counter(st, "ratio", (double)theirs_min / (double)ours_min, GB_PLAIN);
    gb_counter(st, "ratio_of_sums", (double)theirs / (double)ours, GB_PLAIN);
    gb_counter(st, "pairs", (double)pairs.count, GB_PLAIN);
  }
  if (peer) c->peer->ops->destroy(peer);
  col_broadphase_cache_destroy(cache);
  col_pairs_free(&pairs);
  free(moved);
  free(delta);
  bench_scene_free(&ours_scene);
  bench_scene_free(&peer_scene);
}

static void add_paired(const peer_structure *p, bool count_only, const char *backend, int64_t n) {
  static paired_case cases[PEER_MAX_STRUCTURES * 2];
  static size_t used;
  if (used == sizeof cases / sizeof cases[0]) return;
  paired_case *c = &cases[used++];
  *c = (paired_case){p, count_only, backend};
  char name[160];
  snprintf(name, sizeof name, "broadphase/paired-%s-%s%s/%s/%s", p->engine, p->name,
           count_only ? "-count" : "", backend, bench_scene_name[SCENE_MOVING]);
  gb_benchmark *b = gb_register(name, run_paired, c);
  gb_unit(b, GB_MS);
  gb_iterations(b, PAIRED_BLOCKS);
  gb_arg(b, n);
}

void bench_register_peers(void);
void bench_register_peers(void) {
  const char *absent = peer_absent();
  if (absent[0] != '\0')
    fprintf(stderr, "bench: peer engines missing, their rows are skipped:\n%s", absent);
  const peer_structure *const *list;
  const size_t count = peer_structures(&list);
  bench_peer_touch_rules(list, count);
  bench_register_peer_files(list, count);
  if (bench_scene_only()) return;
  for (size_t i = 0; i < count; i++)
    for (int count_only = 0; count_only < 2; count_only++) {
      /* FCL's collide() hands every pair to the user's callback, whatever the store: its
       * count-only rows would time the same traversal less the append, so they are not run
       * (suite budget); the peer tests check its counting store. */
      if (count_only && strcmp(list[i]->engine, "fcl") == 0) continue;
      if (list[i]->three_d) add(list[i], count_only, SCENE_BOXPRUNE3D);
      add(list[i], count_only, SCENE_BOXPRUNE2D);
      if (list[i]->ops->move) add(list[i], count_only, SCENE_MOVING);
      if (!count_only) add(list[i], false, SCENE_UNIFORM);
      if (!count_only) add(list[i], false, SCENE_CLUSTERED);
    }
  /* The paired moving benchmarks: at the engines' comparison size (or, in the small suites,
   * their largest moving size), on the backend a program gets by default (the newest native
   * one this CPU runs). */
  const bench_suite *suite = bench_active_suite;
  int64_t n = 0;
  for (const int64_t *a = suite->scene_counts; *a != 0; a++)
    if (*a <= suite->peer_max) n = *a;
  if (suite->reference_sizes) n = 8192;
  if (n == 0 || col_backend_init() != COL_OK) return;
  for (size_t i = 0; i < count; i++)
    for (int count_only = 0; count_only < 2; count_only++)
      if (list[i]->ops->move && !list[i]->all_pairs &&
          !(count_only && strcmp(list[i]->engine, "fcl") == 0) &&
          (!trimmed(list[i]) || (strcmp(list[i]->name, "quadtree") == 0 && !count_only)))
        add_paired(list[i], count_only, col_backend_name(), n);
}
