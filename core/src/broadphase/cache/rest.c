/* The kept grid of col_broadphase_cache (COL_BROADPHASE_GRID): a frame costs what moved. The
 * boxes that did not move in the last frame rest in a grid kept between frames (kgrid.c),
 * with the pairs among them (kg_rest); a frame takes the boxes that moved out of the grid,
 * puts those that stopped back, sweeps and prunes the moving boxes among themselves and looks
 * each up in the grid. A level's tiles thus stay in the grid for good and their pairs are
 * copied, not found again; a frame in which more than a quarter of the boxes moved is found
 * from scratch instead (its cost then: that frame, the comparison with the last and a copy). */
#include "../../validate.h"
#include "../static.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

col_status col__cache_whole(col_broadphase_cache *c, col__bp *bp) {
  bp->out->count = 0;
  if (bp->boxes->count < 2) return COL_OK;
  const col_status st = col__bp_sap(bp);
  if (st == COL_OK && c->statics != NULL) col__bp_drop_static(bp, c->statics);
  return st;
}

/* `to` := pairs[0, count). */
static col_status copy_pairs(col_pairs *to, const col_pair *pairs, size_t count) {
  if (to->capacity < count) {
    const size_t cap = count + count / 2;
    col_pair *data = realloc(to->data, cap * sizeof(col_pair));
    if (data == NULL) return COL_ERR_MEMORY;
    to->data = data, to->capacity = cap;
  }
  if (count) memcpy(to->data, pairs, count * sizeof(col_pair));
  to->count = count;
  return COL_OK;
}

/* After a frame found whole: every box rests, with this frame's pairs; the grid is built again
 * when a later frame needs it. */
static col_status all_rest(col_broadphase_cache *c, const col_pairs *out) {
  for (size_t k = 0; k < c->kg_active_count; k++) c->kg_active[c->kg_active_list[k]] = false;
  c->kg_active_count = 0, c->kg_live.count = 0, c->kg_built = false;
  return copy_pairs(&c->kg_rest, out->data, out->count);
}

/* The first frame: the frame state, then the whole frame. */
static col_status first_frame(col_broadphase_cache *c, col__bp *bp) {
  const size_t n = bp->boxes->count;
  col__cache_reset(c);
  if (!col__cache_alloc_frame_state(c, n)) return COL_ERR_MEMORY;
  c->kg_active = calloc(n ? n : 1, sizeof(bool));
  c->kg_active_list = malloc((n ? n : 1) * sizeof(uint32_t));
  c->kg_ids = malloc((n ? n : 1) * sizeof(uint32_t));
  c->kg_copy = malloc((n ? n : 1) * 2 * bp->boxes->dims * sizeof(float));
  c->kg_near = malloc((n ? n : 1) * sizeof *c->kg_near);
  if (!c->kg_active || !c->kg_active_list || !c->kg_ids || !c->kg_copy || !c->kg_near)
    return COL_ERR_MEMORY;
  for (size_t i = 0; i < n; i++) c->kg_near[i] = (col__kgrid_near){.off = UINT32_MAX};
  col__cache_remember_all(c, bp->boxes);
  col_status st = col__cache_whole(c, bp);
  if (st == COL_OK) st = all_rest(c, bp->out);
  if (st == COL_OK && c->track) st = col__cache_all_began(c, bp->out, n);
  return st;
}

/* A frame where most boxes moved: the whole frame, then every box rests. */
static col_status whole_frame(col_broadphase_cache *c, col__bp *bp) {
  col_status st = COL_OK;
  if (c->track) {
    c->gone.count = c->now.count = 0;
    st = col__cache_with_moved(c, c->kg_rest.data, c->kg_rest.count, &c->gone);
    if (st == COL_OK) st = col__cache_with_moved(c, c->kg_live.data, c->kg_live.count, &c->gone);
  }
  if (st == COL_OK) st = col__cache_whole(c, bp);
  if (st == COL_OK && c->track) {
    st = col__cache_with_moved(c, bp->out->data, bp->out->count, &c->now);
    if (st == COL_OK) st = col__cache_diff(c, bp->boxes->count);
  }
  if (st == COL_OK) st = all_rest(c, bp->out);
  return st;
}

/* The grid brought to this frame's resting boxes: those that stopped moving join, those that
 * started leave; built again when it has none yet, a cell is full, or as many boxes joined as
 * there are boxes (they may have drifted from the shape it was built for). */
static col_status regrid(col_broadphase_cache *c, const col_boxes *boxes, size_t moved) {
  const size_t n = boxes->count;
  bool whole = !c->kg_built || c->kg_joined > n;
  for (size_t k = 0; k < c->kg_active_count && !whole; k++) {
    const uint32_t i = c->kg_active_list[k];
    if (c->moved[i]) continue;
    whole = !col__kgrid_insert(&c->kg, boxes, i, c->statics != NULL && c->statics[i]);
    c->kg_joined++;
  }
  for (size_t k = 0; k < moved && !whole; k++) {
    const uint32_t i = c->moved_list[k];
    if (!c->kg_active[i]) col__kgrid_remove(&c->kg, i);
  }
  /* The neighbourhoods' arena emptied with a new grid (none of them holds), or when most of it
   * is room left behind. */
  col__kgrid_arena *arena = &c->kg_arena;
  if (whole || arena->blocks > 2 * arena->live + 4096) {
    for (size_t i = 0; i < n; i++) c->kg_near[i] = (col__kgrid_near){.off = UINT32_MAX};
    arena->blocks = arena->live = 0;
  }
  if (whole) {
    const col_status st = col__kgrid_build(&c->kg, boxes, c->moved, c->statics);
    if (st != COL_OK) return st;
    c->kg_built = true, c->kg_joined = 0;
  }
  const size_t need = c->kg.big_count;
  if (c->kg_idx_cap < need) {
    free(c->kg_idx);
    c->kg_idx = malloc(need * sizeof(uint32_t));
    c->kg_idx_cap = c->kg_idx != NULL ? need : 0;
    if (c->kg_idx == NULL) return COL_ERR_MEMORY;
  }
  return COL_OK;
}

/* The resting pairs brought to this frame: those with a box that started moving dropped (to
 * `gone` when tracking), the last frame's pairs of boxes that both rest now added. */
static col_status carry(col_broadphase_cache *c, size_t moved) {
  bool woke = false;
  for (size_t k = 0; k < moved && !woke; k++) woke = !c->kg_active[c->moved_list[k]];
  col_pairs *rest = &c->kg_rest;
  col_status st = COL_OK;
  if (woke) {
    if (c->track) st = col__cache_with_moved(c, rest->data, rest->count, &c->gone);
    size_t kept = 0;
    for (size_t k = 0; k < rest->count; k++) {
      const col_pair p = rest->data[k];
      rest->data[kept] = p;
      kept += !(c->moved[p.a] | c->moved[p.b]);
    }
    rest->count = kept;
  }
  const col_pairs *live = &c->kg_live;
  if (st == COL_OK && c->track) st = col__cache_with_moved(c, live->data, live->count, &c->gone);
  if (st == COL_OK && rest->capacity < rest->count + live->count) {
    const size_t cap = (rest->count + live->count) * 3 / 2 + 16;
    col_pair *data = realloc(rest->data, cap * sizeof(col_pair));
    if (data == NULL) return COL_ERR_MEMORY;
    rest->data = data, rest->capacity = cap;
  }
  for (size_t k = 0; k < live->count && st == COL_OK; k++) {
    const col_pair p = live->data[k];
    rest->data[rest->count] = p;
    rest->count += !(c->moved[p.a] | c->moved[p.b]);
  }
  return st;
}

/* The moving boxes among themselves: sweep and prune on their copy, in index order. */
static col_status moving_pairs(col_broadphase_cache *c, col__bp *bp, size_t moved) {
  const col_boxes *boxes = bp->boxes;
  const size_t dims = boxes->dims;
  uint32_t *ids = c->kg_ids;
  memcpy(ids, c->moved_list, moved * sizeof(uint32_t));
  col_boxes sub = {boxes->dims, {NULL, NULL, NULL}, {NULL, NULL, NULL}, moved};
  for (unsigned k = 0; k < dims; k++) {
    float *mn = c->kg_copy + 2 * k * moved, *mx = mn + moved;
    for (size_t r = 0; r < moved; r++) mn[r] = boxes->min[k][ids[r]], mx[r] = boxes->max[k][ids[r]];
    sub.min[k] = mn, sub.max[k] = mx;
  }
  col__bp run = *bp;
  run.boxes = &sub, run.out = &c->kg_sub, run.par = NULL;
  run.stats = (col_broadphase_stats){0, 0, 0, 0};
  c->kg_sub.count = 0;
  col_status st = col__bp_sap(&run);
  bp->stats.tests += run.stats.tests;
  col__bp_scratch(bp, run.stats.scratch_bytes);
  for (size_t k = 0; k < c->kg_sub.count && st == COL_OK; k++) {
    const uint32_t a = ids[c->kg_sub.data[k].a], b = ids[c->kg_sub.data[k].b];
    if (c->statics == NULL || !(c->statics[a] && c->statics[b])) st = col__bp_push(bp, a, b);
  }
  return st;
}

/* A frame where few boxes moved. */
static col_status few_moved(col_broadphase_cache *c, col__bp *bp, size_t moved) {
  const col_boxes *boxes = bp->boxes;
  c->gone.count = c->now.count = 0;
  col_status st = regrid(c, boxes, moved);
  if (st == COL_OK) st = carry(c, moved);
  if (st == COL_OK) st = col__bp_reserve(bp, c->kg_rest.count);
  if (st != COL_OK) return st;
  col_pairs *out = bp->out;
  if (c->kg_rest.count) memcpy(out->data, c->kg_rest.data, c->kg_rest.count * sizeof(col_pair));
  out->count = c->kg_rest.count, bp->stats.pairs += c->kg_rest.count;
  const size_t rest = out->count;
  if (moved > 1) st = moving_pairs(c, bp, moved);
  const bool avx2 = col__bp_avx2_passes(bp);
  for (size_t k = 0; k < moved && st == COL_OK; k++) {
    const uint32_t i = c->moved_list[k];
    if (!col__bp_has_nan(boxes, i))
      st = col__kgrid_query_near(&c->kg, bp, i, c->statics != NULL && c->statics[i], avx2,
                                 c->kg_idx, &c->kg_near[i], &c->kg_arena);
  }
  /* This frame's pairs with a moving box (the list's data may be NULL when there is none). */
  const col_pair *live = out->count > rest ? out->data + rest : NULL;
  if (st == COL_OK) st = copy_pairs(&c->kg_live, live, out->count - rest);
  for (size_t k = 0; k < c->kg_active_count; k++) c->kg_active[c->kg_active_list[k]] = false;
  for (size_t k = 0; k < moved; k++) c->kg_active[c->moved_list[k]] = true;
  memcpy(c->kg_active_list, c->moved_list, moved * sizeof(uint32_t));
  c->kg_active_count = moved;
  if (st == COL_OK && c->track) {
    st = copy_pairs(&c->now, live, out->count - rest);
    if (st == COL_OK) st = col__cache_diff(c, bp->boxes->count);
  }
  COL_VALIDATE_CALL(col__kgrid_validate(&c->kg, boxes, c->moved));
  return st;
}

/* What the kept grid holds between frames (the stats' scratch_bytes): the grid, the per-box
 * state, the kept pairs and the neighbourhoods. */
static size_t held(const col_broadphase_cache *c) {
  const col__kgrid *g = &c->kg;
  const size_t n = c->count, words = 2 * (size_t)g->dims + 2;
  return g->slots * words * sizeof(float) + g->cells * 3 * sizeof(uint32_t) +
         g->big_cap * words * sizeof(float) + n * (7 * sizeof(uint32_t) + 3) +
         n * (6 * sizeof(float) + 2 * sizeof(bool) + 3 * sizeof(uint32_t)) +
         n * sizeof(col__kgrid_near) +
         (c->kg_rest.capacity + c->kg_live.capacity) * sizeof(col_pair) +
         c->kg_arena.cap * COL__KG_LANES * words * sizeof(float);
}

col_status col__cache_grid_frame(col_broadphase_cache *c, col__bp *bp, bool first,
                                 const uint32_t *list, size_t listed) {
  col_status st;
  if (first) {
    st = first_frame(c, bp);
  } else {
    const size_t n = bp->boxes->count;
    const size_t moved = list ? col__cache_list_moved(c, bp->boxes, list, listed)
                              : col__cache_find_moved(c, bp->boxes);
    bp->out->count = 0;
    st = moved > n / 4 ? whole_frame(c, bp) : few_moved(c, bp, moved);
  }
  if (st == COL_OK) col__bp_scratch(bp, held(c));
  return st;
}
