/* Alpha-byte sprite overlap template (DESIGN.md 4.3): W pixels of a window row at a time;
 * the lane mask of "both alphas > threshold" gives the first hit (lowest set bit of the
 * first non-zero mask, rows in order) and the count (popcount). */
#ifndef COLLIDE_SIMD_SPRITE_H
#define COLLIDE_SIMD_SPRITE_H

COL_INLINE uint32_t pixel_bits(vi pa, vi pb, vi thr) {
  return vm_bits(vm_and(vi_alpha_gt(pa, thr), vi_alpha_gt(pb, thr)));
}

static col__window_hit simd_sprite_overlap(const col__pixel_window *w, uint8_t threshold,
                                           col_pixel_mode mode) {
  const vi thr = vi_set1(threshold);
  col__window_hit r = {false, 0, 0, 0};
  for (size_t row = 0; row < w->height; row++) {
    const uint32_t *pa = w->a + row * w->a_stride;
    const uint32_t *pb = w->b + row * w->b_stride;
    size_t col = 0;
    for (; col < w->width; col += COL_W) {
      uint32_t bits;
      if (col + COL_W <= w->width) {
        bits = pixel_bits(vi_loadu(pa + col), vi_loadu(pb + col), thr);
      } else {
        uint32_t ta[COL_W], tb[COL_W];
        pad_copy_u(ta, pa + col, w->width - col);
        pad_copy_u(tb, pb + col, w->width - col);
        bits = pixel_bits(vi_loadu(ta), vi_loadu(tb), thr) & COL_TAIL_BITS(w->width - col);
      }
      if (bits == 0) continue;
      if (!r.hit) {
        r.hit = true;
        r.col = col + (size_t)__builtin_ctz(bits);
        r.row = row;
        if (mode == COL_PIXEL_FIRST) {
          r.count = 1;
          return r;
        }
      }
      r.count += (uint64_t)__builtin_popcount(bits);
    }
  }
  return r;
}

#endif
