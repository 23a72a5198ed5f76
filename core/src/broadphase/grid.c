/* Uniform grid (spatial hashing by sorting): the cell side is twice the mean extent of the
 * boxes that go in the grid, cell (0, 0[, 0]) starts at the origin. Each such box is entered in
 * every cell it covers; entries are sorted by cell, and the boxes of a cell are tested pairwise.
 * A pair found in several cells is reported only from the cell holding the min corner of the
 * two boxes' intersection, which both boxes cover. Boxes that are inverted, non-finite, beyond
 * the cell index range or spanning more than MAX_CELLS cells are tested directly against all
 * others instead. Boxes with a NaN coordinate never pair and are left out. */
#include "broadphase.h"
#include "validate.h"

#include <math.h>
#include <stdlib.h>

enum { MAX_CELLS = 64 };
#define CELL_LIMIT 1000000.0 /* |cell index| bound: 20 bits per axis fit a 64-bit key */

typedef struct entry {
  uint64_t cell;
  uint32_t box;
} entry;

static bool cell_range(double side, col_aabb3 b, unsigned dims, int64_t lo[3], int64_t hi[3]) {
  const float mins[3] = {b.min.x, b.min.y, b.min.z}, maxs[3] = {b.max.x, b.max.y, b.max.z};
  uint64_t cells = 1;
  for (unsigned k = 0; k < dims; k++) {
    if (!isfinite(mins[k]) || !isfinite(maxs[k]) || mins[k] > maxs[k]) return false;
    const double l = floor((double)mins[k] / side), h = floor((double)maxs[k] / side);
    if (l < -CELL_LIMIT || h > CELL_LIMIT) return false;
    lo[k] = (int64_t)l, hi[k] = (int64_t)h;
    cells *= (uint64_t)(hi[k] - lo[k] + 1);
    if (cells > MAX_CELLS) return false;
  }
  for (unsigned k = dims; k < 3; k++) lo[k] = hi[k] = 0;
  return true;
}

static uint64_t cell_key(int64_t x, int64_t y, int64_t z) {
  const uint64_t bias = 1u << 20;
  return ((uint64_t)(x + (int64_t)bias) << 42) | ((uint64_t)(y + (int64_t)bias) << 21) |
         (uint64_t)(z + (int64_t)bias);
}

static int64_t cell_of(double side, float v) { return (int64_t)floor((double)v / side); }

/* The entries in cell order, as arrays: entry r's cell is hi[r] << 32 | lo[r], its box box[r]. */
typedef struct sorted_cells {
  const uint32_t *hi, *lo, *box;
} sorted_cells;

static inline uint64_t sorted_cell(const sorted_cells *s, size_t r) {
  return (uint64_t)s->hi[r] << 32 | s->lo[r];
}

/* The n entries sorted on their 63-bit cell keys by the one radix sort (radix.c), stable: on
 * the keys' low halves, then on their high halves (a stable pass on the high half keeps the
 * low half's order among equal high halves: the order of the whole key). `block` holds 4n
 * words: the high halves and the entries' order, then the sort's scratch, which ends up
 * holding the boxes and the low halves. */
static sorted_cells sort_entries(const entry *e, size_t n, uint32_t *block) {
  uint32_t *keys = block, *order = block + n, *scratch = block + 2 * n;
  for (size_t r = 0; r < n; r++) keys[r] = (uint32_t)e[r].cell, order[r] = (uint32_t)r;
  col__radix_sort32(keys, order, n, scratch);
  for (size_t r = 0; r < n; r++) keys[r] = (uint32_t)(e[order[r]].cell >> 32);
  col__radix_sort32(keys, order, n, scratch);
  uint32_t *box = scratch, *lo = scratch + n;
  for (size_t r = 0; r < n; r++) box[r] = e[order[r]].box, lo[r] = (uint32_t)e[order[r]].cell;
  return (sorted_cells){keys, lo, box};
}

#ifdef COL_VALIDATE
static _Noreturn void grid_fail(const char *invariant, size_t index) {
  col__validate_fail("cell grid", invariant, index);
}

/* The sorted grid's invariants: entries in cell order, a cell's boxes ascending (so none is
 * entered twice), every entry's box in the grid (not direct, no NaN) and its cell one its box
 * covers, and as many entries as the grid boxes cover cells: so each box is in exactly the
 * cells it covers. The direct list and its ranks are each other's inverse. O(entries + boxes). */
static void grid_validate(const col_boxes *boxes, double side, const sorted_cells *s, size_t used,
                          const uint32_t *direct, size_t ndirect, const uint32_t *rank) {
  const size_t n = boxes->count;
  const int64_t bias = 1 << 20, mask = (1 << 21) - 1;
  for (size_t r = 0; r < used; r++) {
    const uint32_t i = s->box[r];
    const uint64_t cell = sorted_cell(s, r);
    if (r > 0 && sorted_cell(s, r - 1) > cell) grid_fail("entries not sorted by cell", r);
    if (r > 0 && sorted_cell(s, r - 1) == cell && s->box[r - 1] >= i)
      grid_fail("a cell's boxes not ascending (a box entered twice)", r);
    int64_t lo[3], hi[3];
    if (i >= n || rank[i] != UINT32_MAX || col__bp_has_nan(boxes, i) ||
        !cell_range(side, col__bp_box(boxes, i), boxes->dims, lo, hi))
      grid_fail("entry of a box that is not in the grid", r);
    const int64_t at[3] = {(int64_t)(cell >> 42) - bias, (int64_t)(cell >> 21 & mask) - bias,
                           (int64_t)(cell & mask) - bias};
    for (int k = 0; k < 3; k++)
      if (at[k] < lo[k] || at[k] > hi[k]) grid_fail("entry outside the cells its box covers", r);
  }
  size_t covered = 0;
  for (size_t i = 0; i < n; i++) {
    int64_t lo[3], hi[3];
    if (rank[i] != UINT32_MAX || col__bp_has_nan(boxes, i)) continue;
    if (!cell_range(side, col__bp_box(boxes, i), boxes->dims, lo, hi))
      grid_fail("box neither in the grid nor direct", i);
    covered += (size_t)((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1));
  }
  if (covered != used) grid_fail("entry count differs from the cells the boxes cover", covered);
  for (size_t d = 0; d < ndirect; d++)
    if (direct[d] >= n || rank[direct[d]] != d) grid_fail("direct list and ranks disagree", d);
}
#endif

col_status col__bp_grid(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const unsigned dims = boxes->dims;
  const size_t n = boxes->count;
  double side = 1.0;

  /* The cell side from the boxes that could go in the grid. */
  double extent = 0.0;
  size_t measured = 0;
  for (size_t i = 0; i < n; i++) {
    const col_aabb3 b = col__bp_box(boxes, i);
    const float mins[3] = {b.min.x, b.min.y, b.min.z}, maxs[3] = {b.max.x, b.max.y, b.max.z};
    bool ok = true;
    double e = 0.0;
    for (unsigned k = 0; k < dims; k++) {
      ok = ok && isfinite(mins[k]) && isfinite(maxs[k]) && mins[k] <= maxs[k];
      e += (double)maxs[k] - (double)mins[k];
    }
    if (ok) extent += e / dims, measured++;
  }
  if (measured > 0 && extent > 0.0) side = 2.0 * extent / (double)measured;

  size_t cap = 4 * n + 16, used = 0;
  entry *entries = malloc(cap * sizeof(entry));
  uint32_t *direct = malloc(2 * n * sizeof(uint32_t));
  if (entries == NULL || direct == NULL) {
    free(entries), free(direct);
    return COL_ERR_MEMORY;
  }
  uint32_t *rank = direct + n; /* position in `direct`, or UINT32_MAX */
  size_t ndirect = 0;
  for (size_t i = 0; i < n; i++) {
    rank[i] = UINT32_MAX;
    if (col__bp_has_nan(boxes, i)) continue;
    int64_t lo[3], hi[3];
    if (!cell_range(side, col__bp_box(boxes, i), dims, lo, hi)) {
      rank[i] = (uint32_t)ndirect;
      direct[ndirect++] = (uint32_t)i;
      continue;
    }
    for (int64_t x = lo[0]; x <= hi[0]; x++)
      for (int64_t y = lo[1]; y <= hi[1]; y++)
        for (int64_t z = lo[2]; z <= hi[2]; z++) {
          if (used == cap) {
            entry *grown = realloc(entries, 2 * cap * sizeof(entry));
            if (grown == NULL) {
              free(entries), free(direct);
              return COL_ERR_MEMORY;
            }
            entries = grown, cap *= 2;
          }
          entries[used++] = (entry){cell_key(x, y, z), (uint32_t)i};
        }
  }

  /* The sort's positions are 32-bit: past UINT32_MAX entries (64 GB of them) it cannot run. */
  col_status st = used > UINT32_MAX ? COL_ERR_MEMORY : COL_OK;
  uint32_t *block = used && st == COL_OK ? malloc(4 * used * sizeof(uint32_t)) : NULL;
  col__bp_scratch(bp, cap * sizeof(entry) + 4 * used * sizeof(uint32_t) + 2 * n * sizeof(uint32_t));
  if (used && block == NULL) st = COL_ERR_MEMORY;
  sorted_cells sorted = {NULL, NULL, NULL};
  if (st == COL_OK && used) sorted = sort_entries(entries, used, block);
  if (st == COL_OK)
    COL_VALIDATE_CALL(grid_validate(boxes, side, &sorted, used, direct, ndirect, rank));
  const uint32_t *box = sorted.box;

  for (size_t start = 0; start < used && st == COL_OK;) {
    size_t end = start + 1;
    while (end < used && sorted_cell(&sorted, end) == sorted_cell(&sorted, start)) end++;
    for (size_t p = start; p < end && st == COL_OK; p++) {
      const col_aabb3 a = col__bp_box(boxes, box[p]);
      for (size_t q = p + 1; q < end && st == COL_OK; q++) {
        const col_aabb3 b = col__bp_box(boxes, box[q]);
        bp->stats.tests++;
        if (!col__bp_overlap(boxes, a, b, bp->touch)) continue;
        /* Report from the cell of the intersection's min corner only. */
        const uint64_t owner =
            cell_key(cell_of(side, fmaxf(a.min.x, b.min.x)), cell_of(side, fmaxf(a.min.y, b.min.y)),
                     dims == 3 ? cell_of(side, fmaxf(a.min.z, b.min.z)) : 0);
        if (owner == sorted_cell(&sorted, start)) st = col__bp_push(bp, box[p], box[q]);
      }
    }
    start = end;
  }

  /* Direct boxes against every other box that can pair; two direct boxes pair from the
   * earlier of them in `direct` only. */
  for (size_t d = 0; d < ndirect && st == COL_OK; d++) {
    const col_aabb3 a = col__bp_box(boxes, direct[d]);
    for (size_t j = 0; j < n && st == COL_OK; j++) {
      if (j == direct[d] || col__bp_has_nan(boxes, j)) continue;
      if (rank[j] != UINT32_MAX && rank[j] < d) continue;
      bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, j), bp->touch))
        st = col__bp_push(bp, direct[d], (uint32_t)j);
    }
  }
  free(block), free(entries), free(direct);
  return st;
}
