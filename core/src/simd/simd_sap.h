/* Sweep and prune's run scan (col__backend.sap_run), instantiated once per ISA: W sorted boxes
 * per step, the run's end found by the same compare that tests min x (the sorted order makes
 * the in-run lanes a prefix; the NaN padding after the last box ends every run), so there is
 * no binary search and no tail copy. Each candidate gets the same ordered compares as
 * col_aabb2_overlap / col_aabb3_overlap, except max x[j] >= min x[r] when the caller knows it
 * holds (closed rule, no box inverted on x: min x[r] <= min x[j] <= max x[j]). */
#ifndef COLLIDE_SIMD_SAP_H
#define COLLIDE_SIMD_SAP_H

COL_INLINE size_t sap_run_t(const col_sap_view *v, size_t r, uint32_t *out, size_t *tested,
                            unsigned dims, bool open, bool x_lower) {
  const float *const *lo = v->min, *const *hi = v->max;
  const vf q_max_x = vf_set1(hi[0][r]), q_min_x = vf_set1(lo[0][r]);
  const vf q_min_y = vf_set1(lo[1][r]), q_max_y = vf_set1(hi[1][r]);
  const vf q_min_z = vf_set1(dims == 3 ? lo[2][r] : 0.0f);
  const vf q_max_z = vf_set1(dims == 3 ? hi[2][r] : 0.0f);
  size_t j = r + 1, found = 0;
  for (;;) {
    const vf b_min_x = vf_loadu(lo[0] + j);
    const vm in = open ? vf_gt(q_max_x, b_min_x) : vf_ge(q_max_x, b_min_x);
    vm m = vm_and(in, axis_test(q_min_y, q_max_y, vf_loadu(lo[1] + j), vf_loadu(hi[1] + j), open));
    if (dims == 3)
      m = vm_and(m, axis_test(q_min_z, q_max_z, vf_loadu(lo[2] + j), vf_loadu(hi[2] + j), open));
    if (x_lower) {
      const vf b_max_x = vf_loadu(hi[0] + j);
      m = vm_and(m, open ? vf_gt(b_max_x, q_min_x) : vf_ge(b_max_x, q_min_x));
    }
    const uint32_t bits = vm_bits(m), run = vm_bits(in);
    if (bits != 0) found += emit_indices(out + found, bits, (uint32_t)j);
    if (run != COL_LANES) {
      *tested = j - r - 1 + col_popcount(run);
      return found;
    }
    j += COL_W;
  }
}

#ifndef COL_HAVE_EMIT_PAIRS
COL_INLINE size_t emit_pairs(col_pair *out, vm keep, const uint32_t *ids, uint32_t a) {
  size_t k = 0;
  for (uint32_t bits = vm_bits(keep); bits != 0; bits &= bits - 1u) {
    const uint32_t b = ids[__builtin_ctz(bits)];
    out[k++] = (col_pair){a < b ? a : b, a < b ? b : a};
  }
  return k;
}
#endif

/* The whole-cell sweep (col__sap_sweep_fn): the run scan above with the cell's tag filter and
 * the pairs written in place, so one call covers a cell instead of one call per box. */
COL_INLINE size_t sap_sweep_t(const col__sap_cell *c, size_t *pr, size_t *pj, col_pair *out,
                              size_t room, size_t *tested, unsigned dims, bool open, bool x_lower,
                              bool sparse) {
  /* The arrays' addresses in locals: read through c, they would be reloaded after every
   * store of pairs (out may alias the cell as far as the compiler knows). */
  const float *const lo_x = c->view.min[0], *const hi_x = c->view.max[0];
  const float *const lo_y = c->view.min[1], *const hi_y = c->view.max[1];
  const float *const lo_z = c->view.min[2], *const hi_z = c->view.max[2];
  const uint32_t *const id = c->id, *const tag = c->tag;
  const size_t count = c->count;
  /* Few live values for the inner loop: the output as a pointer with its limit, and the tests
   * counted once a run ends, from where it ended (every block before the last is full). */
  if (room < COL__SAP_ROOM) return 0;
  col_pair *o = out;
  const col_pair *const last = out + (room - COL__SAP_ROOM);
  size_t r = *pr, j = *pj, t = 0;
  for (; r + 1 < count; r++, j = 0) {
    if (j == 0) j = r + 1;
    const vf q_max_x = vf_set1(hi_x[r]), q_min_x = vf_set1(lo_x[r]);
    const vf q_min_y = vf_set1(lo_y[r]), q_max_y = vf_set1(hi_y[r]);
    const vf q_min_z = vf_set1(dims == 3 ? lo_z[r] : 0.0f);
    const vf q_max_z = vf_set1(dims == 3 ? hi_z[r] : 0.0f);
    const vi need = vi_set1(3u & ~tag[r]);
    const uint32_t a = id[r];
    for (;;) {
      if (o > last) {
        *pr = r, *pj = j, *tested += t;
        return (size_t)(o - out);
      }
      const vf b_min_x = vf_loadu(lo_x + j);
      const vm in = open ? vf_gt(q_max_x, b_min_x) : vf_ge(q_max_x, b_min_x);
      vm m = vm_and(in, axis_test(q_min_y, q_max_y, vf_loadu(lo_y + j), vf_loadu(hi_y + j), open));
      if (dims == 3)
        m = vm_and(m, axis_test(q_min_z, q_max_z, vf_loadu(lo_z + j), vf_loadu(hi_z + j), open));
      if (x_lower) {
        const vf b_max_x = vf_loadu(hi_x + j);
        m = vm_and(m, open ? vf_gt(b_max_x, q_min_x) : vf_ge(b_max_x, q_min_x));
      }
      m = vm_and(m, vi_has_all(vi_loadu(tag + j), need));
      if (!sparse || vm_any(m)) o += emit_pairs(o, m, id + j, a);
      const uint32_t run = vm_bits(in);
      if (run != COL_LANES) {
        t += j - r - 1 + col_popcount(run);
        break;
      }
      j += COL_W;
    }
  }
  *pr = r, *pj = 0, *tested += t;
  return (size_t)(o - out);
}

/* Each variant compiled apart: the touch rule, the x lower test and the sparse hint are
 * constants inside the loop. The hint only matters with a packed pair writer (it writes a
 * whole block, hits or not); the generic one's loop already skips a block without hits. */
#ifdef COL_HAVE_EMIT_PAIRS
#define SAP_SWEEP_VARIANT(dims, open, x_lower)                                                     \
  (cell->sparse ? sap_sweep_t(cell, r, j, out, room, tested, dims, open, x_lower, true)            \
                : sap_sweep_t(cell, r, j, out, room, tested, dims, open, x_lower, false))
#else
#define SAP_SWEEP_VARIANT(dims, open, x_lower)                                                     \
  sap_sweep_t(cell, r, j, out, room, tested, dims, open, x_lower, true)
#endif

static size_t simd_sap_sweep(const col__sap_cell *cell, col_touch touch, size_t *r, size_t *j,
                             col_pair *out, size_t room, size_t *tested) {
  const bool open = touch == COL_TOUCH_SEPARATES, x_lower = cell->view.x_lower;
  if (cell->view.dims == 3) {
    if (open) return SAP_SWEEP_VARIANT(3, true, true);
    return x_lower ? SAP_SWEEP_VARIANT(3, false, true) : SAP_SWEEP_VARIANT(3, false, false);
  }
  if (open) return SAP_SWEEP_VARIANT(2, true, true);
  return x_lower ? SAP_SWEEP_VARIANT(2, false, true) : SAP_SWEEP_VARIANT(2, false, false);
}

static size_t simd_sap_run(const col_sap_view *v, size_t r, col_touch touch, uint32_t *out,
                           size_t *tested) {
  const bool open = touch == COL_TOUCH_SEPARATES;
  if (v->dims == 3) {
    if (open) return sap_run_t(v, r, out, tested, 3, true, true);
    return v->x_lower ? sap_run_t(v, r, out, tested, 3, false, true)
                      : sap_run_t(v, r, out, tested, 3, false, false);
  }
  if (open) return sap_run_t(v, r, out, tested, 2, true, true);
  return v->x_lower ? sap_run_t(v, r, out, tested, 2, false, true)
                    : sap_run_t(v, r, out, tested, 2, false, false);
}

/* The records' transpose (col__sap_unpack_fn) for ISAs with load_sap_recs; the others leave
 * the slot empty and sap/sweep.c copies field by field. id and tag travel as float lanes: loads,
 * shuffles and stores copy bits, no arithmetic touches them. */
#ifdef COL_HAVE_LOAD_SAP_RECS
COL_INLINE void sap_unpack_t(const col__sap_rec *rec, const uint64_t *slot, size_t n, unsigned dims,
                             float *const min[3], float *const max[3], uint32_t *id,
                             uint32_t *tag) {
  for (size_t p = 0; p < n; p += COL_W) {
    vf c[8];
    load_sap_recs(rec, slot + p, dims, c);
    vf_storeu(min[0] + p, c[0]), vf_storeu(min[1] + p, c[1]);
    vf_storeu(max[0] + p, c[2]), vf_storeu(max[1] + p, c[3]);
    if (dims == 3) vf_storeu(min[2] + p, c[4]), vf_storeu(max[2] + p, c[5]);
    vf_storeu((float *)(void *)(id + p), c[6]), vf_storeu((float *)(void *)(tag + p), c[7]);
  }
}
static void simd_sap_unpack(const col__sap_rec *rec, const uint64_t *slot, size_t n, unsigned dims,
                            float *const min[3], float *const max[3], uint32_t *id, uint32_t *tag) {
  if (dims == 3)
    sap_unpack_t(rec, slot, n, 3, min, max, id, tag);
  else
    sap_unpack_t(rec, slot, n, 2, min, max, id, tag);
}
#define COL_SAP_UNPACK simd_sap_unpack
#else
#define COL_SAP_UNPACK NULL
#endif

#endif
