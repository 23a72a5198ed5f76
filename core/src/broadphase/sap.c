/* Sweep and prune, the box-pruning way: sort the boxes on min x (LSD radix on the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent; the run scan finds the run's end with the same compares that test every axis, so
 * the result is exactly brute force's: for any overlapping pair the box that sorts first has
 * max x >= the other's min x, so no pair is missed; boxes with a NaN coordinate never pair and
 * are left out. Pruning on the other axes too: the boxes are dealt into a grid of cells over y
 * (and z in 3D; a box into every cell it covers, order kept) and each cell is swept alone, so
 * a run holds only boxes that share a cell; a pair met in several cells is kept in the cell of
 * the larger first row (and layer) of the two. The SIMD backends sweep a whole cell per call
 * (col__backend.sap_sweep); the others call their sap_run once per run. Working memory is kept
 * in the pair list (col__bp_work), so repeated calls do not allocate. */
#include "broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COL__BP_INLINE static inline __attribute__((always_inline))

size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  size_t m = 0;
  for (size_t i = 0; i < boxes->count; i++)
    if (!col__bp_has_nan(boxes, i)) {
      order[m] = (uint32_t)i;
      keys[m++] = col__float_key(boxes->min[0][i]);
    }
  col__radix_sort32(keys, order, m, scratch);
  return m;
}

col_status col__bp_sap(col__bp *bp) {
  const size_t n = bp->boxes->count;
  /* One block: order, keys, radix scratch (2n), idx. */
  uint32_t *mem = col__bp_work(bp, 0, n * 5 * sizeof(uint32_t));
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, n * 5 * sizeof(uint32_t));
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = mem + 4 * n;
  const size_t m = col__bp_sort_x(bp->boxes, order, keys, scratch);
  return col__bp_sap_sweep(bp, order, m, idx);
}

/* Under the closed rule, a run's boxes satisfy max x[j] >= min x[r] already when none is
 * inverted on x (min x[r] <= min x[j] <= max x[j]): the scan then skips that compare. `sorted`:
 * the boxes in sorted order. */
static bool needs_x_lower(const col_boxes *sorted, col_touch touch) {
  bool x_inverted = false;
  for (size_t r = 0; r < sorted->count; r++) x_inverted |= sorted->max[0][r] < sorted->min[0][r];
  return touch == COL_TOUCH_SEPARATES || x_inverted;
}

/* Cells over y (and z in 3D) of equal size: cell_of is monotonic in the coordinate, so a box
 * spans cells cell_of(min)..cell_of(max) on each axis and every value in it lies in one of
 * them. */
typedef struct col__cells {
  float lo[2], scale[2]; /* axis y, then z */
  int count[2];          /* cells per axis (1 on z in 2D) */
} col__cells;

static inline int cell_of(const col__cells *c, int axis, float v) {
  /* Clamped before the conversion: v - lo overflows to +inf for boxes near both ends of the
   * float range, and converting inf to int is undefined. */
  const float t = (v - c->lo[axis]) * c->scale[axis], last = (float)(c->count[axis] - 1);
  const float u = t > 0 ? t : 0;
  return (int)(u < last ? u : last);
}

/* Cells per axis: about CELL_EXTENTS mean box extents each (CELL_EXTENTS_2D in 2D, where a
 * row holds more boxes and runs grow faster with its height), but few enough that a cell holds
 * about CELL_BOXES boxes or more (at most 256 rows in 2D, 32 x 32 in 3D), and only when every
 * box is finite and upright on the partitioned axes (an inverted box can still overlap
 * others, but spans no cell) and the copies stay under 3m. Smaller cells mean shorter runs
 * but more copies, and each run has a fixed cost: measured on the box-pruning scenes (3D at
 * 10,000 boxes, 8 x 8 cells of 4 extents beat 16 x 16 of 2; at 100,000, and in 2D, 2 extents
 * beat 3 and 4). */
enum { CELL_EXTENTS = 2, CELL_BOXES = 150, MAX_CELLS = 1024 };
#define CELL_EXTENTS_2D 1.5 /* 4% faster than 2 at 100,000 boxes in 2D, the same at 10,000 */

/* The range and summed size of boxes order[0..m) on one axis, false when one is inverted or
 * not finite there. Four independent accumulators: one chain of min / max / add per box would
 * cost its latency per box. */
static bool axis_extent(const float *lo, const float *hi, size_t m, float *v0, float *v1,
                        double *size) {
  float mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
  float mx[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, sum[4] = {0, 0, 0, 0};
  bool ok = true;
  size_t r = 0;
  for (; r + 4 <= m; r += 4)
    for (int q = 0; q < 4; q++) {
      const float l = lo[r + q], h = hi[r + q];
      ok &= (l <= h) & (l > -INFINITY) & (h < INFINITY);
      mn[q] = l < mn[q] ? l : mn[q], mx[q] = h > mx[q] ? h : mx[q], sum[q] += h - l;
    }
  for (; r < m; r++) {
    const float l = lo[r], h = hi[r];
    ok &= (l <= h) & (l > -INFINITY) & (h < INFINITY);
    mn[0] = l < mn[0] ? l : mn[0], mx[0] = h > mx[0] ? h : mx[0], sum[0] += h - l;
  }
  for (int q = 1; q < 4; q++)
    mn[0] = mn[q] < mn[0] ? mn[q] : mn[0], mx[0] = mx[q] > mx[0] ? mx[q] : mx[0];
  *v0 = mn[0], *v1 = mx[0];
  *size = (double)sum[0] + sum[1] + sum[2] + sum[3];
  return ok;
}

/* The grid for the sorted boxes (`sorted`, m of them) in c: false for a single cell (too few
 * boxes, a box not finite or inverted on y or z, no spread). */
static bool choose_cells(const col_boxes *sorted, size_t m, col__cells *c) {
  if (m < 256) return false;
  const int axes = sorted->dims == 3 ? 2 : 1, most = axes == 2 ? 32 : 256;
  const double fit = axes == 2 ? sqrt((double)m / CELL_BOXES) : (double)m / CELL_BOXES;
  const int cap = fit < 1 ? 1 : fit < most ? (int)fit : most;
  c->count[1] = 1, c->lo[1] = 0, c->scale[1] = 0;
  for (int a = 0; a < axes; a++) {
    float v0, v1;
    double size;
    if (!axis_extent(sorted->min[1 + a], sorted->max[1 + a], m, &v0, &v1, &size)) return false;
    const double mean = size / (double)m, extent = (double)v1 - v0;
    if (!(mean > 0) || !(extent > 0)) return false;
    /* Clamped as a double: boxes of tiny size over a huge extent give a ratio past INT_MAX. */
    const double ratio = extent / ((axes == 1 ? CELL_EXTENTS_2D : CELL_EXTENTS) * mean);
    const int k = ratio >= cap ? cap : ratio < 1.0 ? 1 : (int)ratio;
    c->lo[a] = v0, c->count[a] = k, c->scale[a] = (float)((double)k / extent);
  }
  return c->count[0] * c->count[1] > 1;
}

/* Each sorted box's cells (span[r]: y0, y1, z0, z1) and each cell's boxes (count, zeroed
 * here); false when the copies would pass 3m (then one cell does better). */
static bool count_cells(const col_boxes *sorted, size_t m, const col__cells *c, uint8_t (*span)[4],
                        size_t *count) {
  const int axes = sorted->dims == 3 ? 2 : 1, kz = c->count[1];
  memset(count, 0, (size_t)(c->count[0] * kz) * sizeof *count);
  size_t copies = 0;
  for (size_t r = 0; r < m; r++) {
    const int y0 = cell_of(c, 0, sorted->min[1][r]), y1 = cell_of(c, 0, sorted->max[1][r]);
    const int z0 = axes == 2 ? cell_of(c, 1, sorted->min[2][r]) : 0;
    const int z1 = axes == 2 ? cell_of(c, 1, sorted->max[2][r]) : 0;
    span[r][0] = (uint8_t)y0, span[r][1] = (uint8_t)y1;
    span[r][2] = (uint8_t)z0, span[r][3] = (uint8_t)z1;
    const int dy = y1 - y0, dz = z1 - z0;
    copies += (size_t)((dy + 1) * (dz + 1));
    if (dy > 1 || dz > 1) { /* rare: cells hold 1.5 or 2 mean extents */
      for (int y = y0; y <= y1; y++)
        for (int z = z0; z <= z1; z++) count[y * kz + z]++;
      continue;
    }
    const int c00 = y0 * kz + z0, c10 = c00 + dy * kz;
    count[c00]++, count[c10] += (size_t)dy, count[c00 + dz] += (size_t)dz;
    count[c10 + dz] += (size_t)(dy & dz);
  }
  return copies <= 3 * m;
}

/* The cells' boxes as one structure of arrays: cell c at positions base[c] .. base[c] +
 * count[c], then COL_SAP_PAD positions of NaN (id and tag 0). */
typedef struct col__cell_soa {
  float *min[3], *max[3];
  uint32_t *id, *tag;
} col__cell_soa;

/* The cells' arrays in locals (through the structs, every store could alias the next pointer
 * load), and one copy of sorted box r, index i, written at p with tag t. */
typedef struct col__deal {
  float *restrict x0, *restrict x1, *restrict y0, *restrict y1, *restrict z0, *restrict z1;
  uint32_t *restrict id, *restrict tag;
  const float *sx0, *sx1, *sy0, *sy1, *sz0, *sz1;
} col__deal;

COL__BP_INLINE void put(const col__deal *d, unsigned dims, size_t r, uint32_t i, size_t p,
                        uint32_t t) {
  d->x0[p] = d->sx0[r], d->x1[p] = d->sx1[r], d->y0[p] = d->sy0[r], d->y1[p] = d->sy1[r];
  if (dims == 3) d->z0[p] = d->sz0[r], d->z1[p] = d->sz1[r];
  d->id[p] = i, d->tag[p] = t;
}

static col__deal deal_arrays(const col__cell_soa *s, const col_boxes *sorted) {
  const bool z = sorted->dims == 3;
  return (col__deal){s->min[0],
                     s->max[0],
                     s->min[1],
                     s->max[1],
                     s->min[2],
                     s->max[2],
                     s->id,
                     s->tag,
                     sorted->min[0],
                     sorted->max[0],
                     sorted->min[1],
                     sorted->max[1],
                     z ? sorted->min[2] : NULL,
                     z ? sorted->max[2] : NULL};
}

/* Boxes order[0..m) into their cells, in sorted order, so each cell's boxes stay sorted on
 * min x. tag: bit 0 when the copy sits in the box's first row, bit 1 in its first layer
 * (always in 2D). A box covering at most two cells per axis is written without branches: four
 * copies (two in 2D), a repeated one (dy or dz 0) written to the slot after its cell's last,
 * where the cell's next box or the padding overwrites it. */
COL__BP_INLINE void deal(const col__deal *d, unsigned dims, const uint32_t *order, size_t m,
                         const uint8_t (*span)[4], int kz, size_t *fill) {
  for (size_t r = 0; r < m; r++) {
    const uint32_t i = order[r];
    const int y0 = span[r][0], y1 = span[r][1], z0 = span[r][2], z1 = span[r][3];
    const int dy = y1 - y0, dz = z1 - z0;
    if (dy > 1 || dz > 1) {
      for (int y = y0; y <= y1; y++)
        for (int z = z0; z <= z1; z++)
          put(d, dims, r, i, fill[y * kz + z]++, (uint32_t)(y == y0) | (uint32_t)(z == z0) << 1);
      continue;
    }
    const int c00 = y0 * kz + z0, c10 = c00 + dy * kz;
    put(d, dims, r, i, fill[c00]++, 3u);
    put(d, dims, r, i, fill[c10], 2u);
    fill[c10] += (size_t)dy;
    if (dims == 3) {
      put(d, dims, r, i, fill[c00 + dz], 1u);
      fill[c00 + dz] += (size_t)dz;
      put(d, dims, r, i, fill[c10 + dz], 0u);
      fill[c10 + dz] += (size_t)(dy & dz);
    }
  }
}

/* A cell's runs, each pair kept by the tags written straight into the pair list: the
 * backend's whole-cell sweep when it has one, otherwise its sap_run per run. */
static col_status sweep_cell(col__bp *bp, const col__sap_cell *cell, uint32_t *idx) {
  col_pairs *out = bp->out;
  const col__backend *be = bp->backend;
  if (be->sap_sweep != NULL) {
    size_t r = 0, j = 0;
    while (r + 1 < cell->count) {
      /* Room for a good part of the cell at once: each shortfall is one more call. */
      const col_status st = col__bp_reserve(bp, COL__SAP_ROOM + cell->count);
      if (st != COL_OK) return st;
      const size_t got = be->sap_sweep(cell, bp->touch, &r, &j, out->data + out->count,
                                       out->capacity - out->count, &bp->stats.tests);
      out->count += got, bp->stats.pairs += got;
    }
    return COL_OK;
  }
  for (size_t r = 0; r + 1 < cell->count; r++) {
    size_t tested;
    const size_t hits = be->k.sap_run(&cell->view, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    if (hits == 0) continue;
    const col_status st = col__bp_reserve(bp, hits);
    if (st != COL_OK) return st;
    const uint32_t a = cell->id[r], need = 3u & ~cell->tag[r];
    col_pair *dst = out->data + out->count;
    size_t kept = 0;
    for (size_t k = 0; k < hits; k++) {
      const uint32_t b = cell->id[idx[k]];
      dst[kept] = a < b ? (col_pair){a, b} : (col_pair){b, a};
      kept += (cell->tag[idx[k]] & need) == need;
    }
    out->count += kept, bp->stats.pairs += kept;
  }
  return COL_OK;
}

/* Deals the sorted boxes into the k cells counted in count[] and sweeps each. `held`: bytes of
 * working memory already in use (for the stats). */
static col_status sweep_cells(col__bp *bp, const col_boxes *sorted_set, const uint32_t *order,
                              size_t m, const uint8_t (*span)[4], int k, int kz, size_t *count,
                              size_t *base, size_t *fill, uint32_t *idx, size_t held_bytes,
                              bool grid) {
  const col_boxes sorted = *sorted_set;
  const unsigned dims = sorted.dims;
  size_t total = 0;
  for (int c = 0; c < k; c++) base[c] = total, total += count[c] + COL_SAP_PAD;
  base[k] = total;
  const size_t array_bytes = (total * sizeof(float) + 63) / 64 * 64;
  /* min and max per axis, id, tag */
  const size_t arrays = 2 * dims + 2;
  uint8_t *mem = col__bp_work(bp, 2, arrays * array_bytes);
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, bp->stats.scratch_bytes + held_bytes + arrays * array_bytes);
  col__cell_soa s = {{NULL, NULL, NULL}, {NULL, NULL, NULL}, NULL, NULL};
  for (unsigned a = 0; a < dims; a++) {
    s.min[a] = (float *)(void *)(mem + (2 * a) * array_bytes);
    s.max[a] = (float *)(void *)(mem + (2 * a + 1) * array_bytes);
  }
  s.id = (uint32_t *)(void *)(mem + 2 * dims * array_bytes);
  s.tag = (uint32_t *)(void *)(mem + (2 * dims + 1) * array_bytes);
  for (int c = 0; c < k; c++) fill[c] = base[c];
  const col__deal d = deal_arrays(&s, &sorted);
  if (!grid)
    for (size_t r = 0; r < m; r++) put(&d, dims, r, order[r], r, 3u);
  else if (dims == 3)
    deal(&d, 3, order, m, span, kz, fill);
  else
    deal(&d, 2, order, m, span, kz, fill);
  for (int c = 0; c < k; c++)
    for (size_t p = base[c] + count[c]; p < base[c + 1]; p++) {
      for (unsigned a = 0; a < dims; a++) s.min[a][p] = s.max[a][p] = NAN;
      s.id[p] = s.tag[p] = 0;
    }
  const bool x_lower = needs_x_lower(&sorted, bp->touch);
  for (int c = 0; c < k; c++) {
    if (count[c] < 2) continue;
    col__sap_cell cell = {{{NULL, NULL, NULL}, {NULL, NULL, NULL}, dims, x_lower},
                          s.id + base[c],
                          s.tag + base[c],
                          count[c]};
    for (unsigned a = 0; a < dims; a++)
      cell.view.min[a] = s.min[a] + base[c], cell.view.max[a] = s.max[a] + base[c];
    const col_status st = sweep_cell(bp, &cell, idx);
    if (st != COL_OK) return st;
  }
  return COL_OK;
}

col_status col__bp_sap_sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx) {
  const col_boxes *boxes = bp->boxes;
  const unsigned dims = boxes->dims;
  col__cells cells = {{0, 0}, {0, 0}, {1, 1}};
  /* Slot 1: the boxes sorted (one pass of scattered reads; every later pass reads in order)
   * and their cell spans (4 bytes each); slot 2: the cells' arrays; slot 3: per cell, its
   * boxes, first position and next free position. */
  const size_t sorted_bytes = 2 * dims * m * sizeof(float);
  uint8_t *held = col__bp_work(bp, 1, sorted_bytes + 4 * m);
  if (held == NULL) return COL_ERR_MEMORY;
  col_boxes sorted = {dims, {NULL, NULL, NULL}, {NULL, NULL, NULL}, m};
  for (unsigned a = 0; a < dims; a++) {
    float *lo = (float *)(void *)held + 2 * a * m, *hi = lo + m;
    const float *from_lo = boxes->min[a], *from_hi = boxes->max[a];
    for (size_t r = 0; r < m; r++) lo[r] = from_lo[order[r]], hi[r] = from_hi[order[r]];
    sorted.min[a] = lo, sorted.max[a] = hi;
  }
  uint8_t(*span)[4] = (uint8_t(*)[4])(held + sorted_bytes);
  bool grid = choose_cells(&sorted, m, &cells);
  const int k = grid ? cells.count[0] * cells.count[1] : 1, kz = cells.count[1];
  const size_t cell_bytes = 3 * ((size_t)k + 1) * sizeof(size_t);
  size_t *count = col__bp_work(bp, 3, cell_bytes);
  if (count == NULL) return COL_ERR_MEMORY;
  size_t *base = count + k + 1, *fill = base + k + 1;
  if (grid) grid = count_cells(&sorted, m, &cells, span, count);
  if (!grid) {
    /* One cell: the whole sorted set (also when the grid gave too many copies). */
    count[0] = m;
    return sweep_cells(bp, &sorted, order, m, span, 1, 1, count, base, fill, idx,
                       cell_bytes + sorted_bytes + 4 * m, false);
  }
  return sweep_cells(bp, &sorted, order, m, span, k, kz, count, base, fill, idx,
                     cell_bytes + sorted_bytes + 4 * m, true);
}
