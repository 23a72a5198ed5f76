/* The classification of a kernel peer's answer (kp_rules.h). Each family has a model of the
 * peer: collide's semantics changed by the peer's declared rules. Box overlap and the push-out
 * are modelled in float (their compares are exact; the model rounds where the peer's
 * representation does); segments and circles are modelled on the exact answers of GMP judges
 * (harness/slab_exact.c, sweep_exact.c, circle_exact.c), so that a difference is either a rule,
 * collide's error, the peer's rounding near the decision boundary (the accuracy band) or
 * unexplained. */
#include "kp_rules.h"

#include "circle_exact.h"
#include "kp_inputs.h"
#include "slab_exact.h"
#include "sweep_exact.h"

#include <float.h>
#include <math.h>

#define U 0x1p-24
/* The peers' accuracy band: relative closeness to a decision boundary within which a peer's
 * float (or double) rounding may decide either way. */
#define BAND 0x1p-18
/* An absolute floor under the bands: squares of differences under about 2^-75 underflow (the
 * judges' own range starts at 2^-60). */
#define UNDERFLOW 0x1p-60

bool kp_family_judged(kp_family f) { return f >= KP_SEGBOX2 && f <= KP_CIRCLE; }

/* Outside the judges' range: not finite, a magnitude over 2^60, or a nonzero one under 2^-60
 * (where squares underflow, and Bullet's 1 / 0 = BT_LARGE_FLOAT stand-in is no longer large). */
static bool out_of_range(const float *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!(fabsf(v[i]) <= 0x1p60f) || (v[i] != 0 && fabsf(v[i]) < 0x1p-60f)) return true;
  return false;
}

bool kp_item_invalid(kp_family f, const kp_item *it) {
  if (f == KP_SEGBOX2 || f == KP_SEGBOX3) {
    const col_aabb3 b = it->segbox.box;
    const float v[12] = {it->segbox.from.x, it->segbox.from.y, it->segbox.from.z, it->segbox.to.x,
                         it->segbox.to.y,   it->segbox.to.z,   b.min.x,           b.min.y,
                         b.min.z,           b.max.x,           b.max.y,           b.max.z};
    return out_of_range(v, 12) || !(b.min.x <= b.max.x && b.min.y <= b.max.y && b.min.z <= b.max.z);
  }
  if (f == KP_SEGSPHERE || f == KP_SEGCIRCLE) {
    const col_sphere s = it->segsphere.sphere;
    const float v[10] = {it->segsphere.from.x, it->segsphere.from.y,
                         it->segsphere.from.z, it->segsphere.to.x,
                         it->segsphere.to.y,   it->segsphere.to.z,
                         s.center.x,           s.center.y,
                         s.center.z,           s.radius};
    return out_of_range(v, 10) || s.radius < 0;
  }
  if (f == KP_CIRCLE) {
    const col_circle a = it->circles.a, b = it->circles.b;
    const float v[6] = {a.center.x, a.center.y, a.radius, b.center.x, b.center.y, b.radius};
    return out_of_range(v, 6) || a.radius < 0 || b.radius < 0;
  }
  const col_aabb3 a = it->boxes.a, b = it->boxes.b;
  const float v[12] = {a.min.x, a.min.y, a.min.z, a.max.x, a.max.y, a.max.z,
                       b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
  return out_of_range(v, 12);
}

/* ---- boxes (float models) ---- */

static float get(const col_vec3 *v, unsigned a) { return a == 0 ? v->x : a == 1 ? v->y : v->z; }

static bool box_model(const kp_rules *r, const col_aabb3 *a, const col_aabb3 *b, unsigned dims) {
  for (unsigned k = 0; k < dims; k++) {
    float lo[2] = {get(&a->min, k), get(&b->min, k)}, hi[2] = {get(&a->max, k), get(&b->max, k)};
    for (int s = 0; s < 2; s++) {
      const float w = hi[s] - lo[s];
      if (r->empty && w <= 0.0f) return false;
      if (r->xywh) hi[s] = lo[s] + w;
    }
    if (r->nan == KP_NAN_CLIP) { /* SDL: the overlap's ends picked by compares, then hi <= lo */
      const float l = lo[1] > lo[0] ? lo[1] : lo[0], h = hi[1] < hi[0] ? hi[1] : hi[0];
      if (r->open ? h <= l : h < l) return false;
      continue;
    }
    const bool n1 = isnan(hi[0]) || isnan(lo[1]), n2 = isnan(hi[1]) || isnan(lo[0]);
    bool c1 = r->open ? hi[0] > lo[1] : hi[0] >= lo[1];
    bool c2 = r->open ? hi[1] > lo[0] : hi[1] >= lo[0];
    if (r->nan == KP_NAN_COMPARE) c1 = c1 || n1, c2 = c2 || n2;
    if (!(c1 && c2)) return false;
  }
  return true;
}

static bool any_nan_box(const col_aabb3 *a, unsigned dims) {
  for (unsigned k = 0; k < dims; k++)
    if (isnan(get(&a->min, k)) || isnan(get(&a->max, k))) return true;
  return false;
}

/* The push-out of a from b: collide's (4.2) with the declared rules. */
static kp_answer mtd_model(const kp_rules *r, const col_aabb3 *a3, const col_aabb3 *b3) {
  kp_answer no = {false, 0, 0};
  float alo[2] = {a3->min.x, a3->min.y}, ahi[2] = {a3->max.x, a3->max.y};
  float blo[2] = {b3->min.x, b3->min.y}, bhi[2] = {b3->max.x, b3->max.y};
  bool nan = false;
  for (int k = 0; k < 2; k++) {
    const float wa = ahi[k] - alo[k], wb = bhi[k] - blo[k];
    if (r->empty && (wa <= 0.0f || wb <= 0.0f)) return no;
    if (r->xywh) ahi[k] = alo[k] + wa, bhi[k] = blo[k] + wb;
    nan |= isnan(alo[k]) || isnan(ahi[k]) || isnan(blo[k]) || isnan(bhi[k]);
  }
  if (nan && r->nan != KP_NAN_CLIP) return (kp_answer){r->nan == KP_NAN_HIT, -1, 0};
  if (r->depth_overlap) { /* the overlap rectangle's sides; the push along the smaller (x on ties)
                           */
    float side[2];
    for (int k = 0; k < 2; k++) {
      const float lo = blo[k] > alo[k] ? blo[k] : alo[k], hi = bhi[k] < ahi[k] ? bhi[k] : ahi[k];
      side[k] = hi - lo;
      if (r->nan == KP_NAN_CLIP ? side[k] <= 0.0f : !(side[k] > 0.0f)) return no;
    }
    const int axis = side[1] < side[0];
    return (kp_answer){true, axis, side[axis]};
  }
  const float d[4] = {ahi[0] - blo[0], bhi[0] - alo[0], ahi[1] - blo[1], bhi[1] - alo[1]};
  float m = d[0];
  int at = 0;
  for (int i = 1; i < 4; i++)
    if (d[i] < m) m = d[i], at = i;
  const float floor = r->skin > 0 ? -r->skin : 0.0f;
  if (r->skin > 0 ? !(m >= floor) : !(m > 0)) return no;
  return (kp_answer){true, at / 2, m};
}

/* Within the rounding of a push-out computed another way: relative 2^-16, Box2D's face
 * tolerance (0.1 b2_linearSlop) and 64 ulps of the largest coordinate (its vertices are the
 * centre plus or minus the half extents). */
static bool close_to(float a, float b, float reach) {
  return fabsf(a - b) <= 0x1p-16f * (fabsf(a) + fabsf(b)) + 1e-3f + 64 * 0x1p-24f * reach;
}

static float reach_of(const col_aabb3 *a, const col_aabb3 *b) {
  const float v[8] = {a->min.x, a->min.y, a->max.x, a->max.y,
                      b->min.x, b->min.y, b->max.x, b->max.y};
  float m = 0;
  for (int i = 0; i < 8; i++) m = fabsf(v[i]) > m ? fabsf(v[i]) : m;
  return m;
}

/* Whether two push-out answers agree under the rules (depth=rounded: within rounding, and
 * either axis where the two axes' depths are that close). */
static bool mtd_same(const kp_rules *r, kp_answer p, kp_answer q, const col_aabb3 *a,
                     const col_aabb3 *b) {
  if (p.hit != q.hit) return false;
  if (!p.hit || p.axis < 0 || q.axis < 0) return true;
  if (r->degenerate && !(a->max.x - a->min.x > 0 && a->max.y - a->min.y > 0 &&
                         b->max.x - b->min.x > 0 && b->max.y - b->min.y > 0))
    return true;
  if (!r->depth_rounded)
    return p.axis == q.axis && (p.depth == q.depth || (isnan(p.depth) && isnan(q.depth)));
  const float reach = reach_of(a, b);
  if (p.axis == q.axis) return close_to(p.depth, q.depth, reach);
  const float dx = fminf(a->max.x - b->min.x, b->max.x - a->min.x),
              dy = fminf(a->max.y - b->min.y, b->max.y - a->min.y);
  return close_to(dx, dy, reach) && close_to(p.depth, q.depth, reach);
}

/* ---- segments and circles (exact models) ---- */

typedef struct judged {
  bool valid;
  bool hit;  /* the model's exact decision */
  bool band; /* the input lies in the accuracy band of that decision */
} judged;

static bool near_rel(double a, double b) { return fabs(a - b) <= BAND * (fabs(a) + fabs(b)); }

static judged segbox(const kp_rules *r, const kp_item *it, bool flat) {
  col_vec3 from = it->segbox.from, to = it->segbox.to;
  col_aabb3 box = it->segbox.box;
  if (flat) box.min.z = -1, box.max.z = 1, from.z = to.z = 0;
  if (kp_item_invalid(flat ? KP_SEGBOX2 : KP_SEGBOX3, it)) return (judged){false, false, false};
  const col_vec3 start = from;
  const col_aabb3 upper = box;
  if (r->centre) { /* Bullet's btRayAabb: into the box's centre frame, in float */
    const col_vec3 c = {(box.max.x + box.min.x) * 0.5f, (box.max.y + box.min.y) * 0.5f,
                        (box.max.z + box.min.z) * 0.5f};
    const col_vec3 h = {(box.max.x - box.min.x) * 0.5f, (box.max.y - box.min.y) * 0.5f,
                        (box.max.z - box.min.z) * 0.5f};
    from = (col_vec3){from.x - c.x, from.y - c.y, from.z - c.z},
    to = (col_vec3){to.x - c.x, to.y - c.y, to.z - c.z};
    box = (col_aabb3){{-h.x, -h.y, -h.z}, h};
    if (flat) box.min.z = -1, box.max.z = 1, from.z = to.z = 0;
  }
  if (r->shrink > 0) { /* SDL's rect x + w - 1 in float */
    box.max.x = (box.min.x + (box.max.x - box.min.x)) - r->shrink;
    box.max.y = (box.min.y + (box.max.y - box.min.y)) - r->shrink;
    if (!(box.min.x <= box.max.x && box.min.y <= box.max.y)) return (judged){true, false, true};
  }
  if (r->parallel_eps) { /* Box2D: |p2 - p1| < FLT_EPSILON per axis is parallel */
    if (fabsf(to.x - from.x) < FLT_EPSILON) to.x = from.x;
    if (fabsf(to.y - from.y) < FLT_EPSILON) to.y = from.y;
    if (!flat && fabsf(to.z - from.z) < FLT_EPSILON) to.z = from.z;
  }
  const slab_exact x = slab_exact_eval(from, to, box, r->open);
  judged j = {true, x.hit, false};
  double nmax = -INFINITY, fmin_far = INFINITY;
  for (int k = 0; k < 3; k++)
    if (x.moving >> k & 1) {
      nmax = fmax(nmax, x.near[k]), fmin_far = fmin(fmin_far, x.far[k]);
      if (near_rel(x.near[k], 1.0) || fabs(x.near[k]) <= BAND || fabs(x.far[k]) <= BAND)
        j.band = true;
      for (int m = 0; m < 3; m++)
        if (x.moving >> m & 1 && near_rel(x.near[k], x.far[m])) j.band = true;
    }
  const bool inside = x.hit && nmax < 0;
  if (r->inside == KP_INSIDE_MISS && inside) j.hit = false;
  if (r->ends_open && j.hit && (nmax == 1.0 || fmin_far == 0.0)) j.hit = false;
  if (r->ends_open &&
      j.hit) /* parallel on the upper plane: far = (max - from) * BT_LARGE_FLOAT = 0 */
    for (int k = 0; k < (flat ? 2 : 3); k++)
      if (!(x.moving >> k & 1) && get(&start, (unsigned)k) == get(&upper.max, (unsigned)k))
        j.hit = false;
  if (r->zero_miss) { /* zero, or so short that its squared length underflows */
    const float dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
    if (x.moving == 0 || (dx * dx + dy * dy) + dz * dz == 0.0f) j.hit = false;
  }
  return j;
}

static double dot3(col_vec3 a, col_vec3 b) {
  return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
}

double kp_sphere_reach(const kp_item *it) {
  const col_vec3 f = it->segsphere.from, t = it->segsphere.to, c = it->segsphere.sphere.center;
  const float v[9] = {f.x, f.y, f.z, t.x, t.y, t.z, c.x, c.y, c.z};
  double m = 0;
  for (int i = 0; i < 9; i++) m = fabs((double)v[i]) > m ? fabs((double)v[i]) : m;
  return m;
}

static judged segsphere(const kp_rules *r, const kp_item *it) {
  const col_vec3 from = it->segsphere.from, to = it->segsphere.to;
  const col_sphere s = it->segsphere.sphere;
  const sweep_exact x = sweep_exact_eval(from, to, s);
  if (!x.valid) return (judged){false, false, false};
  if (kp_item_invalid(KP_SEGSPHERE, it)) return (judged){false, false, false};
  judged j = {true, x.hit, false};
  const double rr = s.radius, D = x.dist, L = x.len, p = x.miss;
  const double b = 64 * U * (D + rr + L) + (rr > 0 ? 64 * U * D * D / rr : INFINITY) + UNDERFLOW;
  if (fabs(p - rr) <= b || fabs(D - rr) <= b) j.band = true;
  if (isfinite(x.t_line) && fabs(x.t_line - L) <= 3 * b + 2 * sqrt(rr * b) + 64 * U * L)
    j.band = true;
  if (r->inside == KP_INSIDE_MISS && D < rr) j.hit = false;
  if (r->inside == KP_INSIDE_CLOSED && D <= rr) j.hit = true;
  if (r->inside == KP_INSIDE_EXIT && D < rr) { /* the exit's distance within the segment */
    const col_vec3 d = {s.center.x - from.x, s.center.y - from.y, s.center.z - from.z};
    const col_vec3 v = {to.x - from.x, to.y - from.y, to.z - from.z};
    const double sd = L > 0 ? dot3(d, v) / L : 0, q = rr * rr - fmax(D * D - sd * sd, 0);
    const double exit = sd + sqrt(fmax(q, 0));
    j.hit = L > 0 && exit <= L;
    if (fabs(exit - L) <= 3 * b + 64 * U * (L + D)) j.band = true;
  }
  if (r->zero_miss && (L == 0 || rr <= 0x1p-40 * kp_sphere_reach(it))) j.hit = false;
  if (r->short_eps) {
    const float vx = to.x - from.x, vy = to.y - from.y, vz = to.z - from.z;
    if ((vx * vx + vy * vy) + vz * vz < FLT_EPSILON) j.hit = false;
  }
  return j;
}

static judged circles(const kp_rules *r, const kp_item *it) {
  const col_circle a = it->circles.a, b = it->circles.b;
  const circle_exact x = circle_exact_eval(a, b);
  if (!x.valid || kp_item_invalid(KP_CIRCLE, it)) return (judged){false, false, false};
  const double reach =
      fmax(fmax(fabs(a.center.x), fabs(a.center.y)), fmax(fabs(b.center.x), fabs(b.center.y)));
  return (judged){true, r->open || !r->set[KP_R_TOUCH] ? x.compare < 0 : x.compare <= 0,
                  fabs(x.dist - x.sum) <= 64 * U * (reach + x.sum) + UNDERFLOW};
}

static judged judge(kp_family f, const kp_rules *r, const kp_item *it) {
  if (f == KP_SEGBOX2 || f == KP_SEGBOX3) return segbox(r, it, f == KP_SEGBOX2);
  if (f == KP_SEGSPHERE || f == KP_SEGCIRCLE) return segsphere(r, it);
  return circles(r, it);
}

/* The conventions alone: the rules less the bug rules. */
static kp_rules conventions(const kp_rules *r) {
  kp_rules c = kp_rules_prefix(r, KP_R_PARALLEL);
  c.set[KP_R_REPR] = false, c.xywh = c.centre = false;
  return c;
}

/* The model's answer with the rules r (float families). */
static kp_answer model(kp_family f, const kp_rules *r, const kp_item *it) {
  if (f == KP_MTD) return mtd_model(r, &it->boxes.a, &it->boxes.b);
  return (kp_answer){box_model(r, &it->boxes.a, &it->boxes.b, f == KP_BOX3 ? 3 : 2), 0, 0};
}

static bool same(kp_family f, const kp_rules *r, kp_answer p, kp_answer q, const kp_item *it) {
  if (f == KP_MTD) return mtd_same(r, p, q, &it->boxes.a, &it->boxes.b);
  return p.hit == q.hit;
}

kp_class kp_classify(kp_family f, const kp_rules *r, const kp_item *it, kp_answer peer) {
  kp_class c = {KP_SAME, KP_R_TOUCH, peer, kp_ours(f, it), {0}, -1, -1, -1, -1};
  const kp_rules none = {0};
  if (!kp_family_judged(f)) {
    c.model = model(f, r, it);
    const unsigned dims = f == KP_BOX3 ? 3 : 2;
    if (!any_nan_box(&it->boxes.a, dims) && !any_nan_box(&it->boxes.b, dims)) {
      const kp_rules conv = {.set = {0},
                             .open = r->open,
                             .empty = r->empty,
                             .depth_overlap = r->depth_overlap,
                             .skin = r->skin};
      c.exact_ours = c.ours.hit;
      c.exact_peer = model(f, &conv, it).hit;
    }
    if (same(f, &none, peer, c.ours, it)) return c;
    if (!same(f, r, peer, c.model, it)) {
      if (r->invalid_any && kp_item_invalid(f, it))
        return c.verdict = KP_BY_RULE, c.reason = KP_R_INVALID, c;
      const col_aabb3 *a = &it->boxes.a, *b = &it->boxes.b;
      const bool inverted =
          a->min.x > a->max.x || a->min.y > a->max.y || b->min.x > b->max.x || b->min.y > b->max.y;
      if (r->degenerate && inverted) return c.verdict = KP_BY_RULE, c.reason = KP_R_EMPTY, c;
      return c.verdict = KP_UNEXPLAINED, c;
    }
    c.verdict = KP_BY_RULE;
    kp_answer before = model(f, &none, it);
    for (int k = 1; k <= KP_RULE_KEYS; k++) {
      const kp_rules p = kp_rules_prefix(r, k);
      const kp_answer now = model(f, &p, it);
      if (!same(f, &none, now, before, it)) return c.reason = (kp_rule_key)(k - 1), c;
      before = now;
    }
    /* The model is collide's answer: the comparison's tolerance explained the difference. */
    c.reason = r->depth_rounded ? KP_R_DEPTH : KP_R_EMPTY;
    return c;
  }
  /* judged families */
  if (f == KP_SEGSPHERE || f == KP_SEGCIRCLE) {
    const col_vec3 from = it->segsphere.from, to = it->segsphere.to;
    c.alt = col_segment_sphere(from, to, it->segsphere.sphere).hit;
  } else if (f == KP_CIRCLE) {
    c.alt = col_circle_overlap_squared(it->circles.a, it->circles.b);
  }
  const judged all = judge(f, r, it);
  if (!all.valid) {
    c.model = c.ours;
    if (peer.hit == c.ours.hit) return c;
    if (r->invalid_any) return c.verdict = KP_BY_RULE, c.reason = KP_R_INVALID, c;
    return c.verdict = KP_UNEXPLAINED, c;
  }
  const judged base = judge(f, &none, it);
  const kp_rules conv = conventions(r);
  c.model = (kp_answer){all.hit, 0, 0};
  c.exact_ours = base.hit;
  c.exact_peer = judge(f, &conv, it).hit;
  c.exact_alt = base.hit;
  if (peer.hit == c.ours.hit) return c;
  if (peer.hit == all.hit) {
    if (all.hit == base.hit) return c.verdict = KP_OURS_WRONG, c;
    c.verdict = KP_BY_RULE;
    bool before = base.hit;
    for (int k = 1; k <= KP_RULE_KEYS; k++) {
      const kp_rules p = kp_rules_prefix(r, k);
      const bool now = judge(f, &p, it).hit;
      if (now != before) return c.reason = (kp_rule_key)(k - 1), c;
      before = now;
    }
    return c;
  }
  c.verdict = all.band || base.band ? KP_ACCURACY : KP_UNEXPLAINED;
  return c;
}

static const char *yes(int v) { return v < 0 ? "-" : v ? "hit" : "miss"; }

void kp_print_class(FILE *out, const kp_kernel *k, const kp_item *it, const kp_class *c) {
  static const char *const verdicts[] = {"same", "differs by rule", "collide wrong",
                                         "accuracy band", "UNEXPLAINED"};
  fprintf(out, "  %s (%s, %s, family %s, rules %s): %s%s%s\n", k->name, k->lib, k->function,
          kp_family_name(k->family), k->rules, verdicts[c->verdict],
          c->verdict == KP_BY_RULE ? ": " : "",
          c->verdict == KP_BY_RULE ? kp_rule_name(c->reason) : "");
  kp_print_item(out, k->family, it, "    ");
  fprintf(
      out,
      "    peer %s, collide %s, the rules' model %s; exact: collide's rules %s, the peer's %s\n",
      yes(c->peer.hit), yes(c->ours.hit), yes(c->model.hit), yes(c->exact_ours),
      yes(c->exact_peer));
  if (k->family == KP_MTD)
    fprintf(
        out,
        "    push-out axis/depth: peer %d %.9g (%a), collide %d %.9g (%a), model %d %.9g (%a)\n",
        c->peer.axis, (double)c->peer.depth, (double)c->peer.depth, c->ours.axis,
        (double)c->ours.depth, (double)c->ours.depth, c->model.axis, (double)c->model.depth,
        (double)c->model.depth);
}
