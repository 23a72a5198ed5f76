/* Sweep and prune's cells swept (deal.c deals them): each cell's places unpacked into
 * per-axis arrays that stay in the first-level cache, then the backend's whole-cell sweep (or
 * its sap_run per run), each pair kept by the boxes' tags so that a pair met in two cells is
 * reported once. Called for all cells by the sequential call and for a range of cells by each
 * task of a parallel one (../tasks/sweep.c): the same code, so one task costs what the call did. */
#include "../broadphase.h"

#include <string.h>

/* One cell's places as the arrays its sweep reads, field by field (backends without a
 * vector transpose). */
static void unpack_fields(const col__sap_rec *rec, const uint64_t *slot, size_t n, unsigned dims,
                          float *const min[3], float *const max[3], uint32_t *id, uint32_t *tag) {
  const size_t units = COL__SAP_UNITS(dims);
  for (size_t p = 0; p < n; p++) {
    id[p] = (uint32_t)slot[p], tag[p] = (uint32_t)(slot[p] >> 32);
    const col__sap_rec *b = &rec[id[p] * units];
    memcpy(&min[0][p], &b->v[0], sizeof(float)), memcpy(&min[1][p], &b->v[1], sizeof(float));
    memcpy(&max[0][p], &b->v[2], sizeof(float)), memcpy(&max[1][p], &b->v[3], sizeof(float));
    if (dims == 3) {
      memcpy(&min[2][p], &b[1].v[0], sizeof(float));
      memcpy(&max[2][p], &b[1].v[1], sizeof(float));
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
    /* Room for a good part of the cell at once: each shortfall is one more call. Writing into
     * a block of the caller's list (the any-order join), what room the block has left: a
     * block left early is a gap that the join fills by moving pairs. Streaming, what the batch
     * has left: a batch handed over early is only a shorter batch. */
    const size_t want =
        bp->writer != NULL || bp->stream != NULL ? 2 * COL__SAP_ROOM : COL__SAP_ROOM + cell->count;
    while (r + 1 < cell->count) {
      const col_status st = col__bp_reserve(bp, want);
      if (st != COL_OK) return st;
      /* A size_t of its own: the count is 64-bit, size_t is 32 on wasm32 and other 32-bit
       * targets. */
      size_t tested = 0;
      const size_t got = be->sap_sweep(cell, bp->touch, &r, &j, out->data + out->count,
                                       out->capacity - out->count, &tested);
      out->count += got, bp->stats.pairs += got, bp->stats.tests += tested;
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

/* Whether hits have been rare so far, so that a block without one skips the pair writer; the
 * branch costs more than it saves when blocks often hit, and a missed prediction costs
 * more on some CPUs than on others. The default rule counts hits per test (sparse under
 * one in six). On Zen 3, where that rule skipped the writer in scenes whose runs often hit and
 * the mispredicted branch cost more than it saved, the rule counts hits per block instead (about
 * one per place swept, plus one per `width` tests): sparse under one in four. The figures behind
 * both are in docs/tuning.md. A parallel call's tasks each count their own range (the flag only
 * chooses the work, never the pairs). */
static bool hits_sparse(const col__bp *bp, uint64_t swept, bool per_block) {
  const uint64_t pairs = bp->stats.pairs, tests = bp->stats.tests;
  if (per_block) return pairs * 4 < swept + tests / bp->backend->width + 4;
  return pairs * 6 < tests + 6;
}

col_status col__sap_sweep_cells(col__bp *bp, const col__sap_dealt *d, int from, int to,
                                uint32_t *idx) {
  /* One cell's arrays at a time (slot 1: the cell spans are spent), so they stay in the
   * first-level cache: min and max per axis, id, tag. */
  const unsigned dims = bp->boxes->dims;
  const size_t array_bytes = col__sap_array_bytes(d->widest);
  uint8_t *mem = col__bp_work(bp, 1, col__sap_cell_bytes(dims, d->widest));
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
  const bool per_block = col__cpu_zen3();
  uint64_t swept = 0;
  for (int c = from; c < to; c++) {
    if (d->count[c] < 2) continue;
    unpack(d->rec, d->slot + d->base[c], d->base[c + 1] - d->base[c], dims, min, max, id, tag);
    const bool sparse = hits_sparse(bp, swept, per_block);
    swept += d->count[c];
    col__sap_cell cell = {{{min[0], min[1], min[2]}, {max[0], max[1], max[2]}, dims, d->x_lower},
                          id,
                          tag,
                          d->count[c],
                          sparse};
    const col_status st = sweep_cell(bp, &cell, idx);
    if (st != COL_OK) return st;
  }
  return COL_OK;
}
