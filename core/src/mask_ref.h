/* The 1-bit mask overlap kernel over a clipped window (mask.c), as inline code for the
 * reference backends (scalar.c, x86/autovec.c): one 64-bit word at a time, b's bits shifted
 * onto a's word grid, rows in order; first-hit mode stops at the first non-zero word, whose
 * lowest set bit is the leftmost colliding pixel (bit order is least significant first). */
#ifndef COLLIDE_MASK_REF_H
#define COLLIDE_MASK_REF_H

#include "backend.h"

/* b's 64 pixels matching a's word k. (x << 1) << (63 - s) is x << (64 - s) for s in 1..63 and
 * 0 for s == 0, where a plain shift by 64 would be undefined. */
static inline uint64_t col__mask_word_ref(const col_mask_window *w, const uint64_t *a,
                                          const uint64_t *b, size_t k) {
  const uint64_t bits = a[k] & ((b[k] >> w->shift) | ((b[k + 1] << 1) << (63u - w->shift)));
  const uint64_t first = k == 0 ? w->first : ~(uint64_t)0;
  return bits & first & (k + 1 == w->words ? w->last : ~(uint64_t)0);
}

static inline col_window_hit col_mask_window_ref(const col_mask_window *w, col_pixel_mode mode) {
  col_window_hit r = {false, 0, 0, 0};
  for (size_t row = 0; row < w->height; row++) {
    const uint64_t *a = w->a + row * w->a_stride, *b = w->b + row * w->b_stride;
    for (size_t k = 0; k < w->words; k++) {
      const uint64_t bits = col__mask_word_ref(w, a, b, k);
      if (bits == 0) continue;
      if (!r.hit) {
        r.hit = true;
        r.col = k * 64 + (size_t)__builtin_ctzll(bits);
        r.row = row;
        if (mode == COL_PIXEL_FIRST) {
          r.count = 1;
          return r;
        }
      }
      r.count += (uint64_t)__builtin_popcountll(bits);
    }
  }
  return r;
}

#endif
