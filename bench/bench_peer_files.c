/* Peer engines' broadphases on scene files (bench_scene_files.h), as on the built-in scenes:
 *   broadphase/peer-<engine>-<structure>/<stem>/N: from scratch, own store, each iteration a
 *     fresh structure built on the next frame of the file's walk and its pairs found
 *     (kcycles_per_run = build_kcycles + find_kcycles, per frame);
 *   broadphase/peer-<engine>-<structure>-incremental/<stem>/N: on a file of two frames or more,
 *     structures with a per-frame update, built once on frame 0, then each iteration the next
 *     frame: the boxes that differ from the frame before (found outside the timed part, with
 *     their min x and y change as the displacement) updated, and the engine's pairs with them
 *     (kcycles_per_run: the update).
 * Every structure that takes the file's dims; past a structure's max_count the row is skipped
 * with the reason. After timing, untimed: the last frame, then frame 0 (rebuilt, or the
 * incremental rows moved there), the engine's pairs re-tested with the closed rule: pairs_last,
 * pairs and missed_pairs (against our sweep and prune on frame 0), engine_pairs as reported. */
#include "bench.h"
#include "bench_peers.h"
#include "bench_scene_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct file_case {
  const peer_structure *peer;
  const bench_scene_file *file;
  int scene; /* SCENE_COUNT + the file's index: our pairs' key */
  bool incremental;
  bool marks;             /* the engine's static rule on the file's static marks (-static rows) */
  struct file_case *next; /* the rows registered before it (all_cases) */
} file_case;

/* Every registered row, kept for the whole run as the registration needs (and reachable, so a
 * leak checker does not report them). */
static file_case *all_cases;

/* The engine's reported and re-tested lists, their memory kept from row to row. */
static col_pairs reported, exact;

/* Brings the engine from frame `from` to frame `to`: rebuilt, or (incremental) the boxes that
 * differ moved, outside the row's timing when `st` is not NULL (the game finds which boxes
 * moved). Adds the TSC ticks of the engine's part to *build and *find (an update counts as
 * find); false when the engine refused the boxes. */
static bool go_to(gb_state *st, const file_case *c, void *peer, size_t from, size_t to,
                  uint32_t *moved, float *delta, uint64_t *build, uint64_t *find) {
  const col_boxes boxes = bench_scene_file_frame(c->file, to);
  if (!c->incremental) return bench_peer_rebuild(st, c->peer, peer, &boxes, build, find);
  if (st != NULL) gb_pause(st);
  const size_t m = bench_scene_file_moved(c->file, from, to, moved, delta);
  if (st != NULL) gb_resume(st);
  const uint64_t t0 = bench_tsc();
  c->peer->ops->move(peer, &boxes, moved, delta, m);
  *find += bench_tsc() - t0;
  return true;
}

static void run(gb_state *st, void *user) {
  const file_case *c = user;
  const bench_scene_file *f = c->file;
  const size_t n = f->scene.count;
  if (c->peer->max_count != 0 && n > c->peer->max_count) {
    char why[128];
    snprintf(why, sizeof why, "%zu boxes: over this structure's limit of %zu", n,
             c->peer->max_count);
    gb_skip(st, why);
    return;
  }
  void *peer = c->peer->ops->create(c->peer->kind, false);
  if (peer != NULL && c->marks) c->peer->ops->set_static(peer, f->scene.is_static);
  uint32_t *moved = bench_alloc((n ? n : 1) * sizeof *moved);
  float *delta = bench_alloc((n ? n : 1) * 2 * sizeof *delta);
  bool ok = peer != NULL;
  uint64_t build = 0, find = 0, step = 0, untimed[2] = {0, 0};
  size_t at = 0;
  if (ok && c->incremental) {
    const col_boxes first = bench_scene_file_frame(f, 0);
    ok = bench_peer_rebuild(NULL, c->peer, peer, &first, &untimed[0], &untimed[1]);
  }
  bench_walks walks;
  bench_walks_start(&walks, f);
  while (ok && gb_keep_running(st)) {
    const size_t next = bench_scene_file_step(f, ++step);
    const uint64_t before = build + find;
    ok = go_to(st, c, peer, at, next, moved, delta, &build, &find);
    bench_walks_step(&walks, build + find - before);
    at = next;
  }
  /* Untimed: the last frame's exact pairs, then frame 0's, compared with ours. */
  size_t pairs_last = 0, engine_pairs = 0;
  const size_t ends[2] = {f->scene.frames - 1, 0};
  for (int e = 0; e < 2 && ok; e++) {
    ok = go_to(NULL, c, peer, at, ends[e], moved, delta, &untimed[0], &untimed[1]);
    at = ends[e];
    if (!ok) break;
    reported.count = 0;
    engine_pairs = c->peer->ops->reported_pairs(peer, &reported);
    const col_boxes boxes = bench_scene_file_frame(f, ends[e]);
    peer_exact(&boxes, &reported, &exact);
    if (e == 0) pairs_last = exact.count;
  }
  if (!ok) {
    gb_skip(st, "the engine refused the scene");
  } else {
    bench_peer_counters(st, n, engine_pairs, build, find, !c->incremental);
    bench_walks_counters(st, &walks);
    gb_counter(st, "pairs_last", (double)pairs_last, GB_PLAIN);
    gb_counter(st, "frames", (double)f->scene.frames, GB_PLAIN);
    /* The exact set left by the loop above is frame 0's, the frame ours is kept for. */
    const col_boxes first = bench_scene_file_frame(f, 0);
    bench_peer_exact_counters(st, c->scene, &first, c->marks ? f->scene.is_static : NULL, &exact);
  }
  if (peer) c->peer->ops->destroy(peer);
  free(moved);
  free(delta);
}

static void add(const peer_structure *p, const bench_scene_file *f, int scene, bool incremental,
                bool marks) {
  file_case *c = calloc(1, sizeof *c);
  if (c == NULL) return;
  *c = (file_case){p, f, scene, incremental, marks, all_cases};
  all_cases = c;
  char name[192];
  snprintf(name, sizeof name, "broadphase/peer-%s-%s%s%s/%s", p->engine, p->name,
           incremental ? "-incremental" : "", marks ? "-static" : "", f->name);
  gb_benchmark *b = gb_register(name, run, c);
  gb_unit(b, GB_MS);
  gb_arg(b, (int64_t)f->scene.count);
}

/* On the built-in levels the default suite leaves out the structures that test every pair
 * (Bullet's and ODE's simple spaces, FCL's naive manager: 0.1-0.4 s a frame on the dense
 * levels) and FCL's sweep and prune (its per-frame update, 35 s of the levels' 3 minutes): none
 * is a level's fastest peer by a factor of 3 or more, and the suite's budget would not hold. The
 * full suite and a user's scene files run every structure. */
static bool left_out_on_levels(const peer_structure *p) {
  static const char *const slow[][2] = {
      {"bullet", "simple"}, {"ode", "simple"}, {"fcl", "naive"}, {"fcl", "sap"}};
  if (strcmp(bench_active_suite->name, "default") != 0) return false;
  for (size_t k = 0; k < sizeof slow / sizeof slow[0]; k++)
    if (strcmp(p->engine, slow[k][0]) == 0 && strcmp(p->name, slow[k][1]) == 0) return true;
  return false;
}

void bench_register_peer_files(const peer_structure *const *list, size_t count) {
  const bench_scene_file *f;
  for (size_t k = 0; (f = bench_scene_file_at(k)) != NULL; k++)
    for (size_t i = 0; i < count; i++) {
      if (f->scene.dims == 3 && !list[i]->three_d) continue;
      if (f->level && left_out_on_levels(list[i])) continue;
      /* A built-in level: the engines' per-frame rows only (from scratch says little there). */
      if (!f->level) add(list[i], f, SCENE_COUNT + (int)k, false, false);
      /* Told each frame's changes: on one frame there are none to tell. */
      if (list[i]->ops->move == NULL || f->scene.frames < 2) continue;
      add(list[i], f, SCENE_COUNT + (int)k, true, false);
      /* The engine's own static rule on the file's static marks, where it has one. */
      if (f->scene.is_static != NULL && list[i]->ops->set_static != NULL)
        add(list[i], f, SCENE_COUNT + (int)k, true, true);
    }
}
