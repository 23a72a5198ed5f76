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

#endif
