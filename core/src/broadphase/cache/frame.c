/* What both kept algorithms of col_broadphase_cache do each frame (cache.c keeps a tree,
 * sap.c sweep and prune): the per-box state and its release, this frame's boxes kept as
 * the last, the moved boxes found (by comparison) or listed (from the caller), and the last
 * frame's pairs between unmoved boxes carried over. */
#include "state.h"

#include <stdlib.h>
#include <string.h>

/* What the kept grid holds (rest.c's state). */
static void grid_free(col_broadphase_cache *c) {
  col__kgrid_free(&c->kg);
  free(c->kg_active), free(c->kg_active_list), free(c->kg_copy), free(c->kg_ids), free(c->kg_idx);
  free(c->kg_near), free(c->kg_arena.v);
  c->kg_near = NULL, c->kg_arena = (col__kgrid_arena){0};
  col_pairs_free(&c->kg_rest), col_pairs_free(&c->kg_live), col_pairs_free(&c->kg_sub);
  c->kg_active = NULL, c->kg_active_list = NULL, c->kg_copy = NULL, c->kg_ids = c->kg_idx = NULL;
  c->kg_idx_cap = c->kg_active_count = c->kg_joined = 0, c->kg_built = false;
}

/* Frees everything the cache holds (it stays usable, with no previous frame). */
void col__cache_reset(col_broadphase_cache *c) {
  free(c->coords), free(c->moved), free(c->moved_list), free(c->usable), free(c->cand);
  free(c->sap_order), free(c->sap_keys), free(c->sap_sorted), free(c->sap_work), free(c->sap_pos);
  free(c->sap_order_back), free(c->sap_keys_back), free(c->sap_sorted_back);
  c->sap_order = c->sap_keys = c->sap_order_back = c->sap_keys_back = c->sap_work = NULL;
  c->sap_pos = NULL;
  c->sap_sorted = c->sap_sorted_back = NULL, c->sap_m = 0;
  col__tree_free(&c->tree);
  grid_free(c);
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
/* Four boxes' bits on the `arrays` arrays (4 in 2D, 6 in 3D) compared with the kept ones, as
 * integers: the lanes that differ, as bits 0-3. */
COL__BP_INLINE col__i4 differ4(const float *now, const float *kept) {
  col__i4 x, y;
  memcpy(&x, now, sizeof x);
  memcpy(&y, kept, sizeof y);
  return x != y;
}
COL__BP_INLINE unsigned moved4(const float *const now[6], const float *kept, size_t n, size_t i,
                               unsigned arrays) {
  col__i4 diff = differ4(now[0] + i, kept + i) | differ4(now[1] + i, kept + n + i) |
                 differ4(now[2] + i, kept + 2 * n + i) | differ4(now[3] + i, kept + 3 * n + i);
  if (arrays == 6)
    diff |= differ4(now[4] + i, kept + 4 * n + i) | differ4(now[5] + i, kept + 5 * n + i);
  return lanes_set(diff);
}

/* Bits 0-3 as four bytes 0 or 1, in memory order. */
static const uint8_t spread[16][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0},
                                      {0, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 1, 0}, {1, 1, 1, 0},
                                      {0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1},
                                      {0, 0, 1, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}};

/* Flags and lists four boxes at a time from `arrays` arrays; returns the count so far. */
COL__BP_INLINE size_t find4(col_broadphase_cache *c, const float *const now[6], size_t n,
                            unsigned arrays, size_t *at) {
  size_t count = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const unsigned bits = moved4(now, c->coords, n, i, arrays);
    memcpy(c->moved + i, spread[bits], 4); /* bool is one byte, 0 or 1 */
    c->moved_list[count] = (uint32_t)i;
    count += bits & 1;
    c->moved_list[count] = (uint32_t)i + 1;
    count += bits >> 1 & 1;
    c->moved_list[count] = (uint32_t)i + 2;
    count += bits >> 2 & 1;
    c->moved_list[count] = (uint32_t)i + 3;
    count += bits >> 3;
  }
  *at = i;
  return count;
}

size_t col__cache_find_moved(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  const unsigned arrays = 2 * boxes->dims;
  const float *now[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  size_t i;
  size_t count = arrays == 4 ? find4(c, now, n, 4, &i) : find4(c, now, n, 6, &i);
  for (; i < n; i++) {
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
  /* Only the moved boxes' coordinates change: those are kept, one by one. */
  for (size_t k = 0; k < count; k++) {
    const uint32_t m = c->moved_list[k];
    for (unsigned a = 0; a < arrays; a++) c->coords[a * n + m] = now[a][m];
  }
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
