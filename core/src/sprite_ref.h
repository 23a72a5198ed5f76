/* The alpha-byte overlap reference (DESIGN.md 4.3) over a clipped window, as inline code for
 * the reference backends (scalar.c, x86/autovec.c): the seed's per-pixel loop, row-major,
 * both alphas strictly above the threshold; first-hit mode stops at the first such pixel. */
#ifndef COLLIDE_SPRITE_REF_H
#define COLLIDE_SPRITE_REF_H

#include "backend.h"

static inline col_window_hit col__sprite_window_ref(const col_sprite_window *w, uint8_t threshold,
                                                    col_pixel_mode mode) {
  col_window_hit r = {false, 0, 0, 0};
  for (size_t row = 0; row < w->height; row++) {
    const uint32_t *pa = w->a + row * w->a_stride;
    const uint32_t *pb = w->b + row * w->b_stride;
    for (size_t col = 0; col < w->width; col++) {
      if ((pa[col] >> 24) > threshold && (pb[col] >> 24) > threshold) {
        if (!r.hit) {
          r.hit = true;
          r.col = col;
          r.row = row;
        }
        r.count++;
        if (mode == COL_PIXEL_FIRST) return r;
      }
    }
  }
  return r;
}

#endif
