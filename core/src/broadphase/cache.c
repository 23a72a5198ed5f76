/* The incremental broadphase (col_broadphase_cache): per frame, only the boxes that moved are
 * looked up again; the pairs between boxes that did not move are carried over. The tree's fat
 * leaves make most small moves free (no reinsertion). See collide.h for the contract. */
#include "cache.h"

#include <math.h>
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

void col__cache_reset(col_broadphase_cache *c) {
  free(c->coords), free(c->moved), free(c->moved_list), free(c->usable), free(c->cand);
  free(c->sap_order), free(c->sap_keys), free(c->sap_sorted), free(c->sap_work), free(c->sap_pos);
  free(c->sap_order_back), free(c->sap_keys_back), free(c->sap_sorted_back);
  c->sap_order = c->sap_keys = c->sap_order_back = c->sap_keys_back = c->sap_work = NULL;
  c->sap_pos = NULL;
  c->sap_sorted = c->sap_sorted_back = NULL, c->sap_m = 0;
  col__tree_free(&c->tree);
  col_pairs_free(&c->pairs);
  c->coords = NULL, c->moved = NULL, c->moved_list = NULL, c->usable = NULL, c->cand = NULL;
  c->cand_cap = 0, c->count = 0, c->valid = false;
}

col_status col_broadphase_cache_set_algorithm(col_broadphase_cache *cache,
                                              col_broadphase algorithm) {
  if (cache == NULL) return COL_ERR_NULL;
  if (algorithm != COL_BROADPHASE_TREE && algorithm != COL_BROADPHASE_SAP) return COL_ERR_ARGUMENT;
  if (algorithm != cache->algorithm) col__cache_reset(cache), cache->algorithm = algorithm;
  return COL_OK;
}

/* The per-box state both kept algorithms need: coordinates, moved flags and list, usable. */
bool col__cache_alloc_frame_state(col_broadphase_cache *c, size_t n) {
  c->coords = malloc((n ? n : 1) * 6 * sizeof(float));
  c->moved = calloc(n ? n : 1, sizeof(bool));
  c->moved_clear = true;
  c->moved_list = malloc((n ? n : 1) * sizeof(uint32_t));
  c->usable = calloc(n ? n : 1, sizeof(bool));
  return c->coords && c->moved && c->moved_list && c->usable;
}

/* Keeps this frame's boxes axis by axis: min k at coords[2k n], max k at coords[(2k + 1) n]. */
void col__cache_remember_all(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  for (unsigned k = 0; k < boxes->dims && n > 0; k++) {
    memcpy(c->coords + 2 * k * n, boxes->min[k], n * sizeof(float));
    memcpy(c->coords + (2 * k + 1) * n, boxes->max[k], n * sizeof(float));
  }
}

/* Flags and lists the boxes whose coordinates changed bit for bit since the last frame (the
 * bits, not the values: -0.0 vs +0.0 and NaN payloads count as moves), keeps the new ones;
 * returns how many moved. Axis by axis over the arrays: one pass per array, no gathers. */
size_t col__cache_find_moved(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  const unsigned arrays = 2 * boxes->dims;
  const float *now[6];
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    bool moved = false;
    for (unsigned a = 0; a < arrays; a++) {
      uint32_t x, y;
      memcpy(&x, now[a] + i, sizeof x);
      memcpy(&y, c->coords + a * n + i, sizeof y);
      moved |= x != y;
    }
    c->moved[i] = moved;
    c->moved_list[count] = (uint32_t)i;
    count += moved;
  }
  c->moved_clear = count == 0;
  for (unsigned a = 0; a < arrays && n > 0; a++)
    memcpy(c->coords + a * n, now[a], n * sizeof(float));
  return count;
}

/* The caller's list of moved boxes (col_broadphase_cache_update_moved): flags and lists each
 * once and keeps its new coordinates; returns how many. The flags are cleared again by
 * unlist_moved at the end of the update. */
size_t col__cache_list_moved(col_broadphase_cache *c, const col_boxes *boxes, const uint32_t *list,
                             size_t listed) {
  const size_t n = boxes->count;
  size_t count = 0;
  if (!c->moved_clear) memset(c->moved, 0, n * sizeof(bool)); /* after a comparing update */
  for (size_t q = 0; q < listed; q++) {
    const uint32_t i = list[q];
    if (c->moved[i]) continue;
    c->moved[i] = true;
    c->moved_list[count++] = i;
    for (unsigned k = 0; k < boxes->dims; k++)
      c->coords[2 * k * n + i] = boxes->min[k][i],
                            c->coords[(2 * k + 1) * n + i] = boxes->max[k][i];
  }
  return count;
}

static void unlist_moved(col_broadphase_cache *c, const uint32_t *list, size_t listed) {
  for (size_t q = 0; q < listed; q++) c->moved[list[q]] = false;
  c->moved_clear = true;
}

/* The previous frame's pairs between boxes that did not move, into the pair list (room made
 * once, written without branches: which pairs survive is unpredictable). */
col_status col__cache_carry_over(const col_broadphase_cache *c, col__bp *bp) {
  if (c->pairs.count == 0) return COL_OK; /* the list's data may still be NULL */
  const col_status st = col__bp_reserve(bp, c->pairs.count);
  if (st != COL_OK) return st;
  col_pair *dst = bp->out->data + bp->out->count;
  size_t kept = 0;
  for (size_t k = 0; k < c->pairs.count; k++) {
    const col_pair p = c->pairs.data[k];
    dst[kept] = p;
    kept += !(c->moved[p.a] | c->moved[p.b]);
  }
  bp->out->count += kept, bp->stats.pairs += kept;
  return COL_OK;
}

void col_broadphase_cache_destroy(col_broadphase_cache *cache) {
  if (cache == NULL) return;
  col__cache_reset(cache);
  free(cache);
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

/* Both update forms; `list` NULL: find the moved boxes by comparing with the last frame. */
static col_status update(col_broadphase_cache *cache, const col_boxes *boxes, col_touch touch,
                         col_pairs *out, col_broadphase_stats *stats, const uint32_t *list,
                         size_t listed) {
  if (cache == NULL || out == NULL) return COL_ERR_NULL;
  col_status st = col__bp_check(boxes, touch);
  if (st != COL_OK) return st;
  for (size_t q = 0; q < listed; q++)
    if (list[q] >= boxes->count) return COL_ERR_SIZE;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0}};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  const bool same = cache->valid && cache->dims == boxes->dims && cache->touch == touch &&
                    cache->count == boxes->count;
  const bool sap = cache->algorithm == COL_BROADPHASE_SAP;
  if (sap) {
    st = col__cache_sap_frame(cache, &bp, !same, list, listed);
    cache->dims = boxes->dims, cache->touch = touch, cache->count = boxes->count;
  } else {
    st = same ? step(cache, &bp, list, listed) : rebuild(cache, &bp);
  }
  if (same && list != NULL && cache->moved != NULL) unlist_moved(cache, list, listed);
  if (st == COL_OK) {
    /* Keep this frame's pairs for the next one. */
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
  if (sap) {
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
