/* Sweep and prune's count of the boxes' cells (count.c) eight lanes at a time, for the AVX2
 * build of the passes in 3D when the survey found no NaN: the same span words, records and
 * tallies as count.c's count_range, box for box. Each lane takes the steps of count.c's
 * cells4 (sub, mul, maxps, minps, truncation), so the cells are the same bits; the grid's
 * values are read once into locals (through the pointer, gcc reloaded them at every step, as
 * the stores might change them); a record is written whole, 32 bytes. */
#include "../broadphase.h"

#include <string.h>

/* A wide box counted cell by cell, for every count: count.c's, this file's, deal.c's tasks'
 * (here, at the leaf of the calls, so that no file calls back into one that calls it); returns
 * its copies. */
size_t col__sap_count_wide(uint32_t w, int kz, size_t *count) {
  const int y0 = (int)(w & 255u), y1 = (int)(w >> 8 & 255u);
  const int z0 = (int)(w >> 16 & 255u), z1 = (int)(w >> 24 & 127u);
  for (int y = y0; y <= y1; y++)
    for (int z = z0; z <= z1; z++) count[y * kz + z]++;
  return (size_t)((y1 - y0 + 1) * (z1 - z0 + 1));
}

#if defined(__x86_64__) || defined(__i386__)

typedef float f8 __attribute__((vector_size(32)));
typedef uint32_t u8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));

COL__AVX2_BUILD static inline __attribute__((always_inline)) f8 load8(const float *p) {
  f8 v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* count.c's cells4 on eight lanes: max(t, 0) then min(., last), as maxps / minps. */
COL__AVX2_BUILD static inline __attribute__((always_inline)) u8 cells8(f8 v, f8 lo, f8 scale,
                                                                       f8 last) {
  const f8 zero = {0, 0, 0, 0, 0, 0, 0, 0};
  const f8 t = (v - lo) * scale;
  return (u8) __builtin_convertvector(
      __builtin_ia32_minps256(__builtin_ia32_maxps256(t, zero), last), i8);
}

COL__AVX2_BUILD size_t col__sap_count8(const col_boxes *b, const float lo[2], const float scale[2],
                                       const int cells[2], size_t from, size_t to, uint32_t *span,
                                       size_t *count, size_t *tally, col__sap_rec *restrict rec,
                                       size_t *done) {
  const int kz = cells[1], k = cells[0] * kz;
  const float last_y = (float)(cells[0] - 1), last_z = (float)(cells[1] - 1);
  const f8 lo_y = {lo[0], lo[0], lo[0], lo[0], lo[0], lo[0], lo[0], lo[0]};
  const f8 lo_z = {lo[1], lo[1], lo[1], lo[1], lo[1], lo[1], lo[1], lo[1]};
  const f8 sc_y = {scale[0], scale[0], scale[0], scale[0], scale[0], scale[0], scale[0], scale[0]};
  const f8 sc_z = {scale[1], scale[1], scale[1], scale[1], scale[1], scale[1], scale[1], scale[1]};
  const f8 top_y = {last_y, last_y, last_y, last_y, last_y, last_y, last_y, last_y};
  const f8 top_z = {last_z, last_z, last_z, last_z, last_z, last_z, last_z, last_z};
  const u8 two = {2, 2, 2, 2, 2, 2, 2, 2};
  const u8 lanes_k = {(uint32_t)k, (uint32_t)k, (uint32_t)k, (uint32_t)k,
                      (uint32_t)k, (uint32_t)k, (uint32_t)k, (uint32_t)k};
  const u8 lanes_kz = {(uint32_t)kz, (uint32_t)kz, (uint32_t)kz, (uint32_t)kz,
                       (uint32_t)kz, (uint32_t)kz, (uint32_t)kz, (uint32_t)kz};
  const f8 zero = {0, 0, 0, 0, 0, 0, 0, 0};
  const float *const lx = b->min[0], *const hx = b->max[0], *const ly = b->min[1];
  const float *const hy = b->max[1], *const lz = b->min[2], *const hz = b->max[2];
  size_t i = from, copies = 0;
  for (; i + 8 <= to; i += 8) {
    const f8 x0 = load8(lx + i), x1 = load8(hx + i), y0 = load8(ly + i), y1 = load8(hy + i);
    const f8 z0 = load8(lz + i), z1 = load8(hz + i);
    const u8 cy0 = cells8(y0, lo_y, sc_y, top_y), cy1 = cells8(y1, lo_y, sc_y, top_y);
    const u8 cz0 = cells8(z0, lo_z, sc_z, top_z), cz1 = cells8(z1, lo_z, sc_z, top_z);
    /* Records: (x0, y0, x1, y1) and (z0, z1, 0, 0) of boxes q and q + 4 in the two halves,
     * then each box's two halves joined. */
    const f8 a0 = __builtin_shufflevector(x0, y0, 0, 8, 1, 9, 4, 12, 5, 13);
    const f8 a1 = __builtin_shufflevector(x0, y0, 2, 10, 3, 11, 6, 14, 7, 15);
    const f8 b0 = __builtin_shufflevector(x1, y1, 0, 8, 1, 9, 4, 12, 5, 13);
    const f8 b1 = __builtin_shufflevector(x1, y1, 2, 10, 3, 11, 6, 14, 7, 15);
    const f8 c0 = __builtin_shufflevector(z0, z1, 0, 8, 1, 9, 4, 12, 5, 13);
    const f8 c1 = __builtin_shufflevector(z0, z1, 2, 10, 3, 11, 6, 14, 7, 15);
    const f8 h0 = __builtin_shufflevector(a0, b0, 0, 1, 8, 9, 4, 5, 12, 13);
    const f8 h1 = __builtin_shufflevector(a0, b0, 2, 3, 10, 11, 6, 7, 14, 15);
    const f8 h2 = __builtin_shufflevector(a1, b1, 0, 1, 8, 9, 4, 5, 12, 13);
    const f8 h3 = __builtin_shufflevector(a1, b1, 2, 3, 10, 11, 6, 7, 14, 15);
    const f8 s0 = __builtin_shufflevector(c0, zero, 0, 1, 8, 9, 4, 5, 12, 13);
    const f8 s1 = __builtin_shufflevector(c0, zero, 2, 3, 10, 11, 6, 7, 14, 15);
    const f8 s2 = __builtin_shufflevector(c1, zero, 0, 1, 8, 9, 4, 5, 12, 13);
    const f8 s3 = __builtin_shufflevector(c1, zero, 2, 3, 10, 11, 6, 7, 14, 15);
    const f8 r0 = __builtin_shufflevector(h0, s0, 0, 1, 2, 3, 8, 9, 10, 11);
    const f8 r4 = __builtin_shufflevector(h0, s0, 4, 5, 6, 7, 12, 13, 14, 15);
    const f8 r1 = __builtin_shufflevector(h1, s1, 0, 1, 2, 3, 8, 9, 10, 11);
    const f8 r5 = __builtin_shufflevector(h1, s1, 4, 5, 6, 7, 12, 13, 14, 15);
    const f8 r2 = __builtin_shufflevector(h2, s2, 0, 1, 2, 3, 8, 9, 10, 11);
    const f8 r6 = __builtin_shufflevector(h2, s2, 4, 5, 6, 7, 12, 13, 14, 15);
    const f8 r3 = __builtin_shufflevector(h3, s3, 0, 1, 2, 3, 8, 9, 10, 11);
    const f8 r7 = __builtin_shufflevector(h3, s3, 4, 5, 6, 7, 12, 13, 14, 15);
    col__sap_rec *out = rec + 2 * i;
    memcpy(out[0].v, &r0, 32), memcpy(out[2].v, &r1, 32), memcpy(out[4].v, &r2, 32);
    memcpy(out[6].v, &r3, 32), memcpy(out[8].v, &r4, 32), memcpy(out[10].v, &r5, 32);
    memcpy(out[12].v, &r6, 32), memcpy(out[14].v, &r7, 32);
    const u8 dy = cy1 - cy0, dz = cz1 - cz0, c00 = cy0 * lanes_kz + cz0;
    const i8 narrow = (i8)((dy < two) & (dz < two));
    const u8 at = (dy + dz * 2) * lanes_k + c00;
    const u8 wide = cy0 | cy1 << 8 | cz0 << 16 | cz1 << 24 | COL__SAP_WIDE;
    const u8 plain = c00 | dy << 16 | dz << 17;
    const u8 w = (u8)(((i8)plain & narrow) | ((i8)wide & ~narrow));
    memcpy(span + i, &w, sizeof w);
    if (__builtin_ia32_movmskps256((f8)narrow) == 0xff) { /* the usual case: no branch a lane */
      tally[at[0]]++, tally[at[1]]++, tally[at[2]]++, tally[at[3]]++;
      tally[at[4]]++, tally[at[5]]++, tally[at[6]]++, tally[at[7]]++;
      continue;
    }
    for (int q = 0; q < 8; q++) {
      if (narrow[q] != 0)
        tally[at[q]]++;
      else
        copies += col__sap_count_wide(w[q], kz, count);
    }
  }
  *done = i;
  return copies;
}

#endif
