/* Differential fuzz target aimed at the incremental cache's kept tree (col_broadphase_cache):
 * a few boxes over dozens of frames, or a chain of nested boxes deeper than the tree's fixed
 * query stack, each frame's pairs against brute force by the single-pair rule. The broadphase
 * target runs the cache over three frames of many boxes; this one churns the tree's nodes:
 * boxes teleported far and back, removed (a NaN coordinate: the count stays, since a change
 * of count would rebuild everything) and added again, so that nodes are freed and reused.
 * Input: mode byte (bit 0: 3D; bit 1: the open touch rule; bit 2: the moved boxes listed
 * (col_broadphase_cache_update_moved) instead of found by comparison; bit 3: the kept sweep and
 * prune instead of the tree; bit 4 with the n byte's top two bits: the deep chain; bit 5: one
 * allocation failing; bits 6-7: how far a teleport goes), n byte (2..12 boxes; the chain 130..161),
 * frames byte (8..64; the chain 3..4), the failing allocation's frame and index bytes; the boxes
 * (tagged floats; the chain: a step and a centre); then per frame an action count (0..4) and its
 * actions (box byte, operation byte, operands). Exhausted input is continued by a generator seeded
 * by the input's length. The input's length also picks, without moving any byte's meaning: the
 * kept grid instead of the tree or sweep and prune (length % 3 == 2), static marks (bit 2 of the
 * length: a box static by a hash of its index and the length; halfway through the frames one
 * mark flips, which resets the cache) and contact events (bit 1: each frame's began and ended
 * pairs against the difference of the last two brute-force sets). The format in detail:
 * docs/fuzzing-targets.md. */
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "cache";

/* core/src/broadphase/tree.h: the tree query's first stack size (128; 2..128 taken). */
extern size_t col__tree_stack_local;

enum { CHAIN_MIN = 130 }; /* the tree's query stack holds 128 nodes before it allocates */

typedef struct {
  fz_reader r;
  uint64_t seed;
} source;

/* The input's next byte; past its end, the generator's. */
static uint8_t next(source *s) {
  if (s->r.n > 0) return fz_u8(&s->r);
  return (uint8_t)(splitmix64(&s->seed) >> 56);
}

static float next_float(source *s) {
  if (s->r.n > 0) return fz_float(&s->r);
  return fz_grid((uint8_t)(32 + (splitmix64(&s->seed) >> 58))); /* -8..7.75 */
}

typedef struct {
  unsigned dims;
  size_t n;
  float *v[6], *home[6]; /* min x, min y, min z, max x, max y, max z */
  bool *moved;
} scene;

/* Whether each box is free of NaN on its axes (box i pairs with nothing otherwise). */
FZ_ORACLE static void find_usable(const scene *s, bool *usable) {
  for (size_t i = 0; i < s->n; i++) {
    usable[i] = true;
    for (int k = 0; k < 6; k++) usable[i] &= k % 3 >= (int)s->dims || s->v[k][i] == s->v[k][i];
  }
}

/* The expected pairs: every pair of NaN-free boxes, by the public single-pair rule, less those of
 * two boxes marked static (marks may be NULL). */
FZ_ORACLE static void brute(const scene *s, bool *usable, const uint8_t *marks, col_touch touch,
                            col_pairs *out) {
  out->count = 0;
  find_usable(s, usable);
  for (size_t i = 0; i < s->n; i++) {
    if (!usable[i]) continue;
    const col_aabb3 a = {{s->v[0][i], s->v[1][i], s->v[2][i]},
                         {s->v[3][i], s->v[4][i], s->v[5][i]}};
    for (size_t j = i + 1; j < s->n; j++) {
      if (!usable[j]) continue;
      const col_aabb3 b = {{s->v[0][j], s->v[1][j], s->v[2][j]},
                           {s->v[3][j], s->v[4][j], s->v[5][j]}};
      const bool hit =
          s->dims == 3
              ? col_aabb3_overlap(a, b, touch)
              : col_aabb2_overlap((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                                  (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, touch);
      if (hit && !(marks != NULL && marks[i] && marks[j]) &&
          col_pairs_push(out, (uint32_t)i, (uint32_t)j) != COL_OK)
        abort();
    }
  }
}

/* out := a \ b (both sorted by (a, b)). */
FZ_ORACLE static void minus(const col_pairs *a, const col_pairs *b, col_pairs *out) {
  out->count = 0;
  for (size_t i = 0, j = 0; i < a->count; i++) {
    while (j < b->count && (b->data[j].a < a->data[i].a ||
                            (b->data[j].a == a->data[i].a && b->data[j].b < a->data[i].b)))
      j++;
    if (j < b->count && b->data[j].a == a->data[i].a && b->data[j].b == a->data[i].b) continue;
    if (col_pairs_push(out, a->data[i].a, a->data[i].b) != COL_OK) abort();
  }
}

static bool same(const col_pairs *x, const col_pairs *y) {
  return x->count == y->count &&
         (x->count == 0 || memcmp(x->data, y->data, x->count * sizeof(col_pair)) == 0);
}

static void print_pairs(const char *label, const col_pairs *p) {
  fprintf(stderr, "  %-10s %zu pairs:", label, p->count);
  for (size_t i = 0; i < p->count && i < 64; i++)
    fprintf(stderr, " (%u,%u)", p->data[i].a, p->data[i].b);
  fputs(p->count > 64 ? " ...\n" : "\n", stderr);
}

static const char *form_name;

static _Noreturn void report(const scene *s, uint8_t mode, int frame, const char *what,
                             const col_pairs *want, const col_pairs *got) {
  fprintf(stderr, "fuzz cache: mode 0x%02x (%s, %uD, touch rule %s, %s), %zu boxes, frame %d: %s\n",
          mode, form_name, s->dims, mode & 2 ? "open" : "closed",
          mode & 4 ? "moved boxes listed" : "moved boxes found", s->n, frame, what);
  for (size_t i = 0; i < s->n && i < 200; i++) {
    char name[48];
    snprintf(name, sizeof name, "box %zu min, max%s", i, s->moved[i] ? " (moved)" : "");
    const float box[6] = {s->v[0][i], s->v[1][i], s->v[2][i], s->v[3][i], s->v[4][i], s->v[5][i]};
    fz_print_floats(name, box, 6);
  }
  if (want) print_pairs("expected", want);
  if (got) print_pairs("cache", got);
  fz_fail();
}

static void move_to(scene *s, size_t i, const float to[6]) {
  for (int k = 0; k < 6; k++)
    if (k % 3 < (int)s->dims) s->v[k][i] = to[k];
  s->moved[i] = true;
}

/* One action on one box: the operations that make the kept tree free, reuse, reinsert and
 * keep nodes (and the kept order shift boxes far). */
static void act(scene *s, source *src, float far) {
  const size_t i = next(src) % s->n;
  const uint8_t op = next(src);
  float to[6];
  for (int k = 0; k < 6; k++) to[k] = s->v[k][i];
  switch (op % 8) {
  case 0: /* teleport far (every axis or x only), whatever shape it has */
    for (int k = 0; k < 6; k++)
      if (op & 8 || k % 3 == 0) to[k] += op & 16 ? -far : far;
    break;
  case 1: /* back where it started (after a removal: added again) */
    for (int k = 0; k < 6; k++) to[k] = s->home[k][i];
    break;
  case 2: /* removed: a NaN coordinate keeps it out of the tree and of every pair */
    to[(op >> 3) % 6 % 3 < s->dims ? (op >> 3) % 6 : 0] = NAN;
    break;
  case 3: { /* a small move on one axis: usually inside its fat leaf */
    const float d = fz_grid((uint8_t)(next(src) & 0x7f));
    const int k = (op >> 3) % s->dims;
    to[k] += d, to[k + 3] += d;
    break;
  }
  case 4: /* shrunk towards its centre: inside its old box, kept in its leaf, looked up */
    for (int k = 0; k < 3; k++) {
      const float c = to[k] + (to[k + 3] - to[k]) * 0.5f;
      to[k] = op & 8 ? c : to[k] + (c - to[k]) * 0.5f;
      to[k + 3] = op & 8 ? c : to[k + 3] - (to[k + 3] - c) * 0.5f;
    }
    break;
  case 5: /* anywhere, any shape (inverted, infinite, NaN) */
    for (int k = 0; k < 6; k++)
      if (k % 3 < (int)s->dims) to[k] = next_float(src);
    break;
  case 6: { /* swapped with another box: both move */
    const size_t j = next(src) % s->n;
    float other[6];
    for (int k = 0; k < 6; k++) other[k] = s->v[k][j];
    move_to(s, j, to);
    for (int k = 0; k < 6; k++) to[k] = other[k];
    break;
  }
  default: { /* grown by a grid step on every side (out of its fat leaf when the step is big) */
    const float d = fz_grid((uint8_t)(next(src) & 0x7f));
    for (int k = 0; k < 3; k++) to[k] -= d, to[k + 3] += d;
    break;
  }
  }
  move_to(s, i, to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  source src = {{data, size}, size * SPLITMIX64_GAMMA};
  const uint8_t mode = next(&src);
  const bool listed = mode & 4, starve = mode & 32;
  const col_touch touch = mode & 2 ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
  const float far = (const float[]){1024.0f, 1e6f, 1e30f, 3e38f}[mode >> 6];
  scene s = {.dims = mode & 1 ? 3 : 2};
  const uint8_t n_byte = next(&src), frames_byte = next(&src);
  /* The chain costs a hundred times a few boxes (its pairs grow with the square of its
   * length): one input in eight, 3 or 4 frames (in one in four, a fifth of the inputs held
   * nine tenths of the target's time). */
  const bool deep = (mode & 16) && (n_byte & 0xC0) == 0xC0;
  s.n = deep ? CHAIN_MIN + n_byte % 32u : 2 + n_byte % 11u;
  const int frames = deep ? 3 + frames_byte % 2 : 8 + frames_byte % 57;
  const int fail_frame = next(&src) % frames;
  const unsigned fail_at = next(&src) % 32u;
  for (int k = 0; k < 6; k++) {
    s.v[k] = fz_alloc(s.n * sizeof(float));
    s.home[k] = fz_alloc(s.n * sizeof(float));
  }
  s.moved = fz_alloc(s.n);
  bool *usable = fz_alloc(s.n);
  if (deep) {
    /* Nested boxes, box i inside box i - 1 (every half extent `step` less): inserted one by
     * one from the largest, each descends to the smallest leaf, so the tree is a chain. */
    float step = next_float(&src);
    if (!(step > 0x1p-8f && step < 0x1p16f)) step = 0.25f;
    float c[3];
    for (int k = 0; k < 3; k++) c[k] = next_float(&src) * 64.0f;
    if (s.dims == 2) c[2] = 0.0f; /* read all the same: one layout for both */
    for (size_t i = 0; i < s.n; i++)
      for (int k = 0; k < 3; k++) {
        const float h = k < (int)s.dims ? (float)(s.n - i) * step : 0.0f;
        s.home[k][i] = c[k] - h, s.home[k + 3][i] = c[k] + h;
      }
  } else {
    for (size_t i = 0; i < s.n; i++)
      for (int k = 0; k < 6; k++) s.home[k][i] = k % 3 < (int)s.dims ? next_float(&src) : 0.0f;
  }
  for (int k = 0; k < 6; k++)
    for (size_t i = 0; i < s.n; i++)
      s.v[k][i] = deep && k % 3 == 0 ? NAN : s.home[k][i]; /* the chain: first frame empty */

  /* The tree query's stack moves to the heap past 128 entries, which only a chain reaches (and
   * a chain's first frame now builds a balanced tree): every input but the chain starts it at 4
   * entries, so that small trees take that path and its allocation can fail; the chain keeps
   * 128 (the stack on the C stack, full). */
  col__tree_stack_local = deep ? 128 : 4;
  col_broadphase_cache *cache = NULL;
  if (col_broadphase_cache_create(&cache) != COL_OK) abort();
  const bool grid = size % 3 == 2, tracked = (size >> 1) & 1;
  const col_broadphase form = grid       ? COL_BROADPHASE_GRID
                              : mode & 8 ? COL_BROADPHASE_SAP
                                         : COL_BROADPHASE_TREE;
  form_name = grid ? "kept grid" : mode & 8 ? "sweep and prune" : "tree";
  if (col_broadphase_cache_set_algorithm(cache, form) != COL_OK) abort();
  uint8_t *marks = NULL;
  if ((size >> 2) & 1) {
    marks = fz_alloc(s.n);
    for (size_t i = 0; i < s.n; i++) {
      uint64_t h = size ^ (uint64_t)i << 32;
      marks[i] = (splitmix64(&h) & 3) != 0 ? (uint8_t)(1 + i % 200) : 0; /* 3 in 4 static */
    }
    if (col_broadphase_cache_set_static(cache, marks, s.n) != COL_OK) abort();
  }
  if (tracked && col_broadphase_cache_track_changes(cache, true) != COL_OK) abort();
  col_pairs before = {0}, began = {0}, ended = {0}, diff = {0};
  bool reset = true; /* the next update's began pairs are all its pairs */
  const col_boxes boxes = {s.dims, {s.v[0], s.v[1], s.v[2]}, {s.v[3], s.v[4], s.v[5]}, s.n};
  uint32_t *list = fz_alloc((s.n + 2) * sizeof(uint32_t));
  col_pairs want = {0}, got = {0};
  for (int frame = 0; frame < frames; frame++) {
    memset(s.moved, 0, s.n);
    if (deep && frame == 1) {
      memset(s.moved, 1, s.n);
      for (int k = 0; k < 6; k++) memcpy(s.v[k], s.home[k], s.n * sizeof(float));
    } else if (frame > 0) {
      for (int a = next(&src) % 5; a > 0; a--) act(&s, &src, far);
    }
    size_t listed_count = 0;
    for (size_t i = 0; i < s.n; i++)
      if (s.moved[i]) list[listed_count++] = (uint32_t)i;
    /* Listed too: a repeat, and a box that did not move (both allowed). */
    if (listed_count > 0 && (frame & 1)) list[listed_count++] = list[0];
    if (!s.moved[(size_t)frame % s.n]) list[listed_count++] = (uint32_t)((size_t)frame % s.n);
    /* Halfway, one mark flips: the cache starts over (the next pairs all begin). */
    if (marks != NULL && frame == frames / 2 && frame > 0) {
      marks[0] = marks[0] ? 0 : 1;
      if (col_broadphase_cache_set_static(cache, marks, s.n) != COL_OK) abort();
      reset = true;
    }
    brute(&s, usable, marks, touch, &want); /* in (a, b) order already */
    /* With an allocation failing: COL_ERR_MEMORY with the list empty and the cache reset (the
     * same update again gives the exact pairs), or the exact pairs if it was not needed. */
    for (int again = 0; again < 2; again++) {
      const bool starved = starve && frame == fail_frame && again == 0;
      if (starved) fz_fail_allocation((long)fail_at);
      const col_status st = listed ? col_broadphase_cache_update_moved(
                                         cache, &boxes, list, listed_count, touch, &got, NULL)
                                   : col_broadphase_cache_update(cache, &boxes, touch, &got, NULL);
      const bool failed = starved && fz_allocation_failed();
      if (st == COL_OK) break;
      if (st != COL_ERR_MEMORY || !failed || got.count != 0) {
        char what[96];
        snprintf(what, sizeof what, "status %d with allocation %u %s, %zu pairs left", (int)st,
                 fail_at, failed ? "failing" : "not failing", got.count);
        report(&s, mode, frame, what, NULL, NULL);
      }
      reset = true; /* the failed update reset the cache */
    }
    col_pairs_sort(&got);
    if (!same(&got, &want))
      report(&s, mode, frame, "the cache's pairs DIFFER from brute force", &want, &got);
    /* Contact events: exactly the difference of the last two sets (after a start over or an
     * allocation that failed: every pair began). */
    if (tracked) {
      if (col_broadphase_cache_changes(cache, &began, &ended) != COL_OK)
        report(&s, mode, frame, "col_broadphase_cache_changes failed", NULL, NULL);
      if (reset) before.count = 0;
      minus(&want, &before, &diff);
      if (!same(&began, &diff)) report(&s, mode, frame, "the began pairs DIFFER", &diff, &began);
      minus(&before, &want, &diff);
      if (!same(&ended, &diff)) report(&s, mode, frame, "the ended pairs DIFFER", &diff, &ended);
      col_pairs t = before;
      before = want, want = t;
    }
    reset = false;
  }
  col_broadphase_cache_destroy(cache);
  col_pairs_free(&want), col_pairs_free(&got), col_pairs_free(&before);
  col_pairs_free(&began), col_pairs_free(&ended), col_pairs_free(&diff);
  free(marks);
  free(list), free(s.moved), free(usable);
  for (int k = 0; k < 6; k++) free(s.v[k]), free(s.home[k]);
  return 0;
}
