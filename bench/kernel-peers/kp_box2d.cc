// Box2D's calls (b2_collision.h, b2_circle_shape.h, b2_polygon_shape.h) as kernel peers:
// b2TestOverlap (box overlap), b2CollidePolygons on two box polygons (the push-out: the
// manifold's normal and deepest point; Box2D's polygons carry a skin, b2_polygonRadius each),
// b2AABB::RayCast and b2CircleShape::RayCast (segments: maxFraction 1) and b2CollideCircles.
#include "kp_adapter.h"

#include <box2d/box2d.h>

#include <new>

#define VERSION "2.4.1"

static b2AABB aabb(col_aabb3 b) {
  b2AABB r;
  r.lowerBound = b2Vec2(b.min.x, b.min.y), r.upperBound = b2Vec2(b.max.x, b.max.y);
  return r;
}
static const b2Transform identity = [] {
  b2Transform t;
  t.SetIdentity();
  return t;
}();

// box overlap
static void box_query(const kp_item *it, b2AABB *q) { *q = aabb(it->boxes.a); }
static void box_item(const kp_item *it, b2AABB *o) { *o = aabb(it->boxes.b); }
static inline bool box_test(const b2AABB *q, const b2AABB *o, float *, kp_answer *) {
  return b2TestOverlap(*q, *o);
}
KP_KERNEL(box, b2AABB, b2AABB)

// the push-out of a from b: two box polygons (SetAsBox about their centres)
struct polygon_pair {
  b2PolygonShape a, b;
};
static void set_box(b2PolygonShape *p, col_aabb3 b) {
  new (p) b2PolygonShape();
  const float hx = (b.max.x - b.min.x) / 2, hy = (b.max.y - b.min.y) / 2;
  p->SetAsBox(hx, hy, b2Vec2((b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2), 0);
}
static void mtd_query(const kp_item *, char *) {}
static void mtd_item(const kp_item *it, polygon_pair *o) {
  set_box(&o->a, it->boxes.a), set_box(&o->b, it->boxes.b);
}
static inline bool mtd_test(const char *, const polygon_pair *o, float *, kp_answer *a) {
  b2Manifold m;
  b2CollidePolygons(&m, &o->a, identity, &o->b, identity);
  if (m.pointCount == 0) return false;
  b2WorldManifold w;
  w.Initialize(&m, identity, o->a.m_radius, identity, o->b.m_radius);
  float sep = w.separations[0];
  for (int i = 1; i < m.pointCount; i++) sep = sep < w.separations[i] ? sep : w.separations[i];
  a->axis = b2Abs(w.normal.x) >= b2Abs(w.normal.y) ? 0 : 1;
  a->depth = -sep - (o->a.m_radius + o->b.m_radius);
  return true;
}
KP_KERNEL(mtd, char, polygon_pair)

// a segment against a box
static void ray_query(const kp_item *it, b2RayCastInput *q) {
  q->p1 = b2Vec2(it->segbox.from.x, it->segbox.from.y),
  q->p2 = b2Vec2(it->segbox.to.x, it->segbox.to.y);
  q->maxFraction = 1;
}
static void ray_item(const kp_item *it, b2AABB *o) { *o = aabb(it->segbox.box); }
static inline bool ray_test(const b2RayCastInput *q, const b2AABB *o, float *t, kp_answer *) {
  b2RayCastOutput out;
  const bool hit = o->RayCast(&out, *q);
  *t = hit ? out.fraction : 0;
  return hit;
}
KP_KERNEL(ray, b2RayCastInput, b2AABB)

// a segment against a circle
static void circle_ray_query(const kp_item *it, b2RayCastInput *q) {
  q->p1 = b2Vec2(it->segsphere.from.x, it->segsphere.from.y);
  q->p2 = b2Vec2(it->segsphere.to.x, it->segsphere.to.y);
  q->maxFraction = 1;
}
static void circle_at(b2CircleShape *c, float x, float y, float r) {
  new (c) b2CircleShape();
  c->m_p = b2Vec2(x, y), c->m_radius = r;
}
static void circle_ray_item(const kp_item *it, b2CircleShape *o) {
  const col_sphere s = it->segsphere.sphere;
  circle_at(o, s.center.x, s.center.y, s.radius);
}
static inline bool circle_ray_test(const b2RayCastInput *q, const b2CircleShape *o, float *t,
                                   kp_answer *) {
  b2RayCastOutput out;
  const bool hit = o->RayCast(&out, *q, identity, 0);
  *t = hit ? out.fraction : 0;
  return hit;
}
KP_KERNEL(circle_ray, b2RayCastInput, b2CircleShape)

// two circles' manifold
struct circle_pair {
  b2CircleShape a, b;
};
static void circles_query(const kp_item *, char *) {}
static void circles_item(const kp_item *it, circle_pair *o) {
  circle_at(&o->a, it->circles.a.center.x, it->circles.a.center.y, it->circles.a.radius);
  circle_at(&o->b, it->circles.b.center.x, it->circles.b.center.y, it->circles.b.radius);
}
static inline bool circles_test(const char *, const circle_pair *o, float *, kp_answer *) {
  b2Manifold m;
  b2CollideCircles(&m, &o->a, identity, &o->b, identity);
  return m.pointCount > 0;
}
KP_KERNEL(circles, char, circle_pair)

static const kp_impl impls[] = {
    KP_IMPL(box, "box2d-box", VERSION, b2AABB),
    KP_IMPL(mtd, "box2d-mtd", VERSION, polygon_pair),
    KP_IMPL(ray, "box2d-ray", VERSION, b2AABB),
    KP_IMPL(circle_ray, "box2d-circle-ray", VERSION, b2CircleShape),
    KP_IMPL(circles, "box2d-circles", VERSION, circle_pair),
};
KP_TABLE(box2d, impls);
