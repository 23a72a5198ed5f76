/* Chipmunk2D's calls (double precision) as kernel peers: cpBBIntersects (box overlap),
 * cpBBSegmentQuery (a segment against a box), cpShapeSegmentQuery on a circle shape and
 * cpShapesCollide on two circle shapes. The shapes are initialized in the prepared memory
 * (cpCircleShapeInit on a static body at the origin, their centres as offsets), as a space's
 * shapes would be, with no space: nothing is allocated. */
#include "kp_adapter.h"

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>

#define VERSION KP_STR(CP_VERSION_MAJOR) "." KP_STR(CP_VERSION_MINOR) "." KP_STR(CP_VERSION_RELEASE)

static cpBB bb(col_aabb3 b) { return cpBBNew(b.min.x, b.min.y, b.max.x, b.max.y); }

/* box overlap */
static void box_query(const kp_item *it, cpBB *q) { *q = bb(it->boxes.a); }
static void box_item(const kp_item *it, cpBB *o) { *o = bb(it->boxes.b); }
static inline bool box_test(const cpBB *q, const cpBB *o, float *t, kp_answer *a) {
  (void)t, (void)a;
  return cpBBIntersects(*q, *o);
}
KP_KERNEL(box, cpBB, cpBB)

/* a segment against a box: the fraction of the segment at entry, INFINITY on a miss */
typedef struct segment {
  cpVect a, b;
} segment;
static void ray_query(const kp_item *it, segment *q) {
  q->a = cpv(it->segbox.from.x, it->segbox.from.y), q->b = cpv(it->segbox.to.x, it->segbox.to.y);
}
static void ray_item(const kp_item *it, cpBB *o) { *o = bb(it->segbox.box); }
static inline bool ray_test(const segment *q, const cpBB *o, float *t, kp_answer *a) {
  (void)a;
  const cpFloat f = cpBBSegmentQuery(*o, q->a, q->b);
  *t = (float)f;
  return f != INFINITY;
}
KP_KERNEL(ray, segment, cpBB)

static cpBody *origin(void) {
  static cpBody body;
  static bool ready;
  if (!ready) cpBodyInit(&body, 0, 0), cpBodySetType(&body, CP_BODY_TYPE_STATIC), ready = true;
  return &body;
}

static void circle_at(cpCircleShape *s, col_vec2 c, float r) {
  cpCircleShapeInit(s, origin(), r, cpv(c.x, c.y));
  cpShapeCacheBB(&s->shape);
}

/* a segment against a circle shape */
static void circle_ray_query(const kp_item *it, segment *q) {
  q->a = cpv(it->segsphere.from.x, it->segsphere.from.y),
  q->b = cpv(it->segsphere.to.x, it->segsphere.to.y);
}
static void circle_ray_item(const kp_item *it, cpCircleShape *o) {
  const col_sphere s = it->segsphere.sphere;
  circle_at(o, (col_vec2){s.center.x, s.center.y}, s.radius);
}
static inline bool circle_ray_test(const segment *q, const cpCircleShape *o, float *t,
                                   kp_answer *a) {
  (void)a;
  cpSegmentQueryInfo info;
  const bool hit = cpShapeSegmentQuery(&o->shape, q->a, q->b, 0, &info);
  *t = (float)info.alpha;
  return hit;
}
KP_KERNEL(circle_ray, segment, cpCircleShape)

/* two circle shapes' contact points */
typedef struct circle_pair {
  cpCircleShape a, b;
} circle_pair;
static void circles_query(const kp_item *it, char *q) { (void)it, (void)q; }
static void circles_item(const kp_item *it, circle_pair *o) {
  circle_at(&o->a, it->circles.a.center, it->circles.a.radius);
  circle_at(&o->b, it->circles.b.center, it->circles.b.radius);
}
static inline bool circles_test(const char *q, const circle_pair *o, float *t, kp_answer *a) {
  (void)q, (void)t, (void)a;
  return cpShapesCollide(&o->a.shape, &o->b.shape).count > 0;
}
KP_KERNEL(circles, char, circle_pair)

static const kp_impl impls[] = {
    KP_IMPL(box, "chipmunk-box", VERSION, cpBB),
    KP_IMPL(ray, "chipmunk-ray", VERSION, cpBB),
    KP_IMPL(circle_ray, "chipmunk-circle-ray", VERSION, cpCircleShape),
    KP_IMPL(circles, "chipmunk-circles", VERSION, circle_pair),
};
KP_TABLE(chipmunk, impls);
