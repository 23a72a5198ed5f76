/* Minimum translation distance template (DESIGN.md 4.2): the four side distances of W box
 * pairs at once. The scalar rule's sequential "strictly smaller replaces" becomes three
 * selects in the same order, so ties resolve exactly as in col_aabb2_mtd. */
#ifndef COLLIDE_SIMD_MTD_H
#define COLLIDE_SIMD_MTD_H

typedef struct mtd_block {
  vf dx, dy;
  vm hit_mask;
  uint32_t hit;
} mtd_block;

COL_INLINE mtd_block mtd_lanes(const vf a[4], const vf b[4]) {
  /* a, b: min_x, min_y, max_x, max_y */
  const vf zero = vf_set1(0.0f);
  const vf dl = vf_sub(a[2], b[0]), dr = vf_sub(b[2], a[0]);
  const vf dd = vf_sub(a[3], b[1]), du = vf_sub(b[3], a[1]);
  /* The reference reports a hit when no distance is NaN or negative and the smallest is
   * > 0: exactly when all four are > 0 (ordered compares fail on NaN). Other lanes end as
   * (+0, +0, false) whatever m holds there. */
  const vm hit =
      vm_and(vm_and(vf_gt(dl, zero), vf_gt(dr, zero)), vm_and(vf_gt(dd, zero), vf_gt(du, zero)));
  vf m = dl;
  const vm c1 = vf_lt(dr, m);
  m = vf_select(c1, dr, m);
  const vm c2 = vf_lt(dd, m);
  m = vf_select(c2, dd, m);
  const vm c3 = vf_lt(du, m);
  m = vf_select(c3, du, m);
  /* The winner: y if the 3rd or 4th replaced; positive side if it is the 4th, or the 2nd
   * and not overridden by the 3rd. */
  const vm on_y = vm_or(c2, c3);
  const vm positive = vm_or(c3, vm_andnot(c1, c2));
  const vf side = vf_select(positive, vf_set1(1.0f), vf_set1(-1.0f));
  const vf moved = vf_mul(side, m); /* side * m, as the reference */
  mtd_block r;
  r.dx = vf_select(vm_andnot(hit, on_y), moved, zero);
  r.dy = vf_select(vm_and(hit, on_y), moved, zero);
  r.hit_mask = hit;
  r.hit = vm_bits(hit);
  return r;
}

COL_INLINE void mtd_store(col_mtd *out, mtd_block r, size_t n) {
  float dx[COL_W], dy[COL_W];
  vf_storeu(dx, r.dx);
  vf_storeu(dy, r.dy);
  for (size_t k = 0; k < n; k++) out[k] = (col_mtd){{dx[k], dy[k]}, (r.hit >> k) & 1u};
}

static void simd_mtd_batch(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out) {
  vf va[4], vb[4];
  size_t i = 0;
  for (; i + COL_W <= n; i += COL_W) {
    load_aabb2_aos(a + i, &va[0], &va[1], &va[2], &va[3]);
    load_aabb2_aos(b + i, &vb[0], &vb[1], &vb[2], &vb[3]);
    const mtd_block r = mtd_lanes(va, vb);
#ifdef COL_HAVE_STORE_MTD
    store_mtd(out + i, r.dx, r.dy, r.hit_mask); /* the ISA interleaves whole records */
#else
    mtd_store(out + i, r, COL_W);
#endif
  }
  if (i < n) {
    const col_aabb2 nan_box = {{NAN, NAN}, {NAN, NAN}};
    col_aabb2 ta[COL_W], tb[COL_W];
    for (size_t k = 0; k < COL_W; k++) {
      ta[k] = k < n - i ? a[i + k] : nan_box;
      tb[k] = k < n - i ? b[i + k] : nan_box;
    }
    load_aabb2_aos(ta, &va[0], &va[1], &va[2], &va[3]);
    load_aabb2_aos(tb, &vb[0], &vb[1], &vb[2], &vb[3]);
    mtd_store(out + i, mtd_lanes(va, vb), n - i);
  }
}

#endif
