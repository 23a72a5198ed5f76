/* The world step's uniform grid of boxes (see sim_grid.h). */
#include "sim_grid.h"
#include "validate.h"

#include <stdlib.h>

bool col__grow(void **p, size_t *capacity, size_t need, size_t size) {
  if (need <= *capacity) return true;
  size_t c = *capacity ? *capacity : 64;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * size);
  if (q == NULL) return false;
  *p = q, *capacity = c;
  return true;
}

col_status col__grid_reset(col__box_grid *g, float x0, float y0, float x1, float y1, float cell,
                           size_t max_cells) {
  if (!(cell > 0) || !(x1 - x0 < 1e30f) || !(y1 - y0 < 1e30f)) cell = 1e30f;
  double w = ((double)x1 - x0) / cell + 1, h = ((double)y1 - y0) / cell + 1;
  while (w * h > (double)max_cells && cell < 1e30f) {
    cell *= 2;
    w = ((double)x1 - x0) / cell + 1, h = ((double)y1 - y0) / cell + 1;
  }
  /* Extents past what doubling the cell up to 1e30 brings under max_cells (boxes near
   * +-FLT_MAX): one cell, always correct (every box meets every other there). */
  if (!(w * h <= (double)max_cells)) w = h = 1;
  g->x0 = x0, g->y0 = y0, g->inv_cell = 1.0f / cell;
  g->width = w >= 1 && w < 4e9 ? (uint32_t)w : 1;
  g->height = h >= 1 && h < 4e9 ? (uint32_t)h : 1;
  const size_t cells = (size_t)g->width * g->height;
  if (!col__grow((void **)&g->head, &g->cell_capacity, cells, sizeof *g->head))
    return COL_ERR_MEMORY;
  for (size_t c = 0; c < cells; c++) g->head[c] = -1;
  g->nodes = 0, g->big_count = 0;
  return COL_OK;
}

/* The cell column or row of a coordinate, clamped; NaN maps to 0. */
static uint32_t cell_of(float v, float origin, float inv, uint32_t cells) {
  const float c = (v - origin) * inv;
  if (!(c >= 0)) return 0;
  if (!(c < (float)cells)) return cells - 1;
  return (uint32_t)c;
}

typedef struct span {
  uint32_t cx0, cy0, cx1, cy1;
} span;

static span span_of(const col__box_grid *g, float x0, float y0, float x1, float y1) {
  span s = {cell_of(x0, g->x0, g->inv_cell, g->width), cell_of(y0, g->y0, g->inv_cell, g->height),
            cell_of(x1, g->x0, g->inv_cell, g->width), cell_of(y1, g->y0, g->inv_cell, g->height)};
  if (s.cx1 < s.cx0) s.cx1 = s.cx0; /* an inverted or NaN box: one cell */
  if (s.cy1 < s.cy0) s.cy1 = s.cy0;
  return s;
}

col_status col__grid_insert(col__box_grid *g, uint32_t id, float x0, float y0, float x1, float y1) {
  const span s = span_of(g, x0, y0, x1, y1);
  const uint64_t covered = (uint64_t)(s.cx1 - s.cx0 + 1) * (s.cy1 - s.cy0 + 1);
  if (covered > COL__GRID_BIG) {
    if (!col__grow((void **)&g->big, &g->big_capacity, g->big_count + 1, sizeof *g->big))
      return COL_ERR_MEMORY;
    g->big[g->big_count++] = id;
    return COL_OK;
  }
  if (!col__grow((void **)&g->node, &g->node_capacity, g->nodes + covered, sizeof *g->node))
    return COL_ERR_MEMORY;
  for (uint32_t cy = s.cy0; cy <= s.cy1; cy++)
    for (uint32_t cx = s.cx0; cx <= s.cx1; cx++) {
      const size_t c = (size_t)cy * g->width + cx, k = g->nodes++;
      g->node[k] = (col__grid_node){id, g->head[c]}, g->head[c] = (int32_t)k;
    }
  return COL_OK;
}

col_status col__grid_query(const col__box_grid *g, float x0, float y0, float x1, float y1,
                           uint32_t **ids, size_t *count, size_t *capacity) {
  const span s = span_of(g, x0, y0, x1, y1);
  for (size_t k = 0; k < g->big_count; k++) {
    if (!col__grow((void **)ids, capacity, *count + 1, sizeof **ids)) return COL_ERR_MEMORY;
    (*ids)[(*count)++] = g->big[k];
  }
  for (uint32_t cy = s.cy0; cy <= s.cy1; cy++)
    for (uint32_t cx = s.cx0; cx <= s.cx1; cx++)
      for (int32_t k = g->head[(size_t)cy * g->width + cx]; k >= 0; k = g->node[k].next) {
        if (!col__grow((void **)ids, capacity, *count + 1, sizeof **ids)) return COL_ERR_MEMORY;
        (*ids)[(*count)++] = g->node[k].id;
      }
  return COL_OK;
}

#ifdef COL_VALIDATE
static _Noreturn void grid_fail(const char *invariant, size_t index) {
  col__validate_fail("simulation grid", invariant, index);
}

static uint64_t covered_by(span s) { return (uint64_t)(s.cx1 - s.cx0 + 1) * (s.cy1 - s.cy0 + 1); }

/* Nodes are only appended and link to the cell's previous head, so a list runs to older
 * nodes: a link to a node not older than its own is a cycle or a stray. The lists must reach
 * as many nodes as are stored (a node in two lists, or in none, changes the count unless both
 * happen at once). O(cells + nodes
 * + big boxes), no memory of its own. */
void col__grid_validate(const col__box_grid *g, const col__grid_boxes *boxes) {
  if (g->width == 0 || g->height == 0) grid_fail("grid with no cell", 0);
  const size_t cells = (size_t)g->width * g->height;
  if (cells > g->cell_capacity) grid_fail("more cells than cell heads allocated", cells);
  if (g->nodes > g->node_capacity) grid_fail("more nodes than allocated", g->nodes);
  if (g->big_count > g->big_capacity) grid_fail("more big boxes than allocated", g->big_count);
  /* 0 for infinite cells (one cell holds everything) */
  if (!(g->inv_cell >= 0)) grid_fail("cell size negative or NaN", 0);
  size_t reached = 0;
  float b[4];
  for (size_t c = 0; c < cells; c++) {
    const uint32_t cx = (uint32_t)(c % g->width), cy = (uint32_t)(c / g->width);
    if (g->head[c] < -1 || g->head[c] >= (int64_t)g->nodes) grid_fail("cell head out of range", c);
    int64_t newer = (int64_t)g->nodes;
    for (int32_t k = g->head[c]; k >= 0; k = g->node[k].next) {
      if (k >= newer) grid_fail("cell list links to a node not older than the last", c);
      newer = k;
      if (++reached > g->nodes) grid_fail("more nodes in the cell lists than stored", (size_t)k);
      const uint32_t id = g->node[k].id;
      if (id >= boxes->ids) grid_fail("node id out of range", (size_t)k);
      boxes->box(boxes->ctx, id, b);
      const span s = span_of(g, b[0], b[1], b[2], b[3]);
      if (cx < s.cx0 || cx > s.cx1 || cy < s.cy0 || cy > s.cy1)
        grid_fail("node in a cell its box does not cover", (size_t)k);
      if (covered_by(s) > COL__GRID_BIG) grid_fail("big box stored in cell lists", (size_t)k);
    }
  }
  if (reached != g->nodes) grid_fail("fewer nodes in the cell lists than stored", reached);
  for (size_t k = 0; k < g->big_count; k++) {
    if (g->big[k] >= boxes->ids) grid_fail("big box id out of range", k);
    boxes->box(boxes->ctx, g->big[k], b);
    if (covered_by(span_of(g, b[0], b[1], b[2], b[3])) <= COL__GRID_BIG)
      grid_fail("small box in the big list", k);
  }
}
#endif

void col__grid_free(col__box_grid *g) {
  free(g->head), free(g->node), free(g->big);
  *g = (col__box_grid){0};
}
