/* Chipmunk 7.0.3 (libchipmunk-dev, double precision) spatial indexes behind peers.h, 2D only:
 * cpBBTree, cpSpaceHash and cpSweep1D, driven the way cpSpace drives them: every box inserted
 * (cpSpatialIndexInsert), then cpSpatialIndexReindexQuery, which reindexes every object and
 * hands each candidate pair to our callback once. Boxes convert to cpBB exactly (float to
 * double). What each index hands over (Chipmunk's cpSpace filters it afterwards with
 * cpBBIntersects, closed):
 *   cpBBTree:    pairs whose leaf boxes intersect (closed); leaves are the boxes as given
 *                (no velocity function set), and the tree caches pairs between unmoved leaves;
 *   cpSpaceHash: pairs sharing a hash bucket (cell coordinates hashed modulo the bucket count),
 *                without a box test;
 *   cpSweep1D:   pairs whose x intervals intersect (closed), y not tested. */
#include "peers.h"

#include <chipmunk/chipmunk.h>

#include <stdlib.h>

typedef enum { BBTREE, SPACEHASH, SWEEP1D } chip_kind;

typedef struct chip_peer {
  chip_kind kind;
  bool count_only;
  cpSpatialIndex *index;
  /* With static marks (chip_set_static): the static boxes in an index of their own, met each
   * frame by cpSpatialIndexCollideStatic, as cpSpace does with its static shapes. */
  cpSpatialIndex *statics;
  const uint8_t *marks;
  cpBB *bb; /* box i is object &bb[i] */
  size_t n, count;
  col_pairs pairs; /* the pairs handed over by the last reindex query */
} chip_peer;

static cpBB box_bb(void *obj) { return *(const cpBB *)obj; }

static cpCollisionID collect(void *a, void *b, cpCollisionID id, void *data) {
  chip_peer *p = data;
  if (p->count_only)
    p->count++;
  else
    peer_push(&p->pairs, (uint32_t)((cpBB *)a - p->bb), (uint32_t)((cpBB *)b - p->bb));
  return id;
}

static void *chip_create(int kind, bool count_only) {
  chip_peer *p = calloc(1, sizeof *p);
  if (p) p->kind = (chip_kind)kind, p->count_only = count_only;
  return p;
}

static void chip_clear(void *self) {
  chip_peer *p = self;
  if (p->index) cpSpatialIndexFree(p->index);
  if (p->statics) cpSpatialIndexFree(p->statics);
  free(p->bb);
  p->index = NULL, p->statics = NULL, p->bb = NULL, p->n = 0, p->count = 0, p->pairs.count = 0;
}

static void chip_set_static(void *self, const uint8_t *is_static) {
  ((chip_peer *)self)->marks = is_static;
}

static void chip_destroy(void *self) {
  chip_peer *p = self;
  chip_clear(p);
  col_pairs_free(&p->pairs);
  free(p);
}

static void set_box(chip_peer *p, const col_boxes *b, size_t i) {
  p->bb[i] = cpBBNew(b->min[0][i], b->min[1][i], b->max[0][i], b->max[1][i]);
}

static bool chip_build(void *self, const col_boxes *b) {
  chip_peer *p = self;
  chip_clear(p);
  if (b->count > (size_t)INT32_MAX / 10) return false;
  p->bb = malloc((b->count ? b->count : 1) * sizeof *p->bb);
  if (!p->bb) return false;
  p->n = b->count;
  for (size_t i = 0; i < b->count; i++) set_box(p, b, i);
  /* Chipmunk's advice for cpSpaceUseSpatialHash: cells about the average shape size, about
   * 10x as many buckets as objects. */
  double extent = 0;
  for (size_t i = 0; i < b->count; i++)
    extent += (p->bb[i].r - p->bb[i].l) + (p->bb[i].t - p->bb[i].b);
  const double dim = b->count ? extent / (2.0 * (double)b->count) : 1.0;
  for (int k = 0; k < 1 + (p->marks != NULL); k++) {
    cpSpatialIndex *made = NULL;
    switch (p->kind) {
    case BBTREE: made = cpBBTreeNew(box_bb, NULL); break;
    case SWEEP1D: made = cpSweep1DNew(box_bb, NULL); break;
    case SPACEHASH:
      made = cpSpaceHashNew(dim > 0 ? dim : 1.0, (int)(10 * b->count + 1), box_bb, NULL);
      break;
    }
    if (!made) return false;
    *(k == 0 ? &p->index : &p->statics) = made;
  }
  for (size_t i = 0; i < b->count; i++)
    cpSpatialIndexInsert(p->marks && p->marks[i] ? p->statics : p->index, &p->bb[i], i);
  return true;
}

static void chip_find(void *self) {
  chip_peer *p = self;
  p->pairs.count = 0, p->count = 0;
  /* cpSpaceStep's order: the moving shapes against the static ones, then among themselves. */
  if (p->statics) cpSpatialIndexCollideStatic(p->index, p->statics, collect, p);
  cpSpatialIndexReindexQuery(p->index, collect, p);
}

static void chip_move(void *self, const col_boxes *b, const uint32_t *moved, const float *delta,
                      size_t count) {
  (void)delta;
  chip_peer *p = self;
  for (size_t k = 0; k < count; k++) {
    set_box(p, b, moved[k]);
    if (p->statics && p->marks[moved[k]]) /* a static box that moved (a door) */
      cpSpatialIndexReindexObject(p->statics, &p->bb[moved[k]], moved[k]);
  }
  chip_find(p);
}

static size_t chip_reported(void *self, col_pairs *out) {
  chip_peer *p = self;
  if (p->count_only) return p->count;
  if (out)
    for (size_t k = 0; k < p->pairs.count; k++)
      peer_push(out, p->pairs.data[k].a, p->pairs.data[k].b);
  return p->pairs.count;
}

static const peer_ops ops = {chip_create, chip_destroy,  chip_clear, chip_build,     chip_find,
                             chip_move,   chip_reported, NULL,       chip_set_static};
/* cpSweep1D hands over x-only candidates (~N^2 / 30 pairs on boxprune2d): it stops at 16,384
 * boxes in the benchmarks. */
static const peer_structure structures[] = {
    {"chipmunk", "bbtree", BBTREE, false, 0, &ops, false},
    {"chipmunk", "spacehash", SPACEHASH, false, 0, &ops, false},
    {"chipmunk", "sweep1d", SWEEP1D, false, 16384, &ops, false},
};

PEER_TABLE(chipmunk, structures);
