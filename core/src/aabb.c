/* AABB overlap (DESIGN.md 4.1): single pairs, and the scalar reference of the batch query.
 * The per-axis test is the separating-axis test for boxes; the two touch rules differ only
 * in whether a shared edge counts (closed vs open intervals). */
#include "backend.h"

static inline bool axis_closed(float a_min, float a_max, float b_min, float b_max) {
  return a_max >= b_min && b_max >= a_min;
}

static inline bool axis_open(float a_min, float a_max, float b_min, float b_max) {
  return a_max > b_min && b_max > a_min;
}

bool col_aabb2_overlap(col_aabb2 a, col_aabb2 b, col_touch touch) {
  if (touch == COL_TOUCH_SEPARATES)
    return axis_open(a.min.x, a.max.x, b.min.x, b.max.x) &&
           axis_open(a.min.y, a.max.y, b.min.y, b.max.y);
  return axis_closed(a.min.x, a.max.x, b.min.x, b.max.x) &&
         axis_closed(a.min.y, a.max.y, b.min.y, b.max.y);
}

bool col_aabb3_overlap(col_aabb3 a, col_aabb3 b, col_touch touch) {
  if (touch == COL_TOUCH_SEPARATES)
    return axis_open(a.min.x, a.max.x, b.min.x, b.max.x) &&
           axis_open(a.min.y, a.max.y, b.min.y, b.max.y) &&
           axis_open(a.min.z, a.max.z, b.min.z, b.max.z);
  return axis_closed(a.min.x, a.max.x, b.min.x, b.max.x) &&
         axis_closed(a.min.y, a.max.y, b.min.y, b.max.y) &&
         axis_closed(a.min.z, a.max.z, b.min.z, b.max.z);
}

size_t col__aabb2_query_scalar(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                               uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    col_aabb2 box = {{set->min_x[i], set->min_y[i]}, {set->max_x[i], set->max_y[i]}};
    if (col_aabb2_overlap(query, box, touch)) indices[found++] = (uint32_t)i;
  }
  return found;
}

size_t col__aabb2_query_aos_scalar(col_aabb2 query, const col_aabb2 *boxes, size_t n,
                                   col_touch touch, uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < n; i++)
    if (col_aabb2_overlap(query, boxes[i], touch)) indices[found++] = (uint32_t)i;
  return found;
}

size_t col__aabb3_query_scalar(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                               uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    col_aabb3 box = {{set->min_x[i], set->min_y[i], set->min_z[i]},
                     {set->max_x[i], set->max_y[i], set->max_z[i]}};
    if (col_aabb3_overlap(query, box, touch)) indices[found++] = (uint32_t)i;
  }
  return found;
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
  *count = set->count == 0 ? 0 : be->aabb2_query(query, set, touch, indices);
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
  *count = set->count == 0 ? 0 : be->aabb3_query(query, set, touch, indices);
  return COL_OK;
}

col_status col_aabb2_query_aos(col_aabb2 query, const col_aabb2 *boxes, size_t n, col_touch touch,
                               uint32_t *indices, size_t *count) {
  col_status st = check_query_args(n, boxes != NULL, touch, indices, count);
  if (st != COL_OK) return st;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;
  *count = n == 0 ? 0 : be->aabb2_query_aos(query, boxes, n, touch, indices);
  return COL_OK;
}
