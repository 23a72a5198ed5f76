/* Alpha-byte sprite overlap template (DESIGN.md 4.3): W pixels of a window row at a time;
 * the lane mask of "both alphas > threshold" gives the first hit (lowest set bit of the
 * first non-zero mask, rows in order) and the count (popcount). Two phases: a scan that
 * branches on the mask until the first hit, then (counting mode) a branch-free count of the
 * rest, because a branch on noisy masks mispredicts all the time. */
#ifndef COLLIDE_SIMD_SPRITE_H
#define COLLIDE_SIMD_SPRITE_H

COL_INLINE uint32_t block_bits(const uint32_t *pa, const uint32_t *pb, vi thr) {
  return vm_bits(vm_and(vi_alpha_gt(vi_loadu(pa), thr), vi_alpha_gt(vi_loadu(pb), thr)));
}

/* The last n (< W) pixels of a row, padded with alpha 0. */
COL_INLINE uint32_t tail_bits(const uint32_t *pa, const uint32_t *pb, size_t n, vi thr) {
  uint32_t ta[COL_W], tb[COL_W];
  pad_copy_u(ta, pa, n);
  pad_copy_u(tb, pb, n);
  return block_bits(ta, tb, thr) & COL_TAIL_BITS(n);
}

/* Colliding pixels from (row, col) to the end of the window; col is a multiple of W. */
COL_INLINE uint64_t count_from(const col_sprite_window *w, size_t row, size_t col, vi thr) {
  uint64_t count = 0;
  for (; row < w->height; row++, col = 0) {
    const uint32_t *pa = w->a + row * w->a_stride, *pb = w->b + row * w->b_stride;
    for (; col + COL_W <= w->width; col += COL_W)
      count += col_popcount(block_bits(pa + col, pb + col, thr));
    if (col < w->width) count += col_popcount(tail_bits(pa + col, pb + col, w->width - col, thr));
  }
  return count;
}

static col_window_hit simd_sprite_overlap(const col_sprite_window *w, uint8_t threshold,
                                          col_pixel_mode mode) {
  const vi thr = vi_set1(threshold);
  col_window_hit r = {false, 0, 0, 0};
  for (size_t row = 0; row < w->height; row++) {
    const uint32_t *pa = w->a + row * w->a_stride, *pb = w->b + row * w->b_stride;
    size_t col = 0;
    uint32_t bits = 0;
    for (; col + COL_W <= w->width; col += COL_W)
      if ((bits = block_bits(pa + col, pb + col, thr)) != 0) break;
    if (bits == 0 && col < w->width) bits = tail_bits(pa + col, pb + col, w->width - col, thr);
    if (bits == 0) continue;
    r.hit = true;
    r.col = col + (size_t)__builtin_ctz(bits);
    r.row = row;
    r.count = mode == COL_PIXEL_FIRST ? 1 : count_from(w, row, col, thr);
    return r;
  }
  return r;
}

#endif
