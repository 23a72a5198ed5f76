/* The simulation target's oracles: the naive loops' own definition (sims.h), written here from
 * the header with the public single-pair functions. The naive step and the broadphase one share
 * the library's wall and response code, which comparing them with each other cannot check; the
 * target compares both with these (fuzz_sim.c), and the starved steps take the world's
 * collisions per turn from it (starved.c). */
#include "oracle.h"

#include <math.h>

FZ_ORACLE uint64_t fs_balls_oracle(col_balls *b) {
  uint64_t contacts = 0;
  for (size_t i = 0; i < b->count; i++) {
    b->x[i] += b->vx[i], b->y[i] += b->vy[i];
    const float r = b->radius[i];
    if ((b->x[i] - r < 0 && b->vx[i] < 0) || (b->x[i] + r > b->width && b->vx[i] > 0))
      b->vx[i] = -b->vx[i];
    if ((b->y[i] - r < 0 && b->vy[i] < 0) || (b->y[i] + r > b->height && b->vy[i] > 0))
      b->vy[i] = -b->vy[i];
  }
  for (size_t i = 0; i < b->count; i++)
    for (size_t j = i + 1; j < b->count; j++) {
      const col_circle ci = {{b->x[i], b->y[i]}, b->radius[i]};
      const col_circle cj = {{b->x[j], b->y[j]}, b->radius[j]};
      if (!col_circle_overlap(ci, cj)) continue;
      contacts++;
      const col_velocities v = col_elastic_response(
          (col_ball){ci.center, {b->vx[i], b->vy[i]}, b->radius[i]},
          (col_ball){cj.center, {b->vx[j], b->vy[j]}, b->radius[j]}, COL_ELASTIC_AXES);
      b->vx[i] = v.a.x, b->vy[i] = v.a.y, b->vx[j] = v.b.x, b->vy[j] = v.b.y;
      b->x[i] += b->vx[i], b->y[i] += b->vy[i];
      b->x[j] += b->vx[j], b->y[j] += b->vy[j];
    }
  return contacts;
}

/* Entity i's move on one axis (0: x, 1: y) as sims.h's sweep makes it: when fast, the
 * earliest hit entering a face of another entity (ties to the lowest index) cuts it to
 * t * d and zeroes the velocity on that axis. Returns the move to make. Without `every`, the
 * boxes outside the mover's band on the still axis (no strict overlap there), or wholly behind
 * its back face on the moving axis, are skipped: the open rule cannot hit them (sim_world.c says
 * why; the library skips them too, which the inputs that sweep every box check), and the sweeps are
 * most of a swept input's time. */
FZ_ORACLE static float swept_move(col_world *w, size_t i, int axis, float d, bool every) {
  const col_aabb2 b = w->box[i];
  const float side = axis == 0 ? b.max.x - b.min.x : b.max.y - b.min.y;
  if (!(w->sweep_above > 0) || !(fabsf(d) > w->sweep_above * side)) return d;
  const col_vec2 move = axis == 0 ? (col_vec2){d, 0} : (col_vec2){0, d};
  bool hit = false;
  float first = 0;
  for (size_t j = 0; j < w->count; j++) {
    if (j == i) continue;
    const col_aabb2 o = w->box[j];
    const bool band =
        axis == 0 ? o.min.y < b.max.y && o.max.y > b.min.y : o.min.x < b.max.x && o.max.x > b.min.x;
    const bool ahead = axis == 0 ? (d > 0 ? o.max.x > b.min.x : o.min.x < b.max.x)
                                 : (d > 0 ? o.max.y > b.min.y : o.min.y < b.max.y);
    if (!every && !(band && ahead)) continue;
    const col_aabb2_hit h = col_sweep_aabb2(b, move, o, COL_TOUCH_SEPARATES);
    if (!h.hit || (h.normal.x == 0 && h.normal.y == 0)) continue;
    if (!hit || h.t < first) hit = true, first = h.t;
  }
  if (!hit) return d;
  if (axis == 0)
    w->velocity[i].x = 0;
  else
    w->velocity[i].y = 0;
  return first * d;
}

FZ_ORACLE uint64_t fs_world_oracle(col_world *w, float dt, uint64_t *per_entity, bool every) {
  uint64_t contacts = 0;
  for (size_t i = 0; i < w->count; i++) {
    col_vec2 *v = &w->velocity[i];
    v->x = v->x + w->gravity.x * w->weight[i];
    v->y = v->y + w->gravity.y * w->weight[i];
    const float dx = swept_move(w, i, 0, v->x * dt, every);
    col_aabb2 *b = &w->box[i];
    b->min.x += dx, b->max.x += dx;
    const float dy = swept_move(w, i, 1, v->y * dt, every);
    b->min.y += dy, b->max.y += dy;
    for (size_t j = 0; j < w->count; j++) {
      if (j == i) continue;
      const col_mtd m = col_aabb2_mtd(*b, w->box[j]);
      if (!m.hit) continue;
      contacts++;
      if (per_entity != NULL) per_entity[i]++;
      if (m.d.x != 0)
        b->min.x += m.d.x, b->max.x += m.d.x, v->x = 0;
      else
        b->min.y += m.d.y, b->max.y += m.d.y, v->y = 0;
    }
  }
  return contacts;
}
