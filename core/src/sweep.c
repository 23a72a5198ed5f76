/* Segment against sphere (DESIGN.md 4.4), after XNA 3.0 Game Programming Recipes 4-11: the
 * ray from a fast mover's last position to its current one is tested with the semantics of
 * XNA's Ray.Intersects(BoundingSphere), and the hit counts only if it lies within the
 * distance covered. The operation order of the reference (sweep_ref.h) is the contract every
 * SIMD version follows. */
#include "sweep_ref.h"

#include <math.h>

col_hit col_segment_sphere(col_vec3 from, col_vec3 to, col_sphere s) {
  const col__segment_prep g = col__segment_prepare(from, to);
  return col__sweep_ref(&g, s.center.x, s.center.y, s.center.z, s.radius);
}

col_hit col_segment_sphere_robust(col_vec3 from, col_vec3 to, col_sphere s) {
  const col__segment_prep g = col__segment_prepare(from, to);
  return col__sweep_robust_ref(&g, s.center.x, s.center.y, s.center.z, s.radius);
}

col_sphere col_sphere_inflate(col_sphere target, float mover_radius) {
  target.radius = target.radius + mover_radius;
  return target;
}

col_mat4 col_mat4_scale_translation(col_vec3 scale, col_vec3 translation) {
  return (col_mat4){{
      {scale.x, 0.0f, 0.0f, 0.0f},
      {0.0f, scale.y, 0.0f, 0.0f},
      {0.0f, 0.0f, scale.z, 0.0f},
      {translation.x, translation.y, translation.z, 1.0f},
  }};
}

/* XNA's BoundingSphere.Transform: the radius grows by the longest basis vector of the
 * matrix, which bounds the sphere under any scale (uniform or not) and rotation. */
col_sphere col_sphere_transform(col_sphere s, col_mat4 world) {
  const float(*m)[4] = world.m;
  const col_vec3 c = s.center;
  col_sphere r;
  r.center.x = ((c.x * m[0][0] + c.y * m[1][0]) + c.z * m[2][0]) + m[3][0];
  r.center.y = ((c.x * m[0][1] + c.y * m[1][1]) + c.z * m[2][1]) + m[3][1];
  r.center.z = ((c.x * m[0][2] + c.y * m[1][2]) + c.z * m[2][2]) + m[3][2];
  float longest = 0.0f;
  for (int row = 0; row < 3; row++) {
    const float len2 = (m[row][0] * m[row][0] + m[row][1] * m[row][1]) + m[row][2] * m[row][2];
    if (len2 > longest) longest = len2;
  }
  r.radius = s.radius * sqrtf(longest);
  return r;
}

static col_status segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                                  col_segment_hit *out, bool robust) {
  if (set == NULL || out == NULL) return COL_ERR_NULL;
  if (set->count > 0 && (!set->center_x || !set->center_y || !set->center_z || !set->radius))
    return COL_ERR_NULL;
  if (set->count > UINT32_MAX) return COL_ERR_SIZE;
  const col__backend *be;
  const col_status st = col__backend_active(&be);
  if (st != COL_OK) return st;
  *out = (robust ? be->k.segment_spheres_robust : be->k.segment_spheres)(from, to, set);
  return COL_OK;
}

col_status col_segment_spheres(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                               col_segment_hit *out) {
  return segment_spheres(from, to, set, out, false);
}

col_status col_segment_spheres_robust(col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                                      col_segment_hit *out) {
  return segment_spheres(from, to, set, out, true);
}
