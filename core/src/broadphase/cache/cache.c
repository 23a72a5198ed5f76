/* The incremental broadphase (col_broadphase_cache): per frame, only the boxes that moved are
 * looked up again; the pairs between boxes that did not move are carried over. This file holds
 * the public calls and the kept tree, whose fat leaves make most small moves free (no
 * reinsertion); the kept sweep and prune is sap.c, what both do each frame frame.c. See
 * collide/broadphase.h for the contract. */
#include "../static.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

col_status col_broadphase_cache_create(col_broadphase_cache **cache) {
  if (cache == NULL) return COL_ERR_NULL;
  col_broadphase_cache *c = calloc(1, sizeof *c);
  if (c == NULL) return COL_ERR_MEMORY;
  c->tree.root = c->tree.free_list = -1;
  c->algorithm = COL_BROADPHASE_TREE;
  *cache = c;
  return COL_OK;
}

col_status col_broadphase_cache_set_algorithm(col_broadphase_cache *cache,
                                              col_broadphase algorithm) {
  if (cache == NULL) return COL_ERR_NULL;
  if (algorithm != COL_BROADPHASE_TREE && algorithm != COL_BROADPHASE_SAP &&
      algorithm != COL_BROADPHASE_GRID)
    return COL_ERR_ARGUMENT;
  if (algorithm != cache->algorithm) col__cache_reset(cache), cache->algorithm = algorithm;
  return COL_OK;
}

/* The cache keeps the caller's struct and hands it to the whole frames' sweeps (sap.c). */
col_status col_broadphase_cache_set_parallel(col_broadphase_cache *cache,
                                             const col_parallel *parallel) {
  if (cache == NULL) return COL_ERR_NULL;
  if (parallel != NULL && parallel->tasks != NULL && parallel->tasks->run == NULL)
    return COL_ERR_NULL;
  cache->parallel = parallel;
  return COL_OK;
}

void col_broadphase_cache_destroy(col_broadphase_cache *cache) {
  if (cache == NULL) return;
  col__cache_reset(cache);
  free(cache->statics), free(cache->sort_count);
  col_pairs_free(&cache->began), col_pairs_free(&cache->ended);
  col_pairs_free(&cache->gone), col_pairs_free(&cache->now);
  free(cache);
}

/* The marks are copied; a change of them starts the cache over. */
col_status col_broadphase_cache_set_static(col_broadphase_cache *cache, const uint8_t *is_static,
                                           size_t count) {
  if (cache == NULL || (is_static == NULL && count > 0)) return COL_ERR_NULL;
  if (count > UINT32_MAX) return COL_ERR_SIZE;
  if (is_static == NULL || count == 0) {
    if (cache->statics != NULL) col__cache_reset(cache);
    free(cache->statics);
    cache->statics = NULL, cache->static_count = 0;
    return COL_OK;
  }
  bool same = cache->statics != NULL && cache->static_count == count;
  for (size_t i = 0; same && i < count; i++) same = (cache->statics[i] != 0) == (is_static[i] != 0);
  if (same) return COL_OK;
  col__cache_reset(cache);
  uint8_t *marks = realloc(cache->statics, count);
  if (marks == NULL) {
    free(cache->statics);
    cache->statics = NULL, cache->static_count = 0;
    return COL_ERR_MEMORY;
  }
  for (size_t i = 0; i < count; i++) marks[i] = is_static[i] != 0;
  cache->statics = marks, cache->static_count = count;
  return COL_OK;
}

col_status col_broadphase_cache_track_changes(col_broadphase_cache *cache, bool on) {
  if (cache == NULL) return COL_ERR_NULL;
  if (on != cache->track) cache->track = on, cache->changes_ready = false;
  return COL_OK;
}

static col_status copy_list(col_pairs *to, const col_pairs *from) {
  if (to->capacity < from->count) {
    col_pair *data = realloc(to->data, from->count * sizeof(col_pair));
    if (data == NULL) return COL_ERR_MEMORY;
    to->data = data, to->capacity = from->count;
  }
  if (from->count) memcpy(to->data, from->data, from->count * sizeof(col_pair));
  to->count = from->count;
  return COL_OK;
}

col_status col_broadphase_cache_changes(const col_broadphase_cache *cache, col_pairs *began,
                                        col_pairs *ended) {
  if (cache == NULL || began == NULL || ended == NULL) return COL_ERR_NULL;
  if (!cache->track || !cache->changes_ready) return COL_ERR_ARGUMENT;
  col_status st = copy_list(began, &cache->began);
  if (st == COL_OK) st = copy_list(ended, &cache->ended);
  if (st != COL_OK) began->count = ended->count = 0;
  return st;
}

static col_aabb3 fat_box(col_aabb3 b, float margin) {
  return (col_aabb3){{b.min.x - margin, b.min.y - margin, b.min.z - margin},
                     {b.max.x + margin, b.max.y + margin, b.max.z + margin}};
}

/* A fresh top-down tree over the current boxes, with fat leaves (the first frame, and
 * when reinsertions have loosened the tree; the pairs are not touched). */
static col_status build_tree(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  col_aabb3 *fat = calloc(n ? n : 1, sizeof *fat);
  if (fat == NULL) return COL_ERR_MEMORY;
  for (size_t i = 0; i < n; i++)
    fat[i] = fat_box(col__normalized(col__bp_box(boxes, i)), c->margin);
  const col_status st = col__tree_build(&c->tree, fat, c->usable, n);
  c->reinserted = 0;
  free(fat);
  return st;
}

/* First frame, or a different shape: everything from scratch, with fat leaves. */
static col_status rebuild(col_broadphase_cache *c, col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col__cache_reset(c);
  col_status st = col__cache_alloc_frame_state(c, n) ? COL_OK : COL_ERR_MEMORY;
  if (st == COL_OK) col__cache_remember_all(c, boxes);
  double extent = 0.0;
  size_t measured = 0;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    c->usable[i] = !col__bp_has_nan(boxes, i);
    const col_aabb3 b = col__normalized(col__bp_box(boxes, i));
    const double e = ((double)b.max.x - b.min.x) + ((double)b.max.y - b.min.y);
    if (c->usable[i] && e == e && e < 1e30) extent += e / 2.0, measured++;
  }
  c->margin = measured ? (float)(0.25 * extent / (double)measured) : 0.0f;
  if (st == COL_OK) st = build_tree(c, boxes);
  if (st == COL_OK) st = col__tree_all_pairs(bp, &c->tree, c->usable, &c->cand, &c->cand_cap);
  c->dims = boxes->dims, c->touch = bp->touch, c->count = n;
  return st;
}

/* Later frames: carry over the pairs of unmoved boxes, look up the moved ones. */
static col_status step(col_broadphase_cache *c, col__bp *bp, const uint32_t *list, size_t listed) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col_status st = COL_OK;
  const size_t moved =
      list ? col__cache_list_moved(c, boxes, list, listed) : col__cache_find_moved(c, boxes);
  /* Most boxes moved: the tree built again top-down and every pair found from it, as from
   * scratch (reinserting and looking up each moved box would cost more). */
  if (moved > n / 4) {
    for (size_t k = 0; k < moved; k++)
      c->usable[c->moved_list[k]] = !col__bp_has_nan(boxes, c->moved_list[k]);
    st = build_tree(c, boxes);
    return st == COL_OK ? col__tree_all_pairs(bp, &c->tree, c->usable, &c->cand, &c->cand_cap) : st;
  }
  for (size_t k = 0; k < moved && st == COL_OK; k++) {
    const uint32_t i = c->moved_list[k];
    bool reinserted;
    c->usable[i] = !col__bp_has_nan(boxes, i);
    st = col__tree_move(&c->tree, i, col__normalized(col__bp_box(boxes, i)), c->margin,
                        c->usable[i], &reinserted);
    c->reinserted += reinserted;
  }
  /* Insertion without rotations slowly loosens the tree: once as many leaves have been
   * reinserted as there are boxes, rebuild it top-down (amortized over those frames). */
  if (st == COL_OK && c->reinserted > n) st = build_tree(c, boxes);
  if (st == COL_OK) st = col__cache_carry_over(c, bp);
  for (size_t m = 0; m < moved && st == COL_OK; m++) {
    const uint32_t i = c->moved_list[m];
    if (!c->usable[i]) continue;
    size_t found = 0;
    const col_aabb3 a = col__bp_box(boxes, i);
    st = col__tree_query(&c->tree, col__normalized(a), &c->cand, &c->cand_cap, &found);
    for (size_t k = 0; k < found && st == COL_OK; k++) {
      const uint32_t j = c->cand[k];
      if (j == i || (c->moved[j] && j < i)) continue; /* a moved pair is found from its lower */
      bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, j), bp->touch)) st = col__bp_push(bp, i, j);
    }
  }
  return st;
}

/* A tree or sweep and prune frame's began and ended pairs: the last frame's pairs with a moved
 * box against this frame's (the kept grid finds its own as it goes). */
static col_status tree_sap_changes(col_broadphase_cache *c, const col_pairs *out, bool same,
                                   size_t n) {
  if (!same) return col__cache_all_began(c, out, n);
  c->gone.count = c->now.count = 0;
  col_status st = col__cache_with_moved(c, c->pairs.data, c->pairs.count, &c->gone);
  if (st == COL_OK) st = col__cache_with_moved(c, out->data, out->count, &c->now);
  return st == COL_OK ? col__cache_diff(c, n) : st;
}

/* Both update forms; `list` NULL: find the moved boxes by comparing with the last frame.
 * `par`: the task system of whole frames (the cache's, or NULL). */
static col_status update_with(col_broadphase_cache *cache, const col_boxes *boxes, col_touch touch,
                              col_pairs *out, col_broadphase_stats *stats, const uint32_t *list,
                              size_t listed, const col_parallel *par) {
  if (cache == NULL || out == NULL) return COL_ERR_NULL;
  col_status st = col__bp_check(boxes, touch);
  if (st != COL_OK) return st;
  for (size_t q = 0; q < listed; q++)
    if (list[q] >= boxes->count) return COL_ERR_SIZE;
  if (cache->statics != NULL && cache->static_count != boxes->count) return COL_ERR_SIZE;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0, 0}, par, false, NULL, 0, 0, NULL, NULL, NULL};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  cache->changes_ready = false;
  const bool same = cache->valid && cache->dims == boxes->dims && cache->touch == touch &&
                    cache->count == boxes->count;
  const bool sap = cache->algorithm == COL_BROADPHASE_SAP;
  const bool grid = cache->algorithm == COL_BROADPHASE_GRID;
  if (grid) {
    st = col__cache_grid_frame(cache, &bp, !same, list, listed);
    cache->dims = boxes->dims, cache->touch = touch, cache->count = boxes->count;
  } else if (sap) {
    st = col__cache_sap_frame(cache, &bp, !same, list, listed);
    cache->dims = boxes->dims, cache->touch = touch, cache->count = boxes->count;
  } else {
    st = same ? step(cache, &bp, list, listed) : rebuild(cache, &bp);
  }
  if (st == COL_OK && !grid && cache->statics != NULL) col__bp_drop_static(&bp, cache->statics);
  if (st == COL_OK && !grid && cache->track) st = tree_sap_changes(cache, out, same, boxes->count);
  if (same && list != NULL && cache->moved != NULL) col__cache_unlist_moved(cache, list, listed);
  if (st == COL_OK && !grid) {
    /* Keep this frame's pairs for the next one (the kept grid keeps its own). */
    if (cache->pairs.capacity < out->count) {
      col_pair *data = realloc(cache->pairs.data, out->count * sizeof(col_pair));
      if (data == NULL)
        st = COL_ERR_MEMORY;
      else
        cache->pairs.data = data, cache->pairs.capacity = out->count;
    }
    if (st == COL_OK && out->count)
      memcpy(cache->pairs.data, out->data, out->count * sizeof(col_pair));
    cache->pairs.count = out->count;
  }
  if (st != COL_OK) {
    col__cache_reset(cache);
    out->count = 0;
    return st;
  }
  cache->valid = true;
  cache->changes_ready = cache->track;
  if (sap || grid) {
    if (stats != NULL) *stats = bp.stats;
    return COL_OK;
  }
  /* What the cache holds between frames: boxes, flags, tree, pairs, candidates. */
  col__bp_scratch(&bp, cache->count * (6 * sizeof(float) + 2 * sizeof(bool) + sizeof(int32_t)) +
                           cache->tree.capacity * sizeof(col__tree_node) +
                           cache->pairs.capacity * sizeof(col_pair) +
                           cache->cand_cap * sizeof(uint32_t));
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}

/* A task system that failed part way reset the cache (update_with's error path): with the
 * fallback allowed, the update again from scratch on the calling thread. */
static col_status update(col_broadphase_cache *cache, const col_boxes *boxes, col_touch touch,
                         col_pairs *out, col_broadphase_stats *stats, const uint32_t *list,
                         size_t listed) {
  const col_parallel *par = cache != NULL ? cache->parallel : NULL;
  const col_status st = update_with(cache, boxes, touch, out, stats, list, listed, par);
  if (st != COL_ERR_TASKS || par == NULL || !par->allow_sequential_fallback) return st;
  return update_with(cache, boxes, touch, out, stats, list, listed, NULL);
}

col_status col_broadphase_cache_update(col_broadphase_cache *cache, const col_boxes *boxes,
                                       col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats) {
  return update(cache, boxes, touch, out, stats, NULL, 0);
}

col_status col_broadphase_cache_update_moved(col_broadphase_cache *cache, const col_boxes *boxes,
                                             const uint32_t *moved, size_t moved_count,
                                             col_touch touch, col_pairs *out,
                                             col_broadphase_stats *stats) {
  if (moved == NULL && moved_count > 0) return COL_ERR_NULL;
  static const uint32_t none = 0;
  return update(cache, boxes, touch, out, stats, moved_count ? moved : &none, moved_count);
}
