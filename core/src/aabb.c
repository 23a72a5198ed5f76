/* AABB overlap (DESIGN.md 4.1): the public single-pair functions (the reference, from
 * aabb_ref.h) and the batch queries' argument checks and dispatch. */
#include "aabb_ref.h"

bool col_aabb2_overlap(col_aabb2 a, col_aabb2 b, col_touch touch) {
  return col__aabb2_overlap_ref(a, b, touch);
}

bool col_aabb3_overlap(col_aabb3 a, col_aabb3 b, col_touch touch) {
  return col__aabb3_overlap_ref(a, b, touch);
}

static col_status check_query_args(size_t n, bool arrays_present, col_touch touch,
                                   const uint32_t *indices, const size_t *count) {
  if (count == NULL) return COL_ERR_NULL;
  if (n > 0 && (!arrays_present || indices == NULL)) return COL_ERR_NULL;
  if (n > UINT32_MAX) return COL_ERR_SIZE;
  if (touch != COL_TOUCH_OVERLAPS && touch != COL_TOUCH_SEPARATES) return COL_ERR_ARGUMENT;
  return COL_OK;
}

col_status col_aabb2_query(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                           uint32_t *indices, size_t *count) {
  if (set == NULL) return COL_ERR_NULL;
  bool arrays = set->min_x && set->min_y && set->max_x && set->max_y;
  col_status st = check_query_args(set->count, arrays, touch, indices, count);
  if (st != COL_OK) return st;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;
  *count = set->count == 0 ? 0 : be->k.aabb2_query(query, set, touch, indices);
  return COL_OK;
}

col_status col_aabb3_query(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                           uint32_t *indices, size_t *count) {
  if (set == NULL) return COL_ERR_NULL;
  bool arrays = set->min_x && set->min_y && set->min_z && set->max_x && set->max_y && set->max_z;
  col_status st = check_query_args(set->count, arrays, touch, indices, count);
  if (st != COL_OK) return st;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;
  *count = set->count == 0 ? 0 : be->k.aabb3_query(query, set, touch, indices);
  return COL_OK;
}

col_status col_aabb2_query_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n, col_touch touch,
                               uint32_t *indices, size_t *count) {
  col_status st = check_query_args(n, boxes != NULL, touch, indices, count);
  if (st != COL_OK) return st;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;
  *count = n == 0 ? 0 : be->k.aabb2_query_aos(query, boxes, n, touch, indices);
  return COL_OK;
}
