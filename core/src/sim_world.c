/* The platformer world step (the "playing with platforms" seed's World.Update), naive and
 * broadphase-backed with bit-identical results; see sim.c for the shared idea. An entity that
 * moves past its limit turns wild: its partners then come from two grids (the grown boxes, and
 * the final boxes of the entities that went wild before it), looked up again after every hit,
 * since its box changes only then; the other entities meet the wild ones through the second
 * grid. The cost of a frame stays proportional to the entities and their neighbours however
 * many turn wild. */
#include "mtd_ref.h"
#include "sim_internal.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

/* ---- The platformer world ---- */

col_status col_world_create(size_t count, col_vec2 gravity, col_world *out) {
  if (out == NULL) return COL_ERR_NULL;
  if (count > UINT32_MAX || count > SIZE_MAX / (6 * sizeof(float))) return COL_ERR_OVERFLOW;
  col_world w = {.count = count, .gravity = gravity};
  const size_t n = count ? count : 1;
  bool ok = (w.scratch = col__sim_scratch_new(count)) != NULL;
  ok = ok && (w.box = calloc(n, sizeof *w.box)) != NULL;
  ok = ok && (w.velocity = calloc(n, sizeof *w.velocity)) != NULL;
  ok = ok && (w.weight = calloc(n, sizeof *w.weight)) != NULL;
  if (!ok) {
    col_world_destroy(&w);
    return COL_ERR_MEMORY;
  }
  *out = w;
  return COL_OK;
}

void col_world_destroy(col_world *w) {
  if (w == NULL) return;
  free(w->box), free(w->velocity), free(w->weight);
  col__sim_scratch_free(w->scratch);
  *w = (col_world){0};
}

/* Entity i's sweep of its move d on one axis (on_x: x, else y; the other component +0)
 * against the entities of list (ascending; NULL: every entity), sims.h's rule: the earliest
 * hit that enters a face, ties to the lowest index; a start already inside a box is the MTD
 * pass's to resolve. */
static col_aabb2_hit world_sweep(const col_world *w, size_t i, bool on_x, float d,
                                 const uint32_t *list, size_t len) {
  col_aabb2_hit best = {false, 0, {0, 0}, COL_INDEX_NONE};
  const col_aabb2 b = w->box[i];
  const col_vec2 move = on_x ? (col_vec2){d, 0} : (col_vec2){0, d};
  /* The open rule can hit only boxes that pass two exact compares (a float difference has
   * the exact one's sign, and 1 / move keeps the move's): on the still axis (move +0:
   * 1 / move = +inf) a plane difference of either sign gives a time of -inf or +inf and a zero
   * one NaN, so the box must overlap the mover's band strictly, box.min < mover.max &&
   * box.max > mover.min there; on the moving axis the exit time must be positive, so the box
   * must reach past the mover's back face (d > 0: box.max > mover.min; d < 0: box.min <
   * mover.max). Skipping the others changes no answer and spares most sweeps. */
  const float lo = on_x ? b.min.y : b.min.x, hi = on_x ? b.max.y : b.max.x;
  const float back = on_x ? (d > 0 ? b.min.x : b.max.x) : (d > 0 ? b.min.y : b.max.y);
  for (size_t k = 0; k < len; k++) {
    const size_t j = list != NULL ? list[k] : k;
    const col_aabb2 o = w->box[j];
    const float o_lo = on_x ? o.min.y : o.min.x, o_hi = on_x ? o.max.y : o.max.x;
    const float o_far = on_x ? (d > 0 ? o.max.x : o.min.x) : (d > 0 ? o.max.y : o.min.y);
    if (j == i || !(o_lo < hi && o_hi > lo) || !(d > 0 ? o_far > back : o_far < back)) continue;
    const col_aabb2_hit h = col_sweep_aabb2(b, move, o, COL_TOUCH_SEPARATES);
    if (h.hit && (h.normal.x != 0 || h.normal.y != 0) && (!best.hit || h.t < best.t)) best = h;
  }
  return best;
}

/* Whether a move of d on an axis where the box's side is `side` is swept (sims.h). */
static bool world_fast(float sweep_above, float d, float side) {
  return sweep_above > 0 && col__absf(d) > sweep_above * side;
}

/* Entity i's gravity and move, exactly as the step does them: with the sweep on, x's move and
 * then y's, each swept against the entities of list (see world_sweep) when it is fast. Without
 * a sweep these are the same float operations as moving both axes at once. */
static void world_advance(col_world *w, size_t i, float dt, const uint32_t *list, size_t len) {
  col_vec2 *v = &w->velocity[i];
  v->x = v->x + w->gravity.x * w->weight[i];
  v->y = v->y + w->gravity.y * w->weight[i];
  float dx = v->x * dt, dy = v->y * dt;
  col_aabb2 *b = &w->box[i];
  if (world_fast(w->sweep_above, dx, b->max.x - b->min.x)) {
    const col_aabb2_hit h = world_sweep(w, i, true, dx, list, len);
    if (h.hit) dx = h.t * dx, v->x = 0;
  }
  b->min.x += dx, b->max.x += dx;
  if (world_fast(w->sweep_above, dy, b->max.y - b->min.y)) {
    const col_aabb2_hit h = world_sweep(w, i, false, dy, list, len);
    if (h.hit) dy = h.t * dy, v->y = 0;
  }
  b->min.y += dy, b->max.y += dy;
}

/* Resolves entity i against j; returns how far i moved (0 when apart). */
static float world_resolve(col_world *w, size_t i, size_t j, col_sim_stats *st) {
  st->tests++;
  const col_mtd m = col__mtd_ref(w->box[i], w->box[j]);
  if (!m.hit) return 0;
  st->contacts++;
  col_aabb2 *b = &w->box[i];
  if (m.d.x != 0) {
    b->min.x += m.d.x, b->max.x += m.d.x, w->velocity[i].x = 0;
    return col__absf(m.d.x);
  }
  b->min.y += m.d.y, b->max.y += m.d.y, w->velocity[i].y = 0;
  return col__absf(m.d.y);
}

static void world_naive(col_world *w, float dt, col_sim_stats *st) {
  for (size_t i = 0; i < w->count; i++) {
    world_advance(w, i, dt, NULL, w->count);
    for (size_t j = 0; j < w->count; j++)
      if (j != i) world_resolve(w, i, j, st);
  }
}

#ifdef COL_VALIDATE
/* The boxes the grids hold: the grown ones (first grid) and the wild entities' final ones. */
static void grown_box(const void *ctx, uint32_t id, float out[4]) {
  const struct col__sim_scratch *s = ctx;
  for (int k = 0; k < 4; k++) out[k] = s->box[k][id];
}

static void final_box(const void *ctx, uint32_t id, float out[4]) {
  const col_aabb2 b = ((const col_aabb2 *)ctx)[id];
  out[0] = b.min.x, out[1] = b.min.y, out[2] = b.max.x, out[3] = b.max.y;
}
#endif

/* Both grids over the grown boxes' extent, cells about one entity's share of it each (at
 * least the mean grown box); the grown boxes in the first, the second empty. Built when the
 * first entity of a step turns wild, so a step without one pays nothing for them. */
static col_status world_grids(struct col__sim_scratch *s, size_t n) {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, mean = 0;
  for (size_t i = 0; i < n; i++) {
    const float bx0 = s->box[0][i], by0 = s->box[1][i], bx1 = s->box[2][i], by1 = s->box[3][i];
    x0 = i ? col__minf(x0, bx0) : bx0, y0 = i ? col__minf(y0, by0) : by0;
    x1 = i ? col__maxf(x1, bx1) : bx1, y1 = i ? col__maxf(y1, by1) : by1;
    mean += col__minf(bx1 - bx0, by1 - by0);
  }
  const float share = n ? sqrtf((x1 - x0) * (y1 - y0) / (float)n) : 1.0f;
  const float cell = col__maxf(share, n ? mean / (float)n : 1.0f);
  const size_t max_cells = 4 * n + 16;
  col_status st = col__grid_reset(&s->grown_grid, x0, y0, x1, y1, cell, max_cells);
  if (st == COL_OK) st = col__grid_reset(&s->wild_grid, x0, y0, x1, y1, cell, max_cells);
  for (uint32_t i = 0; i < n && st == COL_OK; i++)
    st =
        col__grid_insert(&s->grown_grid, i, s->box[0][i], s->box[1][i], s->box[2][i], s->box[3][i]);
  s->grids_ready = st == COL_OK;
  return st;
}

/* Where entity j may be while another moves: its final box once it went wild (its turn is
 * over), else its grown box. Closed overlap with [x0, x1] x [y0, y1]: a superset of what the
 * MTD can hit (ordered compares; NaN never meets). */
static bool world_may_meet(const struct col__sim_scratch *s, const col_aabb2 *boxes, uint32_t j,
                           float x0, float y0, float x1, float y1) {
  if (s->wild_flag[j]) {
    const col_aabb2 b = boxes[j];
    return b.max.x >= x0 && x1 >= b.min.x && b.max.y >= y0 && y1 >= b.min.y;
  }
  return s->box[2][j] >= x0 && x1 >= s->box[0][j] && s->box[3][j] >= y0 && y1 >= s->box[1][j];
}

/* Entity i's partners after `last`, ascending, as *list / *len. With `row`, its candidate row
 * plus the wild entities that meet the box (the row itself, untouched, when none does);
 * otherwise every entity that may meet the box (both grids), in s->partners. */
static col_status world_partners(struct col__sim_scratch *s, uint32_t i, int64_t last, float x0,
                                 float y0, float x1, float y1, const col_aabb2 *boxes, bool row,
                                 const uint32_t **list, size_t *len) {
  const uint32_t from = row ? s->adj_start[i] : 0, row_len = row ? s->adj_start[i + 1] - from : 0;
  *list = s->adj + from, *len = row_len;
  if (row && s->wild_count == 0) return COL_OK;
  s->partner_count = 0;
  col_status st = row ? COL_OK
                      : col__grid_query(&s->grown_grid, x0, y0, x1, y1, &s->partners,
                                        &s->partner_count, &s->partner_capacity);
  if (st == COL_OK)
    st = col__grid_query(&s->wild_grid, x0, y0, x1, y1, &s->partners, &s->partner_count,
                         &s->partner_capacity);
  if (st != COL_OK) return st;
  size_t kept = 0;
  for (size_t k = 0; k < s->partner_count; k++) {
    const uint32_t j = s->partners[k];
    if (j != i && (int64_t)j > last && world_may_meet(s, boxes, j, x0, y0, x1, y1))
      s->partners[kept++] = j;
  }
  if (row && kept == 0) return COL_OK;
  if (row_len > 0) {
    if (!col__grow((void **)&s->partners, &s->partner_capacity, kept + row_len,
                   sizeof *s->partners))
      return COL_ERR_MEMORY;
    memcpy(s->partners + kept, s->adj + from, row_len * sizeof(uint32_t));
  }
  size_t count = kept + row_len, unique = 0;
  col__sim_sort_row(s->partners, count);
  for (size_t k = 0; k < count; k++)
    if (unique == 0 || s->partners[unique - 1] != s->partners[k])
      s->partners[unique++] = s->partners[k];
  *list = s->partners, *len = unique;
  return COL_OK;
}

static col_status world_broadphase(col_world *w, float dt, col_broadphase algorithm,
                                   col_sim_stats *st) {
  struct col__sim_scratch *s = w->scratch;
  const size_t n = w->count;
  /* Where each entity's move will take it (the same float operations as world_advance: its
   * velocity changes only on its own turn), its move's length (kept in s->moved), the mean
   * shorter side and the largest coordinate. */
  float extent = 0, cmax = 0;
  bool finite = isfinite(dt) && isfinite(w->gravity.x) && isfinite(w->gravity.y);
  for (size_t i = 0; i < n; i++) {
    const col_aabb2 b = w->box[i];
    const float vx = w->velocity[i].x + w->gravity.x * w->weight[i];
    const float vy = w->velocity[i].y + w->gravity.y * w->weight[i];
    const float dx = vx * dt, dy = vy * dt;
    finite = finite && isfinite(b.min.x) && isfinite(b.min.y) && isfinite(b.max.x) &&
             isfinite(b.max.y) && isfinite(dx) && isfinite(dy);
    s->box[0][i] = b.min.x + (dx < 0 ? dx : 0), s->box[2][i] = b.max.x + (dx > 0 ? dx : 0);
    s->box[1][i] = b.min.y + (dy < 0 ? dy : 0), s->box[3][i] = b.max.y + (dy > 0 ? dy : 0);
    s->moved[i] = col__maxf(col__absf(dx), col__absf(dy));
    /* An inverted box has no extent (its negative side made the mean, and so every margin,
     * negative: the grown boxes shrank and the candidates missed real pairs). */
    const float side = col__minf(b.max.x - b.min.x, b.max.y - b.min.y);
    extent += side > 0 ? side : 0;
    cmax = col__maxf(cmax, col__maxf(col__maxf(col__absf(s->box[0][i]), col__absf(s->box[2][i])),
                                     col__maxf(col__absf(s->box[1][i]), col__absf(s->box[3][i]))));
  }
  /* Entity k's margin: twice its own move (a landing pushes it back by up to its move) plus
   * a quarter of the mean shorter side (a mean, so that one long floor does not make every
   * pair a candidate), plus far more than the rounding of the grown boxes (2^-16 of the
   * largest coordinate); it may be pushed half of that before it turns wild. */
  const float base = 0.25f * (n > 0 ? extent / (float)n : 0.0f) + cmax * 0x1p-16f + 0x1p-100f;
  if (!finite || !isfinite(base)) {
    st->fallbacks++;
    world_naive(w, dt, st);
    return COL_OK;
  }
  for (size_t i = 0; i < n; i++) {
    const float margin = 2.0f * s->moved[i] + base;
    s->box[0][i] -= margin, s->box[1][i] -= margin, s->box[2][i] += margin, s->box[3][i] += margin;
    s->moved[i] = margin / 2; /* from here on: the limit */
    finite = finite && isfinite(margin);
  }
  if (!finite) {
    st->fallbacks++;
    world_naive(w, dt, st);
    return COL_OK;
  }
  col__sim_wild_reset(s);
  s->grids_ready = false;
  col_status status = col__sim_candidates(s, n, algorithm, true);
  const uint32_t *list;
  size_t len;
  for (uint32_t i = 0; i < n && status == COL_OK; i++) {
    /* The candidates' turn: i's box stays inside its grown box while it moves no further than
     * its limit (a swept move ends between its start and its whole move: inside too), so only
     * entities whose (grown or, once wild, final) box meets i's grown box can touch it, by the
     * sweep or the MTD. The lookup does not read i's box: the move may come after it. When it
     * fails, i moves unswept (the state sims.h gives such a step without the sweep). */
    status = world_partners(s, i, -1, s->box[0][i], s->box[1][i], s->box[2][i], s->box[3][i],
                            w->box, true, &list, &len);
    if (status == COL_OK)
      world_advance(w, i, dt, list, len);
    else
      world_advance(w, i, dt, NULL, 0);
    float moved = 0;
    int64_t last = -1;
    bool wild = false;
    for (size_t k = 0; k < len && status == COL_OK && !wild; k++) {
      last = list[k];
      moved += world_resolve(w, i, list[k], st);
      wild = !(moved <= s->moved[i]);
    }
    if (!wild || status != COL_OK) continue;
    /* i went past its limit: from here on its next partner is the first entity after `last`
     * whose box meets i's box as it is now. i's box changes only when a test hits, so after a
     * miss the list stands; after a hit it is looked up again. */
    st->fallbacks++;
    if (!s->grids_ready) {
      status = world_grids(s, n);
      if (status == COL_OK) {
        COL_VALIDATE_CALL(col__grid_validate(&s->grown_grid, &(col__grid_boxes){grown_box, s, n}));
        COL_VALIDATE_CALL(
            col__grid_validate(&s->wild_grid, &(col__grid_boxes){final_box, w->box, n}));
      }
    }
    s->wild_flag[i] = 1;
    s->wild[s->wild_count++] = i;
    for (bool hit = true; hit && status == COL_OK;) {
      const col_aabb2 b = w->box[i];
      status = world_partners(s, i, last, b.min.x, b.min.y, b.max.x, b.max.y, w->box, false, &list,
                              &len);
      hit = false;
      for (size_t k = 0; k < len && !hit; k++) {
        last = list[k];
        hit = world_resolve(w, i, list[k], st) != 0;
      }
    }
    if (status == COL_OK) {
      const col_aabb2 b = w->box[i];
      status = col__grid_insert(&s->wild_grid, i, b.min.x, b.min.y, b.max.x, b.max.y);
      if (status == COL_OK)
        COL_VALIDATE_CALL(
            col__grid_validate(&s->wild_grid, &(col__grid_boxes){final_box, w->box, n}));
    }
  }
  return status;
}

col_status col_world_step(col_world *w, float dt, col_sim_pairs pairing, col_broadphase algorithm,
                          col_sim_stats *stats) {
  if (w == NULL || (w->count > 0 && (w->box == NULL || w->scratch == NULL))) return COL_ERR_NULL;
  if (!col__sim_args_ok(pairing, algorithm)) return COL_ERR_ARGUMENT;
  if (w->count == 0) return COL_OK; /* no entities: the arrays and scratch may be NULL */
  col_sim_stats ignored = {0, 0, 0};
  col_sim_stats *st = stats != NULL ? stats : &ignored;
  if (pairing == COL_SIM_NAIVE) {
    world_naive(w, dt, st);
    return COL_OK;
  }
  return world_broadphase(w, dt, algorithm, st);
}
