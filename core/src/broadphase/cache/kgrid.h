/* Internal: the kept grid of col_broadphase_cache's COL_BROADPHASE_GRID form (kgrid.c), a
 * uniform grid over the boxes that rest (did not move in the last frame), kept between frames:
 * a box that starts moving leaves it, one that stops joins it, and a moving box looks up its
 * pairs with the resting ones in the cells it covers. rest.c drives it frame by frame.
 *
 * Box b's cells on axis k run from cell(min) to cell(max) of its normalized extent (min and max
 * swapped where inverted), cell(x) = floor((x - lo[k]) * inv[k]) clamped to [0, n[k] - 1]:
 * monotone in x, so two boxes that overlap both cover the cell of the larger of their two
 * normalized mins on every axis (the pair's reference cell: if a pair overlaps by the rule,
 * that point lies in both normalized extents), and a pair is reported in that cell alone. A
 * cell's entry records on which axes its box's first cell is this one: in cell (x, y, z) a
 * query box whose first cell on an axis is not this one's accepts only entries that start there
 * on that axis. Boxes over BIG_CELLS cells rest in a list of their own that every look-up
 * tests; boxes with a NaN coordinate never pair and rest nowhere. */
#ifndef COLLIDE_BROADPHASE_CACHE_KGRID_H
#define COLLIDE_BROADPHASE_CACHE_KGRID_H

#include "../broadphase.h"

/* Where a box is: PLACE_NONE (moving, or NaN), in the cells (its cell range kept), or in the
 * list of big boxes (its position kept). */
enum { COL__PLACE_NONE = 0, COL__PLACE_CELLS = 1, COL__PLACE_BIG = 2 };
/* An entry's flags: bit k, its box's first cell on axis k is this cell's; COL__ENTRY_STATIC,
 * its box is static. */
enum { COL__ENTRY_STATIC = 8 };

typedef struct col__kgrid {
  unsigned dims;
  float lo[3], inv[3];
  uint32_t n[3];
  size_t cells, slots;
  /* Cell c's entries at [base[c], base[c] + count[c]), room up to base[c + 1] (a multiple of
   * eight entries; those past the count NaN): the boxes' own coordinates (not normalized),
   * flags and indices, in blocks of eight entries (entry_at below). */
  uint32_t *base, *count;
  float *v;
  /* The big boxes: big_count of them (arrays of big_cap floats as v's). */
  float *big_v;
  uint32_t *big_id;
  uint8_t *big_flag;
  size_t big_count, big_cap;
  /* Per box (of the whole set): where (COL__PLACE_*), and its first and last cell per axis (in
   * the cells) or its position in the big list (range[6 i]). */
  uint8_t *place;
  uint32_t *range;
  size_t boxes;
  /* Per cell, how many times an entry joined or left it; `epoch` counts the builds: together
   * they tell a moving box whether the entries of its cells are still those it copied. */
  uint32_t *gen;
  uint32_t epoch;
  uint64_t changes; /* joins and leaves of every cell since the build */
} col__kgrid;

/* A moving box's neighbourhood: the resting boxes that meet its "fat" box (the box grown by half
 * a cell on every side), copied once from the fat box's cells (each once, by the
 * first-cell rule) in the cells' block layout, and kept while the box stays inside its fat box
 * and no entry joins or leaves those cells: a box that moves a little each frame is then looked
 * up in a list of the few boxes around it, with no walk through cells. */
typedef struct col__kgrid_near {
  float lo[3], hi[3];     /* the fat box */
  uint32_t range[6];      /* its cells */
  uint64_t gen;           /* the sum of its cells' joins and leaves when copied */
  uint64_t changes;       /* the grid's `changes` then: equal, no cell has changed since */
  uint32_t epoch;         /* the grid's build it was copied from (0: none) */
  uint32_t off, len, cap; /* its entries: blocks [off, off + cap) of the arena (off UINT32_MAX:
                           * no room yet), len entries */
} col__kgrid_near;
/* Where the neighbourhoods' entries live: `blocks` blocks of eight entries taken of `cap`,
 * `live` of them by the neighbourhoods that hold them now (the rest was left by neighbourhoods
 * copied again elsewhere: the arena is emptied, every neighbourhood with it, when that is most
 * of it, or when the grid is built again). */
typedef struct col__kgrid_arena {
  float *v;
  size_t blocks, cap, live;
} col__kgrid_arena;

/* Frees and zeroes. */
void col__kgrid_free(col__kgrid *g);
/* A new grid over the boxes of `boxes` that are not `moving`, placed; statics may be NULL.
 * COL_ERR_MEMORY (the grid then freed). */
col_status col__kgrid_build(col__kgrid *g, const col_boxes *boxes, const bool *moving,
                            const uint8_t *statics);
/* Box i joins (false: a cell is full or the big list cannot grow; the grid must be rebuilt) or
 * leaves (it must be placed). */
bool col__kgrid_insert(col__kgrid *g, const col_boxes *boxes, uint32_t i, bool is_static);
void col__kgrid_remove(col__kgrid *g, uint32_t i);
/* Box i (not placed) against the resting boxes through its neighbourhood `near` (copied again
 * from the cells when the box left its fat box or they changed, into `arena`): each overlapping
 * pair once, pushed (i, j), less pairs of two static boxes when i is static; `idx` has room for
 * big_count entries; counts its tests. `avx2`: the AVX2 build of the test (col__bp_avx2_passes
 * of the frame's backend). COL_ERR_MEMORY when the arena cannot grow. */
col_status col__kgrid_query_near(const col__kgrid *g, col__bp *bp, uint32_t i, bool is_static,
                                 bool avx2, uint32_t *idx, col__kgrid_near *near,
                                 col__kgrid_arena *arena);

/* The layout's helpers, shared by kgrid.c and its check (kgrid_validate.c). */
/* A box over more cells than this rests in the big list (a level's long floor, an infinite
 * bound): every look-up tests it once instead of walking its cells. */
enum { COL__KG_BIG_CELLS = 16 };

/* cell(x) on axis k (kgrid.h): monotone in x, clamped before the conversion. */
static inline uint32_t cell_of(const col__kgrid *g, unsigned k, float x) {
  const float t = (x - g->lo[k]) * g->inv[k];
  if (!(t > 0.0f)) return 0;
  if (t >= (float)(g->n[k] - 1)) return g->n[k] - 1;
  return (uint32_t)t;
}

/* Box i's normalized extent on axis k. */
static inline void extent(const col_boxes *b, unsigned k, uint32_t i, float *lo, float *hi) {
  const float a = b->min[k][i], c = b->max[k][i];
  *lo = a > c ? c : a, *hi = a > c ? a : c;
}

/* Box i's cell range (first cells in r[0..2], last in r[3..5]; z 0..0 in 2D) and the number
 * of cells it covers. */
static inline size_t range_of(const col__kgrid *g, const col_boxes *b, uint32_t i, uint32_t r[6]) {
  size_t cover = 1;
  r[2] = r[5] = 0;
  for (unsigned k = 0; k < g->dims; k++) {
    float lo, hi;
    extent(b, k, i, &lo, &hi);
    r[k] = cell_of(g, k, lo), r[3 + k] = cell_of(g, k, hi);
    cover *= (size_t)(r[3 + k] - r[k] + 1);
  }
  return cover;
}

static inline size_t cell_index(const col__kgrid *g, uint32_t x, uint32_t y, uint32_t z) {
  return ((size_t)z * g->n[1] + y) * g->n[0] + x;
}

/* The cells' entries go by eights: entries 8q to 8q + 7 are one block of 2 x dims + 2 rows
 * of eight words (min x of the eight, max x, min y, ..., then their flags and their box
 * indices as 32-bit words), so the boxes of a cell lie on a few whole cache lines and a
 * look-up needs nothing else. Word a of entry s (min k at 2k, max k at 2k + 1, flags at
 * 2 dims, index after): */
enum { COL__KG_LANES = 8 };
static inline float *entry_at(const col__kgrid *g, size_t s, unsigned a) {
  return g->v + (s & ~(size_t)(COL__KG_LANES - 1)) * (2 * g->dims + 2) + COL__KG_LANES * a +
         (s & (COL__KG_LANES - 1));
}
static inline uint32_t word_at(const col__kgrid *g, size_t s, unsigned a) {
  uint32_t w;
  memcpy(&w, entry_at(g, s, a), sizeof w);
  return w;
}
static inline void set_word(const col__kgrid *g, size_t s, unsigned a, uint32_t w) {
  memcpy(entry_at(g, s, a), &w, sizeof w);
}
#define COL__KG_FLAGS(g) (2 * (g)->dims)
#define COL__KG_INDEX(g) (2 * (g)->dims + 1)

#ifdef COL_VALIDATE
/* Aborts naming the rule broken (each placed box in exactly the cells of its range with its
 * flags, counts within their room, the big list's positions, none of the moving boxes placed). */
void col__kgrid_validate(const col__kgrid *g, const col_boxes *boxes, const bool *moving);
#endif

#endif
