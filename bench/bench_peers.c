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
 * kcycles_per_run (moving: the frame's update), build_kcycles and find_kcycles (from scratch). */
#include "bench.h"
#include "peers/peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct peer_case {
  const peer_structure *peer;
  bool count_only;
  int scene;
} peer_case;

/* How many of our pairs (sweep and prune, same boxes) the engine's sorted exact set lacks;
 * false when it holds a pair we do not (which the closed-rule re-test should make impossible). */
static bool missed_of_ours(const col_boxes *boxes, const col_pairs *exact, size_t *missed) {
  col_pairs ours = {0};
  if (col_broadphase_pairs(COL_BROADPHASE_SAP, boxes, COL_TOUCH_OVERLAPS, &ours, NULL) != COL_OK) {
    fprintf(stderr, "bench: our sweep and prune failed\n");
    exit(1);
  }
  col_pairs_sort(&ours);
  size_t k = 0;
  *missed = 0;
  for (size_t j = 0; j < ours.count; j++) {
    const bool both = k < exact->count && exact->data[k].a == ours.data[j].a &&
                      exact->data[k].b == ours.data[j].b;
    k += both, *missed += !both;
  }
  const bool subset = k == exact->count;
  col_pairs_free(&ours);
  return subset;
}

static void run(gb_state *st, void *user) {
  const peer_case *c = user;
  const size_t n = (size_t)gb_arg_of(st, 0);
  bench_scene s = {0};
  bench_scene_fill(&s, c->scene, n);
  const col_boxes boxes = bench_scene_boxes(&s);
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
    while (ok && gb_keep_running(st)) {
      gb_pause(st);
      c->peer->ops->clear(peer);
      gb_resume(st);
      const uint64_t t0 = bench_tsc();
      ok = c->peer->ops->build(peer, &boxes);
      const uint64_t t1 = bench_tsc();
      c->peer->ops->find(peer);
      const uint64_t t2 = bench_tsc();
      build += t1 - t0, find += t2 - t1;
    }
  }
  if (!ok) {
    gb_skip(st, "the engine refused the scene");
  } else {
    const double iterations = (double)gb_iteration_count(st);
    bench_finish(st, (int64_t)n, build + find);
    col_pairs reported = {0}, exact = {0};
    const size_t engine_pairs = c->peer->ops->reported_pairs(peer, &reported);
    gb_counter(st, "engine_pairs", (double)engine_pairs, GB_PLAIN);
    gb_counter(st, "kcycles_per_run", (double)(build + find) / iterations / 1000.0, GB_PLAIN);
    if (c->scene != SCENE_MOVING) { /* per frame, kcycles_per_run is the update alone */
      gb_counter(st, "build_kcycles", (double)build / iterations / 1000.0, GB_PLAIN);
      gb_counter(st, "find_kcycles", (double)find / iterations / 1000.0, GB_PLAIN);
    }
    if (!c->count_only) {
      size_t missed;
      peer_exact(&boxes, &reported, &exact);
      gb_counter(st, "pairs", (double)exact.count, GB_PLAIN);
      if (missed_of_ours(&boxes, &exact, &missed))
        gb_counter(st, "missed_pairs", (double)missed, GB_PLAIN);
      else
        gb_skip(st, "the engine's re-tested pairs hold a pair our sweep and prune lacks");
    }
    col_pairs_free(&reported);
    col_pairs_free(&exact);
  }
  if (peer) c->peer->ops->destroy(peer);
  free(moved);
  free(delta);
  bench_scene_free(&s);
}

static void add(const peer_structure *p, bool count_only, int scene) {
  static peer_case cases[16 * 2 * SCENE_COUNT];
  static size_t used;
  if (used == sizeof cases / sizeof cases[0]) return;
  peer_case *c = &cases[used++];
  *c = (peer_case){p, count_only, scene};
  char name[128];
  snprintf(name, sizeof name, "broadphase/peer-%s-%s%s/%s", p->engine, p->name,
           count_only ? "-count" : "", bench_scene_name[scene]);
  gb_benchmark *b = gb_register(name, run, c);
  gb_unit(b, GB_MS);
  const bench_suite *suite = bench_active_suite;
  /* The published box-pruning sizes run whole (the report's comparisons name them); the other
   * scenes stop at the suite's peer_max. */
  const bool boxprune = scene == SCENE_BOXPRUNE3D || scene == SCENE_BOXPRUNE2D;
  int64_t limit = p->max_count ? (int64_t)p->max_count : 262144;
  if (!boxprune && limit > suite->peer_max) limit = suite->peer_max;
  const int64_t *a = boxprune ? suite->boxprune : suite->scene_counts;
  for (; *a != 0; a++)
    if (*a <= limit) gb_arg(b, *a);
  if (scene == SCENE_MOVING && suite->reference_sizes) gb_arg(b, 8192);
}

/* The touch rule as observed: box A = [0, 1]^2 and a box B placed by `probe`; does the engine
 * report the pair? Probes: B shares A's right edge (touch), B starts 2^-10 or 0.15 to the
 * right (gaps below Box2D's two fat margins), B lies above A with x overlapping (a y gap of 4). */
static const char *const probe_name[] = {"touch", "gap 2^-10", "gap 0.15", "x overlap & y gap 4"};
enum { PROBES = 4 };

static int probe(const peer_structure *p, int which) {
  static const float dx[PROBES] = {1.0f, 1.0f + 0x1p-10f, 1.15f, 0.0f};
  static const float dy[PROBES] = {0.0f, 0.0f, 0.0f, 5.0f};
  const float lo_x[2] = {0.0f, dx[which]}, lo_y[2] = {0.0f, dy[which]},
              hi_x[2] = {1.0f, dx[which] + 1.0f}, hi_y[2] = {1.0f, dy[which] + 1.0f}, z[2] = {0, 0};
  const col_boxes boxes = {2, {lo_x, lo_y, z}, {hi_x, hi_y, z}, 2};
  void *peer = p->ops->create(p->kind, true);
  if (peer == NULL || !p->ops->build(peer, &boxes)) {
    if (peer) p->ops->destroy(peer);
    return -1;
  }
  p->ops->find(peer);
  const int reported = (int)p->ops->reported_pairs(peer, NULL);
  p->ops->destroy(peer);
  return reported;
}

/* JSON context "peer_touch_rules": one line per structure, "engine-name: probe=0|1, ...". */
static void add_touch_rules(const peer_structure *const *list, size_t count) {
  char buf[4096] = "";
  for (size_t i = 0; i < count; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, sizeof buf - used, "%s%s-%s:", i ? "\n" : "", list[i]->engine,
             list[i]->name);
    for (int k = 0; k < PROBES; k++) {
      used = strlen(buf);
      snprintf(buf + used, sizeof buf - used, "%s %s=%d", k ? "," : "", probe_name[k],
               probe(list[i], k));
    }
  }
  gb_add_context("peer_touch_rules", buf);
}

void bench_register_peers(void);
void bench_register_peers(void) {
  const char *absent = peer_absent();
  if (absent[0] != '\0')
    fprintf(stderr, "bench: peer engines missing, their rows are skipped:\n%s", absent);
  const peer_structure *const *list;
  const size_t count = peer_structures(&list);
  add_touch_rules(list, count);
  for (size_t i = 0; i < count; i++)
    for (int count_only = 0; count_only < 2; count_only++) {
      if (list[i]->three_d) add(list[i], count_only, SCENE_BOXPRUNE3D);
      add(list[i], count_only, SCENE_BOXPRUNE2D);
      if (list[i]->ops->move) add(list[i], count_only, SCENE_MOVING);
      if (!count_only) add(list[i], false, SCENE_UNIFORM);
    }
}
