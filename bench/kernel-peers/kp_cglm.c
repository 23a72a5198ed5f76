/* cglm's header-only tests (cglm/box.h, cglm/sphere.h) as kernel peers: glm_aabb_aabb (3D box
 * overlap) and glm_sphere_sphere on spheres at z = 0 (circle overlap). */
#include "kp_adapter.h"

#include <cglm/cglm.h>
#include <cglm/version.h>

#define VERSION                                                                                    \
  KP_STR(CGLM_VERSION_MAJOR) "." KP_STR(CGLM_VERSION_MINOR) "." KP_STR(CGLM_VERSION_PATCH)

typedef struct box {
  vec3 corner[2];
} box;

static void to_box(col_aabb3 b, box *o) {
  o->corner[0][0] = b.min.x, o->corner[0][1] = b.min.y, o->corner[0][2] = b.min.z;
  o->corner[1][0] = b.max.x, o->corner[1][1] = b.max.y, o->corner[1][2] = b.max.z;
}
static void box_query(const kp_item *it, box *q) { to_box(it->boxes.a, q); }
static void box_item(const kp_item *it, box *o) { to_box(it->boxes.b, o); }
static inline bool box_test(const box *q, const box *o, float *t, kp_answer *a) {
  (void)t, (void)a;
  return glm_aabb_aabb((vec3 *)q->corner, (vec3 *)o->corner);
}
KP_KERNEL(box, box, box)

typedef struct sphere_pair {
  vec4 a, b;
} sphere_pair;
static void circles_query(const kp_item *it, char *q) { (void)it, (void)q; }
static void circles_item(const kp_item *it, sphere_pair *o) {
  const col_circle a = it->circles.a, b = it->circles.b;
  o->a[0] = a.center.x, o->a[1] = a.center.y, o->a[2] = 0, o->a[3] = a.radius;
  o->b[0] = b.center.x, o->b[1] = b.center.y, o->b[2] = 0, o->b[3] = b.radius;
}
static inline bool circles_test(const char *q, const sphere_pair *o, float *t, kp_answer *a) {
  (void)q, (void)t, (void)a;
  vec4 x, y;
  glm_vec4_copy((float *)o->a, x), glm_vec4_copy((float *)o->b, y);
  return glm_sphere_sphere(x, y);
}
KP_KERNEL(circles, char, sphere_pair)

static const kp_impl impls[] = {
    KP_IMPL(box, "cglm-box", VERSION, box),
    KP_IMPL(circles, "cglm-circles", VERSION, sphere_pair),
};
KP_TABLE(cglm, impls);
