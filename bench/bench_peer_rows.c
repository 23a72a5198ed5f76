/* What a peer row does the same on the built-in scenes (bench_peers.c) and on scene files
 * (bench_peer_files.c): one from-scratch frame, the timing counters, and the re-test against our
 * sweep and prune's pairs (bench_peers.h). A file of its own so that both call down into it. */
#include "bench.h"
#include "bench_peers.h"

#include <stdio.h>
#include <stdlib.h>

/* Our sweep and prune's pairs on a from-scratch scene (or a scene file's frame 0), sorted, kept for
 * the other engines' rows at the same scene and size (their boxes are the same: bench_scene_fill is
 * deterministic). At boxprune2d 100,000 that is 18.7 million pairs, about three seconds to find,
 * sort and fault in, once per engine before. The moving scene is never kept (its boxes depend
 * on the frames run), nor past KEPT_MAX scenes and sizes. */
enum { KEPT_MAX = 64 };
static struct {
  int scene;
  size_t n;
  col_pairs pairs;
} kept[KEPT_MAX];
static size_t kept_count;
static col_pairs unkept;

static const col_pairs *ours_sorted(int scene, const col_boxes *boxes, const uint8_t *marks) {
  const bool keep = scene != SCENE_MOVING;
  const int key = marks != NULL ? -1 - scene : scene; /* the static rule's pairs apart */
  if (keep)
    for (size_t k = 0; k < kept_count; k++)
      if (kept[k].scene == key && kept[k].n == boxes->count) return &kept[k].pairs;
  col_pairs *ours = keep && kept_count < KEPT_MAX ? &kept[kept_count].pairs : &unkept;
  if (col_broadphase_pairs_static(COL_BROADPHASE_SAP, boxes, marks, COL_TOUCH_OVERLAPS, ours,
                                  NULL) != COL_OK) {
    fprintf(stderr, "bench: our sweep and prune failed\n");
    exit(1);
  }
  peer_sort(ours);
  if (ours != &unkept) kept[kept_count].scene = key, kept[kept_count++].n = boxes->count;
  return ours;
}

/* How many of our pairs (sweep and prune, same boxes) the engine's sorted exact set lacks;
 * false when it holds a pair we do not (which the closed-rule re-test should make impossible). */
static bool missed_of_ours(int scene, const col_boxes *boxes, const uint8_t *marks,
                           const col_pairs *exact, size_t *missed) {
  const col_pairs *ours = ours_sorted(scene, boxes, marks);
  size_t k = 0;
  *missed = 0;
  for (size_t j = 0; j < ours->count; j++) {
    const bool both = k < exact->count && exact->data[k].a == ours->data[j].a &&
                      exact->data[k].b == ours->data[j].b;
    k += both, *missed += !both;
  }
  return k == exact->count;
}

void bench_peer_exact_counters(gb_state *st, int scene, const col_boxes *boxes,
                               const uint8_t *marks, const col_pairs *exact) {
  size_t missed;
  gb_counter(st, "pairs", (double)exact->count, GB_PLAIN);
  if (missed_of_ours(scene, boxes, marks, exact, &missed))
    gb_counter(st, "missed_pairs", (double)missed, GB_PLAIN);
  else
    gb_skip(st, "the engine's re-tested pairs hold a pair our sweep and prune lacks");
}

bool bench_peer_rebuild(gb_state *st, const peer_structure *p, void *peer, const col_boxes *boxes,
                        uint64_t *build, uint64_t *find) {
  if (st != NULL) gb_pause(st);
  p->ops->clear(peer);
  if (st != NULL) gb_resume(st);
  const uint64_t t0 = bench_tsc();
  const bool ok = p->ops->build(peer, boxes);
  const uint64_t t1 = bench_tsc();
  if (ok) p->ops->find(peer);
  const uint64_t t2 = bench_tsc();
  *build += t1 - t0, *find += t2 - t1;
  return ok;
}

void bench_peer_counters(gb_state *st, size_t n, size_t engine_pairs, uint64_t build, uint64_t find,
                         bool from_scratch) {
  const double iterations = (double)gb_iteration_count(st);
  bench_finish(st, (int64_t)n, build + find);
  gb_counter(st, "engine_pairs", (double)engine_pairs, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", (double)(build + find) / iterations / 1000.0, GB_PLAIN);
  if (from_scratch) {
    gb_counter(st, "build_kcycles", (double)build / iterations / 1000.0, GB_PLAIN);
    gb_counter(st, "find_kcycles", (double)find / iterations / 1000.0, GB_PLAIN);
  }
}
