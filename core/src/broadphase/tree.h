/* Internal: the dynamic AABB tree (tree.c), shared with the broadphase cache (cache/), which
 * keeps one from frame to frame. */
#ifndef COLLIDE_BROADPHASE_TREE_H
#define COLLIDE_BROADPHASE_TREE_H

#include "broadphase.h"

/* Leaves hold item indices; node boxes are normalized. */
typedef struct col__tree_node {
  col_aabb3 box;
  int32_t parent, left, right; /* left < 0 for a leaf (-2 when free) */
  uint32_t item;
} col__tree_node;

typedef struct col__tree {
  col__tree_node *nodes;
  size_t used, capacity, items;
  int32_t root, free_list;
  int32_t *leaf_of; /* item -> leaf node, -1 when not in the tree */
} col__tree;

/* Builds from scratch over boxes[i] (normalized) for every usable[i]. */
col_status col__tree_build(col__tree *t, const col_aabb3 *boxes, const bool *usable, size_t n);
/* Moves item to `box` (normalized): nothing if its fat leaf still contains it, otherwise
 * reinserts it with the box grown by `margin` (or removes it when not usable). */
col_status col__tree_move(col__tree *t, uint32_t item, col_aabb3 box, float margin, bool usable,
                          bool *reinserted);
/* The query's first stack size, 2..128 (else 128); lowered only by the cache fuzzer. */
extern size_t col__tree_stack_local;
/* The items whose node box touches `box` (closed test: a superset of every overlap). */
col_status col__tree_query(const col__tree *t, col_aabb3 box, uint32_t **out, size_t *cap,
                           size_t *found);
void col__tree_free(col__tree *t);
/* Every pair of usable boxes whose candidates the tree returns, tested with the exact rule, each
 * once (from its lower index); `cand` is growable query space. */
col_status col__tree_all_pairs(col__bp *bp, const col__tree *t, const bool *usable, uint32_t **cand,
                               size_t *cap);

#endif
