/* Sweep and prune, the box-pruning way: sort the boxes on min x (a bucket sort, or LSD radix on
 * the float bits),
 * then each box is tested only against the run of later boxes whose min x lies within its own
 * x extent; the run scan finds the run's end with the same compares that test every axis, so
 * the result is exactly brute force's: for any overlapping pair the box that sorts first has
 * max x >= the other's min x, so no pair is missed; boxes with a NaN coordinate never pair and
 * are left out. Pruning on the other axes too: the boxes are dealt into a grid of cells over y
 * (and z in 3D; sap_grid.c) and each cell is swept alone, so a run holds only boxes that
 * share a cell. The SIMD backends sweep a whole cell per call
 * (col__backend.sap_sweep); the others call their sap_run once per run. Working memory is kept
 * in the pair list (col__bp_work), so repeated calls do not allocate. */
#include "broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bucket sort on min x (32 boxes or more, with a finite spread): one bucket per box over the range,
 * a monotonic map (sub, mul, clamp: a larger value never gets a lower bucket), so only boxes
 * of one bucket can be out of order after the scatter, and an insertion pass on the keys puts
 * them right. Equal keys share a bucket and keep the boxes' order throughout, as the radix
 * does. A pass that would move more than 2m entries (clustered values) hands the rest to the
 * radix sort. */
COL__BP_INLINE size_t bucket_sort_x(const col_boxes *boxes, float lo, float hi, bool maybe_nan,
                                    uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  const size_t n = boxes->count;
  const float *x = boxes->min[0];
  uint32_t *bucket = scratch, *tkey = scratch + n, *tord = scratch + 2 * n, *at = scratch + 3 * n;
  const float scale = (float)((double)n / ((double)hi - lo)), last = (float)(n - 1);
  memset(at, 0, (n + 1) * sizeof *at);
  size_t m = 0, i = 0;
  /* Four boxes at a time: NaN test, bucket and key in lanes, then each kept box stored. */
  const col__f4 zero = splat4(0.0f), top = splat4(last);
  const bool z = boxes->dims == 3;
  /* The arrays in locals: the stores below could alias *boxes as far as the compiler knows. */
  const float *const hx = boxes->max[0], *const ly = boxes->min[1], *const hy = boxes->max[1];
  const float *const lz = boxes->min[2], *const hz = boxes->max[2];
  for (; i + 4 <= n; i += 4) {
    const col__f4 x0 = load4(x + i);
    col__i4 ok = {-1, -1, -1, -1};
    if (maybe_nan) { /* the survey found no NaN otherwise */
      const col__f4 x1 = load4(hx + i), y0 = load4(ly + i), y1 = load4(hy + i);
      ok = (x0 == x0) & (x1 == x1) & (y0 == y0) & (y1 == y1);
      if (z) {
        const col__f4 z0 = load4(lz + i), z1 = load4(hz + i);
        ok &= (z0 == z0) & (z1 == z1);
      }
    }
    const col__f4 t = (x0 - splat4(lo)) * splat4(scale), u = pick4(t > zero, t, zero);
    const col__u4 b = (col__u4) __builtin_convertvector(pick4(u < top, u, top), col__i4);
    /* col__float_key: the bits flipped for negatives, the sign bit set for the others */
    const col__u4 bits = (col__u4)x0, neg = (col__u4)((col__i4)bits >> 31);
    const col__u4 key = bits ^ (neg | 0x80000000u);
    if ((ok[0] & ok[1] & ok[2] & ok[3]) != 0) { /* the usual case: four stores, no branches */
      const col__u4 ids = (col__u4){0, 1, 2, 3} + (uint32_t)i;
      memcpy(bucket + m, &b, sizeof b), memcpy(tkey + m, &key, sizeof key);
      memcpy(tord + m, &ids, sizeof ids);
      at[b[0] + 1]++, at[b[1] + 1]++, at[b[2] + 1]++, at[b[3] + 1]++, m += 4;
      continue;
    }
    for (int q = 0; q < 4; q++)
      if (ok[q] != 0) {
        bucket[m] = b[q], tkey[m] = key[q], tord[m] = (uint32_t)i + (uint32_t)q;
        at[b[q] + 1]++, m++;
      }
  }
  for (; i < n; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    const float t = (x[i] - lo) * scale, u = t > 0 ? t : 0;
    const uint32_t b = (uint32_t)(u < last ? u : last);
    bucket[m] = b, tkey[m] = col__float_key(x[i]), tord[m] = (uint32_t)i;
    at[b + 1]++, m++;
  }
  for (size_t b = 0; b < n; b++) at[b + 1] += at[b];
  for (size_t r = 0; r < m; r++) {
    const uint32_t to = at[bucket[r]]++;
    keys[to] = tkey[r], order[to] = tord[r];
  }
  size_t moved = 0;
  for (size_t r = 1; r < m; r++) {
    const uint32_t key = keys[r];
    if (key >= keys[r - 1]) continue;
    const uint32_t o = order[r];
    size_t p = r;
    do keys[p] = keys[p - 1], order[p] = order[p - 1], p--;
    while (p > 0 && keys[p - 1] > key);
    keys[p] = key, order[p] = o, moved += r - p;
    if (moved > 2 * m) {
      col__radix_sort32(keys, order, m, scratch);
      break;
    }
  }
  return m;
}

/* Under 32 boxes or without a finite spread of min x: the radix sort. */
static size_t radix_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys,
                           uint32_t *scratch) {
  size_t m = 0;
  for (size_t i = 0; i < boxes->count; i++)
    if (!col__bp_has_nan(boxes, i)) {
      order[m] = (uint32_t)i;
      keys[m++] = col__float_key(boxes->min[0][i]);
    }
  col__radix_sort32(keys, order, m, scratch);
  return m;
}

/* The bucket sort with the survey's range, without NaN tests when it found none; its two
 * builds (broadphase.h). */
COL__BP_INLINE size_t bucket_sort_surveyed(const col_boxes *boxes, const col__survey *sv,
                                           uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  if (sv->maybe_nan) return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, true, order, keys, scratch);
  return bucket_sort_x(boxes, sv->x_lo, sv->x_hi, false, order, keys, scratch);
}
static size_t bucket_base(const col_boxes *boxes, const col__survey *sv, uint32_t *order,
                          uint32_t *keys, uint32_t *scratch) {
  return bucket_sort_surveyed(boxes, sv, order, keys, scratch);
}
COL__AVX2_BUILD static size_t bucket_avx2(const col_boxes *boxes, const col__survey *sv,
                                          uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  return bucket_sort_surveyed(boxes, sv, order, keys, scratch);
}

size_t col__bp_sort_x_surveyed(const col_boxes *boxes, bool avx2, const col__survey *sv,
                               uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  if (boxes->count < 32 || !sv->x_spread) return radix_sort_x(boxes, order, keys, scratch);
  if (avx2) return bucket_avx2(boxes, sv, order, keys, scratch);
  return bucket_base(boxes, sv, order, keys, scratch);
}

size_t col__bp_sort_x(const col_boxes *boxes, uint32_t *order, uint32_t *keys, uint32_t *scratch) {
  col__survey sv;
  col__sap_survey(boxes, false, &sv);
  return col__bp_sort_x_surveyed(boxes, false, &sv, order, keys, scratch);
}

bool col__bp_avx2_passes(const col__bp *bp) {
#if defined(__x86_64__) || defined(__i386__)
  const col__backend *be = bp->backend;
  return be->kind == COL_BACKEND_NATIVE && be->width >= 8 && col__cpu_has_avx2();
#else
  (void)bp;
  return false;
#endif
}

col_status col__bp_sap(col__bp *bp) {
  const size_t n = bp->boxes->count;
  /* One block: order, keys, the sort's scratch (the sweep's idx once sorted). */
  const size_t bytes = (2 * n + COL__SORT_X_SCRATCH(n)) * sizeof(uint32_t);
  uint32_t *mem = col__bp_work(bp, 0, bytes);
  if (mem == NULL) return COL_ERR_MEMORY;
  col__bp_scratch(bp, bytes);
  uint32_t *order = mem, *keys = mem + n, *scratch = mem + 2 * n, *idx = scratch;
  /* One survey for the sort and the deal. */
  const bool avx2 = col__bp_avx2_passes(bp);
  col__survey sv;
  col__sap_survey(bp->boxes, avx2, &sv);
  const size_t m = col__bp_sort_x_surveyed(bp->boxes, avx2, &sv, order, keys, scratch);
  return col__bp_sap_sweep(bp, &sv, order, m, idx);
}

/* One cell's places as the arrays its sweep reads, field by field (backends without a
 * vector transpose). */
static void unpack_fields(const col__sap_rec *rec, const uint64_t *slot, size_t n, unsigned dims,
                          float *const min[3], float *const max[3], uint32_t *id, uint32_t *tag) {
  for (size_t p = 0; p < n; p++) {
    id[p] = (uint32_t)slot[p], tag[p] = (uint32_t)(slot[p] >> 32);
    const col__sap_rec *b = &rec[id[p]];
    min[0][p] = b->box[0], min[1][p] = b->box[1];
    max[0][p] = b->box[2], max[1][p] = b->box[3];
    if (dims == 3) {
      memcpy(&min[2][p], &b->rest[0], sizeof(float));
      memcpy(&max[2][p], &b->rest[1], sizeof(float));
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

col_status col__bp_sap_sweep(col__bp *bp, const col__survey *sv, const uint32_t *order, size_t m,
                             uint32_t *idx) {
  col__sap_dealt d;
  col_status st = col__sap_deal(bp, sv, order, m, &d);
  if (st != COL_OK) return st;
  /* One cell's arrays at a time (slot 1: the cell spans are spent), so they stay in the
   * first-level cache: min and max per axis, id, tag. */
  const unsigned dims = bp->boxes->dims;
  const size_t array_bytes = col__sap_array_bytes(d.widest);
  uint8_t *mem = col__bp_work(bp, 1, col__sap_cell_bytes(dims, d.widest));
  if (mem == NULL) return COL_ERR_MEMORY;
  float *min[3] = {NULL, NULL, NULL}, *max[3] = {NULL, NULL, NULL};
  for (unsigned a = 0; a < dims; a++) {
    min[a] = (float *)(void *)(mem + (2 * a) * array_bytes);
    max[a] = (float *)(void *)(mem + (2 * a + 1) * array_bytes);
  }
  uint32_t *id = (uint32_t *)(void *)(mem + 2 * dims * array_bytes);
  uint32_t *tag = (uint32_t *)(void *)(mem + (2 * dims + 1) * array_bytes);
  const col__backend *be = bp->backend;
  const col__sap_unpack_fn unpack = be->sap_unpack != NULL ? be->sap_unpack : unpack_fields;
  for (int c = 0; c < d.cells; c++) {
    if (d.count[c] < 2) continue;
    unpack(d.rec, d.slot + d.base[c], d.base[c + 1] - d.base[c], dims, min, max, id, tag);
    /* Hits rare so far (under one test in six): a block without one skips the pair writer;
     * the branch costs more than it saves when blocks often hit. */
    const bool sparse = bp->stats.pairs * 6 < bp->stats.tests + 6;
    col__sap_cell cell = {{{min[0], min[1], min[2]}, {max[0], max[1], max[2]}, dims, d.x_lower},
                          id,
                          tag,
                          d.count[c],
                          sparse};
    st = sweep_cell(bp, &cell, idx);
    if (st != COL_OK) return st;
  }
  return COL_OK;
}
