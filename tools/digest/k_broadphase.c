/* The digest's broadphase kernels: every algorithm of the registry (user ones included), the
 * bipartite sweep, the parallel calls on a task system that runs its tasks in turn on the
 * calling thread (threads change no answer, and WebAssembly has none), the static rule (every
 * algorithm, the parallel call), and the kept cache over frames in its three forms, with and
 * without static marks, with its began and ended pairs. Pair lists are digested sorted: the
 * order is not part of the answer. */
#include "digest.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct box_set {
  col_boxes b;
  float *v[6];
} box_set;

/* n boxes: mostly a few dozen, one input in six past 256 (sweep and prune's grid of cells)
 * and up to 1,500; spread so that a box meets a few others; some inputs with no special value
 * (the fast paths for finite boxes), the rest with one in about 60 special. */
static box_set draw_boxes(dg_ctx *c, unsigned dims, size_t n) {
  box_set s;
  s.b.dims = dims;
  s.b.count = n;
  const float spread =
      (float)(1u << (2 * dg_below(c, 4))) * (n > 64 ? 0.25f * (float)n / 64.0f : 1.0f);
  const unsigned special = dg_chance(c, 128) ? 0 : 4;
  for (unsigned a = 0; a < 3; a++) {
    s.v[a] = a < dims ? dg_alloc(n * sizeof(float)) : NULL;
    s.v[3 + a] = a < dims ? dg_alloc(n * sizeof(float)) : NULL;
    s.b.min[a] = s.v[a], s.b.max[a] = s.v[3 + a];
  }
  for (size_t i = 0; i < n; i++)
    for (unsigned a = 0; a < dims; a++) {
      const float lo = dg_coord(c, special) * spread;
      s.v[a][i] = lo;
      s.v[3 + a][i] = dg_chance(c, 4) ? dg_coord(c, special) : lo + dg_size(c, special);
    }
  return s;
}

static size_t draw_count(dg_ctx *c) {
  const uint32_t k = dg_below(c, 12);
  return k < 7 ? dg_below(c, 40) : k < 10 ? dg_below(c, 300) : 256 + dg_below(c, 1245);
}

static void show_boxes(dg_ctx *c, const char *name, const box_set *s) {
  if (!dg_showing(c)) return;
  static const char *axis[6] = {"min x", "min y", "min z", "max x", "max y", "max z"};
  dg_in_int(c, name, (int64_t)s->b.count);
  for (unsigned a = 0; a < 6; a++)
    if (s->v[a]) dg_in_floats(c, axis[a], s->v[a], s->b.count);
}

static void free_boxes(box_set *s) {
  for (int a = 0; a < 6; a++) free(s->v[a]);
}

static void out_sorted(dg_ctx *c, const char *name, col_status st, col_pairs *p) {
  dg_out_status(c, "status", st);
  if (st != COL_OK) return;
  col_pairs_sort(p);
  dg_out_pairs(c, name, p);
}

static void pairs(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  col_broadphase_info info;
  col_broadphase_at((size_t)k->arg, &info);
  unsigned dims = index % 2 ? 3 : 2;
  if (!info.two_d) dims = 3;
  if (!info.three_d) dims = 2;
  box_set s = draw_boxes(c, dims, draw_count(c));
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
  show_boxes(c, "boxes", &s);
  dg_in_int(c, "touch", touch);
  col_pairs p;
  col_pairs_init(&p);
  col_broadphase_stats stats;
  out_sorted(c, "pairs", col_broadphase_pairs(info.algorithm, &s.b, touch, &p, &stats), &p);
  col_pairs_free(&p);
  free_boxes(&s);
}

/* Static marks for n boxes: about one in two (several nonzero values). */
static uint8_t *draw_marks(dg_ctx *c, size_t n) {
  uint8_t *m = dg_alloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) m[i] = dg_chance(c, 128) ? (uint8_t)(1 + dg_below(c, 255)) : 0;
  return m;
}

static void show_marks(dg_ctx *c, const uint8_t *m, size_t n) {
  if (!dg_showing(c)) return;
  uint32_t *w = dg_alloc((n ? n : 1) * sizeof *w);
  for (size_t i = 0; i < n; i++) w[i] = m[i];
  dg_in_u32s(c, "static marks", w, n);
  free(w);
}

/* The static rule from scratch: k->arg the algorithm, or -1 the parallel call (in turn). */
static bool run_in_turn(void *user, col_task_fn *fn, void *context, uint32_t count);
static void pairs_static(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  col_broadphase_info info = {"sap", COL_BROADPHASE_SAP, true, true, true};
  if (k->arg >= 0) col_broadphase_at((size_t)k->arg, &info);
  unsigned dims = index % 2 ? 3 : 2;
  if (!info.two_d) dims = 3;
  if (!info.three_d) dims = 2;
  box_set s = draw_boxes(c, dims, draw_count(c));
  uint8_t *marks = draw_marks(c, s.b.count);
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
  show_boxes(c, "boxes", &s);
  show_marks(c, marks, s.b.count);
  dg_in_int(c, "touch", touch);
  col_pairs p;
  col_pairs_init(&p);
  col_broadphase_stats stats;
  const col_task_system tasks = {run_in_turn, NULL, 3};
  const col_parallel par = {&tasks, 3, false};
  const col_status st =
      k->arg < 0 ? col_broadphase_pairs_parallel_static(&s.b, marks, touch, &par, &p, &stats)
                 : col_broadphase_pairs_static(info.algorithm, &s.b, marks, touch, &p, &stats);
  out_sorted(c, "pairs", st, &p);
  col_pairs_free(&p);
  free(marks);
  free_boxes(&s);
}

static void bipartite(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k;
  const unsigned dims = index % 2 ? 3 : 2;
  box_set a = draw_boxes(c, dims, draw_count(c)), b = draw_boxes(c, dims, draw_count(c));
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
  show_boxes(c, "first", &a);
  show_boxes(c, "second", &b);
  dg_in_int(c, "touch", touch);
  col_pairs p;
  col_pairs_init(&p);
  col_broadphase_stats stats;
  out_sorted(c, "pairs", col_broadphase_bipartite(&a.b, &b.b, touch, &p, &stats), &p);
  col_pairs_free(&p);
  free_boxes(&a), free_boxes(&b);
}

/* A task system that runs every task in turn on the calling thread. */
static bool run_in_turn(void *user, col_task_fn *fn, void *context, uint32_t count) {
  (void)user;
  for (uint32_t i = 0; i < count; i++) fn(context, i);
  return true;
}

static void parallel(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  const unsigned dims = index % 2 ? 3 : 2;
  /* The parallel forms start at 256 boxes: most inputs are past that. */
  const size_t n = dg_chance(c, 64) ? dg_below(c, 256) : 256 + dg_below(c, 1745);
  box_set s = draw_boxes(c, dims, n);
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
  const uint32_t workers = 2 + dg_below(c, 4);
  show_boxes(c, "boxes", &s);
  dg_in_int(c, "touch", touch);
  dg_in_int(c, "workers", workers);
  const col_task_system tasks = {run_in_turn, NULL, workers};
  const col_parallel par = {&tasks, workers, false};
  col_pairs p;
  col_pairs_init(&p);
  col_broadphase_stats stats;
  const col_status st = k->arg
                            ? col_broadphase_pairs_parallel_any_order(&s.b, touch, &par, &p, &stats)
                            : col_broadphase_pairs_parallel(&s.b, touch, &par, &p, &stats);
  out_sorted(c, "pairs", st, &p);
  col_pairs_free(&p);
  free_boxes(&s);
}

/* Six frames of one box set through a kept cache: each frame some boxes move a little, some
 * far, some turn NaN (removed) or come back; the form in k->arg & 3 (tree, sweep and prune,
 * grid), told which moved (k->arg & 4) or not, static marks (k->arg & 8; then each frame's
 * began and ended pairs too, and in one input of four most boxes move in one frame). */
static void cache(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  const unsigned dims = index % 2 ? 3 : 2;
  box_set s = draw_boxes(c, dims, draw_count(c));
  const bool marked = k->arg & 8;
  uint8_t *marks = marked ? draw_marks(c, s.b.count) : NULL;
  const int most_move = marked && dg_chance(c, 64) ? 1 + (int)dg_below(c, 5) : 0;
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_OVERLAPS : COL_TOUCH_SEPARATES;
  show_boxes(c, "frame 0", &s);
  if (marked) show_marks(c, marks, s.b.count);
  dg_in_int(c, "touch", touch);
  col_broadphase_cache *cache = NULL;
  static const col_broadphase forms[3] = {COL_BROADPHASE_TREE, COL_BROADPHASE_SAP,
                                          COL_BROADPHASE_GRID};
  col_status st = col_broadphase_cache_create(&cache);
  if (st == COL_OK) st = col_broadphase_cache_set_algorithm(cache, forms[k->arg & 3]);
  if (st == COL_OK && marked) st = col_broadphase_cache_set_static(cache, marks, s.b.count);
  if (st == COL_OK && marked) st = col_broadphase_cache_track_changes(cache, true);
  dg_out_status(c, "create", st);
  const size_t n = s.b.count;
  uint32_t *moved = dg_alloc(n * sizeof *moved);
  col_pairs p;
  col_pairs_init(&p);
  for (int frame = 0; frame < 6 && st == COL_OK; frame++) {
    size_t m = 0;
    if (frame > 0) {
      const uint32_t rate = frame == most_move ? 200 : dg_below(c, 4) == 0 ? 128 : 16;
      for (size_t i = 0; i < n; i++) {
        if (!dg_chance(c, rate)) continue;
        moved[m++] = (uint32_t)i;
        const float step = dg_chance(c, 32) ? dg_coord(c, 8) * 16.0f : dg_coord(c, 0) / 8.0f;
        for (unsigned a = 0; a < dims; a++) {
          const float d = a == 0 ? step : dg_coord(c, 0) / 16.0f;
          s.v[a][i] += d, s.v[3 + a][i] += d;
        }
      }
      if (dg_showing(c)) {
        char name[32];
        snprintf(name, sizeof name, "frame %d", frame);
        show_boxes(c, name, &s);
      }
    }
    col_broadphase_stats stats;
    st = k->arg & 4 ? col_broadphase_cache_update_moved(cache, &s.b, moved, m, touch, &p, &stats)
                    : col_broadphase_cache_update(cache, &s.b, touch, &p, &stats);
    out_sorted(c, "pairs", st, &p);
    if (st == COL_OK && marked) {
      col_pairs began, ended;
      col_pairs_init(&began), col_pairs_init(&ended);
      const col_status ch = col_broadphase_cache_changes(cache, &began, &ended);
      dg_out_status(c, "changes", ch);
      if (ch == COL_OK) dg_out_pairs(c, "began", &began), dg_out_pairs(c, "ended", &ended);
      col_pairs_free(&began), col_pairs_free(&ended);
    }
  }
  free(marks);
  col_pairs_free(&p);
  col_broadphase_cache_destroy(cache);
  free(moved);
  free_boxes(&s);
}

size_t dg_broadphase_kernels(dg_kernel *out) {
  static char names[COL_USER_MAX + 8][48];
  size_t n = 0;
  col_broadphase_info info;
  for (size_t i = 0; col_broadphase_at(i, &info) && n < DG_FAMILY_MAX - 8 && i < COL_USER_MAX + 8;
       i++) {
    snprintf(names[i], sizeof names[i], "broadphase.%s", info.name);
    out[n++] = (dg_kernel){names[i], 96,    info.uses_backend ? COL_KERNEL_ALL : 0,
                           (int)i,   pairs, info.two_d && info.three_d ? "broadphase" : NULL};
  }
  const dg_kernel k[] = {
      {"broadphase_bipartite", 96, COL_KERNEL_ALL, 0, bipartite, NULL},
      {"broadphase_parallel", 48, COL_KERNEL_ALL, 0, parallel, "broadphase_parallel"},
      {"broadphase_parallel_any_order", 48, COL_KERNEL_ALL, 1, parallel, "broadphase_parallel"},
      {"broadphase_cache.tree", 48, COL_KERNEL_ALL, 0, cache, "broadphase_cache"},
      {"broadphase_cache.sap", 48, COL_KERNEL_ALL, 1, cache, "broadphase_cache"},
      {"broadphase_cache.tree_moved", 48, COL_KERNEL_ALL, 4, cache, "broadphase_cache"},
      {"broadphase_cache.sap_moved", 48, COL_KERNEL_ALL, 5, cache, "broadphase_cache"},
      {"broadphase_cache.grid", 48, COL_KERNEL_ALL, 2, cache, "broadphase_cache"},
      {"broadphase_cache.grid_moved", 48, COL_KERNEL_ALL, 6, cache, "broadphase_cache"},
      {"broadphase_cache_static.tree", 48, COL_KERNEL_ALL, 8, cache, "broadphase_cache_static"},
      {"broadphase_cache_static.sap", 48, COL_KERNEL_ALL, 9, cache, "broadphase_cache_static"},
      {"broadphase_cache_static.grid", 48, COL_KERNEL_ALL, 10, cache, "broadphase_cache_static"},
      {"broadphase_cache_static.grid_moved", 48, COL_KERNEL_ALL, 14, cache,
       "broadphase_cache_static"},
      {"broadphase_static.parallel", 48, COL_KERNEL_ALL, -1, pairs_static, "broadphase_static"},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) out[n++] = k[i];
  /* The static rule on every algorithm of the registry (one group with the parallel call). */
  static char static_names[COL_USER_MAX + 8][48];
  for (size_t i = 0; col_broadphase_at(i, &info) && n < DG_FAMILY_MAX && i < COL_USER_MAX + 8;
       i++) {
    snprintf(static_names[i], sizeof static_names[i], "broadphase_static.%s", info.name);
    out[n++] = (dg_kernel){
        static_names[i], 48,           info.uses_backend ? COL_KERNEL_ALL : 0,
        (int)i,          pairs_static, info.two_d && info.three_d ? "broadphase_static" : NULL};
  }
  return n;
}
