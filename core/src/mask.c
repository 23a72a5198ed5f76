/* 1-bit masks (DESIGN.md 4.3, last point): a sprite thresholded once into rows of 64-bit
 * words, as pygame's bitmask does, and their overlap, which must equal col_sprite_overlap on
 * the source sprites. Rows are framed by zero guard words (see col_mask in collide.h) so that
 * the kernels can shift b's words across a 64-bit boundary without testing the row ends. */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

static size_t data_words(int32_t width) { return ((size_t)width + 63u) / 64u; }

/* Zeroed words for an empty width x height mask: one leading guard, then per row the data
 * words and a trailing guard. */
static col_status mask_alloc(int32_t width, int32_t height, int32_t x, int32_t y, col_mask *out) {
  *out = (col_mask){NULL, data_words(width) + 1u, width, height, x, y};
  if (width == 0 || height == 0) return COL_OK;
  const uint64_t limit = (uint64_t)(PTRDIFF_MAX < SIZE_MAX ? PTRDIFF_MAX : SIZE_MAX) / 8u;
  const uint64_t total = (uint64_t)out->stride * (uint64_t)height + 1u;
  if (total > limit) return COL_ERR_OVERFLOW;
  uint64_t *base = calloc((size_t)total, sizeof(uint64_t));
  if (base == NULL) return COL_ERR_MEMORY;
  out->words = base + 1;
  return COL_OK;
}

col_status col_mask_from_sprite(col_sprite s, uint8_t threshold, col_mask *out) {
  if (out == NULL) return COL_ERR_NULL;
  col_status st = col_sprite_check(s);
  col_mask m;
  if (st == COL_OK) st = mask_alloc(s.width, s.height, s.x, s.y, &m);
  if (st != COL_OK) return st;
  for (int32_t py = 0; m.words != NULL && py < s.height; py++) {
    const uint32_t *row = s.pixels + (size_t)py * (size_t)s.stride;
    uint64_t *words = m.words + (size_t)py * m.stride;
    for (int32_t px = 0; px < s.width; px++)
      words[px / 64] |= (uint64_t)((row[px] >> 24) > threshold) << (px % 64);
  }
  *out = m;
  return COL_OK;
}

col_status col_mask_from_words(const uint64_t *bits, size_t words_per_row, int32_t width,
                               int32_t height, int32_t x, int32_t y, col_mask *out) {
  if (out == NULL) return COL_ERR_NULL;
  if (width < 0 || height < 0) return COL_ERR_SIZE;
  if (words_per_row < data_words(width)) return COL_ERR_STRIDE;
  if (bits == NULL && width > 0 && height > 0) return COL_ERR_NULL;
  col_mask m;
  const col_status st = mask_alloc(width, height, x, y, &m);
  if (st != COL_OK) return st;
  const size_t n = data_words(width);
  const uint64_t tail = width % 64 == 0 ? ~(uint64_t)0 : ((uint64_t)1 << (width % 64)) - 1u;
  for (int32_t py = 0; m.words != NULL && py < height; py++) {
    uint64_t *row = m.words + (size_t)py * m.stride;
    memcpy(row, bits + (size_t)py * words_per_row, n * sizeof(uint64_t));
    row[n - 1] &= tail;
  }
  *out = m;
  return COL_OK;
}

void col_mask_free(col_mask *mask) {
  if (mask == NULL) return;
  if (mask->words != NULL) free(mask->words - 1);
  *mask = (col_mask){0};
}

bool col_mask_get(const col_mask *m, int64_t x, int64_t y) {
  /* Compared before subtracting: x - m->x overflows int64_t for far points; once x >= m->x the
   * difference is exact as an unsigned 64-bit value. */
  if (x < m->x || y < m->y) return false;
  const uint64_t px = (uint64_t)x - (uint64_t)m->x, py = (uint64_t)y - (uint64_t)m->y;
  if (px >= (uint64_t)m->width || py >= (uint64_t)m->height) return false;
  return (m->words[(size_t)py * m->stride + (size_t)px / 64u] >> (px % 64u)) & 1u;
}

col_status col_mask_check(const col_mask *m) {
  if (m == NULL) return COL_ERR_NULL;
  if (m->width < 0 || m->height < 0) return COL_ERR_SIZE;
  if (m->stride != data_words(m->width) + 1u) return COL_ERR_STRIDE;
  if (m->words == NULL && m->width > 0 && m->height > 0) return COL_ERR_NULL;
  return COL_OK;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

col_status col_mask_overlap(const col_mask *a, const col_mask *b, col_pixel_mode mode,
                            col_pixel_hit *out) {
  if (out == NULL) return COL_ERR_NULL;
  col_status st = col_mask_check(a);
  if (st == COL_OK) st = col_mask_check(b);
  if (st != COL_OK) return st;
  if (mode != COL_PIXEL_FIRST && mode != COL_PIXEL_COUNT) return COL_ERR_ARGUMENT;
  const col__backend *be;
  if ((st = col__backend_active(&be)) != COL_OK) return st;

  const int64_t x1 = max64(a->x, b->x),
                x2 = min64((int64_t)a->x + a->width, (int64_t)b->x + b->width);
  const int64_t y1 = max64(a->y, b->y),
                y2 = min64((int64_t)a->y + a->height, (int64_t)b->y + b->height);
  if (x1 >= x2 || y1 >= y2) {
    *out = (col_pixel_hit){false, 0, 0, 0};
    return COL_OK;
  }
  /* Columns [c0, c1) of a; a's word k0 starts at a-column 64 * k0, which is b-column
   * 64 * k0 + d; floor division keeps the shift in 0..63 (the b word may be the guard). */
  const int64_t c0 = x1 - a->x, c1 = x2 - a->x, d = (int64_t)a->x - b->x;
  const int64_t k0 = c0 / 64, k1 = (c1 - 1) / 64, b0 = 64 * k0 + d;
  const int64_t bq = b0 >= 0 ? b0 / 64 : -((63 - b0) / 64);
  const col_mask_window w = {
      .a = a->words + (size_t)(y1 - a->y) * a->stride + k0,
      .b = b->words + (ptrdiff_t)((y1 - b->y) * (int64_t)b->stride + bq),
      .a_stride = a->stride,
      .b_stride = b->stride,
      .words = (size_t)(k1 - k0 + 1),
      .height = (size_t)(y2 - y1),
      .shift = (unsigned)(b0 - 64 * bq),
      .first = ~(uint64_t)0 << (c0 % 64),
      .last = ~(uint64_t)0 >> (63 - (c1 - 1) % 64),
  };
  const col_window_hit h = be->k.mask_overlap(&w, mode);
  *out = h.hit
             ? (col_pixel_hit){true, a->x + 64 * k0 + (int64_t)h.col, y1 + (int64_t)h.row, h.count}
             : (col_pixel_hit){false, 0, 0, 0};
  return COL_OK;
}
