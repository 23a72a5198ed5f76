/* Per-pixel sprite overlap on alpha bytes (DESIGN.md 4.3), after the XNA 2D sprite collision
 * seed: clip both sprites' world rectangles to their intersection (here), then test the alpha
 * byte of each pair of pixels there against a strict threshold (the backend's kernel; the
 * reference is sprite_ref.h). Positions and extents are computed in 64-bit so that sprites
 * near the int32 limits neither wrap nor overflow. */
#include "backend.h"

col_status col_sprite_check(col_sprite s) {
  if (s.width < 0 || s.height < 0) return COL_ERR_SIZE;
  if (s.stride < s.width) return COL_ERR_STRIDE;
  /* The kernel forms pointers up to pixels + stride * height: the byte size of that range
   * must be addressable and representable as a pointer difference. */
  const uint64_t limit = (uint64_t)(PTRDIFF_MAX < SIZE_MAX ? PTRDIFF_MAX : SIZE_MAX) / 4u;
  if ((uint64_t)s.stride * (uint64_t)s.height > limit) return COL_ERR_OVERFLOW;
  if (s.pixels == NULL && s.width > 0 && s.height > 0) return COL_ERR_NULL;
  return COL_OK;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

col_status col_sprite_overlap(col_sprite a, col_sprite b, uint8_t threshold, col_pixel_mode mode,
                              col_pixel_hit *out) {
  if (out == NULL) return COL_ERR_NULL;
  col_status st = col_sprite_check(a);
  if (st == COL_OK) st = col_sprite_check(b);
  if (st != COL_OK) return st;
  if (mode != COL_PIXEL_FIRST && mode != COL_PIXEL_COUNT) return COL_ERR_ARGUMENT;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;

  const int64_t x1 = max64(a.x, b.x);
  const int64_t x2 = min64((int64_t)a.x + a.width, (int64_t)b.x + b.width);
  const int64_t y1 = max64(a.y, b.y);
  const int64_t y2 = min64((int64_t)a.y + a.height, (int64_t)b.y + b.height);
  if (x1 >= x2 || y1 >= y2) {
    *out = (col_pixel_hit){false, 0, 0, 0};
    return COL_OK;
  }
  /* Inside the intersection every offset below is within its sprite, so non-negative. */
  const col_sprite_window w = {
      .a = a.pixels + (size_t)(y1 - a.y) * (size_t)a.stride + (size_t)(x1 - a.x),
      .b = b.pixels + (size_t)(y1 - b.y) * (size_t)b.stride + (size_t)(x1 - b.x),
      .a_stride = (size_t)a.stride,
      .b_stride = (size_t)b.stride,
      .width = (size_t)(x2 - x1),
      .height = (size_t)(y2 - y1),
  };
  const col_window_hit h = be->k.sprite_overlap(&w, threshold, mode);
  *out = h.hit ? (col_pixel_hit){true, x1 + (int64_t)h.col, y1 + (int64_t)h.row, h.count}
               : (col_pixel_hit){false, 0, 0, 0};
  return COL_OK;
}
