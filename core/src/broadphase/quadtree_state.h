/* Internal: the quadtree's state shared by its two files, quadtree.c (the tree: the split, the
 * lists handed down, the entry) and quadtree_pairs.c (a node's pairs: swept by classes or tested
 * all against all). */
#ifndef COLLIDE_BROADPHASE_QUADTREE_STATE_H
#define COLLIDE_BROADPHASE_QUADTREE_STATE_H

#include "broadphase.h"

/* A node of over col__qt_leaf_size boxes (64) is split (testing more boxes four at a time beats
 * more nodes: docs/tuning.md); the root from COL__QT_ROOT_SPLIT on, which keeps the header's bound
 * on the tests (fewer than M(M-1)/2 when M > 8 and two boxes lie in different children of the
 * root). A node whose own tests, all against all, would be at most col__qt_direct_tests (16,384)
 * tests its boxes directly; sorting them into classes costs more there (docs/tuning.md). Both are
 * variables so that the broadphase fuzzer can lower them: its inputs of a few dozen boxes then
 * reach deep trees and swept nodes. */
enum { COL__QT_ROOT_SPLIT = 8, COL__QT_MAX_DEPTH = 20 };
extern size_t col__qt_leaf_size, col__qt_direct_tests;

/* A box of the node being swept, for the exact rule: its min and max as lanes x, y, z and a
 * fourth that always meets (a 2D set's z is -1..1 too: the rule there is x and y's). */
typedef struct col__qt_rec {
  col__f4 lo, hi;
  uint32_t id; /* its position (id_of gives the box index) */
} col__qt_rec;
/* A sweep entry: the normalized box's extent on the swept axis. */
typedef struct col__qt_ent {
  float lo, hi;
  uint32_t t; /* index into the node's records */
} col__qt_ent;

typedef struct col__qt {
  col__bp *bp;
  /* By position in Morton order (see col__bp_quadtree): the normalized boxes, the boxes, and
   * each position's box index. */
  const col_aabb3 *norm, *box;
  const uint32_t *id_of;
  uint32_t *scratch; /* partition space, n entries */
  signed char *kid;  /* the child of each item of the node being split (-1: it stays) */
  /* The ancestor lists, a stack: a node's list is the boxes held above it that meet the bounds
   * of its boxes; its children's lists are pushed after it. */
  uint32_t *above;
  size_t above_len, above_cap;
  /* For each box of a node's list and of its own, which children it may pair into (bit k:
   * child k); a stack beside `above`, a node's bytes kept while its children run. */
  uint8_t *mask;
  size_t mask_len, mask_cap;
  size_t held_above; /* boxes held by the nodes above (unfiltered), for the check */
  /* One node's sweep, reused by every node and grown to the largest: records, the sweep
   * entries of each axis (dims x cap), sort keys, order and radix scratch, classes. */
  col__qt_rec *rec;
  col__qt_ent *ent;
  uint32_t *keys, *order, *rscratch;
  uint8_t *cls;
  float *lane;   /* direct tests: min x, y, z, max x, y, z, each cap + 4 floats */
  uint32_t *hit; /* direct tests: one row's hits, cap + 4 entries */
  size_t cap, base_bytes;
  unsigned dims;
} col__qt;

/* Records the working memory held now (the tree's arrays, the lists' stack, a node's arrays). */
static inline void col__qt_account(col__qt *q) {
  col__bp_scratch(q->bp,
                  q->base_bytes + q->above_cap * sizeof *q->above + q->mask_cap +
                      q->cap * (sizeof *q->rec + q->dims * sizeof *q->ent + 5 * sizeof(uint32_t) +
                                sizeof *q->cls + 6 * sizeof *q->lane) +
                      (q->cap ? 4 * (6 * sizeof *q->lane + sizeof *q->hit) : 0));
}

/* The node's own boxes (positions) s[0, ns) against each other and against its list a[0, na)
 * (positions of boxes held above it); `centre` is the node's centre. */
col_status col__qt_node_pairs(col__qt *q, const uint32_t *s, size_t ns, const uint32_t *a,
                              size_t na, col_vec3 centre);
/* Frees a node's arrays (col__qt_node_pairs grows them). */
void col__qt_free_node(col__qt *q);

#endif
