/* A uniform grid of boxes by index, for the platformer world step (sim.c): the entities that
 * turned wild look up the entities near them here instead of testing every one. Cells hold
 * singly linked lists, so boxes can be added during a step; a box covering more than
 * COL__GRID_BIG cells goes to a list every query returns. Cell coordinates are clamped to the
 * grid (a monotone map: boxes that overlap share a cell, wherever they lie), and a NaN
 * coordinate maps to the first cell. Queries return candidates, duplicates included: callers
 * test the boxes themselves. */
#ifndef COLLIDE_SIM_GRID_H
#define COLLIDE_SIM_GRID_H

#include "collide.h"

enum { COL__GRID_BIG = 64 };

typedef struct col__grid_node {
  uint32_t id;
  int32_t next; /* the next node of the cell, or -1 */
} col__grid_node;

typedef struct col__box_grid {
  float x0, y0, inv_cell;
  uint32_t width, height; /* cells */
  int32_t *head;          /* per cell: its first node, or -1 */
  col__grid_node *node;
  size_t nodes, node_capacity;
  uint32_t *big; /* ids of boxes covering more than COL__GRID_BIG cells */
  size_t big_count, big_capacity;
  size_t cell_capacity;
} col__box_grid;

/* Grows *p (elements of `size` bytes) to hold at least `need`, doubling; false when out of
 * memory (*p and *capacity unchanged). Shared by the simulations' growable arrays. */
bool col__grow(void **p, size_t *capacity, size_t need, size_t size);

/* Lays the grid over [x0, x1] x [y0, y1] with square cells of side `cell` (grown so that there
 * are at most `max_cells`), empty. Reuses the grid's memory. */
col_status col__grid_reset(col__box_grid *g, float x0, float y0, float x1, float y1, float cell,
                           size_t max_cells);

col_status col__grid_insert(col__box_grid *g, uint32_t id, float x0, float y0, float x1, float y1);

/* Appends the ids stored in the cells the box covers, and the big ones, to *ids (growing it;
 * *count and *capacity follow). */
col_status col__grid_query(const col__box_grid *g, float x0, float y0, float x1, float y1,
                           uint32_t **ids, size_t *count, size_t *capacity);

void col__grid_free(col__box_grid *g);

#ifdef COL_VALIDATE
/* Box `id` as its grid user stored it (the grid keeps ids only). */
typedef struct col__grid_boxes {
  void (*box)(const void *ctx, uint32_t id, float out[4]); /* x0, y0, x1, y1 */
  const void *ctx;
  size_t ids; /* every stored id is below this */
} col__grid_boxes;

/* The grid's rules (sim_grid.c), checked by its users after every change: counts within their
 * arrays, cell lists acyclic, every node in exactly one cell's list, each node's box covering
 * its cell and at most COL__GRID_BIG cells, each big box more. Aborts naming the broken rule. */
void col__grid_validate(const col__box_grid *g, const col__grid_boxes *boxes);
#endif

#endif
