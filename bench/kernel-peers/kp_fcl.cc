// FCL's fcl::AABB<float>::overlap (fcl/math/bv/AABB.h) as a kernel peer: 3D box overlap on
// its bounding-volume class (Eigen vectors), the test its broadphase managers call.
#include "kp_adapter.h"

#include <fcl/config.h>
#include <fcl/math/bv/AABB.h>

#include <new>

using aabb = fcl::AABB<float>;

static aabb to_aabb(col_aabb3 b) {
  aabb r;
  r.min_ = fcl::Vector3<float>(b.min.x, b.min.y, b.min.z);
  r.max_ = fcl::Vector3<float>(b.max.x, b.max.y, b.max.z);
  return r;
}
static void box_query(const kp_item *it, aabb *q) { new (q) aabb(to_aabb(it->boxes.a)); }
static void box_item(const kp_item *it, aabb *o) { new (o) aabb(to_aabb(it->boxes.b)); }
static inline bool box_test(const aabb *q, const aabb *o, float *, kp_answer *) {
  return q->overlap(*o);
}
KP_KERNEL(box, aabb, aabb)

static const kp_impl impls[] = {KP_IMPL(box, "fcl-box", FCL_VERSION, aabb)};
KP_TABLE(fcl, impls);
