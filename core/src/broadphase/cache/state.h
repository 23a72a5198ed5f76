/* Internal: the state of col_broadphase_cache, shared by the files of this folder: cache.c (the
 * public calls, the kept tree), sap.c and sap_order.c (the kept sweep and prune) and frame.c
 * (what both kept algorithms do each frame). The calls go one way: cache.c -> sap.c ->
 * sap_order.c, and cache.c, sap.c -> frame.c. */
#ifndef COLLIDE_BROADPHASE_CACHE_STATE_H
#define COLLIDE_BROADPHASE_CACHE_STATE_H

#include "../tree.h"
#include "kgrid.h"

struct col_broadphase_cache {
  col_broadphase algorithm;     /* TREE, SAP or GRID */
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
  /* GRID (rest.c): the grid of the boxes that rest, kg_built when it holds exactly them; which
   * boxes moved in the last frame (kg_active, listed in kg_active_list); the pairs among the
   * resting boxes (kg_rest) and the last frame's pairs with a moving box (kg_live), which make
   * its output; the moving boxes' copy and their own pairs (kg_copy, kg_ids, kg_sub); hit
   * offsets (kg_idx); each moving box's neighbourhood (kg_near, in kg_arena); boxes joined
   * since the grid was built. */
  col__kgrid kg;
  bool kg_built;
  bool *kg_active;
  uint32_t *kg_active_list;
  size_t kg_active_count, kg_joined;
  col_pairs kg_rest, kg_live, kg_sub;
  float *kg_copy;
  uint32_t *kg_ids, *kg_idx;
  col__kgrid_near *kg_near; /* each box's neighbourhood while it moves */
  col__kgrid_arena kg_arena;
  size_t kg_idx_cap;
  /* The static marks (col_broadphase_cache_set_static; NULL: none) of static_count boxes. */
  uint8_t *statics;
  size_t static_count;
  /* Contact events (changes.c): on when `track`; began and ended of the last update, ready
   * after a successful one; `gone` and `now` the two sides a frame compares. */
  bool track, changes_ready;
  col_pairs began, ended, gone, now;
  uint32_t *sort_count;
  size_t sort_count_cap;
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

/* rest.c: one frame of the kept grid (`first`: everything from scratch). */
col_status col__cache_grid_frame(col_broadphase_cache *c, col__bp *bp, bool first,
                                 const uint32_t *list, size_t listed);
/* The pairs of the whole frame from scratch (sweep and prune, the static rule when marked). */
col_status col__cache_whole(col_broadphase_cache *c, col__bp *bp);

/* changes.c: the pairs of `pairs` with a moved box (c->moved), appended to `to`. */
col_status col__cache_with_moved(const col_broadphase_cache *c, const col_pair *pairs, size_t count,
                                 col_pairs *to);
/* began := now \ gone, ended := gone \ now (c->gone and c->now, sorted here) over a set of
 * `boxes` boxes; all_began instead: began := every pair of `all`, ended := none. */
col_status col__cache_diff(col_broadphase_cache *c, size_t boxes);
col_status col__cache_all_began(col_broadphase_cache *c, const col_pairs *all, size_t boxes);

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
