/* Segment and swept box against boxes (DESIGN.md 4.9), the slab test: the single calls run the
 * reference (slab_ref.h) on a set of one box; the batch calls validate and dispatch to the
 * active backend's sweep_aabb2 / sweep_aabb3 kernel. A segment is the point box {from, from}
 * moved by to - from, so both questions share one kernel per dimension. */
#include "slab_ref.h"

static col_aabb3_soa one_box3(const col_aabb3 *b) {
  return (col_aabb3_soa){&b->min.x, &b->min.y, &b->min.z, &b->max.x, &b->max.y, &b->max.z, 1};
}

static col_aabb2_soa one_box2(const col_aabb2 *b) {
  return (col_aabb2_soa){&b->min.x, &b->min.y, &b->max.x, &b->max.y, 1};
}

/* The segment's move: three float subtractions, the only arithmetic the segment adds. */
static col_vec3 move3(col_vec3 from, col_vec3 to) {
  return (col_vec3){to.x - from.x, to.y - from.y, to.z - from.z};
}

static col_vec2 move2(col_vec2 from, col_vec2 to) {
  return (col_vec2){to.x - from.x, to.y - from.y};
}

col_aabb3_hit col_sweep_aabb3(col_aabb3 mover, col_vec3 move, col_aabb3 box, col_touch touch) {
  const col_aabb3_soa set = one_box3(&box);
  return col__sweep_aabb3_ref(mover, move, &set, touch);
}

col_aabb2_hit col_sweep_aabb2(col_aabb2 mover, col_vec2 move, col_aabb2 box, col_touch touch) {
  const col_aabb2_soa set = one_box2(&box);
  return col__sweep_aabb2_ref(mover, move, &set, touch);
}

col_aabb3_hit col_segment_aabb3(col_vec3 from, col_vec3 to, col_aabb3 box, col_touch touch) {
  return col_sweep_aabb3((col_aabb3){from, from}, move3(from, to), box, touch);
}

col_aabb2_hit col_segment_aabb2(col_vec2 from, col_vec2 to, col_aabb2 box, col_touch touch) {
  return col_sweep_aabb2((col_aabb2){from, from}, move2(from, to), box, touch);
}

/* The batch calls' shared checks; on success *be is the active backend. */
static col_status check_set(bool null_arrays, size_t count, const void *out, col_touch touch,
                            const col__backend **be) {
  if (out == NULL || null_arrays) return COL_ERR_NULL;
  if (count > UINT32_MAX) return COL_ERR_SIZE;
  if (touch != COL_TOUCH_OVERLAPS && touch != COL_TOUCH_SEPARATES) return COL_ERR_ARGUMENT;
  return col__backend_active(be);
}

static const col_aabb3_hit miss3 = {false, 0.0f, {0.0f, 0.0f, 0.0f}, COL_INDEX_NONE};
static const col_aabb2_hit miss2 = {false, 0.0f, {0.0f, 0.0f}, COL_INDEX_NONE};

col_status col_sweep_aabb3_first(col_aabb3 mover, col_vec3 move, const col_aabb3_soa *set,
                                 col_touch touch, col_aabb3_hit *out) {
  if (set == NULL) return COL_ERR_NULL;
  const bool null_arrays = set->count > 0 && (!set->min_x || !set->min_y || !set->min_z ||
                                              !set->max_x || !set->max_y || !set->max_z);
  const col__backend *be;
  const col_status st = check_set(null_arrays, set->count, out, touch, &be);
  if (st != COL_OK) return st;
  /* Kernels are only called with at least one element (collide/backends.h). */
  *out = set->count == 0 ? miss3 : be->k.sweep_aabb3(mover, move, set, touch);
  return COL_OK;
}

col_status col_sweep_aabb2_first(col_aabb2 mover, col_vec2 move, const col_aabb2_soa *set,
                                 col_touch touch, col_aabb2_hit *out) {
  if (set == NULL) return COL_ERR_NULL;
  const bool null_arrays =
      set->count > 0 && (!set->min_x || !set->min_y || !set->max_x || !set->max_y);
  const col__backend *be;
  const col_status st = check_set(null_arrays, set->count, out, touch, &be);
  if (st != COL_OK) return st;
  *out = set->count == 0 ? miss2 : be->k.sweep_aabb2(mover, move, set, touch);
  return COL_OK;
}

col_status col_segment_aabb3_first(col_vec3 from, col_vec3 to, const col_aabb3_soa *set,
                                   col_touch touch, col_aabb3_hit *out) {
  return col_sweep_aabb3_first((col_aabb3){from, from}, move3(from, to), set, touch, out);
}

col_status col_segment_aabb2_first(col_vec2 from, col_vec2 to, const col_aabb2_soa *set,
                                   col_touch touch, col_aabb2_hit *out) {
  return col_sweep_aabb2_first((col_aabb2){from, from}, move2(from, to), set, touch, out);
}
