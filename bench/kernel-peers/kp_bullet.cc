// Bullet's AABB utilities (LinearMath/btAabbUtil2.h, single precision) as kernel peers:
// TestAabbAgainstAabb2 (3D box overlap), btRayAabb2 (the slab test btDbvt::rayTest runs, set up
// as it does: the direction normalized, a zero component's inverse BT_LARGE_FLOAT, the segment's
// length as lambda_max) and btRayAabb (the outcode test: param 1 on entry).
#include "kp_adapter.h"

#include <LinearMath/btAabbUtil2.h>
#include <LinearMath/btVector3.h>

#include <cstdio>

// BT_BULLET_VERSION is 100 * major + minor (324: 3.24).
static const char *const version = [] {
  static char text[16];
  std::snprintf(text, sizeof text, "%d.%02d", BT_BULLET_VERSION / 100, BT_BULLET_VERSION % 100);
  return text;
}();
#define VERSION version

struct box {
  btVector3 min, max;
};
static btVector3 v3(col_vec3 v) { return btVector3(v.x, v.y, v.z); }
static box to_box(col_aabb3 b) { return box{v3(b.min), v3(b.max)}; }

static void box_query(const kp_item *it, box *q) { *q = to_box(it->boxes.a); }
static void box_item(const kp_item *it, box *o) { *o = to_box(it->boxes.b); }
static inline bool box_test(const box *q, const box *o, float *, kp_answer *) {
  return TestAabbAgainstAabb2(q->min, q->max, o->min, o->max);
}
KP_KERNEL(box, box, box)

// btRayAabb2, as btDbvt::rayTest prepares its ray
struct ray {
  btVector3 from, inverse;
  unsigned sign[3];
  btScalar length;
};
static void ray2_query(const kp_item *it, ray *q) {
  const btVector3 from = v3(it->segbox.from), to = v3(it->segbox.to);
  btVector3 dir = to - from;
  // A zero (or underflowing) length: normalize would divide by zero into NaN, which misses
  // every box; the NaN is made here without the division (rule zero=miss).
  if (dir.length2() == btScalar(0))
    dir = btVector3(NAN, NAN, NAN);
  else
    dir.normalize();
  q->from = from;
  for (int k = 0; k < 3; k++) {
    q->inverse[k] = dir[k] == btScalar(0.0) ? btScalar(BT_LARGE_FLOAT) : btScalar(1.0) / dir[k];
    q->sign[k] = q->inverse[k] < 0.0;
  }
  q->length = dir.dot(to - from);
}
static void ray2_item(const kp_item *it, box *o) { *o = to_box(it->segbox.box); }
static inline bool ray2_test(const ray *q, const box *o, float *t, kp_answer *) {
  const btVector3 bounds[2] = {o->min, o->max};
  btScalar tmin = 0;
  const bool hit = btRayAabb2(q->from, q->inverse, q->sign, bounds, tmin, 0, q->length);
  *t = tmin;
  return hit;
}
KP_KERNEL(ray2, ray, box)

// btRayAabb: the outcode form
struct segment {
  btVector3 from, to;
};
static void ray_query(const kp_item *it, segment *q) {
  *q = segment{v3(it->segbox.from), v3(it->segbox.to)};
}
static void ray_item(const kp_item *it, box *o) { *o = to_box(it->segbox.box); }
static inline bool ray_test(const segment *q, const box *o, float *t, kp_answer *) {
  btScalar param = 1;
  btVector3 normal;
  const bool hit = btRayAabb(q->from, q->to, o->min, o->max, param, normal);
  *t = param;
  return hit;
}
KP_KERNEL(ray, segment, box)

static const kp_impl impls[] = {
    KP_IMPL(box, "bullet-box", VERSION, box),
    KP_IMPL(ray2, "bullet-ray2", VERSION, box),
    KP_IMPL(ray, "bullet-ray", VERSION, box),
};
KP_TABLE(bullet, impls);
