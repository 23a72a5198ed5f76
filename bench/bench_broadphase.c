/* Broadphase benchmarks: all overlapping pairs of N boxes, per algorithm, named
 * broadphase/<algorithm>/<backend>/<scene>/N. Brute force and sweep-and-prune run on each
 * native backend (their inner loop is the backend's query kernel); the grid tests pairs with
 * the scalar rule, so it appears once, as "scalar". Brute force stops at 16,384 boxes (N(N-1)/2
 * tests get too slow to repeat), except on the box-pruning scene's 10,000.
 * Scenes: bench_scenes.h (DESIGN.md 4.6), closed touch rule. In the moving scene each
 * iteration is one frame (bench_scene_step: a rotating tenth of the boxes moves); the
 * from-scratch algorithms recompute everything, tree-incremental and sap-incremental keep
 * col_broadphase_cache (the -listed forms tell it which boxes moved, as the engines are told).
 * Every case makes two untimed calls before its timed ones. Counters: pairs, tests, savings = 1 -
 * tests / (N(N-1)/2), kcycles_per_run (TSC), scratch_bytes (peak working memory of the run, from
 * col_broadphase_stats), pair_list_bytes (the pair list's memory after the run) and, for sweep
 * and prune, sap_cells (the cells of its grid it swept: 1 when it swept the set whole).
 * Scene files (bench_scene_files.h): every algorithm from scratch and every kept form, named
 * with the file's stem as the scene and its box count as N; each iteration is one frame. */
#include "bench.h"
#include "bench_scene_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  BOXPRUNE3D = SCENE_BOXPRUNE3D,
  BOXPRUNE2D = SCENE_BOXPRUNE2D,
  PLATFORMER = SCENE_PLATFORMER,
  MOVING = SCENE_MOVING,
  SCENES = SCENE_COUNT
};
/* The kept (incremental) forms, timed on the moving scene: col_broadphase_cache keeping one
 * algorithm, told every box (col_broadphase_cache_update) or, "-listed", which boxes moved
 * (col_broadphase_cache_update_moved), as the engines are. Each runs on every backend where its
 * algorithm uses the backend's kernels, else once (as "scalar"), like the from-scratch ones. */
typedef struct kept_form {
  const char *name;
  col_broadphase algorithm;
  bool listed;
} kept_form;
static const kept_form kept_forms[] = {
    {"sap-incremental", COL_BROADPHASE_SAP, false},
    {"sap-incremental-listed", COL_BROADPHASE_SAP, true},
    {"tree-incremental", COL_BROADPHASE_TREE, false},
    {"tree-incremental-listed", COL_BROADPHASE_TREE, true},
    {"grid-incremental", COL_BROADPHASE_GRID, false},
    {"grid-incremental-listed", COL_BROADPHASE_GRID, true},
};

typedef struct bp_case {
  col_broadphase algorithm; /* from scratch, or the one the cache keeps */
  const kept_form *kept;    /* NULL: from scratch */
  const char *backend;
  int scene;
  const bench_scene_file *file; /* a scene file's row (scene unused) */
  bool marks;                   /* the file's static marks: the static rule (-static rows) */
  struct bp_case *next;         /* the rows registered before it (all_cases) */
} bp_case;

/* Every registered row, kept for the whole run as the registration needs (and reachable, so a
 * leak checker does not report them). */
static bp_case *all_cases;

static bench_scene scenes[SCENES];

static const bench_scene *make_scene(int which, size_t n) {
  bench_scene *s = &scenes[which];
  if (s->n != n) bench_scene_fill(s, which, n);
  return s;
}

/* One call of a row: from scratch, or the cache told every box or (listed, `moved` given) the
 * moved ones. */
static col_status call(const bp_case *c, col_broadphase_cache *cache, const col_boxes *boxes,
                       const uint32_t *moved, size_t moved_count, col_pairs *pairs,
                       col_broadphase_stats *stats) {
  if (c->kept != NULL && c->kept->listed && moved != NULL)
    return col_broadphase_cache_update_moved(cache, boxes, moved, moved_count, COL_TOUCH_OVERLAPS,
                                             pairs, stats);
  if (c->kept != NULL)
    return col_broadphase_cache_update(cache, boxes, COL_TOUCH_OVERLAPS, pairs, stats);
  if (c->marks)
    return col_broadphase_pairs_static(c->algorithm, boxes, c->file->scene.is_static,
                                       COL_TOUCH_OVERLAPS, pairs, stats);
  return col_broadphase_pairs(c->algorithm, boxes, COL_TOUCH_OVERLAPS, pairs, stats);
}

/* A row's cache, set to its algorithm (a kept form's row; from scratch, none), then two untimed
 * calls, as a game loop's first frames: the pair list and the working memory it keeps reach
 * their size in the first (a fresh process would otherwise time page faults and the list's
 * growth; the engines likewise build before their timed frames), and the second still ran 5x
 * slower than the later ones at 100,000 boxes in 2D on this VM (171 M against 34 M TSC cycles
 * with no page fault: memory first touched on the host). A call over two seconds gets no second
 * one (its share of that cost is small, and the suite's budget would not hold). `moved`: as
 * call(), with none moved. */
static col_status open_row(const bp_case *c, col_broadphase_cache **cache, const col_boxes *boxes,
                           const uint32_t *moved, col_pairs *pairs, col_broadphase_stats *stats) {
  *cache = NULL;
  col_status all = c->kept != NULL ? col_broadphase_cache_create(cache) : COL_OK;
  if (all == COL_OK && c->kept != NULL)
    all = col_broadphase_cache_set_algorithm(*cache, c->algorithm);
  if (all == COL_OK && c->kept != NULL && c->marks)
    all = col_broadphase_cache_set_static(*cache, c->file->scene.is_static, c->file->scene.count);
  const uint64_t warm_limit = (uint64_t)(2e9 * bench_tsc_ghz()); /* a second only if cheap */
  for (int warm = 0; warm < 2 && all == COL_OK; warm++) {
    const uint64_t w0 = bench_tsc();
    all = call(c, *cache, boxes, moved, 0, pairs, stats);
    if (bench_tsc() - w0 > warm_limit) break;
  }
  return all;
}

/* The counters of every row: bench_finish, tests, savings, kcycles_per_run, pair_list_bytes and
 * scratch_bytes. */
static void finish_row(gb_state *st, size_t n, uint64_t ticks, const col_broadphase_stats *stats,
                       const col_pairs *pairs) {
  bench_finish(st, (int64_t)n, ticks);
  const double all_pairs = (double)n * ((double)n - 1) / 2.0;
  gb_counter(st, "tests", (double)stats->tests, GB_PLAIN);
  gb_counter(st, "savings", all_pairs > 0 ? 1.0 - (double)stats->tests / all_pairs : 0.0, GB_PLAIN);
  gb_counter(st, "kcycles_per_run", (double)ticks / (double)gb_iteration_count(st) / 1000.0,
             GB_PLAIN);
  gb_counter(st, "pair_list_bytes", (double)(pairs->capacity * sizeof(col_pair)), GB_PLAIN);
  gb_counter(st, "scratch_bytes", (double)stats->scratch_bytes, GB_PLAIN);
}

static void run_file(gb_state *st, const bp_case *c);

static void run(gb_state *st, void *user) {
  const bp_case *c = user;
  if (c->file != NULL) {
    run_file(st, c);
    return;
  }
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, c->backend)) return;
  /* The moving scene gets its own copy: its boxes drift. */
  bench_scene own = {0};
  const bench_scene *s;
  if (c->scene == MOVING) {
    bench_scene_fill(&own, MOVING, n);
    s = &own;
  } else {
    s = make_scene(c->scene, n);
  }
  const col_boxes boxes = bench_scene_boxes(s);
  col_pairs pairs = {0};
  col_broadphase_stats stats = {0, 0, 0, 0};
  const bool cached = c->kept != NULL, listed = cached && c->kept->listed;
  col_broadphase_cache *cache;
  /* The first calls are told every box (the moved list starts with the frames). */
  col_status all = open_row(c, &cache, &boxes, NULL, &pairs, &stats);
  uint32_t *moved = listed ? malloc((n ? n : 1) * sizeof(uint32_t)) : NULL;
  if (listed && moved == NULL) all = COL_ERR_MEMORY;
  size_t moved_count = 0;
  uint64_t rng = 25, frame = 0;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    if (c->scene == MOVING) moved_count = bench_scene_step(&own, &rng, frame++, moved, NULL);
    if (listed)
      all |= col_broadphase_cache_update_moved(cache, &boxes, moved, moved_count,
                                               COL_TOUCH_OVERLAPS, &pairs, &stats);
    else if (cached)
      all |= col_broadphase_cache_update(cache, &boxes, COL_TOUCH_OVERLAPS, &pairs, &stats);
    else
      all |= col_broadphase_pairs(c->algorithm, &boxes, COL_TOUCH_OVERLAPS, &pairs, &stats);
    gb_do_not_optimize(pairs.data);
  }
  const uint64_t ticks = bench_tsc() - t0;
  col_broadphase_cache_destroy(cache);
  free(moved);
  bench_scene_free(&own);
  if (all != COL_OK) {
    gb_skip(st, "broadphase failed");
    col_pairs_free(&pairs);
    return;
  }
  finish_row(st, n, ticks, &stats, &pairs);
  gb_counter(st, "pairs", (double)stats.pairs, GB_PLAIN);
  /* Sweep and prune's path (1: the set swept whole), so a row says which path it timed. */
  if (c->algorithm == COL_BROADPHASE_SAP && !cached)
    gb_counter(st, "sap_cells", (double)stats.cells, GB_PLAIN);
  col_pairs_free(&pairs);
}

/* A scene file's row: two untimed calls on frame 0, then each iteration the next frame in the
 * file's walk (bench_scene_file_step), the -listed forms told the boxes that differ from the
 * frame before (found outside the timed calls, which alone are counted). After timing, two
 * untimed calls, on the last frame and then on the first (the kept forms updated to each), give
 * pairs_last and pairs: the same counts from every structure that finds the exact pairs. */
static void run_file(gb_state *st, const bp_case *c) {
  const bench_scene_file *f = c->file;
  if (!bench_select(st, c->backend)) return;
  const size_t n = f->scene.count;
  col_pairs pairs = {0};
  col_broadphase_stats stats = {0, 0, 0, 0};
  const bool listed = c->kept != NULL && c->kept->listed;
  uint32_t *moved = bench_alloc((n ? n : 1) * sizeof(uint32_t));
  col_boxes boxes = bench_scene_file_frame(f, 0);
  col_broadphase_cache *cache;
  col_status all = open_row(c, &cache, &boxes, moved, &pairs, &stats);
  size_t at = 0, moved_count = 0;
  uint64_t step = 0, ticks = 0;
  bench_walks walks;
  bench_walks_start(&walks, f);
  while (gb_keep_running(st)) {
    const size_t next = bench_scene_file_step(f, ++step);
    boxes = bench_scene_file_frame(f, next);
    if (listed) moved_count = bench_scene_file_moved(f, at, next, moved, NULL);
    at = next;
    const uint64_t t0 = bench_tsc();
    all |= call(c, cache, &boxes, moved, moved_count, &pairs, &stats);
    const uint64_t t = bench_tsc() - t0;
    ticks += t;
    bench_walks_step(&walks, t);
    gb_do_not_optimize(pairs.data);
  }
  size_t counts[2] = {0, 0};
  const size_t ends[2] = {f->scene.frames - 1, 0};
  for (int e = 0; e < 2 && all == COL_OK; e++) {
    boxes = bench_scene_file_frame(f, ends[e]);
    if (listed) moved_count = bench_scene_file_moved(f, at, ends[e], moved, NULL);
    at = ends[e];
    all = call(c, cache, &boxes, moved, moved_count, &pairs, NULL);
    counts[e] = pairs.count;
  }
  col_broadphase_cache_destroy(cache);
  free(moved);
  if (all != COL_OK) {
    gb_skip(st, "broadphase failed");
    col_pairs_free(&pairs);
    return;
  }
  finish_row(st, n, ticks, &stats, &pairs);
  bench_walks_counters(st, &walks);
  gb_counter(st, "pairs", (double)counts[1], GB_PLAIN);
  gb_counter(st, "pairs_last", (double)counts[0], GB_PLAIN);
  gb_counter(st, "frames", (double)f->scene.frames, GB_PLAIN);
  col_pairs_free(&pairs);
}

/* Registers one row, broadphase/<algorithm or kept form>/<backend>/<scene or file stem>: a
 * scene file's at its box count, a built-in scene's at the suite's sizes for it. */
static void add(col_broadphase algorithm, const kept_form *kept, const char *backend, int which,
                const bench_scene_file *f, bool marks) {
  bp_case *c = calloc(1, sizeof *c);
  if (c == NULL) return;
  *c = (bp_case){algorithm, kept, backend, which, f, marks, all_cases};
  all_cases = c;
  char name[160];
  col_broadphase_info info = {"?", algorithm, false, true, true};
  col_broadphase_at((size_t)algorithm, &info);
  snprintf(name, sizeof name, "broadphase/%s%s/%s/%s", kept != NULL ? kept->name : info.name,
           marks ? "-static" : "", backend, f != NULL ? f->name : bench_scene_name[which]);
  gb_benchmark *b = gb_register(name, run, c);
  gb_unit(b, GB_MS);
  if (f != NULL) {
    gb_arg(b, (int64_t)f->scene.count);
    return;
  }
  const bench_suite *suite = bench_active_suite;
  if (which == BOXPRUNE3D || which == BOXPRUNE2D) {
    /* Brute force runs the published 10,000 (50 million tests) but not 100,000. */
    const bool heavy = algorithm == COL_BROADPHASE_BRUTE;
    for (const int64_t *a = suite->boxprune; *a != 0; a++)
      if (!heavy || *a <= 10000) gb_arg(b, *a);
    return;
  }
  if (kept != NULL && kept->listed) { /* the engines' comparison size */
    gb_arg(b, 8192);
    return;
  }
  const int64_t limit = algorithm == COL_BROADPHASE_BRUTE        ? suite->quadratic_max
                        : which == MOVING || which == PLATFORMER ? 262144
                                                                 : INT64_MAX;
  int64_t largest = 0;
  for (const int64_t *a = suite->scene_counts; *a != 0; a++)
    if (*a <= limit) gb_arg(b, *a), largest = *a;
  if (suite->reference_sizes) gb_arg(b, which == MOVING ? 8192 : 10000);
  /* The report names sweep and prune on a million uniform boxes (no regression there). */
  if (suite->reference_sizes && which == SCENE_UNIFORM && kept == NULL &&
      algorithm == COL_BROADPHASE_SAP && largest < 1048576)
    gb_arg(b, 1048576);
}

/* An algorithm's rows (from scratch, or `kept` when not NULL) on a built-in scene or a scene
 * file: one per backend when its inner loop runs the backend's kernels (the kept grid's look-ups
 * take the backend's width too), else one, "scalar"; on a built-in level only the first backend
 * (the widest). `marks`: the static rule's rows of a file with static marks. */
static void add_on_backends(col_broadphase algorithm, const kept_form *kept,
                            const col_backend_info *backends, size_t nb, int which,
                            const bench_scene_file *f, bool marks) {
  col_broadphase_info info = {"?", algorithm, false, true, true};
  col_broadphase_at((size_t)algorithm, &info);
  if (!info.uses_backend && !(kept != NULL && algorithm == COL_BROADPHASE_GRID)) {
    add(algorithm, kept, "scalar", which, f, marks);
    return;
  }
  if (f != NULL && f->level) nb = nb < 1 ? nb : 1;
  for (size_t b = 0; b < nb; b++) add(algorithm, kept, backends[b].name, which, f, marks);
}

/* Brute force runs on a file scene up to the suite's quadratic limit, and on a one-frame scene
 * of up to this many boxes (a few seconds at most: 100,000 boxes are 5 G tests): the yardstick
 * "no algorithm slower than brute force" needs on real meshes and levels. */
#define FILE_BRUTE_ONE_FRAME 131072

/* Every algorithm that takes the file's dims from scratch, and every kept form when the file
 * has frames to keep pairs across (on one frame a kept form times nothing but a lookup), on the
 * backends as for the built-in scenes. */
static void register_files(const col_backend_info *backends, size_t nb) {
  const bench_scene_file *f;
  for (size_t k = 0; (f = bench_scene_file_at(k)) != NULL; k++) {
    for (size_t a = 0; a < col_broadphase_count(); a++) {
      col_broadphase_info info;
      if (!col_broadphase_at(a, &info) || !(f->scene.dims == 2 ? info.two_d : info.three_d))
        continue;
      if (info.algorithm == COL_BROADPHASE_BRUTE &&
          f->scene.count > (size_t)bench_active_suite->quadratic_max &&
          (f->scene.frames > 1 || f->scene.count > FILE_BRUTE_ONE_FRAME))
        continue;
      for (int marks = 0; marks < 1 + (f->scene.is_static != NULL); marks++)
        add_on_backends(info.algorithm, NULL, backends, nb, 0, f, marks);
    }
    for (size_t i = 0; f->scene.frames > 1 && i < sizeof kept_forms / sizeof kept_forms[0]; i++)
      for (int marks = 0; marks < 1 + (f->scene.is_static != NULL); marks++)
        add_on_backends(kept_forms[i].algorithm, &kept_forms[i], backends, nb, 0, f, marks);
  }
}

void bench_register_broadphase(void);
void bench_register_broadphase(void) {
  /* Every registered algorithm: those that run the backend's kernels on each native backend,
   * the others once (as "scalar"); brute force not on the moving scene (per frame it says
   * nothing new); then the kept (incremental) forms on the moving scene. */
  col_backend_info backends[BENCH_MAX_BACKENDS];
  const size_t nb =
      bench_kernel_backends(backends, BENCH_MAX_BACKENDS,
                            COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB3_QUERY | COL_KERNEL_SAP_RUN);
  for (int which = 0; which < SCENES && !bench_scene_only(); which++) {
    for (size_t a = 0; a < col_broadphase_count(); a++) {
      col_broadphase_info info;
      if (!col_broadphase_at(a, &info)) continue;
      if (which == MOVING && info.algorithm == COL_BROADPHASE_BRUTE) continue;
      add_on_backends(info.algorithm, NULL, backends, nb, which, NULL, false);
    }
    for (size_t f = 0; which == MOVING && f < sizeof kept_forms / sizeof kept_forms[0]; f++)
      add_on_backends(kept_forms[f].algorithm, &kept_forms[f], backends, nb, which, NULL, false);
  }
  register_files(backends, nb);
}
