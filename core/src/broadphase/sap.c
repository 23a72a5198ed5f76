/* Sweep and prune, the box-pruning way: sort the boxes on min x (LSD radix on the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent; the active backend's run scan (col__backend.sap_run) finds the run's end with the
 * same compares that test every axis, so the result is exactly brute force's: for any
 * overlapping pair the box that sorts first has max x >= the other's min x, so no pair is
 * missed; boxes with a NaN coordinate never pair and are left out. Pruning on y too: the boxes
 * are dealt into horizontal bands (a box into every band it spans, order kept) and each band
 * is swept alone, so a run holds only boxes that share a band; a pair met in several bands is
 * kept in the band of the larger min y. */
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

float *col__bp_sap_view(const col_boxes *boxes, const uint32_t *order, size_t m, col_touch touch,
                        col_sap_view *view) {
  const unsigned dims = boxes->dims;
  const size_t stride = m + COL_SAP_PAD;
  float *sorted = malloc(2 * dims * stride * sizeof(float));
  if (sorted == NULL) return NULL;
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
  return sorted;
}

/* Horizontal bands of equal height over the boxes' y range: band_of is monotonic in y, so a
 * box spans bands band_of(min y)..band_of(max y) and every y value in it lies in one of them. */
typedef struct col__bands {
  float y0, scale;
  int count;
} col__bands;

static inline int band_of(const col__bands *b, float y) {
  const float t = (y - b->y0) * b->scale;
  const int i = t > 0 ? (int)t : 0;
  return i < b->count ? i : b->count - 1;
}

/* One sweep over order[0..m) (sorted on min x). With `band` >= 0, a pair is kept only when
 * the larger of the two min y lies in that band (so a pair seen in several bands is kept
 * once: both boxes span that y value, so both are in that band). */
static col_status sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx,
                        const col__bands *bands, int band) {
  col_sap_view view;
  float *sorted = col__bp_sap_view(bp->boxes, order, m, bp->touch, &view);
  if (sorted == NULL) return COL_ERR_MEMORY;
  col_status st = COL_OK;
  const float *min_y = bp->boxes->min[1];
  for (size_t r = 0; r + 1 < m && st == COL_OK; r++) {
    size_t tested;
    const size_t hits = bp->backend->k.sap_run(&view, r, bp->touch, idx, &tested);
    bp->stats.tests += tested;
    for (size_t k = 0; k < hits && st == COL_OK; k++) {
      const uint32_t a = order[r], b = order[idx[k]];
      if (band >= 0 && band_of(bands, min_y[a] > min_y[b] ? min_y[a] : min_y[b]) != band) continue;
      st = col__bp_push(bp, a, b);
    }
  }
  free(sorted);
  return st;
}

/* How many y bands: about four mean box heights each, at most 64, and only when every box is
 * finite and upright on y (an inverted box can still overlap others, but spans no band) and
 * the copies stay under 2m. Returns 1 for a plain sweep; otherwise span[r] gets the first and
 * last band of order[r], and start[b + 1] the number of boxes in band b. */
static int choose_bands(const col_boxes *boxes, const uint32_t *order, size_t m, col__bands *b,
                        uint8_t (*span)[2], size_t *start) {
  if (m < 256) return 1;
  const float *lo = boxes->min[1], *hi = boxes->max[1];
  float y0 = INFINITY, y1 = -INFINITY;
  double height = 0;
  for (size_t r = 0; r < m; r++) {
    const float l = lo[order[r]], h = hi[order[r]];
    if (!(l <= h) || !isfinite(l) || !isfinite(h)) return 1;
    y0 = l < y0 ? l : y0, y1 = h > y1 ? h : y1, height += (double)h - l;
  }
  const double mean = height / (double)m, extent = (double)y1 - y0;
  if (!(mean > 0) || !(extent > 0)) return 1;
  /* Clamped as a double: boxes of tiny height over a huge extent give a ratio past INT_MAX. */
  const double ratio = extent / (4.0 * mean);
  const int k = ratio >= 64.0 ? 64 : ratio < 1.0 ? 1 : (int)ratio;
  if (k == 1) return 1;
  b->y0 = y0, b->count = k, b->scale = (float)((double)k / extent);
  size_t copies = 0;
  for (size_t r = 0; r < m; r++) {
    const int first = band_of(b, lo[order[r]]), last = band_of(b, hi[order[r]]);
    span[r][0] = (uint8_t)first, span[r][1] = (uint8_t)last;
    copies += (size_t)(last - first + 1);
    for (int q = first; q <= last; q++) start[q + 1]++;
  }
  return copies <= 2 * m ? k : 1;
}

col_status col__bp_sap_sweep(col__bp *bp, const uint32_t *order, size_t m, uint32_t *idx) {
  const col_boxes *boxes = bp->boxes;
  col__bands bands;
  size_t start[65] = {0};
  uint8_t(*span)[2] = malloc((m ? m : 1) * sizeof *span);
  if (span == NULL) return COL_ERR_MEMORY;
  const int k = choose_bands(boxes, order, m, &bands, span, start);
  if (k == 1) {
    free(span);
    col__bp_scratch(bp, bp->stats.scratch_bytes + col__bp_sap_view_bytes(boxes, m));
    return sweep(bp, order, m, idx, NULL, -1);
  }
  /* Each band's boxes, still sorted on min x (a stable distribution of the order). */
  for (int b = 0; b < k; b++) start[b + 1] += start[b];
  uint32_t *lists = malloc((start[k] ? start[k] : 1) * sizeof(uint32_t));
  if (lists == NULL) {
    free(span);
    return COL_ERR_MEMORY;
  }
  size_t fill[64], largest = 0;
  for (int b = 0; b < k; b++) {
    fill[b] = start[b];
    if (start[b + 1] - start[b] > largest) largest = start[b + 1] - start[b];
  }
  for (size_t r = 0; r < m; r++)
    for (int b = span[r][0]; b <= span[r][1]; b++) lists[fill[b]++] = order[r];
  free(span);
  col__bp_scratch(bp, bp->stats.scratch_bytes + start[k] * sizeof(uint32_t) + 2 * m +
                          col__bp_sap_view_bytes(boxes, largest));
  col_status st = COL_OK;
  for (int b = 0; b < k && st == COL_OK; b++)
    st = sweep(bp, lists + start[b], start[b + 1] - start[b], idx, &bands, b);
  free(lists);
  return st;
}
