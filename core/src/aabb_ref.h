/* The AABB overlap reference (DESIGN.md 4.1) as inline code, shared by the public
 * single-pair functions (aabb.c) and the reference backends built from it (scalar.c, and the
 * auto-vectorized x86/autovec.c). The per-axis test is the separating-axis test for boxes;
 * the two touch rules differ only in whether a shared edge counts (closed vs open). */
#ifndef COLLIDE_AABB_REF_H
#define COLLIDE_AABB_REF_H

#include "backend.h"

static inline bool col__axis_closed(float a_min, float a_max, float b_min, float b_max) {
  return a_max >= b_min && b_max >= a_min;
}

static inline bool col__axis_open(float a_min, float a_max, float b_min, float b_max) {
  return a_max > b_min && b_max > a_min;
}

static inline bool col__aabb2_overlap_ref(col_aabb2 a, col_aabb2 b, col_touch touch) {
  if (touch == COL_TOUCH_SEPARATES)
    return col__axis_open(a.min.x, a.max.x, b.min.x, b.max.x) &&
           col__axis_open(a.min.y, a.max.y, b.min.y, b.max.y);
  return col__axis_closed(a.min.x, a.max.x, b.min.x, b.max.x) &&
         col__axis_closed(a.min.y, a.max.y, b.min.y, b.max.y);
}

static inline bool col__aabb3_overlap_ref(col_aabb3 a, col_aabb3 b, col_touch touch) {
  if (touch == COL_TOUCH_SEPARATES)
    return col__axis_open(a.min.x, a.max.x, b.min.x, b.max.x) &&
           col__axis_open(a.min.y, a.max.y, b.min.y, b.max.y) &&
           col__axis_open(a.min.z, a.max.z, b.min.z, b.max.z);
  return col__axis_closed(a.min.x, a.max.x, b.min.x, b.max.x) &&
         col__axis_closed(a.min.y, a.max.y, b.min.y, b.max.y) &&
         col__axis_closed(a.min.z, a.max.z, b.min.z, b.max.z);
}

static inline size_t col__aabb2_query_ref(col_aabb2 query, const col_aabb2_soa *set,
                                          col_touch touch, uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    const col_aabb2 box = {{set->min_x[i], set->min_y[i]}, {set->max_x[i], set->max_y[i]}};
    if (col__aabb2_overlap_ref(query, box, touch)) indices[found++] = (uint32_t)i;
  }
  return found;
}

static inline size_t col__aabb2_query_aos_ref(col_aabb2 query, const col_aabb2 *boxes, size_t n,
                                              col_touch touch, uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < n; i++)
    if (col__aabb2_overlap_ref(query, boxes[i], touch)) indices[found++] = (uint32_t)i;
  return found;
}

static inline size_t col__aabb3_query_ref(col_aabb3 query, const col_aabb3_soa *set,
                                          col_touch touch, uint32_t *indices) {
  size_t found = 0;
  for (size_t i = 0; i < set->count; i++) {
    const col_aabb3 box = {{set->min_x[i], set->min_y[i], set->min_z[i]},
                           {set->max_x[i], set->max_y[i], set->max_z[i]}};
    if (col__aabb3_overlap_ref(query, box, touch)) indices[found++] = (uint32_t)i;
  }
  return found;
}

/* Sweep and prune's run of sorted box r (see col__backend.sap_run): scan on while min x stays
 * within box r's x extent (the NaN padding ends the scan), testing each box with the rule. */
static inline size_t col__sap_run_ref(const col_sap_view *v, size_t r, col_touch touch,
                                      uint32_t *out, size_t *tested) {
  const bool open = touch == COL_TOUCH_SEPARATES;
  const float *const *lo = v->min, *const *hi = v->max;
  const float edge = hi[0][r];
  size_t found = 0, j = r + 1;
  for (; open ? lo[0][j] < edge : lo[0][j] <= edge; j++) {
    bool hit;
    if (v->dims == 3)
      hit = col__aabb3_overlap_ref(
          (col_aabb3){{lo[0][r], lo[1][r], lo[2][r]}, {hi[0][r], hi[1][r], hi[2][r]}},
          (col_aabb3){{lo[0][j], lo[1][j], lo[2][j]}, {hi[0][j], hi[1][j], hi[2][j]}}, touch);
    else
      hit = col__aabb2_overlap_ref((col_aabb2){{lo[0][r], lo[1][r]}, {hi[0][r], hi[1][r]}},
                                   (col_aabb2){{lo[0][j], lo[1][j]}, {hi[0][j], hi[1][j]}}, touch);
    if (hit) out[found++] = (uint32_t)j;
  }
  *tested = j - r - 1;
  return found;
}

#endif
