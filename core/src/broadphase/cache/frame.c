/* What both kept algorithms of col_broadphase_cache do each frame (cache.c keeps a tree,
 * sap.c sweep and prune): the per-box state and its release, this frame's boxes kept as
 * the last, the moved boxes found (by comparison) or listed (from the caller), and the last
 * frame's pairs between unmoved boxes carried over. */
#include "state.h"

#include <stdlib.h>
#include <string.h>

/* Frees everything the cache holds (it stays usable, with no previous frame). */
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
 * col__cache_unlist_moved at the end of the update. */
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

/* Clears the flags of a listed update. */
void col__cache_unlist_moved(col_broadphase_cache *c, const uint32_t *list, size_t listed) {
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
