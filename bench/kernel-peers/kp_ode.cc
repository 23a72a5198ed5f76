// ODE's ray geoms (ode/collision.h, double precision) as kernel peers: dCollide of a ray
// against a sphere, as a game asks whether a bullet's step hits an object. (Against a box, ODE's
// rule for a ray starting on a face and sliding along it is not modelled yet: not listed.)
// The ray starts at `from`, points along to - from (dGeomRaySet normalizes it), its length the
// segment's; one contact asked for. ODE allocates a geom per object: prepare makes one per item
// (and the query's ray), release destroys them, and rows stop at 65,536 items. ODE asserts on
// a zero direction, or a contact at the centre of a sphere of
// radius 0 (or of one far out, whose contact rounds onto its centre): the adapter answers no hit
// there without calling it (rules zero=miss, invalid=any: values past 2^60 are invalid).
#include "kp_adapter.h"
#include "kp_rules.h"

#include <ode/ode.h>

#include <cmath>

#define VERSION "0.16.2"

static void init() {
  static const bool ready = [] { return dInitODE2(0) != 0; }();
  (void)ready;
}

// Finite and within 2^60 (the judges' range): past it, a contact point rounds onto a sphere's
// centre and ODE asserts on normalizing the zero normal.
static bool finite_all(const float *v, int n) {
  for (int i = 0; i < n; i++)
    if (!(std::fabs(v[i]) <= 0x1p60f)) return false;
  return true;
}

struct ray {
  dGeomID geom; // NULL: no ray (zero length or not finite)
};

static void make_ray(col_vec3 f, col_vec3 t, ray *q) {
  init();
  const double d[3] = {(double)t.x - f.x, (double)t.y - f.y, (double)t.z - f.z};
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  q->geom = nullptr;
  const float ends[6] = {f.x, f.y, f.z, t.x, t.y, t.z};
  if (!(len > 0) || !finite_all(ends, 6)) return;
  q->geom = dCreateRay(nullptr, len);
  dGeomRaySet(q->geom, f.x, f.y, f.z, d[0], d[1], d[2]);
}

// One contact of the ray with the object's geom (no ray or no geom: no hit).
static bool contact(const ray *q, const dGeomID *o, float *t) {
  if (q->geom == nullptr || *o == nullptr) return false;
  dContactGeom c;
  const bool hit = dCollide(q->geom, *o, 1, &c, sizeof c) > 0;
  *t = hit ? (float)c.depth : 0;
  return hit;
}

// a segment against a sphere
static void sphere_query(const kp_item *it, ray *q) {
  make_ray(it->segsphere.from, it->segsphere.to, q);
}
static void sphere_item(const kp_item *it, dGeomID *o) {
  init();
  const col_sphere s = it->segsphere.sphere;
  const float v[4] = {s.center.x, s.center.y, s.center.z, s.radius};
  *o = nullptr;
  // ODE asserts on a contact at a point sphere's centre, and one that rounds onto it
  if (!finite_all(v, 4) || !(s.radius > 0x1p-40 * kp_sphere_reach(it))) return;
  *o = dCreateSphere(nullptr, s.radius);
  dGeomSetPosition(*o, s.center.x, s.center.y, s.center.z);
}
static inline bool sphere_test(const ray *q, const dGeomID *o, float *t, kp_answer *) {
  return contact(q, o, t);
}
static void sphere_release(void *native, size_t n) {
  ray *q = static_cast<ray *>(native);
  dGeomID *o = reinterpret_cast<dGeomID *>(static_cast<char *>(native) + KP_QUERY_ROOM);
  if (q->geom) dGeomDestroy(q->geom), q->geom = nullptr;
  for (size_t i = 0; i < n; i++)
    if (o[i]) dGeomDestroy(o[i]), o[i] = nullptr;
}
KP_KERNEL(sphere, ray, dGeomID)

static const kp_impl impls[] = {
    KP_IMPL_OWNED(sphere, "ode-ray-sphere", VERSION, dGeomID, 65536),
};
KP_TABLE(ode, impls);
