// glm's glm::intersectRaySphere (glm/gtx/intersect.hpp) as a kernel peer: the segment as a ray
// from `from` along normalize(to - from), a hit when the distance it returns is within the
// segment's length (as a game calls it for a bullet's step).
#define GLM_ENABLE_EXPERIMENTAL
#include "kp_adapter.h"

#include <glm/glm.hpp>
#include <glm/gtx/intersect.hpp>

#define VERSION                                                                                    \
  KP_STR(GLM_VERSION_MAJOR)                                                                        \
  "." KP_STR(GLM_VERSION_MINOR) "." KP_STR(GLM_VERSION_PATCH) "." KP_STR(GLM_VERSION_REVISION)

struct ray {
  glm::vec3 from, dir;
  float length;
};
struct sphere {
  glm::vec3 centre;
  float radius2;
};
static void sphere_query(const kp_item *it, ray *q) {
  const col_vec3 f = it->segsphere.from, t = it->segsphere.to;
  q->from = glm::vec3(f.x, f.y, f.z);
  const glm::vec3 v = glm::vec3(t.x, t.y, t.z) - q->from;
  q->length = glm::length(v);
  // normalize divides by the length: a zero one gives NaN, which misses every sphere (made here
  // without the division)
  q->dir = glm::dot(v, v) == 0.0f ? glm::vec3(NAN) : glm::normalize(v);
}
static void sphere_item(const kp_item *it, sphere *o) {
  const col_sphere s = it->segsphere.sphere;
  o->centre = glm::vec3(s.center.x, s.center.y, s.center.z), o->radius2 = s.radius * s.radius;
}
static inline bool sphere_test(const ray *q, const sphere *o, float *t, kp_answer *) {
  float distance = 0;
  const bool hit = glm::intersectRaySphere(q->from, q->dir, o->centre, o->radius2, distance) &&
                   distance <= q->length;
  *t = distance;
  return hit;
}
KP_KERNEL(sphere, ray, sphere)

static const kp_impl impls[] = {KP_IMPL(sphere, "glm-sphere", VERSION, sphere)};
KP_TABLE(glm, impls);
