/* The digest's segment-against-sphere kernels: the recipe and its robust variant, single and
 * against a set, and the sphere's inflation and transform. Half the spheres are placed a few
 * ulps from tangent to the segment, or with the segment starting on their surface. */
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

size_t dg_sweep_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"segment_sphere", 4096, 0, 0, single, NULL},
      {"segment_spheres", 512, COL_KERNEL_SEGMENT, 0, batch, NULL},
      {"segment_spheres_robust", 512, COL_KERNEL_SEGMENT_ROBUST, 1, batch, NULL},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
