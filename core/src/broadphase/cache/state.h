/* Internal: the state of col_broadphase_cache, shared by the files of this folder: cache.c (the
 * public calls, the kept tree), sap.c and sap_order.c (the kept sweep and prune) and frame.c
 * (what both kept algorithms do each frame). The calls go one way: cache.c -> sap.c ->
 * sap_order.c, and cache.c, sap.c -> frame.c. */
#ifndef COLLIDE_BROADPHASE_CACHE_STATE_H
#define COLLIDE_BROADPHASE_CACHE_STATE_H

#include "../tree.h"

struct col_broadphase_cache {
  col_broadphase algorithm;     /* TREE or SAP */
  const col_parallel *parallel; /* the caller's, for whole SAP frames (NULL: one thread) */
  /* SAP: the usable boxes sorted on min x (sap_m of them): their indices, keys and a copy of
   * their coordinates (min and max per axis, each array n + COL_SAP_PAD long), and a second
   * set of the three that a frame's merge writes into before the two sets swap. */
  uint32_t *sap_order, *sap_keys, *sap_order_back, *sap_keys_back;
  float *sap_sorted, *sap_sorted_back;
  uint32_t
      *sap_work; /* the sweep's indices (n + COL_SAP_PAD), sort scratch (COL__SORT_X_SCRATCH(n)) */
  uint32_t *sap_pos;          /* box i's position in the order (when usable) */
  size_t sap_inverted;        /* boxes of the order inverted on x (the sweep's x_lower when > 0) */
  size_t sap_back, sap_ahead; /* a moved box's look-up window, positions before and after it */
  size_t sap_m;
  unsigned dims;
  col_touch touch;
  size_t count;
  bool valid;    /* a previous frame is cached */
  float *coords; /* the previous frame's boxes, axis by axis (see remember_all) */
  bool *moved;
  bool moved_clear;     /* no moved flag is set (list_moved needs them clear) */
  uint32_t *moved_list; /* the boxes that moved this frame */
  bool *usable;
  float margin;
  size_t reinserted; /* leaves reinserted since the tree was built */
  col__tree tree;
  col_pairs pairs; /* the previous frame's pairs */
  uint32_t *cand;
  size_t cand_cap;
};

/* frame.c: frees everything the cache holds (it stays usable, with no previous frame). */
void col__cache_reset(col_broadphase_cache *c);
/* The per-box state both kept algorithms need: coordinates, moved flags and list, usable. */
bool col__cache_alloc_frame_state(col_broadphase_cache *c, size_t n);
/* Keeps this frame's boxes as the previous frame's. */
void col__cache_remember_all(col_broadphase_cache *c, const col_boxes *boxes);
/* The moved boxes, flagged and listed: found by comparison, or from the caller's list. */
size_t col__cache_find_moved(col_broadphase_cache *c, const col_boxes *boxes);
size_t col__cache_list_moved(col_broadphase_cache *c, const col_boxes *boxes, const uint32_t *list,
                             size_t listed);
/* Clears the flags col__cache_list_moved set (at the end of a listed update). */
void col__cache_unlist_moved(col_broadphase_cache *c, const uint32_t *list, size_t listed);
/* The previous frame's pairs between unmoved boxes, into the pair list. */
col_status col__cache_carry_over(const col_broadphase_cache *c, col__bp *bp);

/* sap.c: one frame of the kept sweep and prune (`first`: sort and sweep everything). */
col_status col__cache_sap_frame(col_broadphase_cache *c, col__bp *bp, bool first,
                                const uint32_t *list, size_t listed);

/* The kept sorted copy's arrays: min k at 2k, max k at 2k + 1. */
static inline float *col__cache_sap_array(const col_broadphase_cache *c, unsigned a) {
  return c->sap_sorted + a * (c->count + COL_SAP_PAD);
}

/* sap_order.c: the kept order brought up to date with the `moved` boxes of the moved
 * list; the usable ones' new positions, ascending, then open the moved list (*placed of
 * them). `scratch` has 4 words per moved box (and n / 32 + 1 for the in-place form). In
 * place: false, the order still valid, once the shifts pass `budget` places. Merged: returns
 * the number of boxes in the order. */
bool col__cache_sap_move_in_place(col_broadphase_cache *c, const col_boxes *boxes,
                                  uint32_t *scratch, size_t moved, size_t budget, size_t *placed);
size_t col__cache_sap_merge_moved(col_broadphase_cache *c, const col_boxes *boxes,
                                  uint32_t *scratch, size_t moved, size_t *placed);

#endif
