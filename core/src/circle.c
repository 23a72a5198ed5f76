/* Circles and elastic response, after the bouncing-balls seed (AS3 tutorial): the seed's
 * box-then-distance overlap test and the squared-distance shortcut, the contact point weighted
 * by radii and the midpoint it warns against, and two elastic responses (the seed's per-axis
 * formula, the impulse along the normal). The reference expressions live in circle_ref.h;
 * this file holds the public single-pair functions and the batches' checks and dispatch. */
#include "circle_ref.h"

bool col_circle_overlap(col_circle a, col_circle b) {
  return col__circle_seed_ref(a.center.x, a.center.y, a.radius, b.center.x, b.center.y, b.radius);
}

bool col_circle_overlap_squared(col_circle a, col_circle b) {
  return col__circle_squared_ref(a.center.x, a.center.y, a.radius, b.center.x, b.center.y,
                                 b.radius);
}

col_vec2 col_circle_contact_midpoint(col_circle a, col_circle b) {
  return (col_vec2){(a.center.x + b.center.x) / 2.0f + 0.0f,
                    (a.center.y + b.center.y) / 2.0f + 0.0f};
}

/* x + 0.0f is x, except that -0.0 becomes +0.0 (IEEE round to nearest): both centres at -0.0,
 * or products that underflow to -0.0, give the +0.0 the header promises. */
col_vec2 col_circle_contact(col_circle a, col_circle b) {
  const float sum = a.radius + b.radius;
  if (sum == 0.0f) return col_circle_contact_midpoint(a, b); /* two points: no weights */
  return (col_vec2){(a.center.x * b.radius + b.center.x * a.radius) / sum + 0.0f,
                    (a.center.y * b.radius + b.center.y * a.radius) / sum + 0.0f};
}

col_velocities col_elastic_response(col_ball a, col_ball b, col_elastic_rule rule) {
  col_velocities v = {a.velocity, b.velocity};
  if (rule == COL_ELASTIC_NORMAL)
    col__elastic_normal_ref(a.position.x, a.position.y, &v.a.x, &v.a.y, a.mass, b.position.x,
                            b.position.y, &v.b.x, &v.b.y, b.mass);
  else
    col__elastic_axes_ref(&v.a.x, &v.a.y, a.mass, &v.b.x, &v.b.y, b.mass);
  return v;
}

col_status col_circle_overlap_batch(const col_circle_soa *a, const col_circle_soa *b,
                                    col_circle_test test, uint8_t *hit) {
  if (a == NULL || b == NULL || hit == NULL) return COL_ERR_NULL;
  if (a->count != b->count) return COL_ERR_SIZE;
  if (a->count > 0 && (a->x == NULL || a->y == NULL || a->r == NULL || b->x == NULL ||
                       b->y == NULL || b->r == NULL))
    return COL_ERR_NULL;
  if (test != COL_CIRCLE_SEED && test != COL_CIRCLE_SQUARED) return COL_ERR_ARGUMENT;
  const col__backend *be;
  const col_status st = col__backend_active(&be);
  if (st != COL_OK) return st;
  if (a->count > 0) be->k.circle_overlap_batch(a->count, a, b, test, hit);
  return COL_OK;
}

static bool balls_complete(const col_ball_soa *s) {
  return s->x != NULL && s->y != NULL && s->vx != NULL && s->vy != NULL && s->mass != NULL;
}

col_status col_elastic_batch(col_ball_soa *a, col_ball_soa *b, col_elastic_rule rule) {
  if (a == NULL || b == NULL) return COL_ERR_NULL;
  if (a->count != b->count) return COL_ERR_SIZE;
  if (a->count > 0 && (!balls_complete(a) || !balls_complete(b))) return COL_ERR_NULL;
  if (rule != COL_ELASTIC_AXES && rule != COL_ELASTIC_NORMAL) return COL_ERR_ARGUMENT;
  const col__backend *be;
  const col_status st = col__backend_active(&be);
  if (st != COL_OK) return st;
  if (a->count > 0) be->k.elastic_batch(a->count, a, b, rule);
  return COL_OK;
}
