/* Circle overlap and elastic response templates (circle_ref.h is the reference): W pairs at a
 * time from structure-of-arrays inputs, the reference's expressions in its order, its
 * branches as lane masks and selects. Tails are copied into padded stack blocks (NaN circles
 * never overlap; padding balls have unit masses and distinct centres). */
#ifndef COLLIDE_SIMD_CIRCLE_H
#define COLLIDE_SIMD_CIRCLE_H

COL_INLINE vm circle_lanes(col_circle_test test, vf ax, vf ay, vf ar, vf bx, vf by, vf br) {
  const vf dx = vf_sub(ax, bx), dy = vf_sub(ay, by);
  const vf d2 = vf_add(vf_mul(dx, dx), vf_mul(dy, dy));
  const vf r = vf_add(ar, br);
  if (test == COL_CIRCLE_SQUARED) return vf_lt(d2, vf_mul(r, r));
  const vm on_x =
      vm_and(vf_gt(vf_add(vf_add(ax, ar), br), bx), vf_lt(ax, vf_add(vf_add(bx, ar), br)));
  const vm on_y =
      vm_and(vf_gt(vf_add(vf_add(ay, ar), br), by), vf_lt(ay, vf_add(vf_add(by, ar), br)));
  return vm_and(vm_and(on_x, on_y), vf_lt(vf_sqrt(d2), r));
}

COL_INLINE void write_hits(uint8_t *hit, uint32_t bits, size_t n) {
  for (size_t k = 0; k < n; k++) hit[k] = (uint8_t)((bits >> k) & 1u);
}

static void simd_circle_overlap_batch(size_t n, const col_circle_soa *a, const col_circle_soa *b,
                                      col_circle_test test, uint8_t *hit) {
  size_t i = 0;
  for (; i + COL_W <= n; i += COL_W) {
    const vm m = circle_lanes(test, vf_loadu(a->x + i), vf_loadu(a->y + i), vf_loadu(a->r + i),
                              vf_loadu(b->x + i), vf_loadu(b->y + i), vf_loadu(b->r + i));
    write_hits(hit + i, vm_bits(m), COL_W);
  }
  if (i < n) {
    float t[6][COL_W];
    const float *src[6] = {a->x + i, a->y + i, a->r + i, b->x + i, b->y + i, b->r + i};
    for (int f = 0; f < 6; f++) pad_copy_f(t[f], src[f], n - i, NAN);
    const vm m = circle_lanes(test, vf_loadu(t[0]), vf_loadu(t[1]), vf_loadu(t[2]), vf_loadu(t[3]),
                              vf_loadu(t[4]), vf_loadu(t[5]));
    write_hits(hit + i, vm_bits(m), n - i);
  }
}

/* circle_ref.h's canonical velocity: +0.0 for zeros, the default quiet NaN for NaNs. */
COL_INLINE vf canonical_velocity(vf v) {
  return vf_select(vf_eq(v, v), vf_add(v, vf_set1(0.0f)), vf_set1(NAN));
}

/* One block of pairs: positions, velocities (updated), masses. */
typedef struct ball_lanes {
  vf x, y, vx, vy, m;
} ball_lanes;

COL_INLINE void elastic_lanes(col_elastic_rule rule, ball_lanes *p, ball_lanes *q) {
  const vf two = vf_set1(2.0f), sum = vf_add(p->m, q->m);
  if (rule == COL_ELASTIC_AXES) {
    const vf d12 = vf_sub(p->m, q->m), d21 = vf_sub(q->m, p->m);
    const vf two_m1 = vf_mul(two, p->m), two_m2 = vf_mul(two, q->m);
    const vf ax = p->vx, ay = p->vy, bx = q->vx, by = q->vy;
    p->vx = canonical_velocity(vf_div(vf_add(vf_mul(ax, d12), vf_mul(two_m2, bx)), sum));
    p->vy = canonical_velocity(vf_div(vf_add(vf_mul(ay, d12), vf_mul(two_m2, by)), sum));
    q->vx = canonical_velocity(vf_div(vf_add(vf_mul(bx, d21), vf_mul(two_m1, ax)), sum));
    q->vy = canonical_velocity(vf_div(vf_add(vf_mul(by, d21), vf_mul(two_m1, ay)), sum));
    return;
  }
  const vf zero = vf_set1(0.0f);
  const vf nx0 = vf_sub(q->x, p->x), ny0 = vf_sub(q->y, p->y);
  const vf len = vf_sqrt(vf_add(vf_mul(nx0, nx0), vf_mul(ny0, ny0)));
  const vm has_normal = vf_gt(len, zero);
  const vf safe = vf_select(has_normal, len, vf_set1(1.0f));
  const vf nx = vf_div(nx0, safe), ny = vf_div(ny0, safe);
  const vf s = vf_add(vf_mul(vf_sub(p->vx, q->vx), nx), vf_mul(vf_sub(p->vy, q->vy), ny));
  const vm apply = vm_and(has_normal, vf_gt(s, zero));
  const vf k1 = vf_mul(vf_div(vf_mul(two, q->m), sum), s);
  const vf k2 = vf_mul(vf_div(vf_mul(two, p->m), sum), s);
  p->vx = canonical_velocity(vf_select(apply, vf_sub(p->vx, vf_mul(k1, nx)), p->vx));
  p->vy = canonical_velocity(vf_select(apply, vf_sub(p->vy, vf_mul(k1, ny)), p->vy));
  q->vx = canonical_velocity(vf_select(apply, vf_add(q->vx, vf_mul(k2, nx)), q->vx));
  q->vy = canonical_velocity(vf_select(apply, vf_add(q->vy, vf_mul(k2, ny)), q->vy));
}

COL_INLINE ball_lanes load_balls(const col_ball_soa *s, size_t i) {
  return (ball_lanes){vf_loadu(s->x + i), vf_loadu(s->y + i), vf_loadu(s->vx + i),
                      vf_loadu(s->vy + i), vf_loadu(s->mass + i)};
}

/* A tail of n (< W) balls, padded with unit masses at rest, centres 0 apart by side. */
COL_INLINE ball_lanes load_ball_tail(const col_ball_soa *s, size_t i, size_t n, float x_pad) {
  float t[5][COL_W];
  const float *src[5] = {s->x + i, s->y + i, s->vx + i, s->vy + i, s->mass + i};
  const float pad[5] = {x_pad, 0.0f, 0.0f, 0.0f, 1.0f};
  for (int f = 0; f < 5; f++) pad_copy_f(t[f], src[f], n, pad[f]);
  return (ball_lanes){vf_loadu(t[0]), vf_loadu(t[1]), vf_loadu(t[2]), vf_loadu(t[3]),
                      vf_loadu(t[4])};
}

COL_INLINE void store_velocities(const col_ball_soa *s, size_t i, size_t n, const ball_lanes *v) {
  float vx[COL_W], vy[COL_W];
  vf_storeu(vx, v->vx);
  vf_storeu(vy, v->vy);
  for (size_t k = 0; k < n; k++) s->vx[i + k] = vx[k], s->vy[i + k] = vy[k];
}

static void simd_elastic_batch(size_t n, const col_ball_soa *a, const col_ball_soa *b,
                               col_elastic_rule rule) {
  size_t i = 0;
  for (; i + COL_W <= n; i += COL_W) {
    ball_lanes p = load_balls(a, i), q = load_balls(b, i);
    elastic_lanes(rule, &p, &q);
    vf_storeu(a->vx + i, p.vx), vf_storeu(a->vy + i, p.vy);
    vf_storeu(b->vx + i, q.vx), vf_storeu(b->vy + i, q.vy);
  }
  if (i < n) {
    ball_lanes p = load_ball_tail(a, i, n - i, 0.0f), q = load_ball_tail(b, i, n - i, 1.0f);
    elastic_lanes(rule, &p, &q);
    store_velocities(a, i, n - i, &p);
    store_velocities(b, i, n - i, &q);
  }
}

#endif
