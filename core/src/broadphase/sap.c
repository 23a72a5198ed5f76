/* Sweep and prune, the box-pruning way: sort the boxes on min x (LSD radix on the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent; the active backend's run scan (col__backend.sap_run) finds the run's end with the
 * same compares that test every axis, so the result is exactly brute force's: for any
 * overlapping pair the box that sorts first has max x >= the other's min x, so no pair is
 * missed; boxes with a NaN coordinate never pair and are left out. Pruning on the other axes
 * too: the boxes are dealt into a grid of cells over y (and z in 3D; a box into every cell it
 * covers, order kept) and each cell is swept alone, so a run holds only boxes that share a
 * cell; a pair met in several cells is kept in the cell of the larger min y (and min z). */
#include "broadphase.h"

#include <math.h>
#include <stdlib.h>

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
  uint32_t *mem = malloc((n ? n : 1) * 5 * sizeof(uint32_t));
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, n * 5 * sizeof(uint32_t));
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = mem + 4 * n;
  const size_t m = col__bp_sort_x(bp->boxes, order, keys, scratch);
  const col_status st = col__bp_sap_sweep(bp, order, m, idx);
  free(mem);
  return st;
}

/* Fills `sorted` (col__bp_sap_view_bytes of room) with the copy and `view` with its arrays. */
static void fill_view(const col_boxes *boxes, const uint32_t *order, size_t m, col_touch touch,
                      col_sap_view *view, float *sorted) {
  const unsigned dims = boxes->dims;
  const size_t stride = m + COL_SAP_PAD;
  *view = (col_sap_view){{NULL, NULL, NULL}, {NULL, NULL, NULL}, dims, false};
  for (unsigned k = 0; k < dims; k++) {
    float *smin = sorted + 2 * k * stride, *smax = smin + stride;
    for (size_t r = 0; r < m; r++)
      smin[r] = boxes->min[k][order[r]], smax[r] = boxes->max[k][order[r]];
    for (size_t r = m; r < stride; r++) smin[r] = smax[r] = NAN;
    view->min[k] = smin, view->max[k] = smax;
  }
  /* Under the closed rule, a run's boxes satisfy max x[j] >= min x[r] already when none is
   * inverted on x (min x[r] <= min x[j] <= max x[j]): the scan then skips that compare. */
  bool x_inverted = false;
  for (size_t r = 0; r < m; r++) x_inverted = x_inverted || view->max[0][r] < view->min[0][r];
  view->x_lower = touch == COL_TOUCH_SEPARATES || x_inverted;
}

float *col__bp_sap_view(const col_boxes *boxes, const uint32_t *order, size_t m, col_touch touch,
                        col_sap_view *view) {
  float *sorted = malloc(col__bp_sap_view_bytes(boxes, m));
  if (sorted != NULL) fill_view(boxes, order, m, touch, view, sorted);
  return sorted;
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

/* A cell's sweep: boxes order[0..m) of the cell (sorted on min x), the cell's coordinates
 * (cy, cz) and each box's first cell per axis (first_y, first_z by box index; NULL for a plain
 * sweep). A pair is kept in the cell holding the larger of the two min y (and min z): both boxes
 * cover that value, so they meet there, and it is the cell whose row is the larger of their
 * first rows; pairs met in other cells are dropped there. Hits are written straight into the
 * pair list, room for a run's hits reserved once. */
static col_status sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx,
                        const col_sap_view *view, const uint8_t *first_y, const uint8_t *first_z,
                        int cy, int cz) {
  col_pairs *out = bp->out;
  for (size_t r = 0; r + 1 < m; r++) {
    size_t tested;
    const size_t hits = bp->backend->k.sap_run(view, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    if (hits == 0) continue;
    if (out->capacity - out->count < hits) {
      const col_status st = col__bp_reserve(bp, hits);
      if (st != COL_OK) return st;
    }
    const uint32_t a = order[r];
    col_pair *dst = out->data + out->count;
    size_t kept = 0;
    const int ay = first_y ? first_y[a] : cy, az = first_z ? first_z[a] : cz;
    if (ay == cy && az == cz) {
      /* a starts in this cell: so does the larger first row/layer of every pair it has here. */
      for (size_t k = 0; k < hits; k++) {
        const uint32_t b = order[idx[k]];
        dst[k] = a < b ? (col_pair){a, b} : (col_pair){b, a};
      }
      kept = hits;
    } else {
      for (size_t k = 0; k < hits; k++) {
        const uint32_t b = order[idx[k]];
        const int by = first_y[b], bz = first_z ? first_z[b] : cz;
        const bool here = (ay > by ? ay : by) == cy && (az > bz ? az : bz) == cz;
        dst[kept] = a < b ? (col_pair){a, b} : (col_pair){b, a};
        kept += here;
      }
    }
    out->count += kept;
    bp->stats.pairs += kept;
  }
  return COL_OK;
}

/* Cells per axis: about CELL_EXTENTS mean box extents each, at most 64 (2D) or 16 per axis
 * (3D), and only when every box is finite and upright on the partitioned axes (an inverted box
 * can still overlap others, but spans no cell) and the copies stay under 3m. Returns the
 * number of cells, 1 for a plain sweep; otherwise first[] / last[] get each box's cells per
 * axis (by box index) and start[c + 1] the number of boxes in cell c. */
enum { CELL_EXTENTS = 4, MAX_CELLS = 256 };

/* The range and summed size of boxes order[0..m) on one axis, false when one is inverted or
 * not finite there. Four independent accumulators: one chain of min / max / add per box would
 * cost its latency per box. */
static bool axis_extent(const float *lo, const float *hi, const uint32_t *order, size_t m,
                        float *v0, float *v1, double *size) {
  float mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
  float mx[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, sum[4] = {0, 0, 0, 0};
  bool ok = true;
  size_t r = 0;
  for (; r + 4 <= m; r += 4)
    for (int q = 0; q < 4; q++) {
      const float l = lo[order[r + q]], h = hi[order[r + q]];
      ok &= (l <= h) & (l > -INFINITY) & (h < INFINITY);
      mn[q] = l < mn[q] ? l : mn[q], mx[q] = h > mx[q] ? h : mx[q], sum[q] += h - l;
    }
  for (; r < m; r++) {
    const float l = lo[order[r]], h = hi[order[r]];
    ok &= (l <= h) & (l > -INFINITY) & (h < INFINITY);
    mn[0] = l < mn[0] ? l : mn[0], mx[0] = h > mx[0] ? h : mx[0], sum[0] += h - l;
  }
  for (int q = 1; q < 4; q++)
    mn[0] = mn[q] < mn[0] ? mn[q] : mn[0], mx[0] = mx[q] > mx[0] ? mx[q] : mx[0];
  *v0 = mn[0], *v1 = mx[0];
  *size = (double)sum[0] + sum[1] + sum[2] + sum[3];
  return ok;
}

static int choose_cells(const col_boxes *boxes, const uint32_t *order, size_t m, col__cells *c,
                        uint8_t *first[2], uint8_t *last[2], size_t *start) {
  if (m < 256) return 1;
  const int axes = boxes->dims == 3 ? 2 : 1, cap = axes == 2 ? 16 : 64;
  c->count[1] = 1, c->lo[1] = 0, c->scale[1] = 0;
  for (int a = 0; a < axes; a++) {
    float v0, v1;
    double size;
    if (!axis_extent(boxes->min[1 + a], boxes->max[1 + a], order, m, &v0, &v1, &size)) return 1;
    const double mean = size / (double)m, extent = (double)v1 - v0;
    if (!(mean > 0) || !(extent > 0)) return 1;
    /* Clamped as a double: boxes of tiny size over a huge extent give a ratio past INT_MAX. */
    const double ratio = extent / (CELL_EXTENTS * mean);
    const int k = ratio >= cap ? cap : ratio < 1.0 ? 1 : (int)ratio;
    c->lo[a] = v0, c->count[a] = k, c->scale[a] = (float)((double)k / extent);
  }
  const int cells = c->count[0] * c->count[1], kz = c->count[1];
  if (cells == 1) return 1;
  size_t copies = 0;
  for (size_t r = 0; r < m; r++) {
    const uint32_t i = order[r];
    const int y0 = cell_of(c, 0, boxes->min[1][i]), y1 = cell_of(c, 0, boxes->max[1][i]);
    const int z0 = axes == 2 ? cell_of(c, 1, boxes->min[2][i]) : 0;
    const int z1 = axes == 2 ? cell_of(c, 1, boxes->max[2][i]) : 0;
    first[0][i] = (uint8_t)y0, last[0][i] = (uint8_t)y1;
    first[1][i] = (uint8_t)z0, last[1][i] = (uint8_t)z1;
    copies += (size_t)((y1 - y0 + 1) * (z1 - z0 + 1));
    for (int y = y0; y <= y1; y++)
      for (int z = z0; z <= z1; z++) start[y * kz + z + 1]++;
  }
  return copies <= 3 * m ? cells : 1;
}

col_status col__bp_sap_sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col__cells cells;
  size_t start[MAX_CELLS + 1] = {0};
  uint8_t *spans = malloc((n ? n : 1) * 4);
  if (spans == NULL) return COL_ERR_MEMORY;
  uint8_t *first[2] = {spans, spans + 2 * n}, *last[2] = {spans + n, spans + 3 * n};
  const int k = choose_cells(boxes, order, m, &cells, first, last, start);
  size_t largest = m;
  uint32_t *lists = NULL;
  if (k > 1) {
    /* Each cell's boxes, still sorted on min x (a stable distribution of the order). */
    for (int c = 0; c < k; c++) start[c + 1] += start[c];
    lists = malloc((start[k] ? start[k] : 1) * sizeof(uint32_t));
    if (lists == NULL) {
      free(spans);
      return COL_ERR_MEMORY;
    }
    size_t fill[MAX_CELLS];
    largest = 0;
    for (int c = 0; c < k; c++) {
      fill[c] = start[c];
      if (start[c + 1] - start[c] > largest) largest = start[c + 1] - start[c];
    }
    const int kz = cells.count[1];
    for (size_t r = 0; r < m; r++) {
      const uint32_t i = order[r];
      const int z0 = kz > 1 ? first[1][i] : 0, z1 = kz > 1 ? last[1][i] : 0;
      for (int y = first[0][i]; y <= last[0][i]; y++)
        for (int z = z0; z <= z1; z++) lists[fill[y * kz + z]++] = i;
    }
  }
  float *sorted = malloc(col__bp_sap_view_bytes(boxes, largest));
  if (sorted == NULL) {
    free(spans), free(lists);
    return COL_ERR_MEMORY;
  }
  col__bp_scratch(bp, bp->stats.scratch_bytes + 4 * n + (k > 1 ? start[k] * sizeof(uint32_t) : 0) +
                          col__bp_sap_view_bytes(boxes, largest));
  col_status st = COL_OK;
  col_sap_view view;
  if (k == 1) {
    fill_view(boxes, order, m, bp->touch, &view, sorted);
    st = sweep(bp, order, m, idx, &view, NULL, NULL, 0, 0);
  } else {
    for (int c = 0; c < k && st == COL_OK; c++) {
      const size_t count = start[c + 1] - start[c];
      if (count < 2) continue;
      fill_view(boxes, lists + start[c], count, bp->touch, &view, sorted);
      st = sweep(bp, lists + start[c], count, idx, &view, first[0],
                 cells.count[1] > 1 ? first[1] : NULL, c / cells.count[1], c % cells.count[1]);
    }
  }
  free(sorted), free(spans), free(lists);
  return st;
}
