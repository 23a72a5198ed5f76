/* The digest's segment-against-sphere kernels: the recipe and its robust variant, single and
 * against a set, and the sphere's inflation and transform. Half the spheres are placed a few
 * ulps from tangent to the segment, or with the segment starting on their surface. Then the
 * slab test's (segment and moving box against boxes, 2D and 3D, both rules): half the boxes
 * have a plane through the segment's start (on it, or a few ulps off), where a still axis
 * meets 0 * inf. */
#include "digest.h"

#include <stdlib.h>

typedef struct sweep_case {
  float from[3], to[3];
} sweep_case;

static sweep_case draw_segment(dg_ctx *c) {
  sweep_case s;
  for (int a = 0; a < 3; a++) s.from[a] = dg_coord(c, 4);
  const bool still = dg_chance(c, 8);
  for (int a = 0; a < 3; a++) s.to[a] = still ? s.from[a] : dg_coord(c, 4);
  return s;
}

/* A sphere for the segment: anywhere, or (one in two) with its centre at the radius (a few
 * ulps off) from the segment's start along an axis (the segment starts on its surface), or
 * beside the segment's midpoint on an axis the segment does not move along (tangent). */
static void draw_sphere(dg_ctx *c, const sweep_case *s, float *center, float *radius) {
  *radius = dg_size(c, 4);
  const uint32_t how = dg_below(c, 4);
  for (int a = 0; a < 3; a++) center[a] = dg_coord(c, 4);
  if (how < 2) return;
  const int axis = (int)dg_below(c, 3);
  for (int a = 0; a < 3; a++)
    center[a] = how == 2 ? s->from[a] : s->from[a] + (s->to[a] - s->from[a]) / 2.0f;
  const float side = dg_chance(c, 128) ? *radius : -*radius;
  center[axis] = dg_ulps(center[axis] + side, (int)dg_below(c, 9) - 4);
}

static void out_hit(dg_ctx *c, const char *name, col_hit h) {
  dg_out_bool(c, name, h.hit);
  dg_out_float(c, "t", h.t);
}

static void single(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const sweep_case s = draw_segment(c);
  float center[3], r;
  draw_sphere(c, &s, center, &r);
  dg_in_floats(c, "from, to", s.from, 6);
  dg_in_floats(c, "center, radius", center, 3);
  dg_in_floats(c, "radius", &r, 1);
  const col_vec3 from = {s.from[0], s.from[1], s.from[2]}, to = {s.to[0], s.to[1], s.to[2]};
  const col_sphere sp = {{center[0], center[1], center[2]}, r};
  out_hit(c, "col_segment_sphere", col_segment_sphere(from, to, sp));
  out_hit(c, "col_segment_sphere_robust", col_segment_sphere_robust(from, to, sp));
  const float grow = dg_size(c, 4);
  dg_in_floats(c, "mover radius", &grow, 1);
  const col_sphere inflated = col_sphere_inflate(sp, grow);
  dg_out_floats(c, "col_sphere_inflate", &inflated.center.x, 4);
  const col_vec3 scale = {dg_coord(c, 4), dg_coord(c, 4), dg_coord(c, 4)};
  const col_vec3 move = {dg_coord(c, 4), dg_coord(c, 4), dg_coord(c, 4)};
  dg_in_floats(c, "scale", &scale.x, 3);
  dg_in_floats(c, "translation", &move.x, 3);
  const col_mat4 m = col_mat4_scale_translation(scale, move);
  dg_out_floats(c, "col_mat4_scale_translation", &m.m[0][0], 16);
  const col_sphere moved = col_sphere_transform(sp, m);
  dg_out_floats(c, "col_sphere_transform", &moved.center.x, 4);
}

static void batch(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const sweep_case s = draw_segment(c);
  const size_t n = dg_chance(c, 192) ? dg_below(c, 24) : dg_below(c, 200);
  float *v[4];
  for (int i = 0; i < 4; i++) v[i] = dg_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    float center[3], r;
    draw_sphere(c, &s, center, &r);
    v[0][i] = center[0], v[1][i] = center[1], v[2][i] = center[2], v[3][i] = r;
  }
  dg_in_floats(c, "from, to", s.from, 6);
  static const char *names[4] = {"center x", "center y", "center z", "radius"};
  for (int i = 0; i < 4; i++) dg_in_floats(c, names[i], v[i], n);
  const col_sphere_soa set = {v[0], v[1], v[2], v[3], n};
  const col_vec3 from = {s.from[0], s.from[1], s.from[2]}, to = {s.to[0], s.to[1], s.to[2]};
  col_segment_hit h = {0};
  const col_status st = k->arg ? col_segment_spheres_robust(from, to, &set, &h)
                               : col_segment_spheres(from, to, &set, &h);
  dg_out_status(c, "status", st);
  dg_out_bool(c, "hit", h.hit);
  dg_out_float(c, "t", h.t);
  dg_out_u64(c, "index", h.index);
  for (int i = 0; i < 4; i++) free(v[i]);
}

/* A box for the slab kernels: random corners, put in order three times in four; then (one in
 * two) one axis's plane moved onto the start's coordinate, a few ulps off one time in two. */
static void draw_box(dg_ctx *c, const float *from, float *mn, float *mx) {
  for (int a = 0; a < 3; a++) {
    mn[a] = dg_coord(c, 4), mx[a] = dg_coord(c, 4);
    if (dg_below(c, 4) != 0 && mn[a] > mx[a]) {
      const float t = mn[a];
      mn[a] = mx[a], mx[a] = t;
    }
  }
  if (dg_chance(c, 128)) {
    const int a = (int)dg_below(c, 3);
    float *plane = dg_chance(c, 128) ? &mn[a] : &mx[a];
    *plane = dg_chance(c, 128) ? from[a] : dg_ulps(from[a], (int)dg_below(c, 5) - 2);
  }
}

/* The segment, then the moving box: still on an axis one time in four. */
static void draw_move(dg_ctx *c, float *mover, float *move) {
  for (int a = 0; a < 3; a++) {
    mover[a] = dg_coord(c, 4);
    mover[3 + a] = dg_chance(c, 32) ? mover[a] : mover[a] + dg_size(c, 4);
    move[a] = dg_chance(c, 64) ? (dg_chance(c, 128) ? 0.0f : -0.0f) : dg_coord(c, 4);
  }
}

static void out_box_hit(dg_ctx *c, const char *name, bool hit, float t, const float *normal,
                        unsigned dims, uint32_t index) {
  dg_out_bool(c, name, hit);
  dg_out_float(c, "t", t);
  dg_out_floats(c, "normal", normal, dims);
  dg_out_u64(c, "index", index);
}

static void slab_single(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  const sweep_case s = draw_segment(c);
  float mn[3], mx[3], mover[6], move[3];
  draw_box(c, s.from, mn, mx);
  draw_move(c, mover, move);
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
  dg_in_floats(c, "from, to", s.from, 6);
  dg_in_floats(c, "box min", mn, 3);
  dg_in_floats(c, "box max", mx, 3);
  dg_in_floats(c, "mover min, max", mover, 6);
  dg_in_floats(c, "move", move, 3);
  dg_in_int(c, "touch", touch);
  const col_vec3 from = {s.from[0], s.from[1], s.from[2]}, to = {s.to[0], s.to[1], s.to[2]};
  const col_aabb3 box = {{mn[0], mn[1], mn[2]}, {mx[0], mx[1], mx[2]}};
  const col_aabb3 m3 = {{mover[0], mover[1], mover[2]}, {mover[3], mover[4], mover[5]}};
  const col_vec3 mv = {move[0], move[1], move[2]};
  col_aabb3_hit h = col_segment_aabb3(from, to, box, touch);
  out_box_hit(c, "col_segment_aabb3", h.hit, h.t, &h.normal.x, 3, h.index);
  h = col_sweep_aabb3(m3, mv, box, touch);
  out_box_hit(c, "col_sweep_aabb3", h.hit, h.t, &h.normal.x, 3, h.index);
  const col_aabb2 b2 = {{mn[0], mn[1]}, {mx[0], mx[1]}};
  col_aabb2_hit g =
      col_segment_aabb2((col_vec2){from.x, from.y}, (col_vec2){to.x, to.y}, b2, touch);
  out_box_hit(c, "col_segment_aabb2", g.hit, g.t, &g.normal.x, 2, g.index);
  g = col_sweep_aabb2((col_aabb2){{mover[0], mover[1]}, {mover[3], mover[4]}},
                      (col_vec2){move[0], move[1]}, b2, touch);
  out_box_hit(c, "col_sweep_aabb2", g.hit, g.t, &g.normal.x, 2, g.index);
}

/* One segment and one moving box against a set, on the active backend; k->arg: dimensions. */
static void slab_batch(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const sweep_case s = draw_segment(c);
  float mover[6], move[3];
  draw_move(c, mover, move);
  const col_touch touch = dg_chance(c, 128) ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
  const size_t n = dg_chance(c, 192) ? dg_below(c, 24) : dg_below(c, 200);
  float *v[6];
  for (int i = 0; i < 6; i++) v[i] = dg_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    float mn[3], mx[3];
    draw_box(c, dg_chance(c, 128) ? s.from : mover, mn, mx);
    for (int a = 0; a < 3; a++) v[a][i] = mn[a], v[3 + a][i] = mx[a];
  }
  dg_in_floats(c, "from, to", s.from, 6);
  dg_in_floats(c, "mover min, max", mover, 6);
  dg_in_floats(c, "move", move, 3);
  dg_in_int(c, "touch", touch);
  static const char *names[6] = {"min x", "min y", "min z", "max x", "max y", "max z"};
  for (int i = 0; i < 6; i++) dg_in_floats(c, names[i], v[i], n);
  const col_vec3 from = {s.from[0], s.from[1], s.from[2]}, to = {s.to[0], s.to[1], s.to[2]};
  col_status st;
  if (k->arg == 3) {
    const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
    col_aabb3_hit h = {0};
    st = col_segment_aabb3_first(from, to, &set, touch, &h);
    dg_out_status(c, "status", st);
    out_box_hit(c, "col_segment_aabb3_first", h.hit, h.t, &h.normal.x, 3, h.index);
    const col_aabb3 m3 = {{mover[0], mover[1], mover[2]}, {mover[3], mover[4], mover[5]}};
    st = col_sweep_aabb3_first(m3, (col_vec3){move[0], move[1], move[2]}, &set, touch, &h);
    dg_out_status(c, "status", st);
    out_box_hit(c, "col_sweep_aabb3_first", h.hit, h.t, &h.normal.x, 3, h.index);
  } else {
    const col_aabb2_soa set = {v[0], v[1], v[3], v[4], n};
    col_aabb2_hit h = {0};
    st = col_segment_aabb2_first((col_vec2){from.x, from.y}, (col_vec2){to.x, to.y}, &set, touch,
                                 &h);
    dg_out_status(c, "status", st);
    out_box_hit(c, "col_segment_aabb2_first", h.hit, h.t, &h.normal.x, 2, h.index);
    const col_aabb2 m2 = {{mover[0], mover[1]}, {mover[3], mover[4]}};
    st = col_sweep_aabb2_first(m2, (col_vec2){move[0], move[1]}, &set, touch, &h);
    dg_out_status(c, "status", st);
    out_box_hit(c, "col_sweep_aabb2_first", h.hit, h.t, &h.normal.x, 2, h.index);
  }
  for (int i = 0; i < 6; i++) free(v[i]);
}

size_t dg_sweep_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"segment_sphere", 4096, 0, 0, single, NULL},
      {"segment_spheres", 512, COL_KERNEL_SEGMENT, 0, batch, NULL},
      {"segment_spheres_robust", 512, COL_KERNEL_SEGMENT_ROBUST, 1, batch, NULL},
      {"segment_aabb", 4096, 0, 0, slab_single, NULL},
      {"sweep_aabb2_first", 512, COL_KERNEL_SWEEP_AABB2, 2, slab_batch, NULL},
      {"sweep_aabb3_first", 512, COL_KERNEL_SWEEP_AABB3, 3, slab_batch, NULL},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
